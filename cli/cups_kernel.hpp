#pragma once
// A deliberately minimal Cups: flat arrays, no allocation, no virtual calls, no events. The
// benchmark runs it beside the engine so the engine's overhead shows as a ratio. It follows
// the same rules (C-4..C-8); tests/engine/cups_kernel_test.cpp checks it against the engine.
#include <cstdint>

namespace mancala::cli {

struct CupsKernel {
  int n = 4;
  std::int16_t cups[2][10] = {};
  std::int16_t pot[2] = {};
  std::int16_t reserve[2] = {};
  int to_move = 0;
  bool over = false;

  void reset(int cups_per_side) {
    *this = CupsKernel{};
    n = cups_per_side;
    reserve[0] = reserve[1] = static_cast<std::int16_t>(10 * n);
  }

  // Writes the legal moves (k for reserve k, 100 + i for cup i) and returns how many.
  int legal(int* out) const {
    const int p = to_move;
    int count = 0;
    const int most = reserve[p] < n ? reserve[p] : n;
    for (int k = 1; k <= most; ++k) out[count++] = k;
    for (int i = 1; i <= n; ++i)
      if (cups[p][i - 1] == n + 1 - i) out[count++] = 100 + i;
    return count;
  }

  bool can_move(int p) const {
    if (reserve[p] > 0) return true;
    for (int i = 1; i <= n; ++i)
      if (cups[p][i - 1] == n + 1 - i) return true;
    return false;
  }

  void play(int move) {
    const int p = to_move, q = 1 - p;
    if (move < 100) {
      reserve[p] = static_cast<std::int16_t>(reserve[p] - move);
      for (int i = 0; i < move; ++i) ++cups[p][i];
      if (cups[p][move - 1] == 1) {
        std::int16_t& facing = cups[q][n - move];
        pot[p] = static_cast<std::int16_t>(pot[p] + facing);
        facing = 0;
      }
    } else {
      const int i = move - 100;
      cups[p][i - 1] = 0;
      for (int c = i; c < n; ++c) ++cups[p][c];
      ++pot[p];
    }
    if (can_move(q)) to_move = q;
    else if (!can_move(p)) over = true;
  }
};

}  // namespace mancala::cli
