// Arena pairing and the round robin's schedule on their own (protocol "Tournaments"), and one
// arena's running state on a clock that is a variable here: the start, the end, pausing, a game
// still being played at the end.
#include <gtest/gtest.h>

#include <set>

#include "arena.hpp"
#include "arena_pairing.hpp"
#include "round_robin.hpp"

namespace mancala::server {
namespace {

using namespace std::chrono_literals;
using Tables = std::vector<std::vector<std::string>>;

FreePlayer free_player(std::string id, double score, std::string last = "", double rating = 1500) {
  return FreePlayer{std::move(id), score, rating, std::move(last)};
}

TEST(ArenaPairing, TwoFreePlayersArePairedAtOnce) {
  EXPECT_EQ(pair_arena({free_player("ada", 0), free_player("bo", 0)}, {2}), (Tables{{"ada", "bo"}}));
  EXPECT_TRUE(pair_arena({free_player("ada", 0)}, {2}).empty());
  EXPECT_TRUE(pair_arena({}, {2}).empty());
}

TEST(ArenaPairing, NearerRanksArePairedTogether) {
  const auto tables = pair_arena({free_player("low", 0), free_player("top", 9), free_player("mid", 4),
                                  free_player("second", 8)},
                                 {2});
  EXPECT_EQ(tables, (Tables{{"top", "second"}, {"mid", "low"}}));
}

TEST(ArenaPairing, EqualScoresPreferNearerRatings) {
  const auto tables = pair_arena({free_player("a", 2, "", 1200), free_player("b", 2, "", 1900),
                                  free_player("c", 2, "", 1250), free_player("d", 2, "", 1850)},
                                 {2});
  EXPECT_EQ(tables, (Tables{{"b", "d"}, {"c", "a"}}));
}

TEST(ArenaPairing, NotTheSameOpponentTwiceInARowWhileAnyoneElseIsFree) {
  const auto tables = pair_arena({free_player("top", 9, "second"), free_player("second", 8, "top"),
                                  free_player("third", 4), free_player("fourth", 2)},
                                 {2});
  EXPECT_EQ(tables, (Tables{{"top", "third"}, {"second", "fourth"}}));
  EXPECT_EQ(pair_arena({free_player("ada", 2, "bo"), free_player("bo", 0, "ada")}, {2}), (Tables{{"ada", "bo"}}))
      << "nobody else is free: they play again rather than wait";
}

TEST(ArenaPairing, NjakaTablesAreAsFullAsTheFreePlayersAllowFullestFirst) {
  std::vector<FreePlayer> six;
  for (int i = 0; i < 6; ++i) six.push_back(free_player("p" + std::to_string(i), 10 - i));
  EXPECT_EQ(pair_arena(six, {2, 3, 4}), (Tables{{"p0", "p1", "p2", "p3"}, {"p4", "p5"}}));
  six.resize(3);
  EXPECT_EQ(pair_arena(six, {2, 3, 4}), (Tables{{"p0", "p1", "p2"}})) << "three free: a table of three at once";
  six.resize(5);
  for (int i = 3; i < 5; ++i) six[static_cast<std::size_t>(i)] = free_player("p" + std::to_string(i), 10 - i);
  const auto five = pair_arena(six, {2, 3, 4});
  ASSERT_EQ(five.size(), 1u);
  EXPECT_EQ(five[0].size(), 4u) << "five free: the fullest table first, one waits for the next game to end";
}

TEST(RoundRobin, EveryPairMeetsOnce) {
  const auto pairs = round_robin_pairs(4);
  EXPECT_EQ(pairs.size(), 6u);
  std::set<std::pair<std::size_t, std::size_t>> seen(pairs.begin(), pairs.end());
  EXPECT_EQ(seen.size(), 6u);
  for (const auto& [a, b] : pairs) EXPECT_LT(a, b);
  EXPECT_TRUE(round_robin_pairs(1).empty());
}

class ArenaTest : public ::testing::Test {
 protected:
  SystemTime start = SystemTime{} + 1000h;
  SystemTime now = start - 1min;
  Arena arena{[this] { return now; }, start, start + 10min, {2}};

  static TournamentPlayer player(const std::string& id) {
    TournamentPlayer out;
    out.player_id = out.name = id;
    return out;
  }
  void join(const std::string& id) { ASSERT_TRUE(arena.join(player(id))); }
  Json win_for(int seat) { return Json{{"winner", seat}}; }
};

TEST_F(ArenaTest, NobodyIsPairedBeforeTheStart) {
  join("ada");
  join("bo");
  EXPECT_TRUE(arena.pair_free().empty());
  now = start;
  EXPECT_EQ(arena.pair_free(), (Tables{{"ada", "bo"}}));
  EXPECT_TRUE(arena.pair_free().empty()) << "they are playing (the table is being opened)";
}

TEST_F(ArenaTest, AFinishedGameScoresAndItsPlayersArePairedAgain) {
  join("ada");
  join("bo");
  join("cy");
  now = start;
  ASSERT_EQ(arena.pair_free(), (Tables{{"ada", "bo"}}));
  arena.opened("r1", {"bo", "ada"});
  EXPECT_TRUE(arena.playing("ada"));
  EXPECT_EQ(arena.rooms(), (std::vector<std::string>{"r1"}));
  EXPECT_EQ(arena.finished("r1", win_for(1)), (std::vector<std::string>{"bo", "ada"}));
  EXPECT_EQ(arena.find("ada")->score, 2);
  EXPECT_EQ(arena.find("ada")->games, 1);
  EXPECT_EQ(arena.find("bo")->score, 0);
  EXPECT_FALSE(arena.playing("ada"));
  EXPECT_EQ(arena.pair_free(), (Tables{{"ada", "cy"}, }))
      << "the winner first; bo is not ada's opponent again while cy is free";
  EXPECT_TRUE(arena.finished("unknown", win_for(0)).empty());
}

TEST_F(ArenaTest, APausedPlayerIsNotPairedUntilTheyJoinAgain) {
  join("ada");
  join("bo");
  now = start;
  EXPECT_TRUE(arena.leave("bo"));
  EXPECT_TRUE(arena.pair_free().empty());
  join("bo");
  EXPECT_EQ(arena.pair_free(), (Tables{{"ada", "bo"}}));
  EXPECT_FALSE(arena.leave("nobody"));
}

TEST_F(ArenaTest, LeavingBeforeTheStartWithdraws) {
  join("ada");
  EXPECT_TRUE(arena.leave("ada"));
  EXPECT_TRUE(arena.players().empty());
}

TEST_F(ArenaTest, AtTheEndNobodyIsPairedAndAGameStillPlayedCountsWhenItEnds) {
  join("ada");
  join("bo");
  join("cy");
  join("di");
  now = start;
  ASSERT_EQ(arena.pair_free().size(), 2u);
  arena.opened("r1", {"ada", "bo"});
  arena.opened("r2", {"cy", "di"});
  arena.finished("r1", win_for(0));
  now = start + 10min;
  EXPECT_TRUE(arena.pair_free().empty()) << "ended: no new pairing";
  EXPECT_FALSE(arena.over()) << "r2 is still being played";
  EXPECT_FALSE(arena.join(player("eve")));
  arena.finished("r2", Json{{"winner", nullptr}});
  EXPECT_TRUE(arena.over());
  EXPECT_EQ(arena.find("cy")->score, 1);
  EXPECT_EQ(arena.find("di")->games, 1);
}

TEST_F(ArenaTest, AGameWithoutAResultScoresNothing) {
  join("ada");
  join("bo");
  now = start;
  arena.pair_free();
  arena.opened("r1", {"ada", "bo"});
  arena.finished("r1", Json());
  EXPECT_EQ(arena.find("ada")->games, 0);
  EXPECT_FALSE(arena.playing("ada"));
}

}  // namespace
}  // namespace mancala::server
