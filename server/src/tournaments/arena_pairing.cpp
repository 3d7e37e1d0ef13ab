#include "arena_pairing.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "seek_pool.hpp"

namespace mancala::server {
namespace {

// Seats `players` (in rank order) with the seek pool's rule; `avoid`: keep last opponents apart.
// Returns the tables and leaves the unseated in `players`.
std::vector<std::vector<std::string>> seat_with_pool(std::vector<FreePlayer>& players, const std::vector<int>& sizes,
                                                     bool avoid) {
  std::map<std::string, std::string> last;
  for (const auto& player : players) last[player.player_id] = player.last_opponent;
  SystemTime now{};
  SeekPool pool(
      [&now] { return now; },
      [&](const std::string& a, const std::string& b) { return avoid && last[a] == b; }, "arena-");
  std::vector<Table> tables;
  const SeekKind kind{"arena", Json::object(), std::nullopt, false};
  for (const auto& player : players) {
    std::vector<int> accepted;
    for (const int size : sizes)
      if (size <= static_cast<int>(players.size())) accepted.push_back(size);
    if (accepted.empty()) break;
    auto added = pool.add(player.player_id, kind, accepted, player.rating);
    if (auto* ok = std::get_if<SeekPool::Added>(&added); ok && ok->table) tables.push_back(std::move(*ok->table));
  }
  // Everyone arrived at once: nobody needs to wait for a fuller table that cannot come.
  now += SeekPool::kWaitPerSizeGivenUp * static_cast<int>(sizes.size());
  for (auto& table : pool.pair_waiting()) tables.push_back(std::move(table));

  std::vector<std::vector<std::string>> out;
  std::set<std::string> seated;
  for (const auto& table : tables) {
    std::vector<std::string> ids;
    for (const auto& seeker : table.seekers) ids.push_back(seeker.player_id);
    seated.insert(ids.begin(), ids.end());
    out.push_back(std::move(ids));
  }
  std::erase_if(players, [&](const FreePlayer& p) { return seated.contains(p.player_id); });
  return out;
}

}  // namespace

std::vector<std::vector<std::string>> pair_arena(std::vector<FreePlayer> free, const std::vector<int>& sizes) {
  // Nearer ranks first, and nearer ratings among equal scores.
  std::stable_sort(free.begin(), free.end(), [](const FreePlayer& a, const FreePlayer& b) {
    return a.score != b.score ? a.score > b.score : a.rating > b.rating;
  });
  auto tables = seat_with_pool(free, sizes, true);
  if (free.size() >= 2)  // only last opponents are left free: they play again rather than wait
    for (auto& table : seat_with_pool(free, sizes, false)) tables.push_back(std::move(table));
  return tables;
}

}  // namespace mancala::server
