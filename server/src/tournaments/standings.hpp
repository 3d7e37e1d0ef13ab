#pragma once
// A tournament's players and their order (protocol "Tournaments": players ranked by score).
// Pure.
#include <string>
#include <vector>

namespace mancala::server {

struct TournamentPlayer {
  std::string player_id;
  std::string name;
  double score = 0;
  int streak = 0;         // arena: wins in a row
  int games = 0;          // finished games
  bool paused = false;    // arena: no new pairing until the player joins again
  double rating = 1500;   // the game's rating when joining: breaks ties in pairing only
  std::string last_opponent;  // arena: the one of the last game (Njaka: the first other seat)
};

struct Standing {
  int rank = 0;  // 1 first
  const TournamentPlayer* player = nullptr;
};

// By score, best first; equal scores keep the order given (who joined first), so that a
// standing never flickers between two refreshes.
std::vector<Standing> rank_players(const std::vector<TournamentPlayer>& players);

}  // namespace mancala::server
