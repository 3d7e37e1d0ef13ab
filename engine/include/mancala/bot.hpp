#pragma once
// Computer players for every game, through the `Game` interface only: no game is named here.
//
// Levels: 1 plays uniformly random legal decisions; 2 is a greedy / shallow player; 3-5 are
// Monte-Carlo tree searches with growing budgets, level 5 with implicit minimax backups of the
// material (src/search.hpp). A `Bot` is deterministic for a given seed and
// playout budget (tests, `mancala arena`); in play a wall-clock cap bounds each choice.
// A bot keeps its search tree between choices and reuses the part that is still reachable.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mancala/game.hpp"

namespace mancala::bots {

inline constexpr int kMinLevel = 1;
inline constexpr int kMaxLevel = 5;

// What a level may spend on one choice: at most `time` (0 = no wall-clock cap, so the choice
// depends only on the seed), and about `playouts` simulations: the turn's first decision
// searches until its tree has that many, each later decision of the same turn tops the subtree
// it inherits up to a quarter of that.
struct Budget {
  std::int64_t playouts = 0;
  std::chrono::milliseconds time{0};
};

// The budget a level uses in play for a game of `players` seats (level 5 thinks at most 2 s).
// With three or four seats levels 3 and 4 search less: there a search's strength levels off
// after a few hundred playouts, so the two-seat budgets would leave levels 3, 4 and 5 close
// together.
Budget default_budget(int level, int players = 2);

// A seat's name in a room: "Computer, level 3".
std::string display_name(int level);

// How long a bot of `level` waits before claiming an open claim window such as Njaka's Plex!
// (never below 300 ms, so that a quick person can win the race). `draw` is any random number;
// the same draw gives the same delay.
std::chrono::milliseconds claim_reaction(int level, std::uint64_t draw);

// One choice: the decisions that finish the current turn of the player to move (all of a Coin
// Duel stage 3 turn's coins and directions, an O An Quan square and its direction), and the
// same as notation tokens separated by single spaces.
struct Choice {
  std::vector<Decision> decisions;
  std::string tokens;
  std::int64_t playouts = 0;
  double think_ms = 0;
};

class Bot {
 public:
  // Throws std::invalid_argument for a level outside 1..5. `budget` overrides the level's
  // (`default_budget` for the number of seats of the game each choice is made in).
  Bot(int level, std::uint64_t seed, std::optional<Budget> budget = std::nullopt);
  ~Bot();
  Bot(Bot&&) noexcept;
  Bot& operator=(Bot&&) noexcept;

  // The baseline for strength figures: plain UCT (uniformly random playouts to the end, no tree
  // kept between choices, no decisive-move checks) with the same exploration constant.
  static Bot plain_uct(std::uint64_t seed, Budget budget);

  int level() const;  // 0 for plain UCT
  // Chooses the rest of the turn for `game.to_move()`. Requires `game.phase() == Phase::play`.
  // `budget_share` (0 < share <= 1) scales this choice's playouts and time cap, for a server
  // whose bot queue is long (every waiting game gets its move sooner, each a little weaker);
  // a choice still depends only on the seed and the scaled budget.
  Choice choose(const Game& game, double budget_share = 1.0);

 private:
  Bot() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::bots
