#include "health_probe.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <chrono>

namespace mancala::server {

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;

// A server bound to every address answers on loopback; asking there keeps the probe inside the
// container or host it runs on.
std::string address_to_ask(const std::string& bind) {
  if (bind == "0.0.0.0" || bind.empty()) return "127.0.0.1";
  if (bind == "::") return "::1";
  return bind;
}

}  // namespace

HealthAnswer probe_health(const Config& config) {
  const std::string host = address_to_ask(config.bind);
  const std::string url = "http://" + (host.find(':') == std::string::npos ? host : "[" + host + "]") + ":" +
                          std::to_string(config.port) + "/healthz";
  if (config.port == 0) return {false, "--health needs the server's own --port, not 0"};

  asio::io_context io;
  boost::beast::tcp_stream stream(io);
  boost::beast::flat_buffer buffer;
  http::request<http::empty_body> request{http::verb::get, "/healthz", 11};
  request.set(http::field::host, host);
  request.set(http::field::connection, "close");
  http::response<http::string_body> response;
  boost::system::error_code failed;

  // Asynchronous steps so that one deadline covers the connect, the write and the read.
  stream.expires_after(std::chrono::seconds(3));
  const asio::ip::tcp::endpoint endpoint(asio::ip::make_address(host, failed), config.port);
  if (failed) return {false, "--health cannot ask " + url + ": " + failed.message()};
  stream.async_connect(endpoint, [&](boost::system::error_code connect_error) {
    if (connect_error) { failed = connect_error; return; }
    http::async_write(stream, request, [&](boost::system::error_code write_error, std::size_t) {
      if (write_error) { failed = write_error; return; }
      http::async_read(stream, buffer, response, [&](boost::system::error_code read_error, std::size_t) { failed = read_error; });
    });
  });
  io.run();
  if (failed) return {false, "unhealthy: " + url + ": " + failed.message()};
  const bool healthy = response.result() == http::status::ok;
  return {healthy, std::string(healthy ? "healthy" : "unhealthy") + ": " + url + " answered " +
                       std::to_string(response.result_int()) + " " + response.body().substr(0, 200)};
}

}  // namespace mancala::server
