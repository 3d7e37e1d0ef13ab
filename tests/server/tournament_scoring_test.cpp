// Tournament points on their own (protocol "Tournaments"): the arena's 2/1/0 and its streak,
// Njaka's place points with shared places, the round robin's 1/½/0, and the standings' order.
#include <gtest/gtest.h>

#include "scoring.hpp"
#include "standings.hpp"

namespace mancala::server {
namespace {

// The arena points of a run of two-seat games for one player, in order.
std::vector<double> arena_run(const std::vector<GameOutcome>& games) {
  ArenaStreak streak;
  std::vector<double> out;
  for (const auto outcome : games) {
    const double base = outcome == GameOutcome::win ? 2 : outcome == GameOutcome::draw ? 1 : 0;
    out.push_back(arena_points(base, outcome, streak));
  }
  return out;
}

constexpr auto W = GameOutcome::win;
constexpr auto D = GameOutcome::draw;
constexpr auto L = GameOutcome::loss;

TEST(TournamentScoring, ArenaScoresTwoOneNothing) {
  EXPECT_EQ(arena_run({W}), (std::vector<double>{2}));
  EXPECT_EQ(arena_run({D}), (std::vector<double>{1}));
  EXPECT_EQ(arena_run({L}), (std::vector<double>{0}));
}

TEST(TournamentScoring, AfterTwoWinsInARowEachFurtherWinScoresFourUntilANonWin) {
  EXPECT_EQ(arena_run({W, W, W, W}), (std::vector<double>{2, 2, 4, 4}));
  EXPECT_EQ(arena_run({W, W, D, W}), (std::vector<double>{2, 2, 2, 2})) << "the streak's draw scores 2, then it ends";
  EXPECT_EQ(arena_run({W, W, L, W, W, W}), (std::vector<double>{2, 2, 0, 2, 2, 4}));
  EXPECT_EQ(arena_run({W, D, W, W}), (std::vector<double>{2, 1, 2, 2})) << "a draw breaks the run before it doubles";
}

TEST(TournamentScoring, PlacesComeFromTheResult) {
  EXPECT_EQ(places_from_result({{"winner", 1}}, 2), (std::vector<int>{2, 1}));
  EXPECT_EQ(places_from_result({{"winner", nullptr}}, 2), (std::vector<int>{1, 1}));
  EXPECT_EQ(places_from_result({{"winner", 2}, {"ranking", {{2}, {0, 3}, {1}}}}, 4), (std::vector<int>{2, 4, 1, 2}));
  EXPECT_TRUE(places_from_result(Json(), 2).empty());
  EXPECT_TRUE(places_from_result({{"ranking", {{0}}}}, 2).empty()) << "a seat without a place";
}

TEST(TournamentScoring, NjakaPlacePointsAreTwiceSeatsMinusPlaceAndSharedPlacesShareThem) {
  EXPECT_EQ(place_points({1, 2, 3, 4}), (std::vector<double>{6, 4, 2, 0}));
  EXPECT_EQ(place_points({2, 3, 1}), (std::vector<double>{2, 0, 4}));
  EXPECT_EQ(place_points({1, 1, 3, 4}), (std::vector<double>{5, 5, 2, 0})) << "(6 + 4) / 2";
  EXPECT_EQ(place_points({1, 2, 2, 2}), (std::vector<double>{6, 2, 2, 2})) << "(4 + 2 + 0) / 3";
  EXPECT_EQ(place_points({1, 2}), (std::vector<double>{2, 0})) << "two seats: the arena's win and loss";
  EXPECT_EQ(place_points({1, 1}), (std::vector<double>{1, 1})) << "and its draw";
}

TEST(TournamentScoring, ANjakaStreakDoublesPlacePointsAndCountsOnlySoleFirstPlacesAsWins) {
  const std::vector<int> won{1, 2, 3, 4};
  const std::vector<int> shared_first{1, 1, 3, 4};
  EXPECT_EQ(outcome_of_place(won, 0), W);
  EXPECT_EQ(outcome_of_place(won, 1), L);
  EXPECT_EQ(outcome_of_place(shared_first, 1), D);
  ArenaStreak streak{2};
  EXPECT_EQ(arena_points(5, D, streak), 10);
  EXPECT_EQ(streak.wins_in_a_row, 0);
  ArenaStreak hot{3};
  EXPECT_EQ(arena_points(4, L, hot), 4) << "a second place is not doubled, and ends the run";
  EXPECT_EQ(hot.wins_in_a_row, 0);
}

TEST(TournamentScoring, RoundRobinScoresOneHalfNothing) {
  EXPECT_EQ(round_robin_points(W), 1);
  EXPECT_EQ(round_robin_points(D), 0.5);
  EXPECT_EQ(round_robin_points(L), 0);
}

TEST(TournamentStandings, RankedByScoreAndEqualScoresKeepTheirOrder) {
  std::vector<TournamentPlayer> players(4);
  const char* names[] = {"ada", "bo", "cy", "di"};
  const double scores[] = {2, 5, 2, 0};
  for (std::size_t i = 0; i < players.size(); ++i) {
    players[i].player_id = names[i];
    players[i].score = scores[i];
  }
  const auto ranked = rank_players(players);
  ASSERT_EQ(ranked.size(), 4u);
  std::vector<std::string> order;
  for (const auto& standing : ranked) order.push_back(standing.player->player_id);
  EXPECT_EQ(order, (std::vector<std::string>{"bo", "ada", "cy", "di"}));
  EXPECT_EQ(ranked[0].rank, 1);
  EXPECT_EQ(ranked[3].rank, 4);
}

}  // namespace
}  // namespace mancala::server
