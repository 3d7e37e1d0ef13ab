#pragma once
// A game in progress as the outside world sees it: moves as text, applied all or nothing, the
// illegal-move policy, half-played turns, special actions and claim windows, the full
// state view and the game record. Written once for every game; the games know only rules.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/game.hpp"
#include "mancala/registry.hpp"

namespace mancala {

struct MoveError {
  ErrorCode code;
  std::string message;
  std::string token;               // the offending token, when one was at fault
  std::vector<std::string> legal;  // legal tokens at the point of failure (illegal_move)
  Json to_json() const;            // {"code","message"[,"token","legal"]}
};

// The result of one action. On error the match is unchanged and `events` is empty.
struct Outcome {
  std::optional<MoveError> error;
  Events events;
  bool ok() const { return !error.has_value(); }
};

class Match {
 public:
  // A new game. Random draws (first player) come from `seed`. Throws EngineError
  // (unknown_game, bad_option).
  static Match create(std::string_view game_id, const Json& options, std::uint64_t seed);
  // A stored game's opening position, with the draws that were made when it was created.
  static Match restore(std::string_view game_id, const Json& options, const Json& draws);
  // A constructed position (tests and tools): `game` stands in for the opening state.
  static Match from_game(std::string_view game_id, const Json& options, std::unique_ptr<Game> game);
  // Replays a game record (notation.md). Throws EngineError when a step does not replay.
  static Match from_record(const Json& record);
  // Replays one entry of a record's turns: a move, a resignation, a timeout, a special action
  // or a claim window's settling. Nothing for a forced event (replaying the turns reproduces it).
  std::optional<Outcome> replay_entry(const Json& entry);

  Match(const Match& other);
  Match& operator=(const Match& other);
  Match(Match&&) noexcept = default;
  Match& operator=(Match&&) noexcept = default;
  ~Match() = default;

  // Tokens for the player to move (the command line), or for `seat` (the server).
  Outcome play(std::string_view tokens);
  Outcome play(Seat seat, std::string_view tokens);
  Outcome resign(Seat seat);
  // One of the game's special actions (Game::special_actions), by name.
  Outcome special_action(std::string_view name, Seat seat);
  bool declares_special(std::string_view name) const;
  // The open claim window: `seat` claims it, or it closed unclaimed and goes to its fallback.
  Outcome claim(Seat seat);
  Outcome close_claim_window();
  // A stored action of a kind the game declares: a special action, a claim (`seat` claims) or
  // a claim window's fallback. Refused (not_allowed) when `kind` is none of them.
  Outcome declared_action(std::string_view kind, Seat seat);
  // `seat` ran out of time on the server's clock. The rules treat it as resigning; the events
  // begin with {"event":"timeout","seat":k} instead, and when this ends the game the result's
  // end_reason reads "timeout" (for every game alike: clocks are not part of any rule book).
  Outcome timeout(Seat seat);

  const GameType& type() const { return *type_; }
  const Game& game() const { return *game_; }
  const Json& options() const { return options_; }  // every option, defaults filled in
  const Json& draws() const { return draws_; }      // {} or {"first_player": k}
  std::optional<ClaimWindow> claim_window() const { return game_->claim_window(); }
  const std::string& pending() const { return pending_; }
  std::vector<std::string> legal_tokens() const;
  bool over() const { return game_->phase() == Phase::over; }
  // The game's result (null until the end), with end_reason "timeout" after a timeout ended it.
  Json result() const;

  // The full view of notation.md/protocol.md: position, board, to_move, phase, round,
  // pending, legal, scores, rounds, result. Written as text without a tree (every move's
  // update carries it): `write_state_fields` writes the members only, so a caller may add its
  // own after them (the server's clock). `state()` is that text parsed.
  void write_state_fields(JsonWriter& out) const;
  void write_state(JsonWriter& out) const;
  Json state() const;
  // The game record of notation.md: game, options, draws, turns.
  Json record() const;

 private:
  Match(const GameType& type, Json options, Json draws, Seat first_player);
  Outcome refuse(ErrorCode code, std::string message, std::string token = {},
                 const Game* at = nullptr) const;
  Outcome rule_violation(Seat seat, std::string_view move, std::string_view token,
                         std::string message, const Game& at);
  const Game& turn_start() const { return turn_start_ ? *turn_start_ : *game_; }
  // Runs `action` for `seat` on the state before any half-played turn; `leading` is the first
  // event. `timed_out`: a timeout, which names the end reason when it ends the game.
  Outcome special(Seat seat, Json leading, const std::function<void(Game&, Events*)>& action,
                  bool timed_out = false);
  Outcome settle_claim(std::optional<Seat> claimant);
  void log(Json entry, const Events& events);

  const GameType* type_;
  Json options_;
  Json draws_;
  std::unique_ptr<Game> game_;
  std::unique_ptr<Game> turn_start_;  // the state before a half-played turn began
  std::string pending_;
  std::vector<Json> turns_;
  bool ended_by_timeout_ = false;
};

// Whether an event belongs in a game record beside the turns (notation.md); laps and captures
// are reproduced by replaying the tokens, so a record does not repeat them.
bool recorded_event(const Json& event);

// Splits a move into tokens; nothing when it is empty or not separated by single spaces.
std::optional<std::vector<std::string_view>> split_tokens(std::string_view move);

// Seeds the random draws of a game (SplitMix64: tiny, fast, and good enough for fair draws).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (Lemire's multiply-shift; the bias is far below anything measurable).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }

 private:
  std::uint64_t state_;
};

}  // namespace mancala
