#include "arena.hpp"

#include <algorithm>

#include "arena_pairing.hpp"
#include "round_robin.hpp"
#include "scoring.hpp"

namespace mancala::server {

namespace {
std::pair<std::string, std::string> pair_key(const std::string& a, const std::string& b) {
  return a < b ? std::pair(a, b) : std::pair(b, a);
}
}  // namespace

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
  if (round_robin_ ? started() : now_() >= ends_at_) return false;
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

bool Arena::over() const {
  if (round_robin_) {
    const std::size_t n = players_.size();
    return started() && rooms_.empty() && busy_.empty() && met_.size() >= (n < 2 ? 0 : n * (n - 1) / 2);
  }
  return now_() >= ends_at_ && rooms_.empty();
}

void Arena::met(const std::vector<std::string>& players) {
  if (players.size() == 2) met_.insert(pair_key(players[0], players[1]));
}

// Every pair once (round_robin.hpp's order), less those already seated: all of them at the start,
// and after a restart only those whose table was never opened.
std::vector<std::vector<std::string>> Arena::pairs_not_met() {
  std::vector<std::vector<std::string>> tables;
  for (const auto& [a, b] : round_robin_pairs(players_.size())) {
    const auto& first = players_[a].player_id;
    const auto& second = players_[b].player_id;
    if (met_.insert(pair_key(first, second)).second) tables.push_back({first, second});
  }
  for (const auto& table : tables)
    for (const auto& id : table) busy_[id] = true;
  return tables;
}

std::vector<std::vector<std::string>> Arena::pair_free() {
  if (!pairing()) return {};
  if (round_robin_) return pairs_not_met();
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
  if (round_robin_) met(players_by_seat);
  rooms_[room_id] = players_by_seat;
  room_order_.push_back(room_id);
  for (const auto& id : players_by_seat) busy_[id] = true;
}

void Arena::not_opened(const std::vector<std::string>& players) {
  for (const auto& id : players) busy_.erase(id);
  if (round_robin_ && players.size() == 2) met_.erase(pair_key(players[0], players[1]));  // tried again
}

std::vector<std::string> Arena::finished(const std::string& room_id, const Json& result) {
  const auto room = rooms_.find(room_id);
  if (room == rooms_.end()) return {};
  const std::vector<std::string> seated = room->second;
  rooms_.erase(room);
  std::erase(room_order_, room_id);
  for (const auto& id : seated)  // a round robin's player may still be in another game
    if (std::none_of(rooms_.begin(), rooms_.end(), [&](const auto& other) {
          return std::find(other.second.begin(), other.second.end(), id) != other.second.end();
        }))
      busy_.erase(id);
  const auto places = places_from_result(result, static_cast<int>(seated.size()));
  if (places.empty()) return {};  // no result to score (an aborted game): nobody scores
  score(seated, places);
  return seated;
}

void Arena::score(const std::vector<std::string>& seated, const std::vector<int>& places) {
  const auto points = place_points(places);
  for (std::size_t seat = 0; seat < seated.size(); ++seat) {
    auto* player = find_mutable(seated[seat]);
    if (!player) continue;
    const auto outcome = outcome_of_place(places, static_cast<int>(seat));
    ++player->games;
    player->last_opponent = seated[seat == 0 ? 1 : 0];
    if (round_robin_) {
      player->score += round_robin_points(outcome);
      continue;
    }
    ArenaStreak streak{player->streak};
    player->score += arena_points(points[seat], outcome, streak);
    player->streak = streak.wins_in_a_row;
  }
}

std::vector<std::string> Arena::rooms() const { return room_order_; }

}  // namespace mancala::server
