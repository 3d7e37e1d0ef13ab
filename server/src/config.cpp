#include "config.hpp"

#include <charconv>
#include <thread>

namespace mancala::server {

const char* const kUsage = R"(usage: mancala-server [options]
  --port N            TCP port, 0 = any free port (default 8080); prints "listening on ADDR:PORT"
  --bind ADDR         address to listen on (default 127.0.0.1)
  --db FILE           SQLite database, created and migrated at start (default mancala.db);
                      :memory: for a throwaway database
  --static DIR        folder of the web client (default web-client)
  --allow-origin O    an extra allowed Origin for WebSocket upgrades (repeatable)
  --threads N         I/O threads (default: number of cores)
  --log-level L       debug, info, warn or error (default info); JSON lines on stderr
  --rate-limit N      messages a second per WebSocket (default 20, bursts of 2N); raise it only
                      for load tests and bots
  --backup FILE       write a consistent copy of the database to FILE, then exit
  --help              this text
)";

namespace {

long parse_integer(const std::string& flag, const std::string& text, long min, long max) {
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw UsageError(flag + " needs an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got '" + text + "'");
  return value;
}

}  // namespace

Config parse_command_line(int argc, const char* const* argv) {
  Config config;
  config.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw UsageError(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--help" || flag == "-h") config.help = true;
    else if (flag == "--port") config.port = static_cast<unsigned short>(parse_integer(flag, value(), 0, 65535));
    else if (flag == "--bind") config.bind = value();
    else if (flag == "--db") config.db = value();
    else if (flag == "--static") config.static_root = value();
    else if (flag == "--allow-origin") config.allowed_origins.push_back(value());
    else if (flag == "--threads") config.threads = static_cast<int>(parse_integer(flag, value(), 1, 256));
    else if (flag == "--rate-limit") config.rate_limit = static_cast<int>(parse_integer(flag, value(), 1, 1000000));
    else if (flag == "--backup") config.backup_to = value();
    else if (flag == "--log-level") {
      try {
        config.log_level = parse_log_level(value());
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
    } else {
      throw UsageError("unknown argument '" + flag + "' (see --help)");
    }
  }
  if (config.db.empty()) throw UsageError("--db needs a file name or :memory:");
  return config;
}

}  // namespace mancala::server
