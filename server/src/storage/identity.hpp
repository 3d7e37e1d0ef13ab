#pragma once
// Anonymous players: a public id, a display name and a secret token. Only the token's SHA-256
// is kept (here and in the database); a presented token is hashed and compared in constant time.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "sha256.hpp"
#include "stored_game.hpp"

namespace mancala::server {

struct Player {
  std::string id;
  std::string name;
  Sha256Digest token_hash;
};
using PlayerRef = std::shared_ptr<const Player>;

class PlayerDirectory {
 public:
  // A new player with a fresh token. Not known to the directory until `add` (after the row
  // is committed), so a token is never accepted before it is durable.
  struct NewPlayer {
    PlayerRef player;
    std::string token;
  };
  static NewPlayer make(std::string name);
  static StoredPlayer to_stored(const Player& player);

  void add(PlayerRef player);
  void load(const std::vector<StoredPlayer>& players);
  PlayerRef find_by_token(std::string_view token) const;
  PlayerRef find(const std::string& id) const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, PlayerRef> by_id_;
  std::unordered_map<std::string, PlayerRef> by_token_hash_;  // hex digest
};

}  // namespace mancala::server
