#pragma once
// A room's clock: the GameClock, the rules for when a turn has passed, and the timer that wakes
// the room when the running seat's time runs out. The room stores the clock's view with each
// update and adopts the new clock only once that update is committed, so the clock is never
// ahead of the database either.
#include <functional>
#include <optional>
#include <string_view>

#include "game_clock.hpp"
#include "mancala/match.hpp"
#include "net.hpp"
#include "stored_game.hpp"
#include "time_source.hpp"

namespace mancala::server {

// Whose time runs when the game is at `match`: the seat to move; nobody while a claim window
// is open or once the game is over.
std::optional<int> running_seat(const Match& match);

// The clock after a committed update of `kind` for `seat`, `after` being the game it left:
// - a move that leaves its turn half-played (Coin Duel stage 3, O An Quan) changes nothing:
//   a turn of several decisions is one turn, charged once;
// - a completed move, or a special action that ends the turn (SpecialAction::ends_turn, such as
//   Coin Duel's concede), by the running seat is a turn passed (charge, then the increment or the
//   correspondence refill);
// - anything else (resign, abandon, timeout, a claim window settled) charges whoever ran and
//   starts whoever is to move now, without a top-up;
// - a seat that left a game that goes on (Njaka of 3-4) no longer counts.
GameClock advance(GameClock clock, const Match& after, std::string_view kind, int seat, SystemTime now);

// The clock as it stood when the game started (version 0 of the history), from the stored
// settings and start time; null for a game without a clock.
Json opening_clock_view(const GameMeta& meta, const Match& opening);

// A stored view brought forward to `alive`, the last time the server was known to run: the
// running seat is charged from `as_of` up to then (never below zero), and the downtime after
// it is not. Unchanged when either time is unknown or `alive` is not later.
Json charged_until(Json view, const std::string& alive);

class RoomClock {
 public:
  // `settings`: GameMeta::clock (null: no clock).
  RoomClock(Strand strand, const TimeSource& time, const Json& settings, int seats);

  bool on() const { return settings_.has_value(); }
  // A correspondence clock giving at least `time` for each move: a game people leave between moves.
  bool per_move_at_least(std::chrono::milliseconds time) const {
    return settings_ && settings_->kind == ClockSettings::Kind::correspondence && settings_->per_move >= time;
  }
  SystemTime now() const { return time_.now(); }
  // GameMeta::clock's form; null without a clock.
  Json time_control() const { return settings_ ? settings_->to_json() : Json(); }
  // The protocol's view now; null without a clock.
  Json view() const;

  // The game starts (or restarts with nothing stored since version 0): who is to move runs now.
  void start(const Match& match);
  // After a restart: from the view stored with the latest update; the downtime is not charged.
  void resume(const Json& stored_view);

  // The clock an update would leave; nothing without a clock.
  std::optional<GameClock> next(const Match& after, std::string_view kind, int seat, SystemTime now) const;
  void adopt(std::optional<GameClock> clock);

  // The running seat, when its time has run out by now.
  std::optional<int> flagged() const;
  // Calls `ring` (on the strand) when the running seat's time runs out; replaces the last call.
  void arm(std::function<void()> ring);
  void cancel() { timer_.cancel(); }

 private:
  const TimeSource& time_;
  std::optional<ClockSettings> settings_;
  int seats_;
  std::optional<GameClock> clock_;
  net::steady_timer timer_;
};

}  // namespace mancala::server
