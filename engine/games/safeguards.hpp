#pragma once
// Safeguards the rule books add to games that could otherwise run forever. Written once, used by
// every game that needs them (O An Quan, Njaka, Duovallis: C5/C6; Coin Duel stage 3: repetition).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace mancala {

// FNV-1a over raw bytes: position keys are small, and a 64-bit hash makes a false repetition
// far less likely than any hardware fault.
inline std::uint64_t hash_bytes(const void* data, std::size_t size,
                                std::uint64_t h = 0xcbf29ce484222325ULL) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  return h;
}

// Counts how often each position has occurred at the start of a turn in the current round
// (clarifications 10-11). Games hash their own position key and call `count`.
class PositionHistory {
 public:
  void clear() { seen_.clear(); }
  // Records one more occurrence of `key` and returns how many there have been, this one included.
  int count(std::uint64_t key) {
    seen_.push_back(key);
    return static_cast<int>(std::count(seen_.begin(), seen_.end(), key));
  }

 private:
  std::vector<std::uint64_t> seen_;
};

// C5: before every pickup, remember (board, pickup position); a pair seen before in the same turn
// means the sowing would never end. Board is any trivially copyable array type.
template <class Board>
class LoopGuard {
 public:
  // True when this (board, position) pair already occurred in this turn; records it otherwise.
  bool repeats(const Board& board, int position) {
    for (const auto& [b, p] : seen_)
      if (p == position && std::memcmp(&b, &board, sizeof(Board)) == 0) return true;
    seen_.emplace_back(board, position);
    return false;
  }

 private:
  std::vector<std::pair<Board, int>> seen_;
};

}  // namespace mancala
