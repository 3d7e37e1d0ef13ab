#pragma once
// Duovallis (rule book o-an-quan-njaka-duovallis.md §1, §4-§7): a 4 x 6 board of interleaved
// rows with neutral holes, two colours of stones, multi-lap sowing (foreign stones first), captures
// between adjacent rows with a 3-for-1 exchange, and a loss for the player to move without a move.
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "games/safeguards.hpp"
#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

enum class DuovallisEnd : std::uint8_t { none, no_legal_move, stalled, repetition, resign, illegal_move };

// The whole game in one small struct: copying it is copying a game.
struct DuovallisState {
  static constexpr int kHoles = 24;
  static constexpr int kTotalStones = 80;
  using Board = std::array<std::array<std::uint8_t, kHoles>, 2>;  // [colour][hole]; colour = seat
  Board stones{};                           // White = seat 0, Black = seat 1
  std::array<std::uint8_t, 2> carry{};      // foreign stones waiting for the next capture (DV-8)
  std::array<std::int16_t, 2> exchanges{};  // 3-for-1 exchanges made by each seat
  Seat to_move = 0;
  DuovallisEnd end = DuovallisEnd::none;
  Seat loser = kNoSeat;    // nobody for a draw
  int plies = 0;           // turns played
  int since_capture = 0;   // plies since the last capture (C6)
  int stall_limit = 200;
  bool forfeit_policy = false;
};

class Duovallis final : public Game {
 public:
  explicit Duovallis(const GameSetup& setup);
  // A constructed position (tests, tools): the position vector of notation.md, the mover and,
  // optionally, the exchanges made so far (so that DV-8's balance can hold). The position counts
  // as the first occurrence for repetition, and a mover without a legal move loses at once.
  static Duovallis from_position(const Json& options, std::span<const int> position, Seat to_move,
                                 std::array<int, 2> exchanges = {0, 0});

  const DuovallisState& state() const { return s_; }

  std::unique_ptr<Game> clone() const override { return std::make_unique<Duovallis>(*this); }
  void legal(DecisionList& out) const override;
  void apply(Decision decision, Events* events) override;
  std::string token(Decision decision) const override;
  std::optional<Decision> parse_token(std::string_view token) const override;
  bool mid_turn() const override { return false; }  // a turn is one hole; the rest is forced

  int players() const override { return 2; }
  Seat to_move() const override { return s_.end == DuovallisEnd::none ? s_.to_move : kNoSeat; }
  Phase phase() const override { return s_.end == DuovallisEnd::none ? Phase::play : Phase::over; }
  std::vector<int> position() const override;
  void write_board(JsonWriter& out) const override;
  void write_scores(JsonWriter& out) const override;
  void write_layout(JsonWriter& out) const override;
  Json result() const override;
  void outcome(std::span<double> out) const override;
  void material(std::span<int> out) const override;
  void expected_material(std::span<double> out) const override;
  void assign(const Game& other) override { *this = static_cast<const Duovallis&>(other); }

  void resign(Seat seat, Events* events) override;
  void forfeit(Seat seat, Events* events) override;
  bool forfeits_illegal_moves() const override { return s_.forfeit_policy; }

 private:
  void begin_turn(Events* events);
  void finish(DuovallisEnd end, Seat loser, Events* events);

  DuovallisState s_;
  PositionHistory history_;              // positions at the start of each turn (C6, DV-10)
  std::shared_ptr<const Json> options_;  // shared: copies of a game stay cheap
};

const GameType& duovallis_type();

// The layout of §4.2, for tools and tests. Everything else is derived from these three tables.
enum class HoleRole : std::uint8_t { white_back, white_front, black_back, black_front, neutral };
HoleRole duovallis_role(int hole);
int duovallis_next(Seat seat, int hole);   // the next hole along the seat's circuit; -1 if off it
int duovallis_corresponding(int hole);     // the capture target of an own hole; -1 if none

}  // namespace mancala
