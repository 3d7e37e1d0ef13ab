#pragma once
// Log lines that a client can cause at will (a refused request, a closed flood, a push service
// that fails) come at most once a second of each kind: one warn line per refusal let an attack
// write the log as fast as it could send, burying what the operator needs and filling the disk.
// The next line of that kind says how many were left out meanwhile ("not_logged"), so nothing
// is dropped silently. The same guard serves the storage's slow_commit and the listener's
// accept_failed.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "log.hpp"

namespace mancala::server {

// Whether a line of one kind is due: at most one per `interval`. Not thread-safe on its own
// (log_throttled guards its own).
class LogThrottle {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LogThrottle(Clock::duration interval = std::chrono::seconds(1)) : interval_(interval) {}

  // The lines left out since the last one written, when this one is due (it is counted as
  // written); nothing when it is to be left out (it is counted as left out).
  std::optional<std::int64_t> admit(Clock::time_point now) {
    if (written_ && now - last_written_ < interval_) {
      ++left_out_;
      return std::nullopt;
    }
    written_ = true;
    last_written_ = now;
    const std::int64_t left_out = left_out_;
    left_out_ = 0;
    return left_out;
  }

 private:
  Clock::duration interval_;
  bool written_ = false;
  Clock::time_point last_written_{};
  std::int64_t left_out_ = 0;
};

// log(level, event, fields) at most once a second for each event, with "not_logged" added: the
// lines of that event left out since the last one. Any thread. `now` is for tests.
void log_throttled(LogLevel level, std::string_view event, Json fields,
                   LogThrottle::Clock::time_point now = LogThrottle::Clock::now());
inline void log_warn_throttled(std::string_view event, Json fields = Json::object()) {
  log_throttled(LogLevel::warn, event, std::move(fields));
}
inline void log_info_throttled(std::string_view event, Json fields = Json::object()) {
  log_throttled(LogLevel::info, event, std::move(fields));
}

}  // namespace mancala::server
