// Quick pairing's SeekPool on its own: which seeks share a table, when, and at what size. The
// pool's clock is a variable here, so the widening rating range and Njaka's wait for a fuller
// table are tested by moving it, not by waiting.
#include <gtest/gtest.h>

#include <set>

#include "seek_pool.hpp"

namespace mancala::server {
namespace {

using namespace std::chrono_literals;

class SeekPoolTest : public ::testing::Test {
 protected:
  SystemTime now = SystemTime{} + 1000h;
  std::set<std::pair<std::string, std::string>> mutes;  // (player, whom they muted)
  SeekPool pool{[this] { return now; }, [this](const std::string& a, const std::string& b) { return mutes.contains({a, b}); },
                "s-"};

  static SeekKind cups(std::optional<protocol::ClockChoice> clock = protocol::ClockChoice{300, 3, 0},
                       bool rated = false) {
    return SeekKind{"cups", Json::object(), clock, rated};
  }
  static SeekKind njaka() { return SeekKind{"njaka", Json::object(), protocol::ClockChoice{300, 3, 0}, false}; }

  SeekPool::Added add(const std::string& player, const SeekKind& kind, std::vector<int> seats = {2}, double rating = 1500) {
    auto added = pool.add(player, kind, std::move(seats), rating);
    if (const auto* error = std::get_if<protocol::Error>(&added)) {
      ADD_FAILURE() << player << ": " << error->message;
      return {};
    }
    return std::get<SeekPool::Added>(std::move(added));
  }
  static std::vector<std::string> players(const Table& table) {
    std::vector<std::string> out;
    for (const auto& seeker : table.seekers) out.push_back(seeker.player_id);
    return out;
  }
};

TEST_F(SeekPoolTest, ACompatiblePairIsPairedAtOnceOnArrival) {
  const auto first = add("ada", cups());
  EXPECT_FALSE(first.table);
  EXPECT_FALSE(first.seek_id.empty());
  EXPECT_EQ(pool.size(), 1u);
  const auto second = add("bo", cups());
  ASSERT_TRUE(second.table) << "no timer for a lone pair: the second seek is paired on arrival";
  EXPECT_EQ(players(*second.table), (std::vector<std::string>{"ada", "bo"})) << "oldest seek first";
  EXPECT_EQ(second.table->seats, 2);
  EXPECT_EQ(second.table->kind.game, "cups");
  EXPECT_EQ(pool.size(), 0u);
  EXPECT_FALSE(pool.holds("ada"));
}

TEST_F(SeekPoolTest, IncompatibleSeeksNeverPair) {
  add("ada", cups(protocol::ClockChoice{300, 3, 0}));
  EXPECT_FALSE(add("bo", cups(protocol::ClockChoice{600, 5, 0})).table) << "another clock";
  EXPECT_FALSE(add("cy", cups(std::nullopt)).table) << "no clock";
  EXPECT_FALSE(add("di", cups(protocol::ClockChoice{0, 0, 86400})).table) << "correspondence";
  EXPECT_FALSE(add("ed", cups(protocol::ClockChoice{300, 3, 0}, /*rated=*/true)).table) << "rated vs casual";
  EXPECT_FALSE(add("fa", SeekKind{"cups", Json{{"variant", "x"}}, protocol::ClockChoice{300, 3, 0}, false}).table)
      << "other options";
  EXPECT_FALSE(add("gu", SeekKind{"oware", Json::object(), protocol::ClockChoice{300, 3, 0}, false}).table)
      << "another game";
  now += 1h;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "however long they wait";
  EXPECT_EQ(pool.size(), 7u);
  EXPECT_EQ(pool.listings().size(), 7u);
}

TEST_F(SeekPoolTest, NeverWithThemselvesNorWithSomeoneMuted) {
  add("ada", cups());
  EXPECT_FALSE(add("ada", cups()).table) << "a second tab of the same player";
  mutes.insert({"bo", "ada"});
  EXPECT_FALSE(add("bo", cups()).table) << "bo muted ada";
  mutes.insert({"ada", "cy"});
  const auto cy = add("cy", cups());
  ASSERT_TRUE(cy.table) << "ada muted cy (asked both ways round), but bo is free";
  EXPECT_EQ(players(*cy.table), (std::vector<std::string>{"bo", "cy"}));
  const auto di = add("di", cups());
  ASSERT_TRUE(di.table);
  EXPECT_EQ(players(*di.table), (std::vector<std::string>{"ada", "di"}));
  EXPECT_FALSE(pool.holds("ada")) << "both of ada's seeks ended: she is playing";
  EXPECT_EQ(pool.size(), 0u);
}

TEST_F(SeekPoolTest, AtMostThreeSeeksPerPlayer) {
  add("ada", cups(protocol::ClockChoice{60, 0, 0}));
  add("ada", cups(protocol::ClockChoice{180, 2, 0}));
  const auto third = add("ada", cups(protocol::ClockChoice{600, 5, 0}));
  const auto fourth = pool.add("ada", cups(), {2}, 1500);
  ASSERT_TRUE(std::holds_alternative<protocol::Error>(fourth));
  EXPECT_EQ(std::get<protocol::Error>(fourth).code, protocol::Code::too_many_seeks);
  EXPECT_TRUE(pool.cancel("ada", third.seek_id));
  EXPECT_FALSE(pool.cancel("ada", third.seek_id)) << "ended already";
  EXPECT_FALSE(std::holds_alternative<protocol::Error>(pool.add("ada", cups(), {2}, 1500)));
}

TEST_F(SeekPoolTest, CancelEndsOnlyTheOwnersSeek) {
  const auto seek = add("ada", cups());
  EXPECT_FALSE(pool.cancel("bo", seek.seek_id)) << "not bo's to cancel";
  EXPECT_TRUE(pool.cancel("ada", seek.seek_id));
  EXPECT_FALSE(add("bo", cups()).table) << "ada's seek is gone";
  add("ada", cups(protocol::ClockChoice{60, 0, 0}));
  add("ada", cups(protocol::ClockChoice{120, 0, 0}));
  EXPECT_EQ(pool.cancel_all("ada"), 2);
  EXPECT_FALSE(pool.holds("ada"));
  EXPECT_EQ(pool.size(), 1u);
}

TEST_F(SeekPoolTest, RatedRangeWidensWithTheTimeBothHaveWaited) {
  EXPECT_EQ(rating_range(0s), SeekPool::kStartRange);
  EXPECT_EQ(rating_range(SeekPool::kRangeStepEvery), SeekPool::kStartRange + SeekPool::kRangeStep);
  EXPECT_EQ(rating_range(1h), SeekPool::kMaxRange);

  const auto rated = cups(protocol::ClockChoice{300, 3, 0}, true);
  add("ada", rated, {2}, 1500);
  EXPECT_FALSE(add("far", rated, {2}, 2100).table) << "600 apart: never, beyond the widest range";
  EXPECT_FALSE(add("bo", rated, {2}, 1750).table) << "250 apart: not at once";
  now += 60s;
  // ada has waited a minute, bo too: both waits count, so the range is the widest now.
  const auto tables = pool.pair_waiting();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(players(tables[0]), (std::vector<std::string>{"ada", "bo"}));

  // A newcomer's range is that of its own (short) wait, however long the other has waited.
  EXPECT_FALSE(add("cy", rated, {2}, 1750).table) << "far has waited long, but cy not at all";
  now += SeekPool::kRangeStepEvery * 4;  // 100 + 4 * 50 = 300
  EXPECT_TRUE(pool.pair_waiting().empty()) << "300 is short of 350";
  now += SeekPool::kRangeStepEvery;
  const auto widened = pool.pair_waiting();
  ASSERT_EQ(widened.size(), 1u);
  EXPECT_EQ(players(widened[0]), (std::vector<std::string>{"far", "cy"})) << "2100 vs 1750: 350 apart";
}

TEST_F(SeekPoolTest, RatedRangeStepsOneAtATime) {
  const auto rated = cups(protocol::ClockChoice{300, 3, 0}, true);
  add("ada", rated, {2}, 1500);
  EXPECT_TRUE(add("bo", rated, {2}, 1600).table) << "100 apart: within the starting range";
  add("cy", rated, {2}, 1500);
  add("di", rated, {2}, 1660);
  now += SeekPool::kRangeStepEvery - 1s;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "160 apart, not yet one step";
  now += 1s;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "one step: 150, still short";
  now += SeekPool::kRangeStepEvery;
  EXPECT_EQ(pool.pair_waiting().size(), 1u) << "two steps: 200";
}

TEST_F(SeekPoolTest, NjakaTakesTheLargestTableTheSeekersAllow) {
  add("a", njaka(), {2, 3, 4});
  add("b", njaka(), {3, 4});
  EXPECT_FALSE(add("c", njaka(), {2, 3, 4}).table) << "three accept four: they wait for a fourth";
  const auto d = add("d", njaka(), {4});
  ASSERT_TRUE(d.table) << "four wait: a table of four, at once";
  EXPECT_EQ(d.table->seats, 4);
  EXPECT_EQ(players(*d.table), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST_F(SeekPoolTest, NjakaSeatsASmallerTableOnlyAfterTheWait) {
  add("a", njaka(), {3, 4});
  add("b", njaka(), {3, 4});
  add("c", njaka(), {2, 3, 4});
  now += SeekPool::kWaitPerSizeGivenUp - 1s;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "a fuller table may still form";
  now += 1s;
  const auto tables = pool.pair_waiting();
  ASSERT_EQ(tables.size(), 1u) << "each has waited 15 s for a fourth: a table of three";
  EXPECT_EQ(tables[0].seats, 3);
  EXPECT_EQ(players(tables[0]), (std::vector<std::string>{"a", "b", "c"}));
}

TEST_F(SeekPoolTest, NjakaTwoSeatTablesWaitForEverySizeGivenUp) {
  add("a", njaka(), {2, 3, 4});
  add("b", njaka(), {2});
  EXPECT_EQ(pool.size(), 2u) << "a accepts bigger tables and has not waited";
  now += SeekPool::kWaitPerSizeGivenUp;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "15 s gives up only the table of four";
  now += SeekPool::kWaitPerSizeGivenUp;
  const auto tables = pool.pair_waiting();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].seats, 2);
  // Two who accept only two are paired at once.
  add("c", njaka(), {2});
  EXPECT_TRUE(add("d", njaka(), {2}).table);
}

TEST_F(SeekPoolTest, ListingsCountTheWaitingByKindAndSizes) {
  add("a", njaka(), {3, 4});
  add("b", njaka(), {3, 4});
  add("c", njaka(), {2});
  add("d", cups());
  add("d", cups(protocol::ClockChoice{60, 0, 0}));
  const auto listings = pool.listings();
  ASSERT_EQ(listings.size(), 4u);
  EXPECT_EQ(listings[0].game, "njaka");
  const auto& three_four = listings[0].seats == std::vector<int>{3, 4} ? listings[0] : listings[1];
  EXPECT_EQ(three_four.waiting, 2);
  EXPECT_EQ(listings[2].game, "cups");
  EXPECT_EQ(listings[2].clock["initial_s"], 300);
  EXPECT_EQ(pool.seekers_by_game(), (std::map<std::string, int>{{"cups", 1}, {"njaka", 3}}))
      << "d's two seeks are one player";
  EXPECT_TRUE(pool.may_pair_later());
  pool.cancel_all("a");
  pool.cancel_all("b");
  pool.cancel_all("c");
  EXPECT_FALSE(pool.may_pair_later()) << "d alone can only wait";
}

// The cost of a seek grows with the compatible seekers waiting: thousands of seekers of other
// kinds are never looked at. Counted through the mute predicate, which every comparison asks.
TEST_F(SeekPoolTest, ASeekIsComparedOnlyWithItsOwnKind) {
  int compared = 0;
  SeekPool counting{[this] { return now; },
                    [&](const std::string&, const std::string&) {
                      ++compared;
                      return false;
                    },
                    "s-"};
  for (int i = 0; i < 5000; ++i)
    counting.add("p" + std::to_string(i), SeekKind{"cups", Json::object(), protocol::ClockChoice{60 + i, 0, 0}, false},
                 {2}, 1500);
  EXPECT_EQ(compared, 0) << "each of them alone in its kind";
  auto added = counting.add("x", SeekKind{"cups", Json::object(), protocol::ClockChoice{60, 0, 0}, false}, {2}, 1500);
  EXPECT_TRUE(std::get<SeekPool::Added>(added).table);
  EXPECT_LE(compared, 2) << "one compatible seeker, asked both ways round";
}

// ---- the mild playban -------------------------------------------------------------------

TEST_F(SeekPoolTest, OneGameLeftUnplayedCostsNothing) {
  pool.note_unplayed("ada");
  EXPECT_EQ(pool.playban_delay("ada"), 0s);
  add("ada", cups());
  EXPECT_TRUE(add("bo", cups()).table) << "anyone may leave a game once";
}

TEST_F(SeekPoolTest, TwoGamesLeftUnplayedMakeTheSeekWaitWhileOthersArePairedFirst) {
  pool.note_unplayed("ada");
  now += 1h;
  pool.note_unplayed("ada");
  EXPECT_EQ(pool.playban_delay("ada"), 30s);
  add("ada", cups());
  EXPECT_FALSE(add("bo", cups()).table) << "ada's seek is not considered yet";
  const auto cy = add("cy", cups());
  ASSERT_TRUE(cy.table) << "bo and cy, who came after ada, are paired first";
  EXPECT_EQ(players(*cy.table), (std::vector<std::string>{"bo", "cy"}));
  add("di", cups());
  now += 29s;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "not before the 30 s";
  now += 1s;
  const auto tables = pool.pair_waiting();
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(players(tables[0]), (std::vector<std::string>{"ada", "di"}));
}

TEST_F(SeekPoolTest, ThePlaybanGrowsWithTheCountIsCappedAndForgetsAfterADay) {
  EXPECT_EQ(playban_delay_for(1), 0s);
  EXPECT_EQ(playban_delay_for(2), 30s);
  EXPECT_EQ(playban_delay_for(3), 60s);
  EXPECT_EQ(playban_delay_for(7), 180s);
  EXPECT_EQ(playban_delay_for(50), 180s) << "capped: mild, never a ban";
  for (int i = 0; i < 3; ++i) {
    pool.note_unplayed("ada");
    now += 1h;
  }
  EXPECT_EQ(pool.playban_delay("ada"), 60s);
  now += 21h;  // the first game left is now 24 h old
  EXPECT_EQ(pool.playban_delay("ada"), 30s);
  now += 2h;
  EXPECT_EQ(pool.playban_delay("ada"), 0s);
  EXPECT_EQ(pool.playban_delay("bo"), 0s);
}

TEST_F(SeekPoolTest, APlaybannedRatedSeeksRangeWidensFromWhenItIsConsidered) {
  pool.note_unplayed("ada");
  pool.note_unplayed("ada");
  add("ada", cups(protocol::ClockChoice{300, 3, 0}, true), {2}, 1500);
  add("bo", cups(protocol::ClockChoice{300, 3, 0}, true), {2}, 1650);
  now += 30s;
  EXPECT_TRUE(pool.pair_waiting().empty()) << "ada's seek has only just arrived: the range is 100";
  now += 5s;
  EXPECT_EQ(pool.pair_waiting().size(), 1u);
}

}  // namespace
}  // namespace mancala::server
