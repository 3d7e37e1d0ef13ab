#include "game_clock.hpp"

#include <algorithm>
#include <stdexcept>

namespace mancala::server {

using std::chrono::milliseconds;

ClockSettings ClockSettings::real_time(std::chrono::seconds initial, std::chrono::seconds increment) {
  ClockSettings settings;
  settings.kind = Kind::real_time;
  settings.initial = initial;
  settings.increment = increment;
  return settings;
}

ClockSettings ClockSettings::correspondence(std::chrono::seconds per_move) {
  ClockSettings settings;
  settings.kind = Kind::correspondence;
  settings.per_move = per_move;
  return settings;
}

Json ClockSettings::to_json() const {
  using std::chrono::duration_cast;
  using std::chrono::seconds;
  if (kind == Kind::correspondence) return Json{{"per_move_s", duration_cast<seconds>(per_move).count()}};
  return Json{{"initial_s", duration_cast<seconds>(initial).count()},
              {"increment_s", duration_cast<seconds>(increment).count()}};
}

ClockSettings ClockSettings::from_json(const Json& json) {
  if (json.contains("per_move_s"))
    return correspondence(std::chrono::seconds(json.at("per_move_s").get<std::int64_t>()));
  return real_time(std::chrono::seconds(json.at("initial_s").get<std::int64_t>()),
                   std::chrono::seconds(json.value("increment_s", std::int64_t{0})));
}

namespace {
milliseconds starting_time(const ClockSettings& settings) {
  return settings.kind == ClockSettings::Kind::correspondence ? settings.per_move : settings.initial;
}
}  // namespace

GameClock::GameClock(ClockSettings settings, int seats)
    : settings_(settings), remaining_(static_cast<std::size_t>(seats), starting_time(settings)) {}

void GameClock::charge_running(SystemTime now) {
  if (!running_) return;
  auto& left = remaining_.at(static_cast<std::size_t>(*running_));
  const auto spent = std::chrono::duration_cast<milliseconds>(now - since_);
  left = std::max(milliseconds(0), left - std::max(milliseconds(0), spent));
  since_ = now;
}

void GameClock::start(int seat, SystemTime now) {
  charge_running(now);
  running_ = seat;
  since_ = now;
}

void GameClock::turn_passed(int mover, std::optional<int> next, SystemTime now) {
  charge_running(now);
  auto& left = remaining_.at(static_cast<std::size_t>(mover));
  if (settings_.kind == ClockSettings::Kind::correspondence) left = settings_.per_move;
  else left += settings_.increment;
  running_ = next;
  since_ = now;
}

void GameClock::stop(SystemTime now) {
  charge_running(now);
  running_.reset();
}

void GameClock::retire(int seat) {
  remaining_.at(static_cast<std::size_t>(seat)) = milliseconds(0);
  if (running_ == seat) running_.reset();
}

milliseconds GameClock::remaining(int seat, SystemTime now) const {
  const auto left = remaining_.at(static_cast<std::size_t>(seat));
  if (running_ != seat) return left;
  const auto spent = std::chrono::duration_cast<milliseconds>(now - since_);
  return std::max(milliseconds(0), left - std::max(milliseconds(0), spent));
}

std::optional<SystemTime> GameClock::flag_time() const {
  if (!running_) return std::nullopt;
  return since_ + remaining_.at(static_cast<std::size_t>(*running_));
}

Json GameClock::view(SystemTime now) const {
  Json remaining = Json::array();
  for (int seat = 0; seat < static_cast<int>(remaining_.size()); ++seat)
    remaining.push_back(this->remaining(seat, now).count());
  return Json{{"remaining_ms", std::move(remaining)},
              {"running", running_ ? Json(*running_) : Json()},
              {"as_of", format_utc(now)}};
}

GameClock GameClock::resume(ClockSettings settings, const Json& view, SystemTime now) {
  const Json& remaining = view.at("remaining_ms");
  GameClock clock(settings, static_cast<int>(remaining.size()));
  for (std::size_t seat = 0; seat < remaining.size(); ++seat)
    clock.remaining_[seat] = milliseconds(remaining[seat].get<std::int64_t>());
  const Json& running = view.at("running");
  if (!running.is_null()) clock.running_ = running.get<int>();
  clock.since_ = now;
  return clock;
}

}  // namespace mancala::server
