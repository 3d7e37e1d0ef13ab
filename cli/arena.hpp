#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <string>

#include "mancala/bot.hpp"
#include "mancala/json.hpp"

namespace mancala::cli {

// One side of an arena: a level 1-5, or plain UCT (level 0).
struct Side {
  int level = 1;
  std::string name;  // as given on the command line: "3" or "uct"
};

struct ArenaSetup {
  std::string game;
  Json options;
  Side a;
  Side b;
  long long games = 1;
  std::uint64_t seed = 1;
  // Per side, A then B. 0: the level's playout budget and no clock (with both 0 the games repeat
  // exactly for a seed); otherwise that side thinks this long per decision, whatever its playouts.
  std::array<std::chrono::milliseconds, 2> think{};
};

// Plays the games and prints one JSON line: A's wins, losses, draws and score rate with its 95 %
// interval, and each side's mean think time. Returns the process exit status.
int run_arena(const ArenaSetup& setup);

// The bot a side plays with in a game of `players` seats.
bots::Bot make_bot(const Side& side, std::uint64_t seed, std::chrono::milliseconds think, int players);

}  // namespace mancala::cli
