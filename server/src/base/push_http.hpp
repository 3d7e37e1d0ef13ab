#pragma once
// Delivering one Web Push message (RFC 8030, section 5): an HTTP POST to the subscription's
// endpoint over TLS (Boost.Beast on Asio's SSL stream, OpenSSL verifying the service's
// certificate and name), bounded by one deadline for the whole exchange, on the calling thread
// (which is never a network thread: see PushNotices).
#include <chrono>
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

// Which endpoints a subscription may name: https ones on a host name (not an address, not
// localhost: the server would otherwise post wherever a client pointed it). Tests may also allow
// http://127.0.0.1 (--test-push-http-loopback), for a push service of their own.
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

struct PushPost {
  PushUrl url;
  std::vector<std::pair<std::string, std::string>> fields;
  Bytes body;
};

class PushHttpClient {
 public:
  PushHttpClient();
  ~PushHttpClient();
  // The push service's HTTP status; PushDeliveryError when it could not be had within `timeout`.
  int post(const PushPost& post, std::chrono::milliseconds timeout);

 private:
  struct Tls;
  std::unique_ptr<Tls> tls_;
};

}  // namespace mancala::server
