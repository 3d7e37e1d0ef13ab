#include "listener.hpp"

#include "http_session.hpp"
#include "log.hpp"
#include "log_throttle.hpp"

namespace mancala::server {

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint, const HttpContext& context)
    : io_(io), acceptor_(net::make_strand(io)), context_(context), retry_timer_(acceptor_.get_executor()) {
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
    self->retry_timer_.cancel();
  });
}

namespace {

constexpr auto kRetryAfterNoDescriptors = std::chrono::milliseconds(75);

bool out_of_descriptors(const error_code& error) {
  return error == net::error::no_descriptors ||
         error == boost::system::errc::too_many_files_open_in_system ||
         error == net::error::no_buffer_space || error == net::error::no_memory;
}

}  // namespace

// Out of descriptors, `accept` fails at once for as long as clients wait in the backlog; trying
// again at once spins a core and floods the log. Pause instead, and log once a second at most.
void Listener::on_accept_error(const error_code& error) {
  log_warn_throttled("accept_failed", {{"error", error.message()}});
  if (!out_of_descriptors(error)) return accept_next();
  retry_timer_.expires_after(kRetryAfterNoDescriptors);
  retry_timer_.async_wait([self = shared_from_this()](const error_code& cancelled) {
    if (!cancelled && self->acceptor_.is_open()) self->accept_next();
  });
}

void Listener::accept_next() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](const error_code& error, ConnectionSocket socket) {
    if (error == net::error::operation_aborted || !self->acceptor_.is_open()) return;  // stopped
    if (error) return self->on_accept_error(error);
    error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    try {
      std::make_shared<HttpSession>(std::move(socket), self->context_)->run();
    } catch (const std::exception& e) {  // no exception may end the accept loop
      log_error("session_not_started", {{"message", e.what()}});
    }
    self->accept_next();
  });
}

}  // namespace mancala::server
