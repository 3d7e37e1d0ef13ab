#include "log_throttle.hpp"

#include <map>
#include <mutex>
#include <string>

namespace mancala::server {

void log_throttled(LogLevel level, std::string_view event, Json fields, LogThrottle::Clock::time_point now) {
  if (!log_enabled(level)) return;
  // One throttle per event; the events are the program's own words, so the map stays small.
  static std::mutex mutex;
  static std::map<std::string, LogThrottle, std::less<>> throttles;
  std::optional<std::int64_t> left_out;
  {
    const std::lock_guard lock(mutex);
    auto found = throttles.find(event);
    if (found == throttles.end()) found = throttles.emplace(std::string(event), LogThrottle()).first;
    left_out = found->second.admit(now);
  }
  if (!left_out) return;
  fields["not_logged"] = *left_out;
  log(level, event, std::move(fields));
}

}  // namespace mancala::server
