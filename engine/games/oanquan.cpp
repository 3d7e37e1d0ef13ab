#include "games/oanquan.hpp"

#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>

namespace mancala {
namespace {

const OptionSpec kOptions[] = {
    {"match_mode", "match", Json::array({"match", "single"}), 0, 0,
     "Rounds with selling of squares (match) or one round scored by points (single)"},
    {"sold_squares_to_end", 3, Json::array({3, 4}), 0, 0,
     "The match ends when a player has to sell this many squares outright"},
    {"chain_captures", true, Json::array({true, false}), 0, 0,
     "A capture continues over alternating empty squares and occupied spaces (false: one capture)"},
    {"first_player", 0, Json::array({0, 1, "random"}), 0, 0,
     "Who starts round 1: South (0), North (1) or a random draw"},
    {"round_starter", "alternate", Json::array({"alternate", "same"}), 0, 0,
     "Later rounds are started by the other player (alternate) or the same one"},
    {"stall_limit", 200, nullptr, 50, 2000, "Turns without a capture that end a round as stalled"},
    {"max_rounds", 0, nullptr, 0, 100,
     "Rounds after which the player with more small counters wins (0 = no limit)"},
    {"illegal_move_policy", "reject", Json::array({"reject", "forfeit"}), 0, 0,
     "An illegal move is refused (reject) or loses the match (forfeit)"},
};

// --- geometry: a ring of twelve positions, end spaces at 0 and 6 (OQ-1, OQ-2) ---------------
constexpr int kPositions = 12;
constexpr std::array<int, 10> kSquares = {1, 2, 3, 4, 5, 7, 8, 9, 10, 11};
// Each seat's row from that player's own left to right; squares are sold from the right (§2.6).
constexpr std::array<std::array<int, 5>, 2> kRow = {{{1, 2, 3, 4, 5}, {7, 8, 9, 10, 11}}};
// One step in each direction, as an offset around the ring: [0] ccw = +1, [1] cw = -1 = +11.
constexpr std::array<int, 2> kStride = {1, kPositions - 1};
using Ring = std::array<std::uint8_t, kPositions>;

// kWindow[d][from][n]: one counter in each of the n < 12 positions after `from` in direction d.
// A lap is then one addition of its window instead of a loop of single drops.
constexpr auto kWindow = [] {
  std::array<std::array<std::array<Ring, kPositions>, kPositions>, 2> table{};
  for (int d = 0; d < 2; ++d)
    for (int from = 0; from < kPositions; ++from)
      for (int n = 0; n < kPositions; ++n)
        for (int k = 1; k <= n; ++k) table[d][from][n][(from + k * kStride[d]) % kPositions] = 1;
  return table;
}();

// kUnit[x]: one counter at x alone.
constexpr auto kUnit = [] {
  std::array<Ring, kPositions> table{};
  for (int x = 0; x < kPositions; ++x) table[x][x] = 1;
  return table;
}();

// The twelve positions as two machine words (bytes 0-7 and 8-11), so that a whole lap is one
// addition. No position ever holds more than the 50 counters of the game, so byte-wise sums and
// differences never carry into the next position.
struct RingWords {
  std::uint64_t low = 0;
  std::uint32_t high = 0;
  explicit RingWords(const Ring& ring) {
    static_assert(sizeof(Ring) == 12);
    std::memcpy(&low, ring.data(), 8);
    std::memcpy(&high, ring.data() + 8, 4);
  }
  void store(Ring& ring) const {
    std::memcpy(ring.data(), &low, 8);
    std::memcpy(ring.data() + 8, &high, 4);
  }
};

// Lifts every counter at `from` and sows them one per position in `direction` (the origin gets
// its share of full laps, QD-ORIGIN). Returns how many were sown. Whole words are read and written
// so that consecutive laps never wait on a narrow store.
int lift_and_sow(Ring& ring, int from, int direction) {
  const int count = ring[from];
  const auto laps_around = static_cast<std::uint32_t>(count / kPositions);
  const RingWords lifted(kUnit[from]);
  const RingWords drops(kWindow[direction][from][count % kPositions]);
  RingWords w(ring);
  w.low = w.low - count * lifted.low + drops.low + laps_around * 0x0101010101010101ULL;
  w.high = w.high - static_cast<std::uint32_t>(count) * lifted.high + drops.high +
           laps_around * 0x01010101U;
  w.store(ring);
  return count;
}

constexpr const char* kDirectionName[2] = {"ccw", "cw"};

// How a turn ends (§5.4 `end`).
enum class TurnEnd { capture, end_space_next, two_empty, loop_guard };
constexpr const char* kTurnEndName[] = {"capture", "end_space_next", "two_empty", "loop_guard"};

// C5 in O An Quan can never fire: between two pickups the sowing either drops a counter into an
// end space (never lifted during a turn, so the board cannot come back) or stays within one row
// and moves the pickup strictly forward. The guard's bookkeeping is therefore skipped for the
// first pickups of a turn, which covers nearly every turn; it still watches long turns, as
// insurance should the rules ever change.
constexpr int kUnguardedPickups = 16;

constexpr bool is_end(int x) { return x == 0 || x == 6; }
constexpr int end_index(int x) { return x == 0 ? 0 : 1; }  // which large-stone flag
constexpr Seat row_owner(int square) { return square < 6 ? 0 : 1; }

bool owns(const OanQuanMaterial& m, Seat p, int square) {
  return m.owner[square] == p || m.owner[square] == kHalf;
}

// The C6 key of a position (clarification 11): the material read as four machine words, mixed
// by folded 128-bit products (as wyhash does). It runs at the start of every turn, so the two
// halves are mixed independently and the words are loaded straight from the state.
__extension__ using Wide = unsigned __int128;  // GCC and Clang; pedantic mode needs the marker

std::uint64_t fold_multiply(std::uint64_t a, std::uint64_t b) {
  const Wide product = static_cast<Wide>(a) * b;
  return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

std::uint64_t position_key(const OanQuanMaterial& m) {
  static_assert(sizeof(OanQuanMaterial) == 32 && std::is_trivially_copyable_v<OanQuanMaterial>);
  std::uint64_t w[4];
  std::memcpy(w, &m, sizeof w);
  const std::uint64_t low =
      fold_multiply(w[0] ^ 0xa0761d6478bd642fULL, w[1] ^ 0xe7037ed1a0b428dbULL);
  const std::uint64_t high =
      fold_multiply(w[2] ^ 0x8ebc6af09c88c6e3ULL, w[3] ^ 0x589965cc75374cc3ULL);
  return fold_multiply(low ^ 0x1d8e4e27c47d124fULL, high ^ 0xa0761d6478bd642fULL);
}

// Bit x set when position x holds a small counter. `legal` needs it on every decision, so it is
// computed on whole words: each byte (always below 128) plus 0x7f sets its own high bit exactly
// when it is non-zero, and one multiplication gathers the eight flag bits of a word.
unsigned occupied(const Ring& ring) {
  static_assert(std::endian::native == std::endian::little, "bytes are read as words");
  const auto flags = [](std::uint64_t bytes) {
    return ((bytes + 0x7f7f7f7f7f7f7f7fULL) & 0x8080808080808080ULL) >> 7;  // bit 8i per byte i
  };
  const auto gather = [](std::uint64_t bits) {
    return static_cast<unsigned>((bits * 0x0102040810204080ULL) >> 56);  // bit 8i -> bit i
  };
  const RingWords w(ring);
  return gather(flags(w.low)) | gather(flags(w.high)) << 8;
}

// The positions of a mask, ascending.
std::vector<int> squares_of(unsigned mask) {
  std::vector<int> out;
  for (; mask != 0; mask &= mask - 1) out.push_back(std::countr_zero(mask));
  return out;
}

// Empty = no small counter and, for an end space, no large stone (§2.4).
bool is_empty(const OanQuanMaterial& m, int x) {
  return m.small[x] == 0 && !(is_end(x) && m.large[end_index(x)]);
}

// What a turn record lists beyond the move: built only when events are wanted.
struct TurnLog {
  Json laps = Json::array();
  Json captures = Json::array();
};

// Everything at x goes to p: small counters to the store, a large stone to p's count. The
// capture is reported into `captures` when events are wanted.
void capture(OanQuanMaterial& m, Seat p, int x, Json* captures) {
  const int small = m.small[x];
  const bool large = is_end(x) && m.large[end_index(x)];
  m.store[p] = static_cast<std::uint8_t>(m.store[p] + small);
  m.small[x] = 0;
  if (large) {
    m.large[end_index(x)] = 0;
    ++m.quan[p];
  }
  if (captures) captures->push_back({{"space", x}, {"small", small}, {"large", large}});
}

std::array<std::uint8_t, 12> own_rows() {
  std::array<std::uint8_t, 12> owner{};
  for (int s : kRow[1]) owner[s] = 1;
  return owner;
}

// A key that is a square's number ("1".."11").
JsonWriter& square_key(JsonWriter& out, int square) {
  char digits[4];
  const auto end = std::to_chars(digits, digits + sizeof digits, square).ptr;
  return out.key(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

void write_ownership(JsonWriter& out, const std::array<std::uint8_t, 12>& owner) {
  out.begin_object();
  for (int s : kSquares) {
    square_key(out, s);
    owner[s] == kHalf ? out.value("half") : out.value(owner[s]);
  }
  out.end_object();
}

Json seat_or_null(Seat seat) { return seat == kNoSeat ? Json() : Json(seat); }

// More points wins; equal points, nobody.
Seat leader(std::array<int, 2> values) {
  if (values[0] == values[1]) return kNoSeat;
  return values[0] > values[1] ? 0 : 1;
}

std::array<int, 2> points_of(const OanQuanRound& r) {
  return {r.small[0] + 10 * r.large[0], r.small[1] + 10 * r.large[1]};
}

const char* round_end_name(OanQuanRoundEnd end) {
  switch (end) {
    case OanQuanRoundEnd::both_large_captured: return "both_large_captured";
    case OanQuanRoundEnd::no_moves: return "no_moves";
    case OanQuanRoundEnd::stalled: return "stalled";
  }
  return "";
}

const char* end_name(OanQuanEnd end) {
  switch (end) {
    case OanQuanEnd::sold_squares: return "sold_squares";
    case OanQuanEnd::single_round: return "single_round";
    case OanQuanEnd::max_rounds: return "max_rounds";
    case OanQuanEnd::resign: return "resign";
    case OanQuanEnd::illegal_move: return "illegal_move";
    case OanQuanEnd::none: break;
  }
  return "";
}

void write_sale(JsonWriter& out, const OanQuanSale& sale) {
  out.begin_object()
      .key("seller")
      .seat_or_null(sale.seller)
      .field("deficit", sale.deficit)
      .field("sold_full", sale.sold_full)
      .field("half", sale.half)
      .key("ownership");
  write_ownership(out, sale.owner);
  out.key("half_fill").begin_object();
  if (sale.half) square_key(out, sale.half_square).array(sale.half_fill);
  out.end_object().end_object();
}

// §6.1's round record: its fields, which a round_end event also carries after its name.
void write_round_fields(JsonWriter& out, const OanQuanRound& r) {
  out.field("round", r.round)
      .field("starter", r.starter)
      .field("end_reason", round_end_name(r.end))
      .field("turns", r.turns)
      .key("ownership");
  write_ownership(out, r.owner);
  out.key("leftover").begin_object().key("rows").array(r.rows).key("half_split").begin_array();
  if (r.half_square != 0)
    out.begin_object()
        .field("square", r.half_square)
        .field("counters", r.half_counters)
        .key("split")
        .array(r.half_split)
        .end_object();
  out.end_array()
      .key("end_spaces")
      .array(r.end_spaces)
      .end_object()
      .key("small")
      .array(r.small)
      .key("large")
      .array(r.large)
      .key("points")
      .array(points_of(r))
      .key("round_winner")
      .seat_or_null(leader(points_of(r)))
      .key("next");
  if (r.match_went_on) write_sale(out, r.sale);
  else out.null();
}

}  // namespace

// §2.6: five counters per square; the seller keeps whole squares from his left, then shares one
// square if his count is not a multiple of five, and the buyer gets the rest of the row.
OanQuanSale plan_sale(std::array<int, 2> small) {
  OanQuanSale sale;
  sale.owner = own_rows();
  if (small[0] == small[1]) return sale;
  const Seat seller = small[0] < small[1] ? 0 : 1;
  const Seat buyer = 1 - seller;
  sale.seller = seller;
  sale.deficit = 25 - small[seller];
  sale.sold_full = sale.deficit / 5;
  sale.half = sale.deficit % 5 != 0;
  const int kept = small[seller] / 5;
  for (int i = 0; i < 5; ++i) {
    const int square = kRow[seller][i];
    if (i < kept) continue;
    if (i == kept && sale.half) {
      sale.owner[square] = kHalf;
      sale.half_square = square;
      sale.half_fill[seller] = small[seller] % 5;
      sale.half_fill[buyer] = 5 - small[seller] % 5;
    } else {
      sale.owner[square] = static_cast<std::uint8_t>(buyer);
    }
  }
  return sale;
}

OanQuan::OanQuan(const GameSetup& setup) : options_(std::make_shared<const Json>(setup.options)) {
  const Json& o = setup.options;
  s_.single_round = o.at("match_mode") == "single";
  s_.sold_squares_to_end = o.at("sold_squares_to_end").get<int>();
  s_.chain_captures = o.at("chain_captures").get<bool>();
  s_.same_starter = o.at("round_starter") == "same";
  s_.stall_limit = o.at("stall_limit").get<int>();
  s_.max_rounds = o.at("max_rounds").get<int>();
  s_.forfeit_policy = o.at("illegal_move_policy") == "forfeit";
  for (int s : kSquares) s_.m.small[s] = 5;  // OQ-4
  s_.m.large = {1, 1};
  s_.m.owner = own_rows();
  s_.m.to_move = static_cast<std::uint8_t>(setup.first_player);
  s_.starter = setup.first_player;
  index_ownership();
  begin_turn(nullptr);  // counts the opening position (clarification 10)
}

OanQuan OanQuan::from_position(const Json& options, std::span<const int> position, Seat to_move,
                               int round) {
  const auto fail = [](const std::string& why) {
    throw EngineError(ErrorCode::bad_request, "bad O An Quan position: " + why);
  };
  if (position.size() != 28)
    fail("it has 28 numbers (12 positions, 2 large stones, 2 stores, 2 captured large, 10 owners)");
  if (to_move != 0 && to_move != 1) fail("the mover is seat 0 or 1");
  if (round < 1) fail("rounds count from 1");
  OanQuan game(GameSetup{resolve_options(kOptions, options), to_move});
  for (int v : position)
    if (v < 0 || v > 50) fail("every number lies in 0..50");
  OanQuanMaterial m;
  int small = 0;
  for (int x = 0; x < kPositions; ++x) small += m.small[x] = static_cast<std::uint8_t>(position[x]);
  m.large = {static_cast<std::uint8_t>(position[12]), static_cast<std::uint8_t>(position[13])};
  m.store = {static_cast<std::uint8_t>(position[14]), static_cast<std::uint8_t>(position[15])};
  m.quan = {static_cast<std::uint8_t>(position[16]), static_cast<std::uint8_t>(position[17])};
  small += m.store[0] + m.store[1];
  int halves = 0;
  std::array<int, 2> owned{};
  for (int i = 0; i < 10; ++i) {
    const int owner = position[18 + i];
    if (owner > 2) fail("an owner is 0, 1 or 2 (half)");
    m.owner[kSquares[i]] = static_cast<std::uint8_t>(owner);
    if (owner == kHalf) ++halves;
    for (Seat p = 0; p < 2; ++p) owned[p] += owner == p || owner == kHalf;
  }
  if (m.large[0] > 1 || m.large[1] > 1) fail("a large stone is present (1) or not (0)");
  if (small != 50) fail("the small counters add up to " + std::to_string(small) + ", not 50");
  if (m.large[0] + m.large[1] + m.quan[0] + m.quan[1] != 2) fail("there are two large stones");
  if (m.quan[0] + m.quan[1] == 2) fail("both large stones are captured: the round is over");
  if (halves > 1) fail("at most one square is half-owned");
  if (owned[0] == 0 || owned[1] == 0) fail("each player owns at least one square");
  m.to_move = static_cast<std::uint8_t>(to_move);
  game.s_.m = m;
  game.s_.round = round;
  game.s_.starter = to_move;
  game.index_ownership();
  game.history_.clear();
  game.begin_turn(nullptr);
  return game;
}

void OanQuan::legal(DecisionList& out) const {
  out.clear();
  if (s_.end != OanQuanEnd::none) return;
  if (s_.selected != 0) {
    out.push_back(kOanQuanCcw);
    out.push_back(kOanQuanCw);
    return;
  }
  const Seat p = s_.m.to_move;
  for (unsigned playable = occupied(s_.m.small) & s_.mine[p]; playable != 0;
       playable &= playable - 1)
    out.push_back(static_cast<Decision>(std::countr_zero(playable)));
}

void OanQuan::apply(Decision decision, Events* events) {
  if (decision < kOanQuanCcw) {  // the square; the direction follows
    s_.selected = static_cast<std::uint8_t>(decision);
    return;
  }
  const int square = s_.selected;
  s_.selected = 0;
  play_turn(square, decision == kOanQuanCcw ? 0 : 1, events);
  if (s_.m.quan[0] + s_.m.quan[1] == 2) {  // QD-ROUNDEND: checked once the turn is complete
    end_round(OanQuanRoundEnd::both_large_captured, events);
    return;
  }
  s_.m.to_move = static_cast<std::uint8_t>(1 - s_.m.to_move);
  begin_turn(events);
}

// §2.4 `play`: relay sowing in one direction, then a capture (chain) or the end of the turn.
void OanQuan::play_turn(int square, int direction, Events* events) {
  OanQuanMaterial& m = s_.m;
  const Seat p = m.to_move;
  const int stride = kStride[direction];
  const auto next = [stride](int x) { return (x + stride) % kPositions; };
  s_.passes_in_a_row = 0;
  ++s_.turns;

  // Laps and captures are collected only for the events: playouts must not allocate.
  std::optional<TurnLog> log;
  if (events) log.emplace();
  Json* capture_log = log ? &log->captures : nullptr;
  TurnEnd end = TurnEnd::capture;
  LoopGuard<Ring> guard;  // C5, see kUnguardedPickups
  int pickups = 0;
  int from = square;
  while (true) {
    const int count = lift_and_sow(m.small, from, direction);
    const int pos = (from + count * stride) % kPositions;
    if (log)
      log->laps.push_back(
          json_object("from", from, "count", count, "end", pos, "dir", kDirectionName[direction]));
    const int ahead = next(pos);
    if (is_end(ahead)) {  // QD-RELAYEND: whatever the end space holds
      end = TurnEnd::end_space_next;
      break;
    }
    if (m.small[ahead] > 0) {  // relay from the next square, any owner's (OQ-7)
      if (++pickups > kUnguardedPickups && guard.repeats(m.small, ahead)) {
        end = TurnEnd::loop_guard;
        break;
      }
      from = ahead;
      continue;
    }
    int target = next(ahead);  // `ahead` is an empty square
    if (is_empty(m, target)) {
      end = TurnEnd::two_empty;
      break;
    }
    capture(m, p, target, capture_log);
    while (s_.chain_captures) {  // QD-CHAIN; gaps are squares only (QD-GAP)
      const int gap = next(target);
      const int beyond = next(gap);
      if (is_end(gap) || m.small[gap] != 0 || is_empty(m, beyond)) break;
      capture(m, p, beyond, capture_log);
      target = beyond;
    }
    break;
  }
  s_.quiet_turns = end == TurnEnd::capture ? 0 : s_.quiet_turns + 1;

  if (log) {
    Json refill;
    if (s_.refilled > 0) {
      refill = json_object("squares", squares_of(s_.mine[p]), "from_store", s_.refilled);
    }
    events->push_back(json_object("event", "turn",
                                  "game", "oanquan",
                                  "round", s_.round,
                                  "turn", s_.turns,
                                  "player", p,
                                  "move", json_object("pit", square, "dir", kDirectionName[direction]),
                                  "refill", std::move(refill),
                                  "laps", std::move(log->laps),
                                  "end", kTurnEndName[static_cast<int>(end)],
                                  "captures", std::move(log->captures)));
  }
  s_.refilled = 0;
}

// §2.4 `begin_turn`: the stall check (C6, before any refill or pass, clarification 10), then the
// refill of an empty row or the automatic pass.
void OanQuan::begin_turn(Events* events) {
  while (true) {
    OanQuanMaterial& m = s_.m;
    const Seat p = m.to_move;
    const bool third_time = history_.count(position_key(m)) >= 3;
    if (third_time || s_.quiet_turns >= s_.stall_limit) {
      end_round(OanQuanRoundEnd::stalled, events);
      return;
    }
    if ((occupied(m.small) & s_.mine[p]) != 0) return;  // something to play
    const std::vector<int> squares = squares_of(s_.mine[p]);
    const int mine = static_cast<int>(squares.size());
    if (m.store[p] >= mine) {  // QD-REFILL: one counter into each owned square; not a turn
      for (int s : squares) m.small[s] = 1;
      m.store[p] = static_cast<std::uint8_t>(m.store[p] - mine);
      s_.refilled = static_cast<std::uint8_t>(mine);
      if (events)
        events->push_back(Json{{"event", "refill"}, {"player", p}, {"squares", squares},
                               {"from_store", mine}});
      return;
    }
    // QD-SHORT: too few counters to refill; the pass is a turn without a capture.
    if (events) events->push_back(Json{{"event", "pass"}, {"player", p}});
    ++s_.turns;
    ++s_.quiet_turns;
    if (++s_.passes_in_a_row == 2) {
      end_round(OanQuanRoundEnd::no_moves, events);
      return;
    }
    m.to_move = static_cast<std::uint8_t>(1 - p);
  }
}

// §2.5 and §2.7: leftovers to their owners, the round record, then the match end or next round.
void OanQuan::end_round(OanQuanRoundEnd reason, Events* events) {
  OanQuanMaterial& m = s_.m;
  OanQuanRound r;
  r.round = s_.round;
  r.starter = s_.starter;
  r.end = reason;
  r.turns = s_.turns;
  r.owner = m.owner;
  for (int s : kSquares) {
    const int n = m.small[s];
    m.small[s] = 0;
    if (m.owner[s] == kHalf) {  // QD-SPLIT: the odd counter goes to the row owner
      const Seat row = row_owner(s);
      r.half_square = s;
      r.half_counters = n;
      r.half_split[row] = n - n / 2;
      r.half_split[1 - row] = n / 2;
    } else {
      r.rows[m.owner[s]] += n;
    }
  }
  r.end_spaces = {m.small[0], m.small[6]};  // QD-ENDLEFT: West to South, East to North
  m.small[0] = m.small[6] = 0;
  for (Seat p = 0; p < 2; ++p) {
    const int leftover = r.rows[p] + r.half_split[p] + r.end_spaces[p];
    m.store[p] = static_cast<std::uint8_t>(m.store[p] + leftover);
    r.small[p] = m.store[p];
    r.large[p] = m.quan[p];  // large stones left on the board score for nobody (QD-UNCAP)
  }
  r.sale = plan_sale(r.small);

  OanQuanEnd match_end = OanQuanEnd::none;
  Seat winner = kNoSeat;
  if (s_.single_round) {
    match_end = OanQuanEnd::single_round;
    winner = leader(points_of(r));
  } else if (r.sale.sold_full >= s_.sold_squares_to_end) {  // wins over max_rounds (clar. 12)
    match_end = OanQuanEnd::sold_squares;
    winner = 1 - r.sale.seller;
  } else if (s_.max_rounds > 0 && s_.round >= s_.max_rounds) {
    match_end = OanQuanEnd::max_rounds;
    winner = leader(r.small);
  }
  r.match_went_on = match_end == OanQuanEnd::none;
  rounds_.push_back(r);
  if (events) {
    events->push_back(json_tree([&](JsonWriter& out) {
      out.begin_object().field("event", "round_end");
      write_round_fields(out, r);
      out.end_object();
    }));
  }
  if (match_end != OanQuanEnd::none) {
    finish(match_end, winner, kNoSeat, events);  // clarification 13: the swept board stays
    return;
  }
  start_round(r.sale);
  begin_turn(events);
}

// §2.6: every square gets five counters again, the large stones return, ownership is rebuilt.
void OanQuan::start_round(const OanQuanSale& sale) {
  OanQuanMaterial& m = s_.m;
  m.small = {};
  for (int s : kSquares) m.small[s] = 5;
  m.large = {1, 1};
  m.store = {};
  m.quan = {};
  m.owner = sale.owner;
  index_ownership();
  ++s_.round;
  if (!s_.same_starter) s_.starter = 1 - s_.starter;  // OQ-5
  m.to_move = static_cast<std::uint8_t>(s_.starter);
  s_.turns = 0;
  s_.quiet_turns = 0;
  s_.passes_in_a_row = 0;
  s_.refilled = 0;
  history_.clear();
}

void OanQuan::index_ownership() {
  s_.mine = {};
  for (int s : kSquares)
    for (Seat p = 0; p < 2; ++p)
      if (owns(s_.m, p, s)) s_.mine[p] = static_cast<std::uint16_t>(s_.mine[p] | 1U << s);
}

void OanQuan::finish(OanQuanEnd end, Seat winner, Seat offender, Events* events) {
  s_.end = end;
  s_.winner = winner;
  s_.offender = offender;
  s_.selected = 0;
  if (events) events->push_back(Json{{"event", "game_end"}, {"result", result()}});
}

// §5.5: giving up loses the whole match, without a sweep or a round record (clarification 13).
void OanQuan::resign(Seat seat, Events* events) {
  finish(OanQuanEnd::resign, 1 - seat, seat, events);
}
void OanQuan::forfeit(Seat seat, Events* events) {
  finish(OanQuanEnd::illegal_move, 1 - seat, seat, events);
}

std::string OanQuan::token(Decision decision) const {
  if (decision == kOanQuanCcw) return "ccw";
  if (decision == kOanQuanCw) return "cw";
  return std::to_string(decision);
}

std::optional<Decision> OanQuan::parse_token(std::string_view token) const {
  if (token == "ccw") return kOanQuanCcw;
  if (token == "cw") return kOanQuanCw;
  for (int s : kSquares)
    if (token == std::to_string(s)) return static_cast<Decision>(s);
  return std::nullopt;  // `0`, `6`, `12`, `03`, `x`: not an O An Quan token (clarification 5)
}

std::vector<int> OanQuan::position() const {
  const OanQuanMaterial& m = s_.m;
  std::vector<int> out(m.small.begin(), m.small.end());
  out.reserve(28);
  for (auto v : {m.large[0], m.large[1], m.store[0], m.store[1], m.quan[0], m.quan[1]})
    out.push_back(v);
  for (int s : kSquares) out.push_back(m.owner[s]);
  return out;
}

void OanQuan::write_board(JsonWriter& out) const {
  const OanQuanMaterial& m = s_.m;
  out.begin_object().key("squares").begin_object();
  for (int s : kSquares) square_key(out, s).value(m.small[s]);
  out.end_object().key("end_spaces").begin_object();
  for (int x : {0, 6})
    square_key(out, x).begin_object().field("small", m.small[x]).field("large", m.large[end_index(x)] != 0).end_object();
  out.end_object().key("ownership");
  write_ownership(out, m.owner);
  out.key("stores").array(m.store).key("large_captured").array(m.quan).key("selected");
  s_.selected ? out.value(s_.selected) : out.null();
  out.end_object();
}

void OanQuan::write_scores(JsonWriter& out) const {
  const OanQuanMaterial& m = s_.m;
  out.begin_object()
      .key("stores")
      .array(m.store)
      .key("large")
      .array(m.quan)
      .key("points")
      .begin_array()
      .value(m.store[0] + 10 * m.quan[0])
      .value(m.store[1] + 10 * m.quan[1])
      .end_array()
      .end_object();
}

void OanQuan::write_rounds(JsonWriter& out) const {
  out.begin_array();
  for (const auto& r : rounds_) {
    out.begin_object();
    write_round_fields(out, r);
    out.end_object();
  }
  out.end_array();
}

Json OanQuan::result() const {
  if (s_.end == OanQuanEnd::none) return nullptr;
  // The sale that decided the match; none when a player gave up or only one round was played.
  const bool by_sale = (s_.end == OanQuanEnd::sold_squares || s_.end == OanQuanEnd::max_rounds) &&
                       !rounds_.empty();
  return Json{{"game", "oanquan"},
              {"options", *options_},
              {"rounds", rounds()},
              {"winner", seat_or_null(s_.winner)},
              {"end_reason", end_name(s_.end)},
              {"offender", seat_or_null(s_.offender)},
              {"final_small", {s_.m.store[0], s_.m.store[1]}},
              {"sold_full", by_sale ? Json(rounds_.back().sale.sold_full) : Json()},
              {"half", by_sale ? Json(rounds_.back().sale.half) : Json()}};
}

void OanQuan::outcome(std::span<double> out) const { two_seat_outcome(s_.winner, out); }

// What a seat would take home if the round ended now: its store, the counters on its squares
// (half of a shared square) and, when a single round decides, ten per large stone (§2.6).
void OanQuan::material(std::span<int> out) const {
  const OanQuanMaterial& m = s_.m;
  for (Seat p = 0; p < 2; ++p) {
    int value = 2 * m.store[p];
    for (int s : kSquares)
      if (m.owner[s] == p) value += 2 * m.small[s];
      else if (m.owner[s] == kHalf) value += m.small[s];
    if (s_.single_round) value += 20 * m.quan[p];
    out[static_cast<std::size_t>(p)] = value;
  }
}

const GameType& oanquan_type() {
  static const GameType type{"oanquan", "O An Quan", 2, 2, kOptions, two_players,
                             [](const GameSetup& setup) -> std::unique_ptr<Game> {
                               return std::make_unique<OanQuan>(setup);
                             }};
  return type;
}

}  // namespace mancala
