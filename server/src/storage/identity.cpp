#include "identity.hpp"

#include "mancala/protocol/names.hpp"
#include "random.hpp"
#include "text.hpp"

namespace mancala::server {
namespace {

Sha256Digest from_hex(const std::string& hex) {
  Sha256Digest digest{};
  const auto nibble = [](char c) {
    return static_cast<std::uint8_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  };
  for (std::size_t i = 0; i < digest.size() && 2 * i + 1 < hex.size(); ++i)
    digest[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  return digest;
}

}  // namespace

PlayerDirectory::NewPlayer PlayerDirectory::make(std::string name) {
  std::string token = random_text(kTokenCharacters);
  auto player = std::make_shared<const Player>(
      Player{random_text(kPlayerIdCharacters), std::move(name), sha256(token)});
  return {std::move(player), std::move(token)};
}

StoredPlayer PlayerDirectory::to_stored(const Player& player) {
  return {player.id, player.name, to_hex(player.token_hash)};
}

std::optional<SeatRating> PlayerRatings::of(const std::string& game) const {
  const std::lock_guard lock(mutex_);
  const auto it = by_game_.find(game);
  return it == by_game_.end() ? std::nullopt : std::optional(it->second);
}

std::map<std::string, SeatRating> PlayerRatings::all() const {
  const std::lock_guard lock(mutex_);
  return by_game_;
}

void PlayerRatings::set(std::map<std::string, SeatRating> ratings) {
  const std::lock_guard lock(mutex_);
  by_game_ = std::move(ratings);
}

void PlayerDirectory::index(const PlayerRef& player) {
  if (player->account)
    account_names_[protocol::name_skeleton(player->name)] = player->name;
  else
    by_token_hash_[to_hex(player->token_hash)] = player;
  by_id_[player->id] = player;
}

void PlayerDirectory::add(PlayerRef player) {
  const std::lock_guard lock(mutex_);
  index(player);
}

void PlayerDirectory::load(const std::vector<StoredPlayer>& players) {
  for (const auto& stored : players)
    add(std::make_shared<const Player>(Player{stored.id, stored.name, from_hex(stored.token_hash), stored.account}));
}

void PlayerDirectory::load_ratings(const std::map<std::string, std::map<std::string, SeatRating>>& ratings) {
  for (const auto& [id, by_game] : ratings)
    if (const auto player = find(id)) player->ratings->set(by_game);
}

PlayerRef PlayerDirectory::become_account(const std::string& id, const std::string& name) {
  const std::lock_guard lock(mutex_);
  auto account = std::make_shared<Player>(Player{id, name, {}, true});
  if (const auto it = by_id_.find(id); it != by_id_.end()) {
    by_token_hash_.erase(to_hex(it->second->token_hash));
    account->ratings = it->second->ratings;
  }
  index(account);
  return account;
}

std::optional<std::string> PlayerDirectory::account_like(const std::string& name) const {
  const std::string skeleton = protocol::name_skeleton(name);
  const std::lock_guard lock(mutex_);
  const auto it = account_names_.find(skeleton);
  return it == account_names_.end() ? std::nullopt : std::optional(it->second);
}

PlayerRef PlayerDirectory::find_by_token(std::string_view token) const {
  const Sha256Digest digest = sha256(token);
  PlayerRef candidate;
  {
    const std::lock_guard lock(mutex_);
    const auto it = by_token_hash_.find(to_hex(digest));
    if (it != by_token_hash_.end()) candidate = it->second;
  }
  // The lookup is keyed by the hash, which reveals nothing usable about the token; the final
  // comparison is constant-time all the same.
  if (candidate && constant_time_equal(candidate->token_hash, digest)) return candidate;
  return nullptr;
}

PlayerRef PlayerDirectory::find(const std::string& id) const {
  const std::lock_guard lock(mutex_);
  const auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : it->second;
}

}  // namespace mancala::server
