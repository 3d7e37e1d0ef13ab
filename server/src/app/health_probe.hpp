#pragma once
// mancala-server --health: asks the server that the same flags start whether it is healthy, so a
// container's health check follows whatever --port and --bind it was given.
#include <string>

#include "config.hpp"

namespace mancala::server {

struct HealthAnswer {
  bool healthy = false;
  std::string said;  // one line for the operator: what was asked and what came back
};

// GET /healthz on the address `config` listens on (loopback for a wildcard bind), within 3 s.
HealthAnswer probe_health(const Config& config);

}  // namespace mancala::server
