#include "standings.hpp"

#include <algorithm>

namespace mancala::server {

std::vector<Standing> rank_players(const std::vector<TournamentPlayer>& players) {
  std::vector<Standing> out;
  for (const auto& player : players) out.push_back({0, &player});
  std::stable_sort(out.begin(), out.end(),
                   [](const Standing& a, const Standing& b) { return a.player->score > b.player->score; });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

}  // namespace mancala::server
