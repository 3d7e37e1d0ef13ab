#pragma once
// O An Quan (rule book o-an-quan-njaka-duovallis.md §2, §5-§7; clarifications 10-13): a ring of
// ten squares and two end spaces holding a large stone each; a turn picks an owned square and a
// direction, sows with relays, captures (in chains), and a round ends when both large stones are
// taken. Between rounds the player short of counters sells squares to the other (half squares
// included) until `sold_squares_to_end` squares are sold.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "games/safeguards.hpp"
#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

// Owner of a square: a seat, or both seats at once (a half-owned square, OQ-10).
inline constexpr std::uint8_t kHalf = 2;

// Everything that decides the future of a round (clarification 11), packed as bytes so that C6
// can hash it directly. Indices are ring positions 0..11: 0 and 6 are the end spaces.
struct OanQuanMaterial {
  std::array<std::uint8_t, 12> small{};  // small counters per position (end spaces included)
  std::array<std::uint8_t, 2> large{};   // 1 while the large stone lies on end space 0 / 6
  std::array<std::uint8_t, 2> store{};   // small counters captured this round, per seat
  std::array<std::uint8_t, 2> quan{};    // large stones captured this round, per seat
  std::array<std::uint8_t, 12> owner{};  // per square: 0, 1 or kHalf (end spaces: unused)
  std::uint8_t to_move = 0;
  std::uint8_t padding = 0;  // always 0: rounds the material up to four machine words
};

enum class OanQuanRoundEnd : std::uint8_t { both_large_captured, no_moves, stalled };
enum class OanQuanEnd : std::uint8_t {
  none, sold_squares, single_round, max_rounds, resign, illegal_move
};

// What the round-end counts mean for the next round (§2.6): who sells how much, and the
// ownership that follows.
struct OanQuanSale {
  Seat seller = kNoSeat;  // the player with fewer small counters; none when equal
  int deficit = 0;        // D = 25 - C[seller]
  int sold_full = 0;      // squares sold outright
  bool half = false;      // one more square owned by both
  int half_square = 0;    // that square (0 = none)
  std::array<int, 2> half_fill{};          // its counters: [South's, North's]
  std::array<std::uint8_t, 12> owner{};    // next round's owners
};
OanQuanSale plan_sale(std::array<int, 2> small);

// One finished round, kept compact; `rounds()` renders it as the §6.1 record.
struct OanQuanRound {
  int round = 1;
  Seat starter = 0;
  OanQuanRoundEnd end = OanQuanRoundEnd::both_large_captured;
  int turns = 0;
  std::array<std::uint8_t, 12> owner{};  // as played
  std::array<int, 2> rows{};             // leftovers from squares of a single owner
  int half_square = 0;                   // a split half square (0 = none)
  int half_counters = 0;
  std::array<int, 2> half_split{};       // [South's, North's] share of it
  std::array<int, 2> end_spaces{};       // small counters left in W (to South) and E (to North)
  std::array<int, 2> small{};            // C after the leftovers
  std::array<int, 2> large{};
  bool match_went_on = false;            // a next round followed (its sale is in `sale`)
  OanQuanSale sale;
};

// The state of a match, a cheap value: material plus round and match bookkeeping.
struct OanQuanState {
  OanQuanMaterial m;
  // The squares each seat may play from (own and half-owned) as bit masks over the positions:
  // `m.owner` digested once per round for `legal` and the refill test.
  std::array<std::uint16_t, 2> mine{};
  std::uint8_t selected = 0;        // square chosen this turn, direction still to come (0 = none)
  std::uint8_t refilled = 0;        // counters the mover's refill took from his store this turn
  std::uint8_t passes_in_a_row = 0;
  int round = 1;
  Seat starter = 0;                 // who started the current round
  int turns = 0;                    // turns of the current round, passes included
  int quiet_turns = 0;              // consecutive turns without a capture (C6)
  // Options.
  bool chain_captures = true;
  bool single_round = false;
  bool same_starter = false;
  bool forfeit_policy = false;
  int sold_squares_to_end = 3;
  int stall_limit = 200;
  int max_rounds = 0;
  // The end of the match.
  OanQuanEnd end = OanQuanEnd::none;
  Seat winner = kNoSeat;
  Seat offender = kNoSeat;
};

// Decision codes: a square is its number (1-5, 7-11); the directions follow.
inline constexpr Decision kOanQuanCcw = 20;
inline constexpr Decision kOanQuanCw = 21;

class OanQuan final : public Game {
 public:
  explicit OanQuan(const GameSetup& setup);
  // A constructed position (tests, tools): the position vector of notation.md, the mover and the
  // round number. The mover's turn then starts as any turn does (refill or pass included).
  static OanQuan from_position(const Json& options, std::span<const int> position, Seat to_move,
                               int round = 1);

  const OanQuanState& state() const { return s_; }

  std::unique_ptr<Game> clone() const override { return std::make_unique<OanQuan>(*this); }
  void legal(DecisionList& out) const override;
  void apply(Decision decision, Events* events) override;
  std::string token(Decision decision) const override;
  std::optional<Decision> parse_token(std::string_view token) const override;
  bool mid_turn() const override { return s_.selected != 0; }

  int players() const override { return 2; }
  Seat to_move() const override { return s_.end == OanQuanEnd::none ? s_.m.to_move : kNoSeat; }
  Phase phase() const override { return s_.end == OanQuanEnd::none ? Phase::play : Phase::over; }
  int round() const override { return s_.round; }
  std::vector<int> position() const override;
  void write_board(JsonWriter& out) const override;
  void write_scores(JsonWriter& out) const override;
  void write_rounds(JsonWriter& out) const override;
  std::size_t rounds_played() const override { return rounds_.size(); }
  Json result() const override;
  void outcome(std::span<double> out) const override;
  void material(std::span<int> out) const override;
  void assign(const Game& other) override { *this = static_cast<const OanQuan&>(other); }

  void resign(Seat seat, Events* events) override;
  void forfeit(Seat seat, Events* events) override;
  bool forfeits_illegal_moves() const override { return s_.forfeit_policy; }

 private:
  void play_turn(int square, int step, Events* events);
  void begin_turn(Events* events);
  void end_round(OanQuanRoundEnd reason, Events* events);
  void start_round(const OanQuanSale& sale);
  void finish(OanQuanEnd end, Seat winner, Seat offender, Events* events);
  void index_ownership();

  OanQuanState s_;
  PositionHistory history_;           // positions at turn starts in this round (C6)
  std::vector<OanQuanRound> rounds_;  // finished rounds
  std::shared_ptr<const Json> options_;
};

const GameType& oanquan_type();

}  // namespace mancala
