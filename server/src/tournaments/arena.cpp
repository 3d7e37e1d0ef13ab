#include "arena.hpp"

#include <algorithm>

#include "arena_pairing.hpp"
#include "scoring.hpp"

namespace mancala::server {

Arena::Arena(Now now, SystemTime starts_at, SystemTime ends_at, std::vector<int> sizes)
    : now_(std::move(now)), starts_at_(starts_at), ends_at_(ends_at), sizes_(std::move(sizes)) {}

TournamentPlayer* Arena::find_mutable(const std::string& player_id) {
  const auto it = std::find_if(players_.begin(), players_.end(),
                               [&](const TournamentPlayer& p) { return p.player_id == player_id; });
  return it == players_.end() ? nullptr : &*it;
}

const TournamentPlayer* Arena::find(const std::string& player_id) const {
  return const_cast<Arena*>(this)->find_mutable(player_id);
}

bool Arena::join(TournamentPlayer player) {
  if (now_() >= ends_at_) return false;
  if (auto* known = find_mutable(player.player_id)) {
    known->paused = false;
    return true;
  }
  player.paused = false;
  players_.push_back(std::move(player));
  return true;
}

bool Arena::leave(const std::string& player_id) {
  auto* player = find_mutable(player_id);
  if (!player) return false;
  if (!started()) {
    std::erase_if(players_, [&](const TournamentPlayer& p) { return p.player_id == player_id; });
    return true;
  }
  player->paused = true;  // a game being played goes on and counts
  return true;
}

std::vector<std::vector<std::string>> Arena::pair_free() {
  if (!pairing()) return {};
  std::vector<FreePlayer> free;
  for (const auto& player : players_)
    if (!player.paused && !busy_.contains(player.player_id))
      free.push_back({player.player_id, player.score, player.rating, player.last_opponent});
  auto tables = pair_arena(std::move(free), sizes_);
  for (const auto& table : tables)
    for (const auto& id : table) busy_[id] = true;
  return tables;
}

void Arena::opened(const std::string& room_id, const std::vector<std::string>& players_by_seat) {
  rooms_[room_id] = players_by_seat;
  room_order_.push_back(room_id);
  for (const auto& id : players_by_seat) busy_[id] = true;
}

void Arena::not_opened(const std::vector<std::string>& players) {
  for (const auto& id : players) busy_.erase(id);
}

std::vector<std::string> Arena::finished(const std::string& room_id, const Json& result) {
  const auto room = rooms_.find(room_id);
  if (room == rooms_.end()) return {};
  const std::vector<std::string> seated = room->second;
  rooms_.erase(room);
  std::erase(room_order_, room_id);
  for (const auto& id : seated) busy_.erase(id);
  const auto places = places_from_result(result, static_cast<int>(seated.size()));
  if (places.empty()) return {};  // no result to score (an aborted game): nobody scores
  const auto points = place_points(places);
  for (std::size_t seat = 0; seat < seated.size(); ++seat) {
    auto* player = find_mutable(seated[seat]);
    if (!player) continue;
    ArenaStreak streak{player->streak};
    player->score += arena_points(points[seat], outcome_of_place(places, static_cast<int>(seat)), streak);
    player->streak = streak.wins_in_a_row;
    ++player->games;
    player->last_opponent = seated[seat == 0 ? 1 : 0];
  }
  return seated;
}

std::vector<std::string> Arena::rooms() const { return room_order_; }

}  // namespace mancala::server
