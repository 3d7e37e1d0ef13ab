#pragma once
// A room's claim window as a race in time. The game says when a window is open and who may
// claim it (mancala::ClaimWindow); this keeps what the server adds: the window's random id, when
// it opened and closes, and the id of the window closed last, so that a claim arriving just after
// another one won hears that it lost rather than that no window exists. Plain state on the room's
// strand: the room owns the timers, and times are passed in, so tests need neither.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "clock.hpp"
#include "mancala/game.hpp"

namespace mancala::server {

class ClaimRace {
 public:
  struct Window {
    std::string id;
    ClaimWindow rules;
    SteadyTime opened;
    SteadyTime deadline;
  };
  // What a claim naming a window id meets.
  enum class Verdict { open, lost, unknown };

  // Opens a window on `rules`, replacing any open one.
  const Window& open(const ClaimWindow& rules, std::string id, SteadyTime now);
  const std::optional<Window>& current() const { return open_; }
  bool is_open(std::string_view id) const { return open_ && open_->id == id; }
  Verdict judge(std::string_view id) const;
  // Closes the open window (a claim won, or the deadline passed) and returns it; later claims
  // naming it are `lost`. Requires an open window.
  Window close();
  // Ends any window without a winner (the game ended): nobody can claim it any more.
  void cancel() { open_.reset(); }
  // How long the open window has left (never negative), and how long it was open by `now`.
  std::int64_t left_ms(SteadyTime now) const;
  std::int64_t held_ms(SteadyTime now) const;

 private:
  std::optional<Window> open_;
  std::string closed_;  // the id of the window closed last
};

}  // namespace mancala::server
