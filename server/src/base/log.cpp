#include "log.hpp"

#include <atomic>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <stdexcept>

#include "clock.hpp"
#include "net.hpp"

namespace mancala::server {
namespace {

std::atomic<LogLevel> min_level{LogLevel::info};
std::mutex output_mutex;

constexpr std::string_view kLevelNames[] = {"debug", "info", "warn", "error"};

}  // namespace

std::string format_utc(SystemTime time) {
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  // Written digit by digit: snprintf took ten times as long, and every move's row carries one.
  char text[] = "0000-00-00T00:00:00.000Z";
  const auto put = [&text](std::size_t at, long value, int digits) {
    for (int i = digits - 1; i >= 0; --i, value /= 10)
      text[at + static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
  };
  put(0, utc.tm_year + 1900, 4);
  put(5, utc.tm_mon + 1, 2);
  put(8, utc.tm_mday, 2);
  put(11, utc.tm_hour, 2);
  put(14, utc.tm_min, 2);
  put(17, utc.tm_sec, 2);
  put(20, static_cast<long>(millis % 1000), 3);
  return std::string(text, sizeof text - 1);
}

LogLevel parse_log_level(std::string_view text) {
  for (std::size_t i = 0; i < std::size(kLevelNames); ++i)
    if (kLevelNames[i] == text) return static_cast<LogLevel>(i);
  throw std::invalid_argument("--log-level must be debug, info, warn or error, not '" +
                              std::string(text) + "'");
}

void set_log_level(LogLevel level) { min_level = level; }
bool log_enabled(LogLevel level) { return level >= min_level.load(); }

void log(LogLevel level, std::string_view event, Json fields) {
  if (!log_enabled(level)) return;
  Json line = {{"ts", now_utc()},
               {"level", kLevelNames[static_cast<std::size_t>(level)]},
               {"event", event}};
  for (auto& [key, value] : fields.items()) line[key] = std::move(value);
  // Replace, not throw, on invalid UTF-8 that a client may have sent: a log line must never fail.
  const std::string text = line.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
  const std::lock_guard lock(output_mutex);
  std::fwrite(text.data(), 1, text.size(), stderr);
}

void log_io_error(const error_code& error, std::string_view what) {
  if (error == net::error::operation_aborted || error == websocket::error::closed ||
      error == beast::error::timeout || error == http::error::end_of_stream ||
      error == net::error::eof || error == net::error::connection_reset ||
      error == net::error::broken_pipe)
    return;
  log_info("io_error", {{"during", what}, {"error", error.message()}});
}

}  // namespace mancala::server
