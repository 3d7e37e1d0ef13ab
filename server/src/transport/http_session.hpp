#pragma once
// One HTTP connection (keep-alive, one request at a time): static files, /healthz, /metrics,
// the history API, and the WebSocket upgrade at /ws, where it hands its socket over.
#include <memory>
#include <optional>

#include "http_api.hpp"
#include "net.hpp"

namespace mancala::server {

// Whether a WebSocket upgrade with this request's Origin may proceed (protocol.md, Transport).
// A request without Origin is not from a browser and may. Otherwise the Origin must be one of
// `allowed`, or `public_origin` when that is set; when it is not, the origin the Host header
// names is accepted only if that host is a loopback name or address or `bind_address`, so that
// a DNS name pointed at this machine (DNS rebinding) cannot vouch for itself.
bool origin_allowed(const HttpRequest& request, const std::vector<std::string>& allowed,
                    const std::string& public_origin, const std::string& bind_address);

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  static constexpr std::size_t kMaxRequestBytes = 64 * 1024;

  HttpSession(ConnectionSocket&& socket, const HttpContext& context);
  void run();

 private:
  void read_request();
  void on_read(const error_code& error);
  void respond(HttpRequest request);
  void route(HttpRequest request);
  void refuse_oversized(http::status status);
  void drain_then_close();
  void answer_api(HttpRequest request);
  void serve_static(const HttpRequest& request);
  std::string peer_address();
  template <class Body>
  void send(http::response<Body> response);
  void on_write(bool keep_alive, const error_code& error);

  ConnectionStream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> response_;  // kept alive until written
  bool drain_after_write_ = false;  // the request was refused unread: read it away before closing
  const HttpContext& context_;
};

}  // namespace mancala::server
