#pragma once
// What Cups and Coin Duel really share (cups-and-coin-duel.md §1): two rows of N cups facing each
// other with a pot at each owner's right, laps that end in the pot, in an empty cup or in a filled
// one (or would run off the row), the capture of the cup facing the landing, and the source tokens
// `r<k>` / `c<i>`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mancala/game.hpp"

namespace mancala {

// G5: cup i of one side faces cup N + 1 - i of the other.
constexpr int opposite(int cups, int i) { return cups + 1 - i; }

// Directions relative to the sowing player (G6): R toward his own pot, L away from it.
inline constexpr int kRight = +1;
inline constexpr int kLeft = -1;

// L1-L3: how a lap ends.
enum class LapEnd : std::uint8_t { pot, empty, filled, overshoot, overrun };

struct Landing {
  LapEnd end;
  int cup;  // the landing position j; N + 1 is the sower's pot
};

// Where a lap of `count` items from `origin` (0 = the reserve) in direction `dir` ends. `held(q)`
// says how many items cup q (1..N) holds before the lap, with the origin already emptied. A lap
// drops at most one item into any cup, so "empty before the last item" is "empty before the lap".
template <class Held>
constexpr Landing resolve_lap(int cups, int origin, int count, int dir, Held&& held) {
  const int j = origin + dir * count;
  if (j > cups + 1) return {LapEnd::overshoot, j};
  if (j < 1) return {LapEnd::overrun, j};
  if (j == cups + 1) return {LapEnd::pot, j};
  return {held(j) == 0 ? LapEnd::empty : LapEnd::filled, j};
}

inline void add_items(std::int16_t& to, std::int16_t items) {
  to = static_cast<std::int16_t>(to + items);
}

// X1-X2: a turn that ends in the empty cup `landing` moves everything in the opponent's facing
// cup into the mover's pot (possibly nothing); the landing item stays. `facing_row` is the
// opponent's row indexed from 0; an item type needs `add_items(Item&, Item)` and `Item{}` empty.
// Returns what was taken.
template <class Row, class Item>
Item capture_opposite(Row& facing_row, Item& pot, int cups, int landing) {
  Item& facing = facing_row[static_cast<std::size_t>(opposite(cups, landing) - 1)];
  const Item taken = facing;
  add_items(pot, taken);
  facing = Item{};
  return taken;
}

// Source decisions: `r<k>` is k, `c<i>` is kCupDecision + i.
inline constexpr Decision kCupDecision = 1000;

// Parses `r<k>` / `c<i>` with k in 1..max_reserve and i in 1..cups (no signs, no leading zeros).
std::optional<Decision> parse_source_token(std::string_view token, int cups, int max_reserve);
std::string source_token(Decision decision);

}  // namespace mancala
