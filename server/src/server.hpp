#pragma once
// mancala-server from start to exit: storage, restored rooms, the listener, I/O threads, and
// the orderly stop on SIGINT/SIGTERM.
#include "config.hpp"

namespace mancala::server {

// Returns the process exit status. Throws for failures at start (database, port).
int run_server(const Config& config);

}  // namespace mancala::server
