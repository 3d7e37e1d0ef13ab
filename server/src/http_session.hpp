#pragma once
// One HTTP connection (keep-alive, one request at a time): static files, /healthz, /metrics,
// the history API, and the WebSocket upgrade at /ws, where it hands its socket over.
#include <memory>
#include <optional>

#include "http_api.hpp"
#include "net.hpp"

namespace mancala::server {

// Whether a WebSocket upgrade with this request's Origin may proceed (protocol.md, Transport).
bool origin_allowed(const HttpRequest& request, const std::vector<std::string>& allowed);

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  static constexpr std::size_t kMaxRequestBytes = 64 * 1024;

  HttpSession(tcp::socket&& socket, const HttpContext& context);
  void run();

 private:
  void read_request();
  void on_read(const error_code& error);
  void respond(HttpRequest request);
  void serve_static(const HttpRequest& request);
  template <class Body>
  void send(http::response<Body> response);
  void on_write(bool keep_alive, const error_code& error);

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> response_;  // kept alive until written
  const HttpContext& context_;
};

}  // namespace mancala::server
