#pragma once
// Accepts TCP connections and gives each its own strand and HTTP session.
#include <memory>

#include "http_api.hpp"
#include "net.hpp"

namespace mancala::server {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Binds at once; throws boost::system::system_error (port in use, bad address).
  Listener(net::io_context& io, const tcp::endpoint& endpoint, const HttpContext& context);
  tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }
  void run();
  void stop();  // stops accepting; open connections carry on

 private:
  void accept_next();
  void on_accept_error(const error_code& error);

  net::io_context& io_;
  tcp::acceptor acceptor_;
  const HttpContext& context_;
  net::steady_timer retry_timer_;  // pauses accepting while the process is out of descriptors
};

}  // namespace mancala::server
