#include "http_session.hpp"

#include "hub.hpp"
#include "log.hpp"
#include "static_files.hpp"
#include "websocket_session.hpp"

namespace mancala::server {
namespace {

constexpr auto kHttpTimeout = std::chrono::seconds(30);

}  // namespace

bool origin_allowed(const HttpRequest& request, const std::vector<std::string>& allowed) {
  const auto found = request.find(http::field::origin);
  if (found == request.end()) return true;  // not a browser
  const std::string_view origin = to_std(found->value());
  const std::string_view host = to_std(request[http::field::host]);
  if (!host.empty() && (origin == "http://" + std::string(host) || origin == "https://" + std::string(host)))
    return true;
  return std::find(allowed.begin(), allowed.end(), origin) != allowed.end();
}

HttpSession::HttpSession(tcp::socket&& socket, const HttpContext& context)
    : stream_(std::move(socket)), context_(context) {}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->read_request(); });
}

void HttpSession::read_request() {
  parser_.emplace();
  parser_->body_limit(kMaxRequestBytes);
  stream_.expires_after(kHttpTimeout);
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](const error_code& error, std::size_t) { self->on_read(error); });
}

void HttpSession::on_read(const error_code& error) {
  if (error) {
    log_io_error(error, "http read");
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  respond(parser_->release());
}

void HttpSession::respond(HttpRequest request) {
  const std::string_view target = to_std(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  if (websocket::is_upgrade(request)) {
    if (path != "/ws")
      return send(text_response(request, http::status::not_found, "text/plain", "WebSocket is at /ws\n"));
    if (!origin_allowed(request, context_.allowed_origins)) {
      log_info("origin_refused", {{"origin", std::string(to_std(request[http::field::origin]))}});
      auto response = text_response(request, http::status::forbidden, "text/plain",
                                    "this Origin may not open a WebSocket here\n");
      response.keep_alive(false);
      return send(std::move(response));
    }
    // The WebSocket session takes the socket; this HTTP session ends here.
    std::make_shared<WebSocketSession>(stream_.release_socket(), context_.hub, context_.metrics,
                                       context_.rate_limit)
        ->run(std::move(request));
    return;
  }
  if (is_api_target(path)) return send(handle_api(request, context_));
  serve_static(request);
}

void HttpSession::serve_static(const HttpRequest& request) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    auto response = text_response(request, http::status::method_not_allowed, "text/plain", "GET only\n");
    response.set(http::field::allow, "GET, HEAD");
    return send(std::move(response));
  }
  const std::string_view target = to_std(request.target());
  const auto file = resolve_static_path(context_.static_root, target.substr(0, target.find('?')));
  http::file_body::value_type body;
  error_code error;
  if (file) body.open(file->c_str(), beast::file_mode::scan, error);
  if (!file || error)
    return send(text_response(request, http::status::not_found, "text/plain", "not found\n"));
  const auto size = body.size();
  const auto type = std::string(content_type(*file));
  if (request.method() == http::verb::head) {
    http::response<http::empty_body> response{http::status::ok, request.version()};
    response.set(http::field::content_type, type);
    response.content_length(size);
    response.keep_alive(request.keep_alive());
    return send(std::move(response));
  }
  http::response<http::file_body> response{std::piecewise_construct, std::make_tuple(std::move(body)),
                                           std::make_tuple(http::status::ok, request.version())};
  response.set(http::field::server, "mancala-server");
  response.set(http::field::content_type, type);
  response.set("X-Content-Type-Options", "nosniff");
  response.content_length(size);
  response.keep_alive(request.keep_alive());
  send(std::move(response));
}

template <class Body>
void HttpSession::send(http::response<Body> response) {
  auto owned = std::make_shared<http::response<Body>>(std::move(response));
  response_ = owned;
  const bool keep_alive = owned->keep_alive();
  stream_.expires_after(kHttpTimeout);
  http::async_write(stream_, *owned, [self = shared_from_this(), keep_alive](const error_code& error, std::size_t) {
    self->on_write(keep_alive, error);
  });
}

void HttpSession::on_write(bool keep_alive, const error_code& error) {
  response_.reset();
  if (error) return log_io_error(error, "http write");
  if (!keep_alive) {
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  read_request();
}

}  // namespace mancala::server
