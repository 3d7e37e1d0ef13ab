#pragma once
// Players: a public id, a display name and a secret token. Only the token's SHA-256 is kept
// (here and in the database); a presented token is hashed and compared in constant time. A
// player who took an account proves it with a session cookie instead: the token no longer
// works, and the name is reserved (guests cannot say hello with it, nor with a look-alike).
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "accounts.hpp"
#include "sha256.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// An account's ratings by game, shown beside its name in seats and the lobby. Shared by every
// copy of the player (a claim makes a new one) and changed after each rated game: any thread.
class PlayerRatings {
 public:
  std::optional<SeatRating> of(const std::string& game) const;
  std::map<std::string, SeatRating> all() const;
  void set(std::map<std::string, SeatRating> ratings);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, SeatRating> by_game_;
};

struct Player {
  std::string id;
  std::string name;
  Sha256Digest token_hash;
  bool account = false;
  std::shared_ptr<PlayerRatings> ratings = std::make_shared<PlayerRatings>();
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
  void load_ratings(const std::map<std::string, std::map<std::string, SeatRating>>& ratings);
  PlayerRef find_by_token(std::string_view token) const;
  PlayerRef find(const std::string& id) const;
  // The player `id` (known here or not) is now the account `name`: his token stops working.
  // Returns the account's player.
  PlayerRef become_account(const std::string& id, const std::string& name);
  // The name of an account (of this process's knowledge) that `name` can pass for: the same
  // name in any case, or a look-alike (protocol::name_skeleton).
  std::optional<std::string> account_like(const std::string& name) const;

 private:
  void index(const PlayerRef& player);  // with mutex_ held

  mutable std::mutex mutex_;
  std::unordered_map<std::string, PlayerRef> by_id_;
  std::unordered_map<std::string, PlayerRef> by_token_hash_;  // hex digest; guests only
  std::unordered_map<std::string, std::string> account_names_;  // name skeleton -> account's name
};

}  // namespace mancala::server
