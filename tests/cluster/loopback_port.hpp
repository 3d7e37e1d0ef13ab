#pragma once
// Loopback ports for the programs the cluster tests start (PostgreSQL, nginx), which must be
// told a port: the kernel's pick for port 0 is free only until somebody binds it, and another
// test's client or server may do so first, so a start that finds its port taken tries another.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace mancala::testing {

inline sockaddr_in loopback_address(unsigned short port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  return address;
}

// A loopback port nobody listens on right now.
inline unsigned short free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = loopback_address(0);
  socklen_t size = sizeof address;
  const bool found = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
                     ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  if (fd >= 0) ::close(fd);
  if (!found) throw std::runtime_error("cannot find a free loopback port");
  return ntohs(address.sin_port);
}

// True when something accepts connections on the loopback port.
inline bool accepts_connections(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const sockaddr_in address = loopback_address(port);
  const bool connected = fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  if (fd >= 0) ::close(fd);
  return connected;
}

// Calls `start(port)` with fresh loopback ports until it returns true (the program listens).
// A start that failed with "Address already in use" in `log()` is tried again on another port,
// up to five times; any other failure, or the fifth, throws "`what` did not start" and the log.
inline unsigned short start_on_free_port(const std::function<bool(unsigned short port)>& start,
                                         const std::function<std::string()>& log, const std::string& what) {
  constexpr int kAttempts = 5;
  for (int attempt = 1;; ++attempt) {
    const unsigned short port = free_loopback_port();
    if (start(port)) return port;
    const std::string text = log();
    if (attempt == kAttempts || text.find("Address already in use") == std::string::npos)
      throw std::runtime_error(what + " did not start (attempt " + std::to_string(attempt) + "):\n" + text);
  }
}

}  // namespace mancala::testing
