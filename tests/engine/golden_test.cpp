// Golden records: a fixed set of seeded games for every game and the option sets worth telling
// apart, stored in tests/engine/golden/<game>.jsonl. Each replays through Match and must give,
// byte for byte, the stored final state and signature (a hash of every step's events and state,
// as Stockfish's bench signature is of its searches). The server rebuilds open games by replaying
// stored moves, so a rules change that alters any old game must be seen here, not by a player.
//
// When the rules are meant to change, regenerate deliberately and review the diff:
//   MANCALA_REGENERATE_GOLDEN=1 build/tests/golden_test
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mancala/match.hpp"

namespace mancala {
namespace {

struct GoldenCase {
  const char* game;
  const char* options;  // JSON
};

// Three games per case (seeds 1, 2 and 5; seed 5's game ends by a resignation). Chosen to reach every rule path the options switch.
constexpr GoldenCase kCases[] = {
    {"cups", "{}"},
    {"cups", R"({"cups_per_side":3})"},
    {"cups", R"({"cups_per_side":10,"first_player":"random"})"},
    {"coin_duel", R"({"stage":1})"},
    {"coin_duel", R"({"stage":2})"},
    {"coin_duel", R"({"stage":3})"},
    {"coin_duel", R"({"stage":3,"round_starter":"same","max_turns_per_round":100})"},
    {"oanquan", "{}"},
    {"oanquan", R"({"match_mode":"single"})"},
    {"oanquan", R"({"chain_captures":false,"sold_squares_to_end":4,"round_starter":"same"})"},
    {"oanquan", R"({"max_rounds":3,"stall_limit":50})"},
    {"njaka", "{}"},
    {"njaka", R"({"advanced":true})"},
    {"njaka", R"({"players":3,"direction":"cw","target":3})"},
    {"njaka", R"({"players":4,"plex_mode":"mover","max_rounds":2})"},
    {"duovallis", "{}"},
    {"duovallis", R"({"stall_limit":50})"},
};
constexpr std::uint64_t kSeeds[] = {1, 2, 5};

std::string golden_path(const std::string& game) {
  return std::string(MANCALA_GOLDEN_DIR) + "/" + game + ".jsonl";
}

// FNV-1a, 64 bits: tiny and stable across compilers and platforms.
void fnv1a(std::uint64_t& hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

struct Replayed {
  std::string signature;
  Json final_state;
};

Replayed replay(const Json& record) {
  Match match = Match::restore(record.at("game").get<std::string>(), record.at("options"),
                               record.at("draws"));
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (const Json& entry : record.at("turns")) {
    const auto outcome = match.replay_entry(entry);
    if (!outcome) continue;
    if (!outcome->ok()) throw std::runtime_error("does not replay: " + entry.dump());
    fnv1a(hash, entry.dump());
    for (const Json& event : outcome->events) fnv1a(hash, event.dump());
    fnv1a(hash, match.state().dump());
  }
  return {hex(hash), match.state()};
}

// A seeded random game: random legal tokens; a Plex window is claimed by a random seat or, one
// time in four, left to run out; one game in five ends early by a resignation.
Json play_random_game(const GoldenCase& c, std::uint64_t seed) {
  Match match = Match::create(c.game, Json::parse(c.options), seed);
  Random rng(seed * 7919);
  const bool resigns = seed % 5 == 0;
  for (int step = 0; !match.over(); ++step) {
    if (resigns && step == 12) {
      match.resign(match.game().to_move() == kNoSeat ? 0 : match.game().to_move());
      break;
    }
    if (match.game().phase() == Phase::claim) {
      const auto seats = static_cast<std::uint32_t>(match.game().players());
      rng.below(4) == 0 ? match.close_claim_window() : match.claim(static_cast<Seat>(rng.below(seats)));
      continue;
    }
    const auto legal = match.legal_tokens();
    match.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
  }
  return match.record();
}

std::map<std::string, std::vector<Json>> generate() {
  std::map<std::string, std::vector<Json>> files;
  for (const GoldenCase& c : kCases)
    for (std::uint64_t seed : kSeeds) {
      const Json record = play_random_game(c, seed);
      const Replayed replayed = replay(record);
      files[c.game].push_back(Json{{"record", record},
                                   {"signature", replayed.signature},
                                   {"final_state", replayed.final_state}});
    }
  return files;
}

std::vector<Json> load(const std::string& game) {
  std::ifstream in(golden_path(game));
  std::vector<Json> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(Json::parse(line));
  return lines;
}

TEST(Golden, EveryStoredGameReplaysByteForByte) {
  if (std::getenv("MANCALA_REGENERATE_GOLDEN")) {
    for (const auto& [game, lines] : generate()) {
      std::ofstream out(golden_path(game));
      for (const Json& line : lines) out << line.dump() << '\n';
    }
    GTEST_SKIP() << "golden records regenerated in " << MANCALA_GOLDEN_DIR;
  }
  int games = 0;
  for (const char* game : {"cups", "coin_duel", "oanquan", "njaka", "duovallis"}) {
    const auto lines = load(game);
    ASSERT_FALSE(lines.empty()) << "no golden records for " << game << " in " << golden_path(game);
    for (const Json& line : lines) {
      const Json& record = line.at("record");
      SCOPED_TRACE(std::string(game) + " " + record.at("options").dump() + " (" +
                   std::to_string(record.at("turns").size()) + " record entries)");
      const Replayed replayed = replay(record);
      EXPECT_EQ(replayed.final_state.dump(), line.at("final_state").dump());
      EXPECT_EQ(replayed.signature, line.at("signature").get<std::string>());
      ++games;
    }
  }
  EXPECT_EQ(games, static_cast<int>(std::size(kCases) * std::size(kSeeds)));
}

// The golden set covers every game the engine registers.
TEST(Golden, CoversEveryGame) {
  for (const GameType& type : game_types()) {
    bool covered = false;
    for (const GoldenCase& c : kCases) covered = covered || type.id == c.game;
    EXPECT_TRUE(covered) << type.id << " has no golden records";
  }
}

}  // namespace
}  // namespace mancala
