#include "http_session.hpp"

#include "password.hpp"
#include "session_cookie.hpp"

#include <algorithm>
#include <cctype>

#include "hub.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "static_files.hpp"
#include "websocket_session.hpp"

namespace mancala::server {
namespace {

constexpr auto kHttpTimeout = std::chrono::seconds(30);

// The host name of a Host header value: "[::1]:8080" -> "::1", "example.org:80" -> "example.org".
std::string host_name(std::string_view host) {
  if (!host.empty() && host.front() == '[') return std::string(host.substr(1, host.find(']') - 1));
  return std::string(host.substr(0, host.find(':')));
}

bool is_local_host(const std::string& name, const std::string& bind_address) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "localhost" || lower.ends_with(".localhost")) return true;
  error_code error;
  const auto address = net::ip::make_address(lower, error);
  if (error) return false;
  if (address.is_loopback()) return true;
  // The bind address vouches for itself only when it is one address, not "any".
  const auto bound = net::ip::make_address(bind_address, error);
  return !error && !bound.is_unspecified() && bound == address;
}

}  // namespace

bool origin_allowed(const HttpRequest& request, const std::vector<std::string>& allowed,
                    const std::string& public_origin, const std::string& bind_address) {
  const auto found = request.find(http::field::origin);
  if (found == request.end()) return true;  // not a browser
  const std::string_view origin = to_std(found->value());
  if (std::find(allowed.begin(), allowed.end(), origin) != allowed.end()) return true;
  if (!public_origin.empty()) return origin == public_origin;
  const std::string host(to_std(request[http::field::host]));
  if (host.empty() || !is_local_host(host_name(host), bind_address)) return false;
  return origin == "http://" + host || origin == "https://" + host;
}

HttpSession::HttpSession(ConnectionSocket&& socket, const HttpContext& context)
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
  // Say why before closing: a silent close looks like a network fault to the client.
  if (error == http::error::header_limit) return refuse_oversized(http::status::request_header_fields_too_large);
  if (error == http::error::body_limit) return refuse_oversized(http::status::payload_too_large);
  if (error) {
    log_io_error(error, "http read");
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  respond(parser_->release());
}

void HttpSession::refuse_oversized(http::status status) {
  log_info_throttled("request_too_large", {{"status", static_cast<int>(status)}});
  HttpRequest request;  // what was read of it is not to be trusted
  request.version(11);
  auto response = error_response(
      request, status == http::status::payload_too_large
                   ? HttpError{status, "too_large", "the request body is over " + std::to_string(kMaxRequestBytes) +
                                                        " bytes; send less (a game record may be at most 64 KiB)"}
                   : HttpError{status, "headers_too_large", "the request headers are over 8 KiB; send fewer cookies"});
  response.keep_alive(false);
  drain_after_write_ = true;
  send(std::move(response));
}

// Closing a socket with unread input makes the kernel send a reset, which can destroy the answer
// before the client reads it; so read the rest away (for a bounded time) after shutting down.
void HttpSession::drain_then_close() {
  error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream_.expires_after(std::chrono::seconds(2));
  buffer_.consume(buffer_.size());
  stream_.async_read_some(buffer_.prepare(16 * 1024), [self = shared_from_this()](const error_code& error, std::size_t) {
    if (!error) self->drain_then_close();
  });
}

// No exception may leave a completion handler: it would end the whole process.
void HttpSession::respond(HttpRequest request) {
  const std::string target(to_std(request.target()));
  try {
    route(std::move(request));
  } catch (const std::exception& e) {
    log_error("http_fault", {{"target", target}, {"message", e.what()}});
    HttpRequest fallback;
    fallback.version(11);
    auto response = error_response(fallback, {http::status::internal_server_error, "internal",
                                              "the server could not answer this request; try again"});
    response.keep_alive(false);
    send(std::move(response));
  }
}

void HttpSession::route(HttpRequest request) {
  const std::string_view target = to_std(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  if (websocket::is_upgrade(request)) {
    if (path != "/ws")
      return send(error_response(request, not_found("the WebSocket is at /ws")));
    if (!origin_allowed(request, context_.allowed_origins, context_.public_origin, context_.bind_address)) {
      log_info_throttled("origin_refused", {{"origin", std::string(to_std(request[http::field::origin]))}});
      auto response = error_response(request, forbidden_origin("open a WebSocket"));
      response.keep_alive(false);
      return send(std::move(response));
    }
    if (context_.metrics.connections.load() >= context_.max_connections) {
      log_warn_throttled("connection_limit", {{"max_connections", context_.max_connections}});
      auto response = error_response(request, {http::status::service_unavailable, "busy",
                                               "the server has all the connections it can take; try again later",
                                               std::chrono::seconds(5)});
      response.keep_alive(false);
      return send(std::move(response));
    }
    // The WebSocket session takes the socket; this HTTP session ends here.
    const auto secret = session_secret(request, context_.secure_cookies());
    std::make_shared<WebSocketSession>(stream_.release_socket(), context_.hub, context_.metrics,
                                       context_.rate_limit, secret ? secret_hash(*secret) : "")
        ->run(std::move(request));
    return;
  }
  const bool forwarded = request.count("X-Forwarded-For") > 0 || request.count(http::field::forwarded) > 0;
  if (path == "/metrics" && !metrics_visible(peer_address(), forwarded, context_.public_metrics))
    return send(error_response(request, not_found("there is no file at /metrics")));
  if (is_api_target(path)) return answer_api(std::move(request));
  serve_static(request);
}

// The API reads the database (history pages, records, replays), so it is answered on a reader
// thread and the answer written back on this connection's strand: no network thread waits. A
// what-if answers later from a bot worker, the same way.
void HttpSession::answer_api(HttpRequest request) {
  const std::string peer = peer_address();
  // Whether the request came over https (Secure cookies) is a trusted proxy's to say only.
  if (!is_trusted_proxy(peer, context_.trusted_proxies)) request.erase("X-Forwarded-Proto");
  auto owned = std::make_shared<const HttpRequest>(std::move(request));
  std::string address = client_address(*owned, peer, context_.trusted_proxies);
  context_.hub.readers().run([self = shared_from_this(), owned, address = std::move(address)] {
    // handle_api_async turns every failure into an error response.
    handle_api_async(owned, self->context_, address, [self](StringResponse response) {
      auto shared = std::make_shared<StringResponse>(std::move(response));
      net::post(self->stream_.get_executor(), [self, shared] { self->send(std::move(*shared)); });
    });
  });
}

// The TCP peer's address (empty when the socket is already gone).
std::string HttpSession::peer_address() {
  error_code error;
  const auto peer = stream_.socket().remote_endpoint(error);
  return error ? std::string() : peer.address().to_string();
}

void HttpSession::serve_static(const HttpRequest& request) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    return send(error_response(request, method_not_allowed("GET, HEAD")));
  }
  const std::string_view target = to_std(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  const auto file = resolve_static_path(context_.static_root, path);
  http::file_body::value_type body;
  error_code error;
  if (file) body.open(file->c_str(), beast::file_mode::scan, error);
  if (!file || error)
    return send(error_response(request, not_found("there is no file at " + std::string(path.substr(0, 128)))));
  const auto size = body.size();
  const auto type = std::string(content_type(*file));
  if (request.method() == http::verb::head) {
    http::response<http::empty_body> response{http::status::ok, request.version()};
    response.set(http::field::content_type, type);
    add_security_headers(response);
    response.content_length(size);
    response.keep_alive(request.keep_alive());
    return send(std::move(response));
  }
  http::response<http::file_body> response{std::piecewise_construct, std::make_tuple(std::move(body)),
                                           std::make_tuple(http::status::ok, request.version())};
  response.set(http::field::server, "mancala-server");
  response.set(http::field::content_type, type);
  add_security_headers(response);
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
  if (drain_after_write_) return drain_then_close();
  if (!keep_alive) {
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    return;
  }
  read_request();
}

}  // namespace mancala::server
