#pragma once
// What a room needs of whatever holds its rooms (the hub), and nothing more: a room reaches up
// only through these calls, so it can be tested, and changed, without the layers above.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "connection.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// A game that just ended, as a layer above may want to learn it (a tournament, its pairings'
// results): told once its result is durable.
struct FinishedGame {
  std::string room_id;
  std::string game;
  Json result;                       // Match::result(), as stored
  std::vector<std::string> players;  // by seat: a person's player id, "" for a computer player
  bool rated = false;
};

class RoomHost {
 public:
  virtual ~RoomHost() = default;

  // The player sits in (or left) the room: a returning player's connection is sent there.
  virtual void seat_index(const std::string& player_id, const std::string& room_id, bool seated) = 0;
  // The room is gone (emptied, expired): no request reaches it any more, and the lobby drops it.
  virtual void forget(const std::string& room_id) = 0;
  // The room's lobby entry changed; nullopt takes it out of the lobby.
  virtual void publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary) = 0;
  // Creates the rematch of the finished game `old` (see rematch.hpp) and makes `members` its
  // members; `done` gets the new room's id, or "" when it could not be stored.
  virtual void create_rematch(const GameMeta& old, std::vector<PlayerRef> players, std::vector<int> bot_levels,
                              std::vector<Caller> members, std::function<void(std::string)> done) = 0;
  // These accounts changed in the database (a rated result moved their ratings): whoever else
  // shows them (other processes) reads them again.
  virtual void players_changed(const std::vector<std::string>& player_ids) = 0;
  // The room's game ended and its result is stored. Called on the room's strand: keep it short.
  // Nobody listens by default; a layer that pairs games (a tournament) overrides it.
  virtual void on_game_finished(const FinishedGame& game) { (void)game; }
};

}  // namespace mancala::server
