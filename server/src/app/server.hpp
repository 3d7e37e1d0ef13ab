#pragma once
// mancala-server from start to exit: storage, restored rooms, the listener, I/O threads, and
// the orderly stop on SIGINT/SIGTERM.
#include <chrono>
#include <functional>

#include "config.hpp"
#include "net.hpp"

namespace mancala::server {

// Calls `then` on `io` once `done()` is true or `deadline` has passed, checking every 20 ms.
// Everything it holds is released after `then` ran.
void wait_until(net::io_context& io, std::function<bool()> done,
                std::chrono::steady_clock::time_point deadline, std::function<void()> then);

// Returns the process exit status. Throws for failures at start (database, port).
int run_server(const Config& config);

}  // namespace mancala::server
