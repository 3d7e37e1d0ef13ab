#pragma once
// Njaka's Mancala Game (rule book o-an-quan-njaka-duovallis.md §1, §3, §5-§7; clarifications
// 7, 8, 10-12, 15, 16): twelve holes shared by 2-4 seats, multi-lap sowing, a drop that makes
// exactly four captures a set (mid-lap for the hole's owner, with the last counter for the
// mover), the Plex! moment when the eleventh set falls, and rounds in which each seat owns one
// hole per set until one seat has a clear majority.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "games/safeguards.hpp"
#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

inline constexpr int kNjakaHoles = 12;
inline constexpr int kNjakaMaxSeats = 4;
inline constexpr int kNjakaSets = 12;  // 48 counters = 12 sets of four

using NjakaBoard = std::array<std::int8_t, kNjakaHoles>;
using NjakaSeats = std::array<std::int8_t, kNjakaMaxSeats>;

enum class NjakaSeatStatus : std::uint8_t { active, resigned, eliminated };
enum class NjakaRoundEnd : std::uint8_t { none, plex, stalled, resign };
enum class NjakaMatchEnd : std::uint8_t {
  none, target, max_rounds, last_seat_standing, resign, illegal_move
};

struct NjakaCapture {
  std::int32_t turn = 0;
  std::int8_t hole = 0;
  std::int8_t to = 0;
  bool last = false;  // made by a lap's last counter (else mid-lap, for the hole's owner)
};

// One round as §6.2 records it, kept as plain data; `rounds()` writes it out as JSON.
struct NjakaRound {
  int round = 1;
  Seat starter = 0;
  std::array<NjakaSeatStatus, kNjakaMaxSeats> status_at_start{};
  NjakaBoard owners_at_start{};
  NjakaRoundEnd end = NjakaRoundEnd::none;
  int turns = 0;
  std::array<NjakaCapture, kNjakaSets - 1> captures{};  // the twelfth set is the Plex set
  int capture_count = 0;
  Seat plex_winner = kNoSeat;
  bool plex_fallback = false;
  bool plex_to_mover = false;  // plex_mode "mover": no race was held
  bool stall_award = false;
  NjakaSeats award_by_owner{};
  NjakaSeats award_dealt{};
  std::array<NjakaSeats, kNjakaMaxSeats> resign_dealt{};  // [resigner][receiver]
  std::array<bool, kNjakaMaxSeats> resigned{};            // left during this round
  NjakaSeats sets{};
  Seat match_winner = kNoSeat;
  std::array<bool, kNjakaMaxSeats> eliminated{};  // left the match at this round's end
  bool has_next = false;
  NjakaBoard next_owner{};
};

// The whole game in one small struct: copying it is copying a game (the position history and
// the finished rounds live beside it, see `Njaka`).
struct NjakaState {
  // rules fixed by the options
  int players = 2;
  bool advanced = false;
  bool clockwise = false;
  int target = 2;
  bool plex_to_mover = false;
  int stall_limit = 300;
  int max_rounds = 0;
  bool forfeit_policy = false;
  Seat first_player = 0;

  NjakaBoard board{};
  NjakaBoard owner{};
  NjakaSeats sets{};          // sets captured in the current round
  int total_sets = 0;         // Σ sets
  int plex_hand = 0;          // in phase claim (Plex!): counters still in hand (board + hand = 4)
  Phase phase = Phase::play;
  Seat to_move = 0;           // in phase claim (Plex!): the mover whose turn took the eleventh set
  std::array<NjakaSeatStatus, kNjakaMaxSeats> status{};
  std::array<int, kNjakaMaxSeats> left_at{};  // when a seat left (1, 2, …; 0 = still in play)
  int departures = 0;
  int quiet_turns = 0;        // consecutive turns without a capture (C6)
  NjakaRound current;         // the round being played
  NjakaMatchEnd end = NjakaMatchEnd::none;
  Seat winner = kNoSeat;
  Seat offender = kNoSeat;
};

class Njaka final : public Game {
 public:
  explicit Njaka(const GameSetup& setup);
  // A constructed position (tests, tools): the position vector of notation.md (board, owners,
  // sets) and the seat to move, in round 1 started by that seat. A seat that owns no hole and
  // has no set is taken as eliminated. When eleven sets are out, the position is a Plex moment
  // with `to_move` as the mover (resolved at once under plex_mode "mover"). A mover without a
  // legal move passes at once.
  static Njaka from_position(const Json& options, std::span<const int> position, Seat to_move);

  const NjakaState& state() const { return s_; }
  const std::vector<NjakaRound>& finished_rounds() const { return finished_->rounds; }

  std::unique_ptr<Game> clone() const override { return std::make_unique<Njaka>(*this); }
  void legal(DecisionList& out) const override;
  void apply(Decision decision, Events* events) override;
  std::string token(Decision decision) const override;
  std::optional<Decision> parse_token(std::string_view token) const override;
  bool mid_turn() const override { return false; }  // a Njaka turn is one decision

  int players() const override { return s_.players; }
  Seat to_move() const override { return s_.phase == Phase::play ? s_.to_move : kNoSeat; }
  Phase phase() const override { return s_.phase; }
  int round() const override { return s_.current.round; }
  std::vector<int> position() const override;
  void write_board(JsonWriter& out) const override;
  void write_scores(JsonWriter& out) const override;
  void write_rounds(JsonWriter& out) const override;
  std::size_t rounds_played() const override { return finished_->rounds.size(); }
  Json result() const override;
  void outcome(std::span<double> out) const override;
  void material(std::span<int> out) const override;
  void assign(const Game& other) override { *this = static_cast<const Njaka&>(other); }

  void resign(Seat seat, Events* events) override;
  void forfeit(Seat seat, Events* events) override;
  bool forfeits_illegal_moves() const override { return s_.forfeit_policy; }
  std::optional<ClaimWindow> claim_window() const override;
  static constexpr std::string_view kClaimWindows[] = {"plex"};  // the Plex! race
  void resolve_claim(std::optional<Seat> claimant, Events* events) override;

 private:
  void start_round(int round, Seat starter, NjakaBoard owners, Events* events);
  void begin_turn(Events* events);
  void pass_turn(Events* events);
  void open_plex(Events* events);
  void award_plex(Seat winner, bool fallback, Events* events);
  void award_stalled_round(Events* events);
  void end_round(NjakaRoundEnd reason, Events* events);
  void leave(Seat seat, NjakaMatchEnd two_player_reason, Events* events);
  void finish(NjakaMatchEnd end, Seat winner, Events* events);
  void archive_round(Events* events);

  NjakaState s_;
  PositionHistory history_;  // positions at turn starts in this round (C6, clarification 10)
  // The rounds played, and their records as every state view writes them: written once when a
  // round ends, where writing them again with every move was a twelfth of a Njaka move.
  struct FinishedRounds {
    std::vector<NjakaRound> rounds;
    std::string text = "[]";
  };
  std::shared_ptr<const FinishedRounds> finished_;  // shared: copies stay cheap
  std::shared_ptr<const Json> options_;
};

const GameType& njaka_type();

}  // namespace mancala
