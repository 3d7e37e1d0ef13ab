#pragma once
// The one interface every game implements.
//
// A game object is its state: a plain value that is cheap to copy (`clone`), so bots, look-ahead
// and replays copy it freely. A turn is a sequence of decisions; each decision is one token of
// the move notation, held here as a small integer (`Decision`) so that the hot path (random
// playouts, benchmarks) never touches strings or the heap. The generic layer in match.hpp turns
// text into decisions, checks them against `legal`, applies moves all or nothing and applies the
// illegal-move policy; a game only has to know its rules.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/json.hpp"
#include "mancala/json_writer.hpp"

#include "mancala/error.hpp"

namespace mancala {

using Seat = int;
inline constexpr Seat kNoSeat = -1;
inline constexpr int kMaxSeats = 4;  // no game seats more players

// One decision token in a game-specific compact code (see each game's `token`/`parse_token`).
using Decision = std::uint16_t;

// `claim`: play stops while a claim window is open (see ClaimWindow).
enum class Phase : std::uint8_t { play, claim, over };
std::string_view to_string(Phase phase);

// An action a seat may take that is not a token, declared by the game that has it (Coin Duel's
// concede). Every game has `resign`; these are the others. The server stores, sends and clocks
// them by name, so a new one needs no server change.
struct SpecialAction {
  std::string_view name;   // the stored kind, the leading event and the message that asks for it
  bool ends_turn = false;  // taken by the seat to move, it counts as that seat's turn on the clock
};

// A claim window: play stops, and the first eligible seat to claim wins what is at stake; when
// nobody claims within `length_ms`, the fallback seat gets it (Njaka's Plex!). A game opens one
// by entering Phase::claim and describes it with this data, so the server runs the race
// without knowing the game.
struct ClaimWindow {
  std::string_view name;          // a claim's stored kind and message; the phase's name in views
  std::string_view fallback;      // the stored kind when the window closes unclaimed
  std::string_view result_event;  // the event that settles it (first in the settling outcome)
  std::int64_t length_ms = 0;
  Seat fallback_seat = kNoSeat;   // who gets it when nobody claims in time
  std::uint8_t eligible = 0;      // bit k set: seat k may claim
  bool may_claim(Seat seat) const { return seat >= 0 && seat < 8 && ((eligible >> seat) & 1U) != 0; }
};

// The legal decisions at one point, in the rule book's canonical order. Fixed capacity: no game
// offers more than a few dozen choices at once, and the list must not allocate.
class DecisionList {
 public:
  static constexpr int kCapacity = 64;
  void clear() { size_ = 0; }
  void push_back(Decision d) { items_[static_cast<std::size_t>(size_++)] = d; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Decision operator[](int i) const { return items_[static_cast<std::size_t>(i)]; }
  const Decision* begin() const { return items_.data(); }
  const Decision* end() const { return items_.data() + size_; }
  bool contains(Decision d) const {
    for (Decision x : *this)
      if (x == d) return true;
    return false;
  }

 private:
  std::array<Decision, kCapacity> items_{};
  int size_ = 0;
};

// What happened, in order: laps, captures, passes, refills, round ends, the game's end. The
// server stores and broadcasts these, the web client animates them, the history viewer replays
// them. Games append only when given a sink, so playouts pay nothing for them.
using Events = std::vector<Json>;

class Game {
 public:
  virtual ~Game() = default;
  virtual std::unique_ptr<Game> clone() const = 0;

  // --- decisions -------------------------------------------------------------------------
  // Legal next decisions of the player to move, in canonical order. Empty outside phase `play`.
  virtual void legal(DecisionList& out) const = 0;
  // Applies one decision that `legal` offered, then everything the rules force after it
  // (relays, captures, passes, refills, round ends). Calling it with anything else is a bug.
  virtual void apply(Decision decision, Events* events) = 0;
  virtual std::string token(Decision decision) const = 0;
  // The decision a token names, or nothing when the token is not one of this game's tokens
  // (malformed, or outside its domain such as `c11`). Says nothing about legality.
  virtual std::optional<Decision> parse_token(std::string_view token) const = 0;
  // True while a turn is half played (some decisions made, more to come).
  virtual bool mid_turn() const = 0;

  // --- views -----------------------------------------------------------------------------
  virtual int players() const = 0;
  virtual Seat to_move() const = 0;  // kNoSeat in phases `claim` and `over`
  virtual Phase phase() const = 0;
  virtual int round() const { return 1; }  // 1-based; 1 in games without rounds
  virtual std::vector<int> position() const = 0;  // the vector of notation.md
  // The views of the state, written as JSON text (one value each): the board in a readable,
  // game-specific form; the current standing (pots, stores, sets, totals); the round records so
  // far. The state view of every move is written from these, so they write text directly.
  virtual void write_board(JsonWriter& out) const = 0;
  virtual void write_scores(JsonWriter& out) const = 0;
  virtual void write_rounds(JsonWriter& out) const { out.begin_array().end_array(); }
  // The board's fixed geometry, the same in every state of the game (Duovallis: each hole's row,
  // column, owner and kind, and the sowing circuits), so that views need not repeat it; null for
  // games whose board says it all. Served once with the game's type (/api/game-types).
  virtual void write_layout(JsonWriter& out) const { out.null(); }
  // How many records `write_rounds` writes (cheap: the server stores the new ones).
  virtual std::size_t rounds_played() const { return 0; }
  // The same views as trees (tools, tests, the history API): the text above, parsed.
  Json board() const { return json_tree([this](JsonWriter& out) { write_board(out); }); }
  Json scores() const { return json_tree([this](JsonWriter& out) { write_scores(out); }); }
  Json rounds() const { return json_tree([this](JsonWriter& out) { write_rounds(out); }); }
  virtual Json result() const = 0;                // the rule book's result record, null until over

  // --- actions that are not tokens --------------------------------------------------------
  // The seat gives up. Called at the start of a turn (the generic layer drops a half-played
  // turn first). Throws EngineError(not_allowed) where the rules forbid it for that seat.
  virtual void resign(Seat seat, Events* events) = 0;
  // The game's own special actions, and taking one (`name` is one of them) at the start of a
  // turn; throws EngineError(not_allowed) where the rules forbid it now.
  virtual std::span<const SpecialAction> special_actions() const { return {}; }
  virtual void special(std::string_view name, Seat seat, Events* events);
  // The seat broke a rule under `illegal_move_policy: "forfeit"`.
  virtual void forfeit(Seat seat, Events* events) = 0;
  virtual bool forfeits_illegal_moves() const = 0;
  // In phase `claim`: the open window; nothing in other phases.
  virtual std::optional<ClaimWindow> claim_window() const { return std::nullopt; }
  // Settles the open window: `claimant` (an eligible seat) wins; nothing = nobody claimed in
  // time, the fallback seat gets it. Throws EngineError(no_claim_window) when none is open.
  virtual void resolve_claim(std::optional<Seat> claimant, Events* events);

  // --- for computer players: per-seat figures without JSON, cheap enough for playouts ------
  // Once the game is over: each seat's result in [0, 1], exactly as `result()` decides it: 1 for
  // the winner, 0 for a loser, 1/2 each for a draw; with 3-4 seats, the share of the other seats
  // this one is ranked ahead of (a shared place counts half). Writes `players()` values.
  virtual void outcome(std::span<double> out) const = 0;
  // Each seat's material now, in the game's own units (pot, store, sets, stones; Coin Duel stage
  // 3 adds the round scores so far): what a greedy player maximises. Writes `players()` values.
  virtual void material(std::span<int> out) const = 0;
  // What each seat may expect to hold at the end, in `material`'s units: how a search values a
  // position before the end (a playout cut short, the tree's heuristic). By default the material
  // itself; a game whose material fills late (Cups counts only the pots) says better. Greedy play
  // keeps to `material`: it weighs what a decision gains now. Writes `players()` values.
  virtual void expected_material(std::span<double> out) const;
  // Becomes a copy of `other`, which must be the same game, reusing this object's storage: a
  // search's scratch copies allocate nothing once they have grown.
  virtual void assign(const Game& other) = 0;
};

// `Game::outcome` of a two-seat game: the winner 1, the other 0; no winner is a draw, 1/2 each.
void two_seat_outcome(Seat winner, std::span<double> out);

// How a game was set up: its validated options (defaults filled in) and the random draws the
// creator made from the seed. A stored game keeps both, so replays never draw again.
struct GameSetup {
  Json options;
  Seat first_player = 0;
};

}  // namespace mancala
