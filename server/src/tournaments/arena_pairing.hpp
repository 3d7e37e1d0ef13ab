#pragma once
// Who plays whom next in an arena (protocol "Tournaments"). Pure.
//
// The free players are seated by quick pairing's own table rule (lobby/seek_pool.hpp): each
// free player is a seeker, added best rank first, so a table is the seed and the next ranks
// after it that fit; a Njaka table is as full as the free players allow (four if four are
// free), and the rest sit at smaller tables. "Fit" means: not the opponent of one's last game,
// while anyone else is free; those who are left with only their last opponent free are then
// paired with them after all.
#include <string>
#include <vector>

namespace mancala::server {

struct FreePlayer {
  std::string player_id;
  double score = 0;
  double rating = 1500;
  std::string last_opponent;  // empty: none yet
};

// The tables to open now, each its players' ids; `sizes` are the table sizes of the game,
// ascending ({2}, or Njaka's {2,3,4}). A player is in at most one table; one left over waits.
std::vector<std::vector<std::string>> pair_arena(std::vector<FreePlayer> free, const std::vector<int>& sizes);

}  // namespace mancala::server
