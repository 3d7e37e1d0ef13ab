#pragma once
// A round robin's games (protocol "Tournaments"): every pair of players meets once, and all
// the games start together (a correspondence clock lets each player play many at once). Pure.
#include <cstddef>
#include <utility>
#include <vector>

namespace mancala::server {

// Every pair of the players 0..players-1 once, in the order a round-robin table reads
// (0-1, 0-2, …, 1-2, …).
std::vector<std::pair<std::size_t, std::size_t>> round_robin_pairs(std::size_t players);

}  // namespace mancala::server
