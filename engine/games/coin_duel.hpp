#pragma once
// Coin Duel (rule book cups-and-coin-duel.md §1, §3-§6, and clarifications.md): Cups grown up.
// Ten cups a side, relay sowing from the reserve and the board, a reserve limit. Stage 1 plays
// beans, stage 2 coins whose order the player chooses, stage 3 four rounds with winning coins
// worth ten times and sowing in either direction.
//
// A turn is a chain of decisions (§5.2): a source (`r<k>`, `c<i>`), then in stage 3 a direction
// (`R`, `L`) before every lap but a reserve turn's first, then one coin (`P N D Q`) per coin sown
// (stages 2-3). Stage 1 has only the source; the engine sows its beans at once.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "games/rows.hpp"
#include "games/safeguards.hpp"
#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

// Denominations in the canonical order P, N, D, Q. Stage 1 keeps its beans in the penny slot: a
// bean counts 1, like a penny, and the rules never tell beans apart.
enum Denomination : std::uint8_t { kPenny, kNickel, kDime, kQuarter };
inline constexpr int kDenominations = 4;
inline constexpr std::array<int, kDenominations> kCoinValue = {1, 5, 10, 25};

// A multiset of coins: how many of each denomination.
struct Coins {
  std::array<std::uint8_t, kDenominations> count{};
  int total() const { return count[0] + count[1] + count[2] + count[3]; }
  bool operator==(const Coins&) const = default;
};
void add_items(Coins& to, Coins items);  // for capture_opposite

// Decisions besides the sources of rows.hpp.
inline constexpr Decision kDirDecision = 2000;   // + 0 R, + 1 L
inline constexpr Decision kCoinDecision = 3000;  // + denomination

enum class CoinDuelEnd : std::uint8_t { none, no_legal_move, illegal_move, resign, completed };
enum class RoundEnd : std::uint8_t {
  both_winning_coins_scored, no_legal_move, concession, illegal_move, repetition, turn_limit,
  resign, not_played
};
enum class TurnStep : std::uint8_t { source, dir, coin };  // what the mover decides next

// Stage 3: one round's score record (§4.2).
struct RoundRecord {
  RoundEnd end = RoundEnd::not_played;
  Seat starter = 0;
  Seat offender = kNoSeat;
  Seat stuck = kNoSeat;
  std::array<Coins, 2> pots{};
  std::array<int, 2> values{};   // winning coins at ten times their face value
  std::array<int, 2> gained{};   // winning coins in each pot
  std::array<int, 2> scores{};
  int turns = 0;
};

// What the current turn did so far, for its turn record (§5.5).
struct LapTrace {
  std::int8_t from;  // 0 = the reserve
  std::int8_t dir;
  std::uint8_t count;
  std::int8_t end;   // N + 1 = the pot
  LapEnd result;
};
struct TurnLog {
  Decision source = 0;
  std::vector<LapTrace> laps;           // finished laps (stage 1: only when apply() has events)
  std::vector<std::uint8_t> coins;      // every coin sown, in order (laps are consecutive)
  std::int8_t capture_cup = 0;          // the opponent's cup, 0 = no capture
  Coins captured{};
};

// The whole game in one struct; its vectors keep their capacity, so playing allocates nothing
// once they have grown.
struct CoinDuelState {
  static constexpr int kCups = 10;
  static constexpr int kRounds = 4;

  int stage = 3;
  std::array<std::array<Coins, kCups>, 2> cups{};  // [seat][i - 1], own numbering
  // [seat] bit i: cup i holds something. Derived from `cups` and kept with it wherever the cups
  // change, because the look-ahead of every turn needs it for both rows.
  std::array<std::uint16_t, 2> filled{};
  std::array<Coins, 2> pot{};
  std::array<Coins, 2> reserve{};
  Seat to_move = 0;

  // The turn in progress (§5.2).
  TurnStep step = TurnStep::source;
  bool from_reserve = false;  // the turn began with a reserve play
  Coins hand{};               // coins picked up from a cup and not sown yet
  int lap = 0;                // number of the current lap, 0 first
  int lap_from = 0;           // its origin, 0 = the reserve
  int lap_dir = kRight;
  int lap_count = 0;          // items it sows
  int lap_sown = 0;           // items sown so far
  std::uint32_t legal_sources = 0;  // at the source step: bit k-1 = r<k>, bit 16+i-1 = c<i>
  TurnLog log;

  // The match.
  int turns = 0;  // completed turns in the whole game
  CoinDuelEnd end = CoinDuelEnd::none;
  Seat offender = kNoSeat;
  Seat stuck = kNoSeat;
  // Stage 3.
  int round = 1;
  Seat round_starter = 0;
  int round_turns = 0;  // completed turns in this round
  std::array<RoundRecord, kRounds> rounds{};
  int rounds_done = 0;
  PositionHistory history;  // positions at the start of each turn of this round

  // Options.
  Seat first_player = 0;
  bool alternate_starters = true;
  bool forfeit_policy = false;
  int max_turns_per_round = 1000;
};

class CoinDuel final : public Game {
 public:
  explicit CoinDuel(const GameSetup& setup);
  // A constructed position (tests, tools): the position vector of notation.md, the mover and, in
  // stage 3, the round with the records of the rounds before it (missing ones count as not
  // played). The position counts as the first of its round; the mover is the round's starter.
  static CoinDuel from_position(const Json& options, std::span<const int> position, Seat to_move,
                                int round = 1, std::span<const RoundRecord> earlier = {});
  // The tokens of a compound move (§5.4), e.g. {"source":"cup","cup":3,"laps":[{"dir":"R",
  // "coins":["Q","D"]}]} -> "c3 R Q D". Only the shape is checked; legality is for `apply`.
  static std::string compound_tokens(const Json& move, int stage);

  const CoinDuelState& state() const { return s_; }

  std::unique_ptr<Game> clone() const override { return std::make_unique<CoinDuel>(*this); }
  void legal(DecisionList& out) const override;
  void apply(Decision decision, Events* events) override;
  std::string token(Decision decision) const override;
  std::optional<Decision> parse_token(std::string_view token) const override;
  bool mid_turn() const override { return s_.step != TurnStep::source; }

  int players() const override { return 2; }
  Seat to_move() const override { return s_.end == CoinDuelEnd::none ? s_.to_move : kNoSeat; }
  Phase phase() const override {
    return s_.end == CoinDuelEnd::none ? Phase::play : Phase::over;
  }
  int round() const override { return s_.round; }
  std::vector<int> position() const override;
  void write_board(JsonWriter& out) const override;
  void write_scores(JsonWriter& out) const override;
  void write_rounds(JsonWriter& out) const override;
  std::size_t rounds_played() const override {
    return s_.stage == 3 ? static_cast<std::size_t>(s_.rounds_done) : 0;
  }
  Json result() const override;
  void outcome(std::span<double> out) const override;
  void material(std::span<int> out) const override;
  void assign(const Game& other) override { *this = static_cast<const CoinDuel&>(other); }

  void resign(Seat seat, Events* events) override;
  // Stage 3 only: a seat concedes the current round (D3-E), ending its turn on the clock.
  std::span<const SpecialAction> special_actions() const override { return kSpecialActions; }
  void special(std::string_view, Seat seat, Events* events) override { concede(seat, events); }
  void forfeit(Seat seat, Events* events) override;
  bool forfeits_illegal_moves() const override { return s_.forfeit_policy; }

  static constexpr SpecialAction kSpecialActions[] = {{"concede", /*ends_turn=*/true}};

 private:
  void concede(Seat seat, Events* events);
  void start_turn(Decision source);
  void sow(int coin, Events* events);
  void play_beans(Decision source, Events* events);
  void start_log(Decision source);
  Coins take_cup(int i);
  bool capture(int landing);
  // How a lap ended: the turn goes on with a relay, or it is over, with or without gaining the
  // mover something for his pot.
  enum class LapResult : std::uint8_t { relay, ended, scored };
  LapResult land(std::size_t x, Landing landing);
  void log_lap(int from, int dir, int count, Landing landing);
  void end_turn(bool material_changed, Events* events);
  void begin_turn(Events* events);
  void end_round(RoundEnd end, Seat offender, Seat stuck, Events* events);
  void start_round(int round);
  void finish(CoinDuelEnd end, Seat offender, Seat stuck, Events* events);
  Json turn_record() const;
  // A round's record: its fields, which a round_end event also carries after its name.
  void write_round_fields(JsonWriter& out, int index) const;
  Json round_end_event(int index) const;

  CoinDuelState s_;
  std::shared_ptr<const Json> options_;  // shared: copies of a game stay cheap
};

const GameType& coin_duel_type();

}  // namespace mancala
