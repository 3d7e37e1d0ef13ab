#pragma once
// A room's chess clock: the time each seat has left, and whose time is running. Pure arithmetic
// on times it is handed (no timers, no reading of the system clock), so a room, a restart and a
// unit test all drive it the same way; the room owns the timer that commits a timeout.
//
// Two kinds (protocol "Clocks"): real-time, an initial budget plus an increment after each
// turn; correspondence, a fixed time for each move, refilled after every move. A turn of several
// decisions (Coin Duel stage 3, O An Quan) is one turn: the room calls `turn_passed` only once
// the turn is complete.
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "clock.hpp"
#include "mancala/json.hpp"

namespace mancala::server {

struct ClockSettings {
  enum class Kind { real_time, correspondence };
  Kind kind = Kind::real_time;
  std::chrono::milliseconds initial{0};    // real-time: each seat's budget at the start
  std::chrono::milliseconds increment{0};  // real-time: added after each of the seat's turns
  std::chrono::milliseconds per_move{0};   // correspondence: the time for every move

  static ClockSettings real_time(std::chrono::seconds initial, std::chrono::seconds increment);
  static ClockSettings correspondence(std::chrono::seconds per_move);
  // {"initial_s","increment_s"} or {"per_move_s"}, as create_room sends and storage keeps it.
  Json to_json() const;
  static ClockSettings from_json(const Json& json);
};

class GameClock {
 public:
  GameClock(ClockSettings settings, int seats);

  const ClockSettings& settings() const { return settings_; }
  std::optional<int> running() const { return running_; }

  // The game started (or a claim window closed) with `seat` to move: its time runs from `now`.
  void start(int seat, SystemTime now);
  // `mover` completed a turn at `now`: its time is charged and topped up (increment, or the
  // correspondence refill); then `next` (nobody when the game is over or a claim window is open)
  // runs from `now`.
  void turn_passed(int mover, std::optional<int> next, SystemTime now);
  // Nobody's time runs from `now` (the game ended, a claim window opened, the seat flagged).
  void stop(SystemTime now);
  // The seat left the game (Njaka of 3-4: resigned or flagged): its time no longer counts.
  void retire(int seat);

  // Time left to `seat` at `now` (never below zero).
  std::chrono::milliseconds remaining(int seat, SystemTime now) const;
  // When the running seat's time runs out; nothing when no clock runs.
  std::optional<SystemTime> flag_time() const;

  // The protocol's view at `now`: {"remaining_ms":[…],"running":seat|null,"as_of":ISO}.
  Json view(SystemTime now) const;
  // Rebuilds a clock from a view that was stored with an update. The time between `as_of` and
  // `now` is not charged: the server was down, or the view was just written.
  static GameClock resume(ClockSettings settings, const Json& view, SystemTime now);

 private:
  void charge_running(SystemTime now);

  ClockSettings settings_;
  std::vector<std::chrono::milliseconds> remaining_;  // exact at `since_` for the running seat
  std::optional<int> running_;
  SystemTime since_{};
};

}  // namespace mancala::server
