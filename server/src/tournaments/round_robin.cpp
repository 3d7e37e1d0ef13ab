#include "round_robin.hpp"

namespace mancala::server {

std::vector<std::pair<std::size_t, std::size_t>> round_robin_pairs(std::size_t players) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  for (std::size_t a = 0; a < players; ++a)
    for (std::size_t b = a + 1; b < players; ++b) pairs.emplace_back(a, b);
  return pairs;
}

}  // namespace mancala::server
