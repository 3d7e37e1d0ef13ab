#pragma once
// The room a rematch opens: the same game, options, privacy, grace time, clock and computer
// players as the finished one, every occupant moved on by one seat (seat i to seat i+1, the
// last to seat 0), so that who moves first changes hands. It starts at once: every seat is taken.
#include <string>
#include <vector>

#include "identity.hpp"
#include "mancala/match.hpp"
#include "stored_game.hpp"

namespace mancala::server {

struct RematchSetup {
  GameMeta meta;
  std::vector<PlayerRef> players;  // by new seat; null for computer players
};

// `players[i]` and `bot_levels[i]` describe old seat i (a person, or a computer player's
// level); `fresh` is the new game with its own random draws; `invite` is empty for a public
// room; `now` is the creation and start time.
RematchSetup rematch_setup(const GameMeta& old, const std::vector<PlayerRef>& players,
                           const std::vector<int>& bot_levels, const Match& fresh, std::string id,
                           std::string invite, const std::string& now);

}  // namespace mancala::server
