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
  // The room's game ended with `result` (the engine's), once, after its last update was stored:
  // a tournament scores it (issue 48). `left_unplayed`: the persons who resigned or ran out of
  // time before their first move (quick pairing's playban counts them in the games it paired).
  virtual void game_finished(const std::string& room_id, const Json& result,
                             const std::vector<std::string>& left_unplayed) = 0;
};

}  // namespace mancala::server
