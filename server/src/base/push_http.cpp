#include "push_http.hpp"

#include <algorithm>
#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>

#include "net.hpp"

namespace mancala::server {
namespace {

namespace ssl = net::ssl;
using Deadline = std::chrono::steady_clock::time_point;
constexpr std::size_t kMaxAnswer = 16 * 1024;  // a push service says little; the rest is not read

bool is_host_name(const std::string& host) {
  const bool plain = !host.empty() && std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '.';
  });
  const bool all_digits_and_dots = std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isdigit(c) || c == '.';
  });
  return plain && !all_digits_and_dots && host != "localhost" && host.find("localhost.") != 0;
}

// Runs the pending operation until it completes or the deadline passes; then `cancel` ends it.
template <class Cancel>
void finish(net::io_context& io, Deadline deadline, const error_code& error, const char* step, Cancel cancel) {
  io.restart();
  io.run_until(deadline);
  if (!io.stopped()) {
    cancel();
    io.restart();
    io.run();
    throw PushDeliveryError(std::string(step) + " timed out");
  }
  if (error) throw PushDeliveryError(std::string(step) + ": " + error.message());
}

http::request<http::vector_body<unsigned char>> request_of(const PushPost& post) {
  http::request<http::vector_body<unsigned char>> request{http::verb::post, post.url.target, 11};
  request.set(http::field::host, post.url.host);
  request.set(http::field::user_agent, "mancala-server");
  for (const auto& [name, value] : post.fields) request.set(name, value);
  request.body() = post.body;
  request.prepare_payload();
  return request;
}

template <class Stream>
int exchange(net::io_context& io, Stream& stream, const PushPost& post, Deadline deadline) {
  const auto close = [&] { beast::get_lowest_layer(stream).close(); };
  error_code error;
  auto request = request_of(post);
  http::async_write(stream, request, [&](error_code e, std::size_t) { error = e; });
  finish(io, deadline, error, "sending", close);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kMaxAnswer);
  http::async_read(stream, buffer, parser, [&](error_code e, std::size_t) { error = e; });
  finish(io, deadline, error, "reading the answer", close);
  return static_cast<int>(parser.get().result_int());
}

}  // namespace

struct PushHttpClient::Tls {
  ssl::context context{ssl::context::tls_client};
};

std::string PushUrl::origin() const {
  const bool default_port = port == (tls ? "443" : "80");
  return (tls ? "https://" : "http://") + host + (default_port ? "" : ":" + port);
}

PushUrlCheck check_push_endpoint(const std::string& endpoint, const PushEndpointRules& rules) {
  constexpr std::string_view kHttps = "https://";
  constexpr std::string_view kHttp = "http://";
  PushUrl url;
  std::string_view rest = endpoint;
  if (rest.substr(0, kHttps.size()) == kHttps) {
    rest.remove_prefix(kHttps.size());
  } else if (rules.allow_loopback_http && rest.substr(0, kHttp.size()) == kHttp) {
    rest.remove_prefix(kHttp.size());
    url.tls = false;
  } else {
    return {std::nullopt, "a push endpoint must be an https:// URL"};
  }
  const auto slash = std::min(rest.find('/'), rest.size());
  const std::string_view authority = rest.substr(0, slash);
  url.target = slash < rest.size() ? std::string(rest.substr(slash)) : "/";
  const auto colon = authority.rfind(':');
  url.host = std::string(authority.substr(0, colon));
  url.port = colon == std::string_view::npos ? (url.tls ? "443" : "80") : std::string(authority.substr(colon + 1));
  const bool port_ok = !url.port.empty() && url.port.size() <= 5 &&
                       std::all_of(url.port.begin(), url.port.end(), [](unsigned char c) { return std::isdigit(c); });
  const bool host_ok = url.tls ? is_host_name(url.host) : url.host == "127.0.0.1";
  if (!host_ok || !port_ok)
    return {std::nullopt, url.tls ? "a push endpoint names its service by host name" : "only http://127.0.0.1 is allowed for tests"};
  if (std::any_of(url.target.begin(), url.target.end(), [](unsigned char c) { return c <= ' ' || c >= 0x7f; }))
    return {std::nullopt, "the push endpoint's path has characters a URL may not have"};
  return {std::move(url), ""};
}

PushHttpClient::PushHttpClient() : tls_(std::make_unique<Tls>()) {
  tls_->context.set_default_verify_paths();
  tls_->context.set_verify_mode(ssl::verify_peer);
}

PushHttpClient::~PushHttpClient() = default;

int PushHttpClient::post(const PushPost& post, std::chrono::milliseconds timeout) {
  const Deadline deadline = std::chrono::steady_clock::now() + timeout;
  net::io_context io;
  tcp::resolver resolver(io);
  error_code error;
  tcp::resolver::results_type addresses;
  resolver.async_resolve(post.url.host, post.url.port, [&](error_code e, tcp::resolver::results_type found) {
    error = e;
    addresses = std::move(found);
  });
  finish(io, deadline, error, "looking up the push service", [&] { resolver.cancel(); });
  const auto connect = [&](beast::tcp_stream& socket) {
    socket.async_connect(addresses, [&](error_code e, const tcp::endpoint&) { error = e; });
    finish(io, deadline, error, "connecting to the push service", [&] { socket.close(); });
  };
  if (!post.url.tls) {
    beast::tcp_stream stream(io);
    connect(stream);
    return exchange(io, stream, post, deadline);
  }
  beast::ssl_stream<beast::tcp_stream> stream(io, tls_->context);
  if (!SSL_set_tlsext_host_name(stream.native_handle(), post.url.host.c_str()))
    throw PushDeliveryError("could not name the push service's host for TLS");
  stream.set_verify_callback(ssl::host_name_verification(post.url.host));
  connect(beast::get_lowest_layer(stream));
  stream.async_handshake(ssl::stream_base::client, [&](error_code e) { error = e; });
  finish(io, deadline, error, "the TLS handshake with the push service", [&] { beast::get_lowest_layer(stream).close(); });
  return exchange(io, stream, post, deadline);
}

}  // namespace mancala::server
