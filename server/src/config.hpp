#pragma once
// The command line of mancala-server (see cli.md and server/README.md).
#include <stdexcept>
#include <string>
#include <vector>

#include "log.hpp"

namespace mancala::server {

struct Config {
  unsigned short port = 8080;
  std::string bind = "127.0.0.1";
  std::string db = "mancala.db";
  std::string static_root = "web-client";
  std::vector<std::string> allowed_origins;
  int threads = 1;
  int rate_limit = 20;  // messages a second per connection (bursts of twice as many)
  LogLevel log_level = LogLevel::info;
  std::string backup_to;  // --backup FILE: copy the database and exit
  bool help = false;
};

// Bad usage: the message says what is wrong and what would be right.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Config parse_command_line(int argc, const char* const* argv);
extern const char* const kUsage;

}  // namespace mancala::server
