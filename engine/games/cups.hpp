#pragma once
// Cups (rule book cups-and-coin-duel.md §1-§2, §4.1, §5, §6): two rows of N cups, a pot and a
// reserve each; reserve plays fill cups 1..k, board plays need the exact count to reach the pot;
// a turn ending in an empty cup captures the opposite cup; a stuck player passes.
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "games/rows.hpp"
#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

enum class CupsEnd : std::uint8_t { none, no_moves, illegal_move, resign };

// The whole game in one small struct: copying it is copying a game.
struct CupsState {
  static constexpr int kMaxCups = 10;
  int cups_per_side = 4;                                   // N
  std::array<std::array<std::int16_t, kMaxCups>, 2> cups{};  // [seat][i - 1], own numbering
  std::array<std::int16_t, 2> pot{};
  std::array<std::int16_t, 2> reserve{};
  Seat to_move = 0;
  CupsEnd end = CupsEnd::none;
  Seat offender = kNoSeat;
  int turns = 0;
  int passes = 0;
  bool forfeit_policy = false;
};

class Cups final : public Game {
 public:
  explicit Cups(const GameSetup& setup);
  // A constructed position (tests, tools): the position vector of notation.md and the mover.
  // A mover without a legal move passes at once, as at the start of any turn.
  static Cups from_position(const Json& options, std::span<const int> position, Seat to_move);

  const CupsState& state() const { return s_; }

  std::unique_ptr<Game> clone() const override { return std::make_unique<Cups>(*this); }
  void legal(DecisionList& out) const override;
  void apply(Decision decision, Events* events) override;
  std::string token(Decision decision) const override;
  std::optional<Decision> parse_token(std::string_view token) const override;
  bool mid_turn() const override { return false; }  // every Cups turn is one decision

  int players() const override { return 2; }
  Seat to_move() const override { return s_.end == CupsEnd::none ? s_.to_move : kNoSeat; }
  Phase phase() const override { return s_.end == CupsEnd::none ? Phase::play : Phase::over; }
  std::vector<int> position() const override;
  void write_board(JsonWriter& out) const override;
  void write_scores(JsonWriter& out) const override;
  Json result() const override;
  void outcome(std::span<double> out) const override;
  void material(std::span<int> out) const override;
  void expected_material(std::span<double> out) const override;
  void assign(const Game& other) override { *this = static_cast<const Cups&>(other); }

  void resign(Seat seat, Events* events) override;
  void forfeit(Seat seat, Events* events) override;
  bool forfeits_illegal_moves() const override { return s_.forfeit_policy; }

 private:
  void begin_turn(Events* events);
  void finish(CupsEnd end, Seat offender, Events* events);

  CupsState s_;
  std::shared_ptr<const Json> options_;  // shared: copies of a game stay cheap
};

const GameType& cups_type();

}  // namespace mancala
