#include "games/coin_duel.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace mancala {
namespace {

constexpr int kCups = CoinDuelState::kCups;
constexpr int kPot = kCups + 1;       // the sower's pot is position N + 1 of his track
constexpr int kMaxLaps = 1000;        // D3-5: a turn never needs more; deeper counts as stuck
constexpr int kCupBit = 16;           // legal_sources: bit kCupBit + i - 1 is c<i>
constexpr const char* kCoinLetters = "PNDQ";

const OptionSpec kOptions[] = {
    // A range rather than a list of choices: integers typed into JSON must match whatever their
    // encoding, and a range compares values.
    {"stage", 3, nullptr, 1, 3,
     "1: beans; 2: coins, each worth its face value; 3: four rounds with winning coins and sowing "
     "in either direction"},
    {"first_player", 0, Json::array({0, 1, "random"}), 0, 0,
     "Who moves first (in stage 3: in round 1): South (0), North (1) or a random draw"},
    {"round_starter", "alternate", Json::array({"alternate", "same"}), 0, 0,
     "Stage 3: rounds 2-4 start with the other player than the round before (alternate) or always "
     "with the first player (same)"},
    {"illegal_move_policy", "reject", Json::array({"reject", "forfeit"}), 0, 0,
     "An illegal move is refused (reject) or loses the game, in stage 3 the round (forfeit)"},
    {"max_turns_per_round", 1000, nullptr, 100, 10000,
     "Stage 3: a round ends, scored as it stands, after this many turns"},
};

// ---- the look-ahead (§3.4): item counts only, since coins never change what is legal (D2-2) ----

// The item counts of one row: [q] for cups q = 1..N, every other byte 0. No cup ever holds 256
// items: there are at most 80 in play, and constructed positions are held to 255.
using Counts = std::array<std::uint8_t, 16>;

int items_in(const Coins& cup) {
  std::uint32_t coins;  // the four denomination bytes, summed by one multiplication
  std::memcpy(&coins, &cup, sizeof coins);
  return static_cast<int>((coins * 0x01010101u) >> 24);
}

Counts counts_of(const std::array<Coins, kCups>& row) {
  Counts out{};
  for (std::size_t q = 1; q <= kCups; ++q) out[q] = static_cast<std::uint8_t>(items_in(row[q - 1]));
  return out;
}

// D-4: up to four items, or as many as reach one cup beyond the farthest item on the row (`f`,
// 0 for an empty row); never more than the row has cups or the reserve has items.
int reserve_limit(int farthest, int reserve) {
  return std::min(std::min(kCups, reserve), std::max(4, farthest + 1));
}

int farthest_item(const Counts& own) {
  int farthest = 0;
  for (int q = 1; q <= kCups; ++q) farthest = own[static_cast<std::size_t>(q)] > 0 ? q : farthest;
  return farthest;
}

__extension__ typedef unsigned __int128 Bytes16;

// Counts as one 128-bit integer, for the stage-3 look-ahead, which copies rows at every branch:
// copying a row and sowing a whole lap are then single integer operations.
class RowCounts {
 public:
  explicit RowCounts(const Counts& counts) { std::memcpy(&bits_, counts.data(), sizeof bits_); }
  int at(int q) const { return static_cast<int>(static_cast<unsigned>(bits_ >> (8 * q)) & 0xFFu); }
  void clear(int q) { bits_ &= ~(Bytes16{0xFF} << (8 * q)); }
  // One item into each of cups first..last.
  void add_one_each(int first, int last) { bits_ += kOnes[static_cast<std::size_t>(last)] - kOnes[static_cast<std::size_t>(first - 1)]; }

 private:
  static const std::array<Bytes16, kCups + 1> kOnes;
  Bytes16 bits_ = 0;
};
static_assert(std::endian::native == std::endian::little, "RowCounts reads Counts byte by byte");

// [m] = a one in each of cups 1..m.
constexpr std::array<Bytes16, kCups + 1> RowCounts::kOnes = [] {
  std::array<Bytes16, kCups + 1> out{};
  for (int m = 1; m <= kCups; ++m) out[static_cast<std::size_t>(m)] = out[static_cast<std::size_t>(m - 1)] | (Bytes16{1} << (8 * m));
  return out;
}();

// Stage 3, lap_ok of §3.4: can the turn still end legally if lap number `lap` sows `count` items
// from `from` in direction `dir`? `row` is the mover's row with cup `from` already emptied. Every
// continuation may go R or L (D3-1) and no ending needs a score (D3-2), so only running off the
// row, a dead end or the lap cap make a branch fail.
bool can_finish(RowCounts row, int from, int count, int dir, int lap) {
  while (true) {
    const Landing landing = resolve_lap(kCups, from, count, dir, [&](int q) { return row.at(q); });
    switch (landing.end) {
      case LapEnd::overshoot:
      case LapEnd::overrun: return false;
      case LapEnd::pot:
      case LapEnd::empty: return true;
      case LapEnd::filled: break;
    }
    if (lap + 1 >= kMaxLaps) return false;
    if (dir == kRight) row.add_one_each(from + 1, landing.cup);  // a filled cup is never the pot
    else row.add_one_each(landing.cup, from - 1);
    from = landing.cup;  // relay (D-5): the whole cup goes on
    count = row.at(from);
    row.clear(from);
    ++lap;
    if (can_finish(row, from, count, kRight, lap)) return true;
    dir = kLeft;
  }
}

// Whether a cup holds anything: its four counts read as one word.
bool holds_any(const Coins& cup) {
  std::uint32_t coins;
  std::memcpy(&coins, &cup, sizeof coins);
  return coins != 0;
}

// ---- which cups hold anything (CoinDuelState::filled) ----

std::uint16_t cup_bit(int i) { return static_cast<std::uint16_t>(1u << i); }

// Cups lo..hi; none when hi is lo - 1, as when a lap's next item is its last.
std::uint16_t cup_bits(int lo, int hi) { return static_cast<std::uint16_t>((2u << hi) - (1u << lo)); }

std::uint16_t filled_cups(const std::array<Coins, kCups>& row) {
  std::uint16_t out = 0;
  for (int i = 1; i <= kCups; ++i)
    if (holds_any(row[static_cast<std::size_t>(i - 1)])) out |= cup_bit(i);
  return out;
}

// [cups >> 1] = the same cups seen from the other side: bit i becomes bit N + 1 - i (G5).
constexpr auto kFacing = [] {
  std::array<std::uint16_t, 1u << kCups> out{};
  for (unsigned cups = 0; cups < out.size(); ++cups)
    for (int i = 1; i <= kCups; ++i)
      if (cups >> (i - 1) & 1) out[cups] = static_cast<std::uint16_t>(out[cups] | 1u << opposite(kCups, i));
  return out;
}();

// ---- stage 1 sowing ----

// A row as machine words: a whole lap of beans is dropped with a few additions rather than a loop
// over its cups, whose length the processor could only guess.
using RowWords = std::array<std::uint64_t, sizeof(std::array<Coins, kCups>) / sizeof(std::uint64_t)>;
static_assert(sizeof(RowWords) == sizeof(std::array<Coins, kCups>));

// The byte of cup i's denomination x in a row.
constexpr std::size_t coin_byte(int i, int x) { return static_cast<std::size_t>((i - 1) * static_cast<int>(sizeof(Coins)) + x); }

// [from][through] = a bean (a penny) in each of cups from + 1..through.
constexpr auto kBeansPast = [] {
  std::array<std::array<RowWords, kCups + 1>, kCups + 1> out{};
  for (int from = 0; from <= kCups; ++from)
    for (int through = from; through <= kCups; ++through)
      for (int i = from + 1; i <= through; ++i)
        out[static_cast<std::size_t>(from)][static_cast<std::size_t>(through)][coin_byte(i, kPenny) / 8] |=
            std::uint64_t{1} << (8 * (coin_byte(i, kPenny) % 8));
  return out;
}();

// [i] = every byte of a row but cup i's; all of them for i = 0, the reserve.
constexpr auto kAllBut = [] {
  std::array<RowWords, kCups + 1> out{};
  for (auto& words : out) words.fill(~std::uint64_t{0});
  for (int i = 1; i <= kCups; ++i)
    for (int x = 0; x < kDenominations; ++x)
      out[static_cast<std::size_t>(i)][coin_byte(i, x) / 8] &= ~(std::uint64_t{0xFF} << (8 * (coin_byte(i, x) % 8)));
  return out;
}();

// A lap of stage 1 from `from` (0 = the reserve): the origin cup is emptied into the lap and each
// of cups from + 1..through gets a bean, all in one pass over the row's words (no byte
// overflows). Emptying the origin here too, rather than by a narrower store just before, spares
// the word loads a wait for that store.
void sow_bean_lap(std::array<Coins, kCups>& row, int from, int through) {
  const RowWords& keep = kAllBut[static_cast<std::size_t>(from)];
  const RowWords& beans = kBeansPast[static_cast<std::size_t>(from)][static_cast<std::size_t>(through)];
  auto* bytes = reinterpret_cast<unsigned char*>(row.data());
#pragma GCC unroll 5
  for (std::size_t k = 0; k < keep.size(); ++k) {
    std::uint64_t word;
    std::memcpy(&word, bytes + k * sizeof word, sizeof word);
    word = (word & keep[k]) + beans[k];
    std::memcpy(bytes + k * sizeof word, &word, sizeof word);
  }
}

// ---- the look-ahead of stages 1-2 ----

// Stages 1-2: every lap goes R, so a chain never comes back to a cup it passed. Each cup beyond
// the origin gets at most one item and every landing meets a cup as it was when the turn began.
// How a chain ends once a lap lands on cup j is therefore a property of the row alone, and one
// pass finds it for every source: this is §3.4's lap_ok for one-way sowing.
//
// The pass runs at the start of every turn, so it is built for speed. Two bits per landing
// position j (cups 1..N, the pot N + 1, beyond it) live in one register: bit j says the chain
// that lands on j ends legally (not overshooting), bit kScores + j that it ends with a score, as
// a board turn must (D12-3): in the pot, or in an empty cup whose facing cup holds something. An
// empty cup ends the chain where it is, so its bits follow from which cups hold anything. A
// filled cup j relays its items and the one dropped on to a position at least two further right,
// so right to left each filled cup finds that position's bits already known, and cups j and
// j - 1 never wait for each other.
namespace one_way {

constexpr int kScores = 16;
constexpr std::uint32_t kBoth = 1 | 1u << kScores;
constexpr std::uint32_t kScoreBit = 1u << kScores;
constexpr int kBeyond = kPot + 1;  // stands for any landing past the pot
// Only positions up to the pot ever have bits set; a relay reaches at most kBeyond + 1, a first
// lap kBeyond. kUnset is a position past them: an empty cup relays nothing and is no source, so
// it reads there (and its "first landing" one below), which spares a test of its count.
constexpr int kUnset = kScores - 1;
static_assert(kBeyond + 1 < kUnset - 1);

// [j][n]: how far right of cup j the relay of Cup(j) holding n items lands (its first lap goes
// one less). A table per cup count: a load in place of a clamp and a test.
constexpr auto kRelayReach = [] {
  std::array<std::array<std::uint8_t, 256>, kCups + 1> out{};
  for (int j = 1; j <= kCups; ++j)
    for (int n = 0; n < 256; ++n)
      out[static_cast<std::size_t>(j)][static_cast<std::size_t>(n)] =
          static_cast<std::uint8_t>(n == 0 ? kUnset - j : std::min(j + n, kBeyond) + 1 - j);
  return out;
}();

// Stage 1 keeps its beans in the penny slot, so there a cup's count is one byte.
int beans_in(const Coins& cup) { return cup.count[kPenny]; }

template <int ItemsIn(const Coins&)>
std::uint32_t sources(const std::array<Coins, kCups>& own, std::uint16_t own_filled,
                      std::uint16_t facing_filled, const Coins& reserve) {
  static_assert(kCups % 2 == 0, "cups go in pairs");
  const auto reach = [&](int j) {
    return kRelayReach[static_cast<std::size_t>(j)][static_cast<std::size_t>(ItemsIn(own[static_cast<std::size_t>(j - 1)]))];
  };
  const std::uint32_t empty = static_cast<std::uint16_t>(~own_filled) & cup_bits(1, kCups);
  const std::uint32_t open = kFacing[facing_filled >> 1];
  std::uint32_t chains = kBoth << kPot | empty | (empty & open) << kScores;
  // Shifting the register right by a cup's reach brings the bits of its relay's landing down to
  // the cup, and the score bit of its first landing to one below.
  std::uint32_t boards = 0;  // bit kScores + j - 1: Cup(j) would score
#pragma GCC unroll 5  // constant shifts and masks
  for (int j = kCups; j >= 2; j -= 2) {
    const std::uint32_t right = chains >> reach(j);  // every position right of j is known
    chains |= (right & kBoth << j) | (chains >> reach(j - 1) & kBoth << (j - 1));
    // Cup(j - 1) may land first on j, known only now.
    boards |= (right & kScoreBit << (j - 1)) | (chains >> reach(j - 1) & kScoreBit << (j - 2));
  }
  // Reserve(k) lands first on cup k and need not score.
  const int most = reserve_limit(std::bit_width(static_cast<unsigned>(own_filled) >> 1), ItemsIn(reserve));
  const std::uint32_t reserve_bits = chains >> 1 & ((1u << most) - 1);
  return reserve_bits | (boards >> kScores) << kCupBit;
}

}  // namespace one_way

// [bit] = the source decision a bit of `legal_sources` stands for: a table rather than a test of
// which half the bit is in, since that test would be a branch nobody can predict.
constexpr std::array<Decision, 32> kSourceDecisions = [] {
  std::array<Decision, 32> out{};
  for (int k = 1; k <= kCups; ++k) out[static_cast<std::size_t>(k - 1)] = static_cast<Decision>(k);
  for (int i = 1; i <= kCups; ++i)
    out[static_cast<std::size_t>(kCupBit + i - 1)] = static_cast<Decision>(kCupDecision + i);
  return out;
}();

// The sources the player to move may choose (§3.4 coin_duel_legal_sources), as bits.
std::uint32_t legal_sources(const CoinDuelState& s) {
  const auto p = static_cast<std::size_t>(s.to_move);
  if (s.stage == 1)
    return one_way::sources<one_way::beans_in>(s.cups[p], s.filled[p], s.filled[1 - p], s.reserve[p]);
  if (s.stage == 2) return one_way::sources<items_in>(s.cups[p], s.filled[p], s.filled[1 - p], s.reserve[p]);
  const Counts own = counts_of(s.cups[p]);
  const int most = reserve_limit(farthest_item(own), s.reserve[p].total());
  const RowCounts row(own);
  std::uint32_t bits = 0;
  for (int k = 1; k <= most; ++k)  // a reserve lap always goes R (D-RESDIR)
    if (can_finish(row, 0, k, kRight, 0)) bits |= 1u << (k - 1);
  for (int i = 1; i <= kCups; ++i) {
    const int items = row.at(i);
    if (items == 0) continue;
    RowCounts board = row;
    board.clear(i);
    if (can_finish(board, i, items, kRight, 0) || can_finish(board, i, items, kLeft, 0))
      bits |= 1u << (kCupBit + i - 1);
  }
  return bits;
}

// ---- coins, values, rounds ----

Coins beans(int count) {
  Coins c;
  c.count[kPenny] = static_cast<std::uint8_t>(count);
  return c;
}

// D-2 and D3-R1: the reserve a player starts a game (stages 1-2) or a round (stage 3) with.
Coins starting_reserve(int stage, int round) {
  if (stage == 1) return beans(40);
  Coins c;
  c.count.fill(10);
  if (stage == 3) c.count[static_cast<std::size_t>(round - 1)] = 1;  // the round's winning coin
  return c;
}

int face_value(const Coins& coins) {
  int v = 0;
  for (int x = 0; x < kDenominations; ++x) v += coins.count[static_cast<std::size_t>(x)] * kCoinValue[static_cast<std::size_t>(x)];
  return v;
}

// Stage 3: round r's winning denomination is the r-th (P, N, D, Q); in a pot it counts ten times.
int winning_coin(int round) { return round - 1; }
int pot_value(const Coins& pot, int stage, int round) {
  if (stage != 3) return face_value(pot);
  const int w = winning_coin(round);
  return face_value(pot) + 9 * pot.count[static_cast<std::size_t>(w)] * kCoinValue[static_cast<std::size_t>(w)];
}

Json coins_json(const Coins& coins) {
  return Json::array({coins.count[0], coins.count[1], coins.count[2], coins.count[3]});
}

// Stage 1 shows beans as plain counts; coins are count arrays [P, N, D, Q] (§4).
Json items_json(const Coins& items, int stage) {
  return stage == 1 ? Json(items.total()) : coins_json(items);
}

std::string coin_token(int coin) { return std::string(1, kCoinLetters[coin]); }

void write_items(JsonWriter& out, const Coins& items, int stage) {
  stage == 1 ? out.value(items.total()) : out.array(items.count);
}

// §4.2: the round's scores from the pots and how the round ended.
void score_round(RoundRecord& r, int round) {
  const int w = winning_coin(round);
  for (int p = 0; p < 2; ++p) {
    r.values[static_cast<std::size_t>(p)] = pot_value(r.pots[static_cast<std::size_t>(p)], 3, round);
    r.gained[static_cast<std::size_t>(p)] = r.pots[static_cast<std::size_t>(p)].count[static_cast<std::size_t>(w)];
  }
  r.scores = {0, 0};
  if (r.end == RoundEnd::concession || r.end == RoundEnd::illegal_move || r.end == RoundEnd::resign) {
    // The other player's pot at face value, plus both winning coins once each (D-NODOUBLE).
    const auto other = static_cast<std::size_t>(1 - r.offender);
    const Coins& pot = r.pots[other];
    const int ordinary = face_value(pot) - pot.count[static_cast<std::size_t>(w)] * kCoinValue[static_cast<std::size_t>(w)];
    r.scores[other] = ordinary + 2 * 10 * kCoinValue[static_cast<std::size_t>(w)];
  } else if (r.gained[0] >= 1 && r.gained[1] >= 1) {
    // One winning coin each: only the higher pot counts; equal pots count for nobody (D-TIE).
    if (r.values[0] != r.values[1]) {
      const std::size_t higher = r.values[0] > r.values[1] ? 0 : 1;
      r.scores[higher] = r.values[higher];
    }
  } else {
    for (std::size_t p = 0; p < 2; ++p)
      if (r.gained[p] >= 1) r.scores[p] = r.values[p];  // no winning coin, no score
  }
}

const char* round_end_name(RoundEnd end) {
  switch (end) {
    case RoundEnd::both_winning_coins_scored: return "both_winning_coins_scored";
    case RoundEnd::no_legal_move: return "no_legal_move";
    case RoundEnd::concession: return "concession";
    case RoundEnd::illegal_move: return "illegal_move";
    case RoundEnd::repetition: return "repetition";
    case RoundEnd::turn_limit: return "turn_limit";
    case RoundEnd::resign: return "resign";
    case RoundEnd::not_played: return "not_played";
  }
  return "not_played";
}

const char* game_end_name(CoinDuelEnd end) {
  switch (end) {
    case CoinDuelEnd::no_legal_move: return "no_legal_move";
    case CoinDuelEnd::illegal_move: return "illegal_move";
    case CoinDuelEnd::resign: return "resign";
    case CoinDuelEnd::completed: return "completed";
    case CoinDuelEnd::none: break;
  }
  return nullptr;
}

const char* lap_end_name(LapEnd end) {
  switch (end) {
    case LapEnd::pot: return "pot";
    case LapEnd::empty: return "empty";
    case LapEnd::filled: return "filled";
    case LapEnd::overshoot: return "overshoot";
    case LapEnd::overrun: return "overrun";
  }
  return "";
}

Json seat_or_null(Seat seat) { return seat == kNoSeat ? Json() : Json(seat); }

// Clarification 11: whose turn it is and every cup, pot and reserve as multisets.
std::uint64_t position_key(const CoinDuelState& s) {
  std::uint64_t h = hash_bytes(&s.to_move, sizeof s.to_move);
  h = hash_bytes(s.cups.data(), sizeof s.cups, h);
  h = hash_bytes(s.pot.data(), sizeof s.pot, h);
  return hash_bytes(s.reserve.data(), sizeof s.reserve, h);
}

}  // namespace

void add_items(Coins& to, Coins items) {
  for (std::size_t x = 0; x < kDenominations; ++x)
    to.count[x] = static_cast<std::uint8_t>(to.count[x] + items.count[x]);
}

// ---- setting up ----

CoinDuel::CoinDuel(const GameSetup& setup)
    : options_(std::make_shared<const Json>(setup.options)) {
  const Json& o = setup.options;
  s_.stage = o.at("stage").get<int>();
  s_.first_player = setup.first_player;
  s_.alternate_starters = o.at("round_starter") == "alternate";
  s_.forfeit_policy = o.at("illegal_move_policy") == "forfeit";
  s_.max_turns_per_round = o.at("max_turns_per_round").get<int>();
  start_round(1);
  begin_turn(nullptr);
}

CoinDuel CoinDuel::from_position(const Json& options, std::span<const int> position, Seat to_move,
                                 int round, std::span<const RoundRecord> earlier) {
  if (to_move != 0 && to_move != 1) throw EngineError(ErrorCode::bad_request, "to_move is 0 or 1");
  CoinDuel game(GameSetup{resolve_options(kOptions, options), to_move});
  CoinDuelState& s = game.s_;
  const int per_item = s.stage == 1 ? 1 : kDenominations;
  const auto per_seat = static_cast<std::size_t>((kCups + 2) * per_item);
  if (position.size() != 2 * per_seat)
    throw EngineError(ErrorCode::bad_request,
                      "a Coin Duel stage " + std::to_string(s.stage) + " position has " +
                          std::to_string(2 * per_seat) + " numbers");
  if (round < 1 || round > CoinDuelState::kRounds || (s.stage != 3 && round != 1))
    throw EngineError(ErrorCode::bad_request, "round must be 1..4 in stage 3 and 1 otherwise");
  if (std::any_of(position.begin(), position.end(), [](int n) { return n < 0; }) ||
      std::accumulate(position.begin(), position.end(), 0) > 255)
    throw EngineError(ErrorCode::bad_request, "a position holds 0..255 items");
  auto item = [&](std::size_t at) {
    Coins c;
    for (std::size_t x = 0; x < static_cast<std::size_t>(per_item); ++x)
      c.count[x] = static_cast<std::uint8_t>(position[at * static_cast<std::size_t>(per_item) + x]);
    return c;
  };
  for (std::size_t p = 0; p < 2; ++p) {
    const std::size_t base = p * (kCups + 2);
    for (std::size_t i = 0; i < kCups; ++i) s.cups[p][i] = item(base + i);
    s.filled[p] = filled_cups(s.cups[p]);
    s.pot[p] = item(base + kCups);
    s.reserve[p] = item(base + kCups + 1);
  }
  if (earlier.size() > static_cast<std::size_t>(round - 1))
    throw EngineError(ErrorCode::bad_request, "more earlier round records than earlier rounds");
  std::copy(earlier.begin(), earlier.end(), s.rounds.begin());
  s.round = round;
  s.rounds_done = round - 1;
  s.round_starter = to_move;
  s.to_move = to_move;
  s.history.clear();
  game.begin_turn(nullptr);
  return game;
}

void CoinDuel::start_round(int round) {
  if (round == 1) s_.round_starter = s_.first_player;
  else if (s_.alternate_starters) s_.round_starter = 1 - s_.round_starter;  // D3-S
  else s_.round_starter = s_.first_player;
  s_.round = round;
  s_.cups = {};
  s_.filled = {};
  s_.pot = {};
  const Coins reserve = starting_reserve(s_.stage, round);
  s_.reserve = {reserve, reserve};
  s_.to_move = s_.round_starter;
  s_.round_turns = 0;
  s_.history.clear();
}

// ---- decisions ----

void CoinDuel::legal(DecisionList& out) const {
  out.clear();
  if (s_.end != CoinDuelEnd::none) return;
  const auto p = static_cast<std::size_t>(s_.to_move);
  switch (s_.step) {
    case TurnStep::source:  // bit order is the canonical order: r1..r10, then c1..c10
      for (std::uint32_t bits = s_.legal_sources; bits != 0; bits &= bits - 1)
        out.push_back(kSourceDecisions[static_cast<std::size_t>(std::countr_zero(bits))]);
      return;
    case TurnStep::dir: {  // only the directions that can still finish the turn (D3-4)
      const RowCounts row(counts_of(s_.cups[p]));
      if (can_finish(row, s_.lap_from, s_.lap_count, kRight, s_.lap)) out.push_back(kDirDecision);
      if (can_finish(row, s_.lap_from, s_.lap_count, kLeft, s_.lap)) out.push_back(kDirDecision + 1);
      return;
    }
    case TurnStep::coin: {  // a reserve lap draws from the reserve, a board lap from the hand
      const Coins& from = s_.from_reserve && s_.lap == 0 ? s_.reserve[p] : s_.hand;
      for (int x = 0; x < kDenominations; ++x)
        if (from.count[static_cast<std::size_t>(x)] > 0)
          out.push_back(static_cast<Decision>(kCoinDecision + x));
      return;
    }
  }
}

void CoinDuel::apply(Decision decision, Events* events) {
  switch (s_.step) {
    case TurnStep::source:
      if (s_.stage == 1) play_beans(decision, events);
      else start_turn(decision);
      return;
    case TurnStep::dir:
      s_.lap_dir = decision == kDirDecision ? kRight : kLeft;
      s_.step = TurnStep::coin;
      return;
    case TurnStep::coin:
      sow(decision - kCoinDecision, events);
      return;
  }
}

// Stages 2-3: the source is chosen; its items are sown a coin at a time by later decisions.
void CoinDuel::start_turn(Decision source) {
  start_log(source);
  s_.lap = 0;
  s_.lap_sown = 0;
  s_.lap_dir = kRight;
  s_.hand = {};
  s_.from_reserve = source < kCupDecision;
  if (s_.from_reserve) {  // the coins stay in the reserve until each is chosen
    s_.lap_from = 0;
    s_.lap_count = source;
    s_.step = TurnStep::coin;
  } else {
    const int i = source - kCupDecision;
    s_.hand = take_cup(i);
    s_.lap_from = i;
    s_.lap_count = s_.hand.total();
    s_.step = s_.stage == 3 ? TurnStep::dir : TurnStep::coin;
  }
}

// Stages 2-3: places the next coin of the current lap; the lap's last coin decides how it ends.
void CoinDuel::sow(int coin, Events* events) {
  const auto p = static_cast<std::size_t>(s_.to_move);
  const auto x = static_cast<std::size_t>(coin);
  Coins& source = s_.from_reserve && s_.lap == 0 ? s_.reserve[p] : s_.hand;
  --source.count[x];
  s_.log.coins.push_back(static_cast<std::uint8_t>(coin));
  if (++s_.lap_sown < s_.lap_count) {
    const int q = s_.lap_from + s_.lap_dir * s_.lap_sown;
    ++s_.cups[p][static_cast<std::size_t>(q - 1)].count[x];
    s_.filled[p] |= cup_bit(q);
    return;
  }
  auto& row = s_.cups[p];
  const Landing landing = resolve_lap(kCups, s_.lap_from, s_.lap_count, s_.lap_dir,
                                      [&](int q) { return holds_any(row[static_cast<std::size_t>(q - 1)]); });
  log_lap(s_.lap_from, s_.lap_dir, s_.lap_count, landing);
  const LapResult result = land(x, landing);
  if (result == LapResult::relay) {  // the next lap, from the landing cup, now in the hand
    ++s_.lap;
    s_.lap_from = landing.cup;
    s_.lap_count = s_.hand.total();
    s_.lap_sown = 0;
    s_.lap_dir = kRight;
    s_.step = s_.stage == 3 ? TurnStep::dir : TurnStep::coin;
    return;
  }
  end_turn(result == LapResult::scored, events);
}

// Stage 1: beans are all alike, so the source decides the whole turn: lap after lap, each going
// R, until one ends in the pot or an empty cup. It is played in one go, the lap in locals rather
// than in the state, which only a turn spread over several decisions needs.
void CoinDuel::play_beans(Decision source, Events* events) {
  start_log(source);
  const auto p = static_cast<std::size_t>(s_.to_move);
  auto& row = s_.cups[p];
  s_.from_reserve = source < kCupDecision;
  int from = 0;
  int count = source;
  if (s_.from_reserve) {
    s_.reserve[p].count[kPenny] = static_cast<std::uint8_t>(s_.reserve[p].count[kPenny] - count);
  } else {  // D-7: the whole cup; the lap empties it
    from = source - kCupDecision;
    count = row[static_cast<std::size_t>(from - 1)].count[kPenny];
  }
  while (true) {
    // L3, D-5: every bean but the last drops into the cups passed; the last one stays in an
    // empty cup, goes to the pot, or is picked up with a filled cup's beans for the next lap
    // (legal() offers no lap that overshoots). The landing cup is read before the lap changes
    // the row (it changes other cups only), and the lap is sown the same way whichever way it
    // ends: only whether the turn goes on is a branch.
    const int last = from + count;
    const bool in_pot = last == kPot;
    const int held = row[static_cast<std::size_t>(std::min(last, kCups) - 1)].count[kPenny];  // cup N for the pot
    const bool relay = held != 0 && !in_pot;
    const int through = last - static_cast<int>(in_pot || relay);
    sow_bean_lap(row, from, through);
    s_.filled[p] = (s_.filled[p] & static_cast<std::uint16_t>(~cup_bit(from))) | cup_bits(from + 1, through);
    // The trace feeds only the turn record, which only a call with an event sink builds.
    if (events) log_lap(from, kRight, count, {in_pot ? LapEnd::pot : relay ? LapEnd::filled : LapEnd::empty, last});
    if (!relay) {
      bool scored = true;
      if (in_pot) ++s_.pot[p].count[kPenny];
      else scored = capture(last);
      end_turn(scored, events);
      return;
    }
    from = last;
    count = held + 1;
  }
}

void CoinDuel::start_log(Decision source) {
  s_.log.source = source;
  s_.log.laps.clear();
  s_.log.coins.clear();
  s_.log.capture_cup = 0;
}

// D-7: a board play takes everything in cup i.
Coins CoinDuel::take_cup(int i) {
  const auto p = static_cast<std::size_t>(s_.to_move);
  Coins& cup = s_.cups[p][static_cast<std::size_t>(i - 1)];
  const Coins taken = cup;
  cup = {};
  s_.filled[p] &= static_cast<std::uint16_t>(~cup_bit(i));
  return taken;
}

// X1: a turn that ended in the empty cup `landing` moves the facing cup into the mover's pot.
// Returns whether that gained anything.
bool CoinDuel::capture(int landing) {
  const auto p = static_cast<std::size_t>(s_.to_move);
  const int facing = opposite(kCups, landing);
  const Coins taken = capture_opposite(s_.cups[1 - p], s_.pot[p], kCups, landing);
  s_.filled[1 - p] &= static_cast<std::uint16_t>(~cup_bit(facing));
  if (!holds_any(taken)) return false;
  s_.log.capture_cup = static_cast<std::int8_t>(facing);
  s_.log.captured = taken;
  return true;
}

// Stages 2-3: the lap's last coin, of denomination x, decides how the lap ends (L3): the turn
// ends in the pot or in an empty cup, with a capture there (X1); in a filled cup the whole cup,
// with the coin, goes into the hand for the next lap (D-5).
CoinDuel::LapResult CoinDuel::land(std::size_t x, Landing landing) {
  const auto p = static_cast<std::size_t>(s_.to_move);
  switch (landing.end) {
    case LapEnd::pot:  // landing.cup is past the row here: no cup of it may be named
      ++s_.pot[p].count[x];
      return LapResult::scored;
    case LapEnd::empty:
      ++s_.cups[p][static_cast<std::size_t>(landing.cup - 1)].count[x];
      s_.filled[p] |= cup_bit(landing.cup);
      return capture(landing.cup) ? LapResult::scored : LapResult::ended;
    case LapEnd::filled:
      // The coin dropped goes straight into the hand: adding it to the cup first and then copying
      // the cup would read four bytes just after writing one, a load that stalls on the store.
      s_.hand = take_cup(landing.cup);
      ++s_.hand.count[x];
      return LapResult::relay;
    case LapEnd::overshoot:
    case LapEnd::overrun: break;
  }
  throw std::logic_error("Coin Duel: a lap ran off the row; legal() never offers that");
}

// Out of line: a stage 1 turn without an event sink never calls it, and inlined, the growing
// vector would crowd the registers of its loop.
[[gnu::noinline]] void CoinDuel::log_lap(int from, int dir, int count, Landing landing) {
  s_.log.laps.push_back(LapTrace{static_cast<std::int8_t>(from), static_cast<std::int8_t>(dir),
                                 static_cast<std::uint8_t>(count), static_cast<std::int8_t>(landing.cup),
                                 landing.end});
}

// ---- turns, rounds, the end ----

void CoinDuel::end_turn(bool pot_gained, Events* events) {
  ++s_.turns;
  ++s_.round_turns;
  s_.step = TurnStep::source;
  if (events) events->push_back(turn_record());
  // Reserves only shrink and pots only grow, so once either changed no earlier position of the
  // round can come back: forgetting them keeps the repetition check short.
  if (s_.from_reserve || pot_gained) s_.history.clear();
  if (s_.stage == 3) {  // D3-E 1, checked after every turn
    const auto w = static_cast<std::size_t>(winning_coin(s_.round));
    if (s_.pot[0].count[w] + s_.pot[1].count[w] >= 2) {
      end_round(RoundEnd::both_winning_coins_scored, kNoSeat, kNoSeat, events);
      return;
    }
  }
  s_.to_move = 1 - s_.to_move;
  begin_turn(events);
}

// The start of a turn: no pass in Coin Duel (D-8); then, in stage 3, the safeguards in the order
// of clarification 12.
void CoinDuel::begin_turn(Events* events) {
  s_.step = TurnStep::source;
  s_.legal_sources = legal_sources(s_);
  if (s_.legal_sources == 0) {
    if (s_.stage == 3) end_round(RoundEnd::no_legal_move, kNoSeat, s_.to_move, events);
    else finish(CoinDuelEnd::no_legal_move, kNoSeat, s_.to_move, events);
    return;
  }
  if (s_.stage != 3) return;
  if (s_.history.count(position_key(s_)) >= 3)
    end_round(RoundEnd::repetition, kNoSeat, kNoSeat, events);
  else if (s_.round_turns >= s_.max_turns_per_round)
    end_round(RoundEnd::turn_limit, kNoSeat, kNoSeat, events);
}

void CoinDuel::end_round(RoundEnd end, Seat offender, Seat stuck, Events* events) {
  const int index = s_.round - 1;
  RoundRecord& r = s_.rounds[static_cast<std::size_t>(index)];
  r = RoundRecord{end, s_.round_starter, offender, stuck, s_.pot, {}, {}, {}, s_.round_turns};
  score_round(r, s_.round);
  s_.rounds_done = s_.round;
  s_.step = TurnStep::source;
  if (events) {
    events->push_back(round_end_event(index));
  }
  if (s_.round == CoinDuelState::kRounds) {
    finish(CoinDuelEnd::completed, kNoSeat, kNoSeat, events);
    return;
  }
  start_round(s_.round + 1);  // D3-N
  if (events)
    events->push_back(Json{{"event", "round_start"}, {"round", s_.round}, {"starter", s_.round_starter}});
  begin_turn(events);
}

void CoinDuel::finish(CoinDuelEnd end, Seat offender, Seat stuck, Events* events) {
  s_.end = end;
  s_.offender = offender;
  s_.stuck = stuck;
  s_.step = TurnStep::source;
  if (events) events->push_back(Json{{"event", "game_end"}, {"result", result()}});
}

void CoinDuel::resign(Seat seat, Events* events) {
  if (mid_turn()) throw std::logic_error("Coin Duel: drop the half-played turn before resigning");
  if (s_.stage != 3) {
    finish(CoinDuelEnd::resign, seat, kNoSeat, events);
    return;
  }
  // Clarification 14: this round is scored as the resigner's concession, later ones are not
  // played, and the resigner loses the match whatever the totals say.
  const int index = s_.round - 1;
  RoundRecord& r = s_.rounds[static_cast<std::size_t>(index)];
  r = RoundRecord{RoundEnd::resign, s_.round_starter, seat, kNoSeat, s_.pot, {}, {}, {}, s_.round_turns};
  score_round(r, s_.round);
  if (events) {
    events->push_back(round_end_event(index));
  }
  Seat starter = s_.round_starter;
  for (int later = s_.round; later < CoinDuelState::kRounds; ++later) {
    starter = s_.alternate_starters ? 1 - starter : s_.first_player;
    s_.rounds[static_cast<std::size_t>(later)] = RoundRecord{};
    s_.rounds[static_cast<std::size_t>(later)].starter = starter;
  }
  s_.rounds_done = CoinDuelState::kRounds;
  finish(CoinDuelEnd::resign, seat, kNoSeat, events);
}

void CoinDuel::concede(Seat seat, Events* events) {
  if (s_.stage != 3)
    throw EngineError(ErrorCode::not_allowed,
                      "conceding a round exists only in Coin Duel stage 3; use resign to give up");
  if (mid_turn()) throw std::logic_error("Coin Duel: drop the half-played turn before conceding");
  end_round(RoundEnd::concession, seat, kNoSeat, events);
}

void CoinDuel::forfeit(Seat seat, Events* events) {
  if (mid_turn()) throw std::logic_error("Coin Duel: drop the half-played turn before a forfeit");
  if (s_.stage == 3) end_round(RoundEnd::illegal_move, seat, kNoSeat, events);  // D-ILLROUND
  else finish(CoinDuelEnd::illegal_move, seat, kNoSeat, events);
}

// ---- tokens ----

std::string CoinDuel::token(Decision decision) const {
  if (decision >= kCoinDecision) return coin_token(decision - kCoinDecision);
  if (decision >= kDirDecision) return decision == kDirDecision ? "R" : "L";
  return source_token(decision);
}

std::optional<Decision> CoinDuel::parse_token(std::string_view token) const {
  if (token == "R") return kDirDecision;
  if (token == "L") return static_cast<Decision>(kDirDecision + 1);
  if (token.size() == 1) {
    const auto* letter = std::char_traits<char>::find(kCoinLetters, kDenominations, token[0]);
    if (letter) return static_cast<Decision>(kCoinDecision + (letter - kCoinLetters));
    return std::nullopt;
  }
  return parse_source_token(token, kCups, 999);
}

std::string CoinDuel::compound_tokens(const Json& move, int stage) {
  const auto bad = [&](const std::string& why) {
    return EngineError(ErrorCode::bad_request, "compound move " + move.dump() + ": " + why);
  };
  if (!move.is_object() || !move.contains("source")) throw bad("needs \"source\"");
  std::string tokens;
  const bool from_reserve = move["source"] == "reserve";
  const char* field = from_reserve ? "count" : "cup";
  if (!from_reserve && move["source"] != "cup") throw bad("source is \"reserve\" or \"cup\"");
  if (!move.contains(field) || !move[field].is_number_integer()) throw bad(std::string("needs an integer \"") + field + "\"");
  tokens = (from_reserve ? "r" : "c") + std::to_string(move[field].get<long long>());
  if (stage == 1) {
    if (move.contains("laps")) throw bad("stage 1 moves have no laps (the chain is forced)");
    return tokens;
  }
  if (!move.contains("laps") || !move["laps"].is_array()) throw bad("needs \"laps\"");
  for (std::size_t t = 0; t < move["laps"].size(); ++t) {
    const Json& lap = move["laps"][t];
    if (!lap.is_object() || !lap.contains("coins") || !lap["coins"].is_array())
      throw bad("every lap needs \"coins\"");
    const bool dir_decided = stage == 3 && !(t == 0 && from_reserve);
    if (dir_decided) {
      if (lap.value("dir", Json()) != "R" && lap.value("dir", Json()) != "L") throw bad("every lap needs \"dir\": \"R\" or \"L\"");
      tokens += " " + lap["dir"].get<std::string>();
    } else if (lap.contains("dir") && lap["dir"] != "R") {
      throw bad("this lap goes R; \"dir\" must be \"R\" or absent");
    }
    for (const Json& coin : lap["coins"]) {
      if (!coin.is_string() || coin.get<std::string>().size() != 1 ||
          std::string_view(kCoinLetters).find(coin.get<std::string>()[0]) == std::string_view::npos)
        throw bad("coins are \"P\", \"N\", \"D\" or \"Q\"");
      tokens += " " + coin.get<std::string>();
    }
  }
  return tokens;
}

// ---- views ----

std::vector<int> CoinDuel::position() const {
  std::vector<int> out;
  const bool beans_only = s_.stage == 1;
  out.reserve(static_cast<std::size_t>(2 * (kCups + 2) * (beans_only ? 1 : kDenominations)));
  auto put = [&](const Coins& c) {
    if (beans_only) out.push_back(c.total());
    else out.insert(out.end(), c.count.begin(), c.count.end());
  };
  for (std::size_t p = 0; p < 2; ++p) {
    for (const Coins& cup : s_.cups[p]) put(cup);
    put(s_.pot[p]);
    put(s_.reserve[p]);
  }
  return out;
}

void CoinDuel::write_board(JsonWriter& out) const {
  const int stage = s_.stage;
  out.begin_object().field("stage", stage).key("cups").begin_array();
  for (const auto& row : s_.cups) {
    out.begin_array();
    for (const Coins& cup : row) write_items(out, cup, stage);
    out.end_array();
  }
  out.end_array().key("pots").begin_array();
  write_items(out, s_.pot[0], stage);
  write_items(out, s_.pot[1], stage);
  out.end_array().key("reserves").begin_array();
  write_items(out, s_.reserve[0], stage);
  write_items(out, s_.reserve[1], stage);
  out.end_array()
      .key("pot_values")
      .begin_array()
      .value(pot_value(s_.pot[0], stage, s_.round))
      .value(pot_value(s_.pot[1], stage, s_.round))
      .end_array();
  if (stage == 3)
    out.field("round", s_.round)
        .field("winning_coin", coin_token(winning_coin(s_.round)))
        .field("winning_value", 10 * kCoinValue[static_cast<std::size_t>(winning_coin(s_.round))]);
  out.key("turn");  // the half-played turn: where the lap stands and what is in hand
  if (mid_turn()) {
    const bool dir_known = s_.step == TurnStep::coin;
    const int next = s_.lap_from + s_.lap_dir * (s_.lap_sown + 1);
    out.begin_object()
        .field("player", s_.to_move)
        .field("source", source_token(s_.log.source))
        .field("lap", s_.lap)
        .field("from", s_.lap_from)
        .key("dir");
    dir_known ? out.value(s_.lap_dir == kRight ? "R" : "L") : out.null();
    out.field("count", s_.lap_count).field("sown", s_.lap_sown).key("next");
    if (!dir_known) out.null();
    else if (next == kPot) out.value("pot");
    else out.value(next);
    out.key("hand");  // a reserve lap draws its coins from the reserve as they are chosen
    if (s_.from_reserve && s_.lap == 0) out.null();
    else write_items(out, s_.hand, stage);
    out.field("awaiting", dir_known ? "coin" : "dir").end_object();
  } else {
    out.null();
  }
  out.end_object();
}

void CoinDuel::write_scores(JsonWriter& out) const {
  if (s_.stage == 3) {  // the round scores so far
    std::array<int, 2> totals{};
    for (int r = 0; r < s_.rounds_done; ++r)
      for (std::size_t p = 0; p < 2; ++p) totals[p] += s_.rounds[static_cast<std::size_t>(r)].scores[p];
    out.array(totals);
  } else if (s_.end != CoinDuelEnd::none) {
    out.tree(result()["scores"]);
  } else {
    out.begin_array().value(pot_value(s_.pot[0], s_.stage, 1)).value(pot_value(s_.pot[1], s_.stage, 1)).end_array();
  }
}

void CoinDuel::write_round_fields(JsonWriter& out, int index) const {
  const RoundRecord& r = s_.rounds[static_cast<std::size_t>(index)];
  const int round = index + 1;
  const int w = winning_coin(round);
  out.field("round", round)
      .field("winning_coin", coin_token(w))
      .field("winning_value", 10 * kCoinValue[static_cast<std::size_t>(w)])
      .field("starter", r.starter)
      .field("end_reason", round_end_name(r.end))
      .key("offender")
      .seat_or_null(r.offender)
      .key("stuck_player")
      .seat_or_null(r.stuck)
      .key("pots")
      .begin_array()
      .array(r.pots[0].count)
      .array(r.pots[1].count)
      .end_array()
      .key("pot_values")
      .array(r.values)
      .key("winning_coins_gained")
      .array(r.gained)
      .key("scores")
      .array(r.scores)
      .field("turns", r.turns);
}

Json CoinDuel::round_end_event(int index) const {
  return json_tree([&](JsonWriter& out) {
    out.begin_object().field("event", "round_end");
    write_round_fields(out, index);
    out.end_object();
  });
}

void CoinDuel::write_rounds(JsonWriter& out) const {
  out.begin_array();
  if (s_.stage == 3)
    for (int r = 0; r < s_.rounds_done; ++r) {
      out.begin_object();
      write_round_fields(out, r);
      out.end_object();
    }
  out.end_array();
}

Json CoinDuel::result() const {
  if (s_.end == CoinDuelEnd::none) return nullptr;
  const int stage = s_.stage;
  Json winner;
  if (stage == 3) {  // §4.3
    const Json totals = scores();
    if (s_.offender != kNoSeat) winner = 1 - s_.offender;
    else if (totals[0] != totals[1]) winner = totals[0] > totals[1] ? 0 : 1;
    return Json{{"game", "coin_duel"},
                {"stage", 3},
                {"options", *options_},
                {"rounds", rounds()},
                {"totals", totals},
                {"winner", winner},
                {"end_reason", game_end_name(s_.end)},
                {"offender", seat_or_null(s_.offender)}};
  }
  // §4.1: the higher pot value scores it, the other nothing; equal values are a draw (D-TIE). An
  // offender or resigner scores nothing and the opponent his pot value.
  const std::array<int, 2> values = {face_value(s_.pot[0]), face_value(s_.pot[1])};
  std::array<int, 2> awarded{};
  if (s_.offender != kNoSeat) {
    winner = 1 - s_.offender;
  } else if (values[0] != values[1]) {
    winner = values[0] > values[1] ? 0 : 1;
  }
  if (!winner.is_null()) {
    const auto w = winner.get<std::size_t>();
    awarded[w] = values[w];
  }
  return Json{{"game", "coin_duel"},
              {"stage", stage},
              {"options", *options_},
              {"end_reason", game_end_name(s_.end)},
              {"stuck_player", seat_or_null(s_.stuck)},
              {"offender", seat_or_null(s_.offender)},
              {"pots", {items_json(s_.pot[0], stage), items_json(s_.pot[1], stage)}},
              {"pot_values", values},
              {"scores", awarded},
              {"winner", winner},
              {"turns", s_.turns}};
}

// Mirrors result(): stage 3 by the round totals, stages 1-2 by the pots' face values.
void CoinDuel::outcome(std::span<double> out) const {
  std::array<int, 2> values{};
  for (std::size_t p = 0; p < 2; ++p) {
    if (s_.stage == 3) {
      for (int r = 0; r < s_.rounds_done; ++r) values[p] += s_.rounds[static_cast<std::size_t>(r)].scores[p];
    } else {
      values[p] = face_value(s_.pot[p]);
    }
  }
  Seat winner = kNoSeat;
  if (s_.offender != kNoSeat) winner = 1 - s_.offender;
  else if (values[0] != values[1]) winner = values[0] > values[1] ? 0 : 1;
  two_seat_outcome(winner, out);
}

// Stage 3: the round totals so far plus what the current pot is worth in this round.
void CoinDuel::material(std::span<int> out) const {
  for (std::size_t p = 0; p < 2; ++p) {
    int value = 0;
    if (s_.stage == 3) {
      for (int r = 0; r < s_.rounds_done; ++r) value += s_.rounds[static_cast<std::size_t>(r)].scores[p];
      if (s_.end == CoinDuelEnd::none) value += pot_value(s_.pot[p], 3, s_.round);
    } else {
      value = face_value(s_.pot[p]);
    }
    out[p] = value;
  }
}

Json CoinDuel::turn_record() const {
  const TurnLog& log = s_.log;
  const int stage = s_.stage;
  const bool reserve_turn = log.source < kCupDecision;
  Json move = reserve_turn ? json_object("source", "reserve", "count", log.source)
                           : json_object("source", "cup", "cup", log.source - kCupDecision);
  std::string tokens = source_token(log.source);
  Json trace = Json::array();
  Json laps = Json::array();
  std::size_t coin = 0;
  for (std::size_t t = 0; t < log.laps.size(); ++t) {
    const LapTrace& lap = log.laps[t];
    const char* dir = lap.dir == kRight ? "R" : "L";
    trace.push_back(json_object("from", lap.from,
                                "dir", dir,
                                "count", lap.count,
                                "end", lap.end == kPot ? Json("pot") : Json(lap.end),
                                "result", lap_end_name(lap.result)));
    if (stage == 1) continue;
    Json entry = Json::object();
    if (stage == 3) {
      entry["dir"] = dir;
      if (!(t == 0 && reserve_turn)) tokens += std::string(" ") + dir;
    }
    Json coins = Json::array();
    for (int c = 0; c < lap.count; ++c, ++coin) {
      coins.push_back(coin_token(log.coins[coin]));
      tokens += " " + coin_token(log.coins[coin]);
    }
    entry["coins"] = std::move(coins);
    laps.push_back(std::move(entry));
  }
  if (stage > 1) move["laps"] = std::move(laps);
  Json capture;
  if (log.capture_cup != 0)
    capture = json_object("cup", log.capture_cup, "items", items_json(log.captured, stage));
  return json_object("event", "turn", "player", s_.to_move, "turn", s_.turns, "round", s_.round,
                     "move", std::move(move), "trace", std::move(trace), "capture", std::move(capture),
                     "tokens", std::move(tokens));
}

const GameType& coin_duel_type() {
  static const GameType type{"coin_duel", "Coin Duel", 2, 2, kOptions, two_players,
                             [](const GameSetup& setup) -> std::unique_ptr<Game> {
                               return std::make_unique<CoinDuel>(setup);
                             },
                             CoinDuel::kSpecialActions};
  return type;
}

}  // namespace mancala
