#pragma once
// Delivering one Web Push message (RFC 8030, section 5): an HTTP POST to the subscription's
// endpoint over TLS (Boost.Beast on Asio's SSL stream, OpenSSL verifying the service's
// certificate and name), bounded by one deadline for the whole exchange, on the calling thread
// (which is never a network thread: see PushNotices).
//
// The endpoint comes from a browser, that is from anyone: the server must not become a way to
// reach the operator's own network. So an endpoint names an https service on port 443 by host
// name (check_push_endpoint), and the name is looked up once at send time, every address it
// gives must be on the public internet (is_public_address), and the connection goes to exactly
// those addresses (no second look-up that could answer otherwise). The look-up is bounded by
// the post's deadline too: a name server that never answers cannot hold a sender.
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base64url.hpp"

namespace mancala::server {

// The endpoint could not be reached or did not answer in time; the message says which step.
struct PushDeliveryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Which endpoints a subscription may name: https ones on port 443 and a public host name (no
// address in any spelling, no localhost or other local name). Tests may also allow
// http://127.0.0.1:<port> (--test-push-http-loopback), for a push service of their own; only
// those skip the public-address check at send time.
struct PushEndpointRules {
  bool allow_loopback_http = false;
};

struct PushUrl {
  bool tls = true;
  std::string host;
  std::string port;
  std::string target;  // path and query
  std::string origin() const;  // "https://host[:port]", VAPID's audience
};

// The parsed endpoint, or why it is refused (words for the person who sent it).
struct PushUrlCheck {
  std::optional<PushUrl> url;
  std::string problem;
};
PushUrlCheck check_push_endpoint(const std::string& endpoint, const PushEndpointRules& rules);

// Whether a connection to `address` reaches the public internet: false for loopback, private,
// shared (CGNAT), link-local, multicast, reserved, documentation and other special-purpose
// ranges (IANA's registries), and for IPv6 forms that embed such an IPv4 address (mapped,
// NAT64, 6to4). IPv6 outside the global unicast 2000::/3 is refused as a whole.
bool is_public_address(const boost::asio::ip::address& address);

// Looks a host up: the system's resolver, or a test's stand-in. It may take as long as it
// likes: PushHttpClient waits for it only until the post's deadline.
using PushResolver =
    std::function<std::vector<boost::asio::ip::tcp::endpoint>(const std::string& host, const std::string& port)>;
std::vector<boost::asio::ip::tcp::endpoint> resolve_with_system(const std::string& host, const std::string& port);

struct PushPost {
  PushUrl url;
  std::vector<std::pair<std::string, std::string>> fields;
  Bytes body;
};

class PushHttpClient {
 public:
  explicit PushHttpClient(PushResolver resolver = resolve_with_system);
  ~PushHttpClient();
  // The push service's HTTP status; PushDeliveryError when it could not be had within `timeout`
  // or the host has an address that is not public (https endpoints; the tests' http ones are
  // not checked). Safe to call from several threads at once. The deadline covers the name's
  // look-up: getaddrinfo cannot be cut short, so it runs on a thread of its own (LookUps), and
  // the post stops waiting for it at the deadline.
  int post(const PushPost& post, std::chrono::milliseconds timeout) const;

  // Names being looked up at once, at most; past that a post fails at once instead of leaving
  // ever more threads waiting on name servers that do not answer.
  static constexpr std::size_t kMaxLookUps = 32;

 private:
  std::vector<boost::asio::ip::tcp::endpoint> public_addresses(const PushUrl& url,
                                                               std::chrono::steady_clock::time_point deadline) const;

  struct Tls;
  std::unique_ptr<Tls> tls_;
  struct LookUps;
  std::shared_ptr<LookUps> look_ups_;  // shared with the look-up threads, which may outlive the client
};

}  // namespace mancala::server
