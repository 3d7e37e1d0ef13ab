#pragma once
// Helpers shared by the engine tests: applying moves through the generic layer and collecting
// positions, so each test reads like the rule book's worked example it checks.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mancala/match.hpp"

namespace mancala::testing {

inline std::vector<std::string> legal_tokens(const Game& game) {
  DecisionList list;
  game.legal(list);
  std::vector<std::string> out;
  for (Decision d : list) out.push_back(game.token(d));
  return out;
}

// Plays `tokens` on `game` the way Match does: each token parsed and checked against `legal`.
// Fails the test (and returns false) at the first token that is not legal.
inline bool play(Game& game, const std::string& move, Events* events = nullptr) {
  const auto parts = split_tokens(move);
  if (!parts) {
    ADD_FAILURE() << "bad move text '" << move << "'";
    return false;
  }
  DecisionList list;
  for (auto token : *parts) {
    const auto decision = game.parse_token(token);
    game.legal(list);
    if (!decision || !list.contains(*decision)) {
      std::string legal;
      for (const auto& t : legal_tokens(game)) legal += t + " ";
      ADD_FAILURE() << "'" << token << "' is not legal; legal: " << legal;
      return false;
    }
    game.apply(*decision, events);
  }
  return true;
}

// Random legal decisions until the game ends (Plex windows resolved for the mover). Calls
// `check(game)` after every decision; returns the number of decisions.
template <class Check>
int random_playout(Game& game, std::uint64_t seed, Check check, int limit = 1'000'000) {
  Random rng(seed);
  DecisionList list;
  int decisions = 0;
  while (game.phase() != Phase::over && decisions < limit) {
    if (game.phase() == Phase::claim) {
      game.resolve_claim(std::nullopt, nullptr);
    } else {
      game.legal(list);
      if (list.empty()) {
        ADD_FAILURE() << "no legal decision while the game is in play";
        return decisions;
      }
      game.apply(list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))],
                 nullptr);
      ++decisions;
    }
    check(game);
  }
  return decisions;
}

// One step of a random game through Match: a random legal token, which must be accepted.
inline void play_random_token(Match& m, Random& rng) {
  const auto legal = m.legal_tokens();
  ASSERT_FALSE(legal.empty()) << "no legal token while the game is in play";
  ASSERT_TRUE(m.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]).ok());
}

// How a random game goes on: `step` makes one step (by default a random legal token; a test may
// claim Plex, resign, concede or check what each step did), until the game is over or after
// `max_steps` steps.
struct RandomPlay {
  std::function<void(Match&, Random&)> step = play_random_token;
  int max_steps = std::numeric_limits<int>::max();
};

// Plays `m` on with `how.step`, drawing from a Random seeded with `seed`. Stops at the first
// fatal failure inside a step (callers wrap it in ASSERT_NO_FATAL_FAILURE).
inline void play_randomly(Match& m, std::uint64_t seed, const RandomPlay& how = {}) {
  Random rng(seed);
  for (int steps = 0; !m.over() && steps < how.max_steps; ++steps) {
    how.step(m, rng);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// `m`'s record, written out as text and parsed back, is the record itself and replays to `m`'s
// state.
inline void expect_record_replays(const Match& m) {
  const Json record = m.record();
  const Json parsed = Json::parse(record.dump());
  EXPECT_EQ(parsed, record) << "the record survives its text form";
  EXPECT_EQ(Match::from_record(parsed).state(), m.state()) << "the record replays";
}

// Plays random games of `game` (one per seed from 1 to `games`, each as `how` says), runs `check`
// on each, then checks that each game's record, written out and parsed back, replays to the same
// state.
inline void expect_random_games_replay(const char* game, const Json& options, int games,
                                       const RandomPlay& how = {},
                                       const std::function<void(const Match&)>& check = {}) {
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
    SCOPED_TRACE(std::string(game) + " " + options.dump() + " seed " + std::to_string(seed));
    Match m = Match::create(game, options, seed);
    ASSERT_NO_FATAL_FAILURE(play_randomly(m, seed, how));
    if (check) {
      ASSERT_NO_FATAL_FAILURE(check(m));
    }
    expect_record_replays(m);
  }
}

inline std::vector<double> outcome_of(const Game& game) {
  std::vector<double> out(static_cast<std::size_t>(game.players()));
  game.outcome(out);
  return out;
}

// The tokens of the decisions that end the game at once with the mover as its winner.
inline std::vector<std::string> winning_tokens(const Game& game) {
  DecisionList legal;
  game.legal(legal);
  std::vector<std::string> winning;
  for (Decision d : legal) {
    auto next = game.clone();
    next->apply(d, nullptr);
    if (next->phase() == Phase::over && outcome_of(*next)[static_cast<std::size_t>(game.to_move())] == 1.0)
      winning.push_back(game.token(d));
  }
  return winning;
}

// The exact value of `game` for each seat by exhaustive max-n search (two seats: minimax), or
// nothing when the game goes on for more than `budget` positions. Deliberately plain: the
// reference the engine's own solvers are checked against.
inline std::optional<std::vector<double>> solve(const Game& game, int& budget) {
  if (--budget < 0) return std::nullopt;
  if (game.phase() == Phase::over) return outcome_of(game);
  DecisionList legal;
  game.legal(legal);
  std::optional<std::vector<double>> best;
  const auto mover = static_cast<std::size_t>(game.to_move());
  for (Decision d : legal) {
    auto next = game.clone();
    next->apply(d, nullptr);
    auto value = solve(*next, budget);
    if (!value) return std::nullopt;
    if (!best || (*value)[mover] > (*best)[mover]) best = value;
  }
  return best;
}

// Random play on `m` (from `seed`) until `solve` settles the rest within `budget` positions:
// the exact values then, or nothing when the game ended first.
inline std::optional<std::vector<double>> play_until_solvable(Match& m, std::uint64_t seed, int budget) {
  Random rng(seed);
  while (!m.over()) {
    int left = budget;
    if (auto exact = solve(m.game(), left)) return exact;
    play_random_token(m, rng);
  }
  return std::nullopt;
}

}  // namespace mancala::testing
