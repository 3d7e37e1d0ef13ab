#include "server.hpp"

#include <csignal>
#include <iostream>
#include <thread>

#include "hub.hpp"
#include "identity.hpp"
#include "listener.hpp"
#include "log.hpp"
#include "metrics.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

constexpr auto kCloseGrace = std::chrono::seconds(2);

// The orderly stop: no new connections, everything queued committed and announced, then every
// socket closed with 1001 (waiting briefly for the close handshakes) and the threads released.
void stop_gracefully(net::io_context& io, Listener& listener, Hub& hub, Metrics& metrics) {
  log_info("stopping");
  listener.stop();
  hub.close_all(CloseCode::going_away);
  auto timer = std::make_shared<net::steady_timer>(io);
  const auto deadline = std::chrono::steady_clock::now() + kCloseGrace;
  auto wait = std::make_shared<std::function<void()>>();
  *wait = [&io, &metrics, timer, deadline, wait] {
    if (metrics.connections.load() <= 0 || std::chrono::steady_clock::now() >= deadline) {
      io.stop();
      return;
    }
    timer->expires_after(std::chrono::milliseconds(20));
    timer->async_wait([wait](const error_code&) { (*wait)(); });
  };
  (*wait)();
}

}  // namespace

int run_server(const Config& config) {
  set_log_level(config.log_level);
  if (!config.backup_to.empty()) {
    Storage::backup(config.db, config.backup_to);
    log_info("backup_written", {{"from", config.db}, {"to", config.backup_to}});
    return 0;
  }

  Metrics metrics;
  Storage storage(config.db, metrics.commit_latency);
  PlayerDirectory players;
  players.load(storage.load_players());

  net::io_context io(config.threads);
  Hub hub(io, storage, players, metrics);
  metrics.room_counts = [&hub] { return hub.room_counts(); };
  hub.restore_rooms();

  const HttpContext context{hub, storage, players, metrics, config.static_root, config.allowed_origins,
                              config.rate_limit};
  const auto listener = std::make_shared<Listener>(
      io, tcp::endpoint(net::ip::make_address(config.bind), config.port), context);
  listener->run();
  const auto endpoint = listener->local_endpoint();
  std::cout << "listening on " << endpoint.address().to_string() << ":" << endpoint.port() << std::endl;
  log_info("listening", {{"address", endpoint.address().to_string()},
                         {"port", endpoint.port()},
                         {"threads", config.threads},
                         {"db", config.db}});

  net::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const error_code& error, int) {
    if (!error) stop_gracefully(io, *listener, hub, metrics);
  });

  std::vector<std::thread> threads;
  for (int i = 1; i < config.threads; ++i) threads.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& thread : threads) thread.join();
  storage.stop();  // commits anything still queued
  metrics.room_counts = nullptr;
  log_info("stopped");
  return 0;
}

}  // namespace mancala::server
