#include "listener.hpp"

#include "http_session.hpp"
#include "log.hpp"

namespace mancala::server {

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint, const HttpContext& context)
    : io_(io), acceptor_(net::make_strand(io)), context_(context) {
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(net::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections);
}

void Listener::run() { accept_next(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void Listener::accept_next() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](const error_code& error, tcp::socket socket) {
    if (error) {
      if (error == net::error::operation_aborted) return;  // stopped
      log_io_error(error, "accept");
    } else {
      error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), self->context_)->run();
    }
    if (self->acceptor_.is_open()) self->accept_next();
  });
}

}  // namespace mancala::server
