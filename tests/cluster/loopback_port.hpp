#pragma once
// A loopback port nobody listens on right now: the kernel's pick for port 0. It is free only
// until somebody binds it, and another test's client or server may do so first; so whoever hands
// it to a program that binds it later (PostgreSQL, nginx) tries a new one when that program
// reports "Address already in use".
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>

namespace mancala::testing {

inline unsigned short free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  const bool found = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0 &&
                     ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0;
  if (fd >= 0) ::close(fd);
  if (!found) throw std::runtime_error("cannot find a free loopback port");
  return ntohs(address.sin_port);
}

// How often a program is started on a fresh port before its "Address already in use" counts.
inline constexpr int kPortAttempts = 5;

}  // namespace mancala::testing
