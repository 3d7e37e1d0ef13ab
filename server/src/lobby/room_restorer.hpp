#pragma once
// A stored game made ready to be a live room again, after a restart or when this process takes
// over a dead one's rooms: its position replayed from the stored actions, its seats' players
// and its clock charged up to the last moment a server was known to run.
#include <cstdint>
#include <string>
#include <vector>

#include "identity.hpp"
#include "mancala/match.hpp"
#include "stored_game.hpp"

namespace mancala::server {

class Storage;

struct RestoredGame {
  Match match;                    // at `version`
  std::int64_t version = 0;
  std::vector<PlayerRef> seats;   // each seat's person; null for a free seat and a computer's
  Json clock_view;                // the clock as stored with the last update, charged
};

// Throws (with the reason) when a seat's player is unknown or does not fit the game, or the
// stored actions do not replay.
RestoredGame restore_game(const StoredGame& stored, const std::string& last_alive, const PlayerDirectory& players);

// Several processes: the dead process may have created players after this one loaded them.
// Reads them from the database when one of the game's seated players is unknown here.
void load_missing_players(const StoredGame& stored, PlayerDirectory& players, Storage& storage);

}  // namespace mancala::server
