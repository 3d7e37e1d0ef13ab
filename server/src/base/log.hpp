#pragma once
// Structured logs: one JSON object per line on stderr, e.g.
// {"ts":"2026-01-01T12:00:00.000Z","level":"info","event":"listening","port":8080}
#include <string_view>

#include "mancala/game.hpp"

namespace mancala::server {

enum class LogLevel { debug, info, warn, error };

// Throws std::invalid_argument for anything but debug, info, warn, error.
LogLevel parse_log_level(std::string_view text);
void set_log_level(LogLevel level);
bool log_enabled(LogLevel level);

void log(LogLevel level, std::string_view event, Json fields = Json::object());
inline void log_debug(std::string_view event, Json fields = Json::object()) {
  if (log_enabled(LogLevel::debug)) log(LogLevel::debug, event, std::move(fields));
}
inline void log_info(std::string_view event, Json fields = Json::object()) {
  log(LogLevel::info, event, std::move(fields));
}
inline void log_warn(std::string_view event, Json fields = Json::object()) {
  log(LogLevel::warn, event, std::move(fields));
}
inline void log_error(std::string_view event, Json fields = Json::object()) {
  log(LogLevel::error, event, std::move(fields));
}

}  // namespace mancala::server
