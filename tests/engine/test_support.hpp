#pragma once
// Helpers shared by the engine tests: applying moves through the generic layer and collecting
// positions, so each test reads like the rule book's worked example it checks.
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
    if (game.phase() == Phase::plex) {
      game.resolve_plex(std::nullopt, nullptr);
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

// Plays random games of `game` (one per seed, random legal tokens through Match), then checks
// that each game's record, written out and parsed back, replays to the same final state.
inline void expect_random_games_replay(const char* game, const Json& options, int games) {
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(games); ++seed) {
    Match m = Match::create(game, options, seed);
    Random rng(seed);
    while (!m.over()) {
      const auto legal = m.legal_tokens();
      ASSERT_TRUE(m.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]).ok());
    }
    const Match replayed = Match::from_record(Json::parse(m.record().dump()));
    EXPECT_EQ(replayed.state(), m.state()) << game << " seed " << seed;
  }
}

}  // namespace mancala::testing
