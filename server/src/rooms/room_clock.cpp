#include "room_clock.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace mancala::server {
namespace {

// The form format_utc writes ("2026-01-01T12:00:00.000Z"); nothing for anything else.
std::optional<SystemTime> read_utc(const std::string& text) {
  std::tm utc{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday,
                  &utc.tm_hour, &utc.tm_min, &utc.tm_sec, &millis) != 7)
    return std::nullopt;
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&utc)) + std::chrono::milliseconds(millis);
}

bool leaves_the_game(std::string_view kind) { return kind == "resign" || kind == "abandon" || kind == "timeout"; }

// A move, or a special action the game says ends the turn of the seat taking it.
bool passes_turn(const Match& after, std::string_view kind) {
  if (kind == "move") return true;
  const auto actions = after.game().special_actions();
  return std::any_of(actions.begin(), actions.end(),
                     [&](const SpecialAction& action) { return action.name == kind && action.ends_turn; });
}

}  // namespace

std::optional<int> running_seat(const Match& match) {
  if (match.game().phase() != Phase::play || match.game().to_move() == kNoSeat) return std::nullopt;
  return match.game().to_move();
}

GameClock advance(GameClock clock, const Match& after, std::string_view kind, int seat, SystemTime now) {
  if (kind == "move" && !after.pending().empty()) return clock;  // the turn goes on
  const std::optional<int> next = running_seat(after);
  const bool turn_done = passes_turn(after, kind) && clock.running() == seat;
  if (leaves_the_game(kind) && !after.over()) clock.retire(seat);
  if (turn_done) clock.turn_passed(seat, next, now);
  else if (next) clock.start(*next, now);
  else clock.stop(now);
  return clock;
}

Json opening_clock_view(const GameMeta& meta, const Match& opening) {
  const auto started = read_utc(meta.started);
  if (meta.clock.is_null() || !started) return Json();
  GameClock clock(ClockSettings::from_json(meta.clock), opening.game().players());
  if (const auto seat = running_seat(opening)) clock.start(*seat, *started);
  return clock.view(*started);
}

Json charged_until(Json view, const std::string& alive) {
  if (!view.is_object() || view.value("running", Json()).is_null()) return view;
  const auto as_of = read_utc(view.value("as_of", std::string()));
  const auto until = read_utc(alive);
  if (!as_of || !until || *until <= *as_of) return view;
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(*until - *as_of).count();
  Json& left = view["remaining_ms"][view["running"].get<std::size_t>()];
  left = std::max<std::int64_t>(0, left.get<std::int64_t>() - spent);
  view["as_of"] = alive;
  return view;
}

RoomClock::RoomClock(Strand strand, const TimeSource& time, const Json& settings, int seats)
    : time_(time), seats_(seats), timer_(strand) {
  if (!settings.is_null()) settings_ = ClockSettings::from_json(settings);
}

Json RoomClock::view() const {
  if (clock_) return clock_->view(now());
  if (settings_) return GameClock(*settings_, seats_).view(now());  // waiting: full, not running
  return Json();
}

void RoomClock::start(const Match& match) {
  if (!settings_) return;
  clock_.emplace(*settings_, seats_);
  if (const auto seat = running_seat(match)) clock_->start(*seat, now());
}

void RoomClock::resume(const Json& stored_view) {
  if (settings_) clock_ = GameClock::resume(*settings_, stored_view, now());
}

std::optional<GameClock> RoomClock::next(const Match& after, std::string_view kind, int seat,
                                         SystemTime now) const {
  if (!clock_) return std::nullopt;
  return advance(*clock_, after, kind, seat, now);
}

void RoomClock::adopt(std::optional<GameClock> clock) {
  if (clock) clock_ = std::move(clock);
}

std::optional<int> RoomClock::flagged() const {
  if (!clock_ || !clock_->running()) return std::nullopt;
  const int seat = *clock_->running();
  if (clock_->remaining(seat, now()) > std::chrono::milliseconds(0)) return std::nullopt;
  return seat;
}

void RoomClock::arm(std::function<void()> ring) {
  timer_.cancel();
  const auto flag_time = clock_ ? clock_->flag_time() : std::nullopt;
  if (!flag_time) return;
  timer_.expires_after(time_.real_delay_until(*flag_time));
  timer_.async_wait([ring = std::move(ring)](const error_code& error) {
    if (!error) ring();  // cancelled: the clock changed, or the server is stopping
  });
}

}  // namespace mancala::server
