#pragma once
// Short names for the Boost.Asio/Beast namespaces used across the server.
#include <string_view>
#include <utility>  // Boost 1.74's awaitable.hpp needs std::exchange under C++20

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace mancala::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using error_code = beast::error_code;

// The strand every connection, room and the lobby serialise their handlers on.
using Strand = net::strand<net::io_context::executor_type>;

// A connection's socket and stream name the strand's type rather than Beast's default
// `any_io_executor`, whose small buffer cannot hold a strand, so that posting to a connection
// does not allocate a copy of its executor every time.
using ConnectionSocket = tcp::socket::rebind_executor<Strand>::other;
using ConnectionStream = beast::basic_stream<tcp, Strand>;

// Beast 1.74 speaks boost::string_view.
inline std::string_view to_std(beast::string_view text) { return {text.data(), text.size()}; }

// Logs an I/O failure, except the ordinary ends of a connection (closed by either side,
// cancelled at shutdown, timed out while idle), which are not worth a line.
void log_io_error(const error_code& error, std::string_view what);

}  // namespace mancala::server
