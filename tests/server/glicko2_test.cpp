// Glicko-2 against Glickman's worked example, then the rules a game's seats are rated by.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "glicko2.hpp"

namespace mancala::server::ratings {
namespace {

constexpr double kScale = 173.7178;

TEST(Glicko2, GlickmansWorkedExample) {
  const Rating player{1500, 200, 0.06};
  const std::vector<GameResult> results = {
      {{1400, 30, 0.06}, 1},
      {{1550, 100, 0.06}, 0},
      {{1700, 300, 0.06}, 0},
  };
  const Rating after = update(player, results, Settings{.tau = 0.5});
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, NoGamesOnlyTheDeviationGrows) {
  const Rating player{1620, 200, 0.09};
  const Rating after = update(player, {});
  EXPECT_EQ(after.rating, player.rating);
  EXPECT_EQ(after.volatility, player.volatility);
  const double phi = player.deviation / kScale;
  EXPECT_NEAR(after.deviation, std::sqrt(phi * phi + 0.09 * 0.09) * kScale, 1e-9);
  EXPECT_GT(after.deviation, player.deviation);
}

TEST(Glicko2, TheDeviationNeverPassesTheMaximum) {
  EXPECT_EQ(update({1500, 349.9, 0.06}, {}).deviation, 350);
  EXPECT_EQ(update({1500, 350, 0.06}, {}).deviation, 350);
  EXPECT_EQ(update({1500, 200, 0.06}, {}, Settings{.max_deviation = 150}).deviation, 150);
}

TEST(Glicko2, TwoSeatsTheWinnerGoesUpTheLoserDown) {
  const std::vector<Rating> before = {{1600, 80, 0.06}, {1450, 120, 0.06}};
  const std::vector<double> loser_won = {0, 1};
  const std::vector<Rating> after = rate_game(before, loser_won);
  EXPECT_LT(after[0].rating, before[0].rating);
  EXPECT_GT(after[1].rating, before[1].rating);
}

TEST(Glicko2, TwoFreshPlayersMoveByTheSameAmount) {
  const std::vector<Rating> fresh(2);
  const std::vector<double> first_won = {1, 0};
  const std::vector<Rating> after = rate_game(fresh, first_won);
  EXPECT_GT(after[0].rating, 1500);
  EXPECT_NEAR(after[0].rating - 1500, 1500 - after[1].rating, 1e-9);
  EXPECT_NEAR(after[0].deviation, after[1].deviation, 1e-9);
  EXPECT_LT(after[0].deviation, 350);
  EXPECT_NEAR(after[0].volatility, after[1].volatility, 1e-12);
}

TEST(Glicko2, ADrawBetweenEqualsKeepsTheRatingAndNarrowsTheDeviation) {
  const std::vector<Rating> before = {{1500, 200, 0.06}, {1500, 200, 0.06}};
  const std::vector<double> drawn = {0.5, 0.5};
  const std::vector<Rating> after = rate_game(before, drawn);
  for (const Rating& r : after) {
    EXPECT_NEAR(r.rating, 1500, 1e-9);
    EXPECT_LT(r.deviation, 200);
  }
}

TEST(Glicko2, ThreeSeatsFirstGainsMostLastLosesMost) {
  const std::vector<Rating> fresh(3);
  const std::vector<double> places = {0, 1, 0.5};  // seat 1 first, seat 2 second, seat 0 last
  const std::vector<Rating> after = rate_game(fresh, places);
  EXPECT_GT(after[1].rating, after[2].rating);
  EXPECT_GT(after[1].rating, 1500);
  EXPECT_LT(after[0].rating, after[2].rating);
  EXPECT_LT(after[0].rating, 1500);
  EXPECT_NEAR(after[2].rating, 1500, 1e-9) << "between equals, one win and one loss is par";
}

TEST(Glicko2, FourSeatsFirstGainsMostLastLosesMost) {
  const std::vector<Rating> fresh(4);
  const std::vector<double> places = {2.0 / 3, 0, 1, 1.0 / 3};
  const std::vector<Rating> after = rate_game(fresh, places);
  EXPECT_GT(after[2].rating, after[0].rating);
  EXPECT_GT(after[0].rating, after[3].rating);
  EXPECT_GT(after[3].rating, after[1].rating);
  EXPECT_GT(after[0].rating, 1500);
  EXPECT_LT(after[3].rating, 1500);
}

TEST(Glicko2, ASharedPlaceIsADrawBetweenThoseTwo) {
  const std::vector<Rating> fresh(4);
  // Seats 1 and 2 share second, (1 + 1/2) / 3 each; one a bit off, as a division may leave it.
  const std::vector<double> places = {1, 0.5, std::nextafter(0.5, 0.0), 0};
  const std::vector<Rating> after = rate_game(fresh, places);
  EXPECT_EQ(after[1].rating, after[2].rating);
  EXPECT_EQ(after[1].deviation, after[2].deviation);
  EXPECT_NEAR(after[1].rating, 1500, 1e-9);

  const std::vector<GameResult> by_hand = {{fresh[0], 0}, {fresh[2], 0.5}, {fresh[3], 1}};
  EXPECT_EQ(after[1].rating, update(fresh[1], by_hand).rating);
}

TEST(Glicko2, RateGameIsUpdateWithThePairwiseResults) {
  const std::vector<Rating> before = {
      {1720, 90, 0.058}, {1480, 210, 0.06}, {1500, 350, 0.06}, {1610, 60, 0.061}};
  const std::vector<double> places = {1.0 / 3, 1, 0, 2.0 / 3};
  const Settings settings{.tau = 0.4};
  const std::vector<Rating> after = rate_game(before, places, settings);
  const std::vector<std::vector<GameResult>> by_hand = {
      {{before[1], 0}, {before[2], 1}, {before[3], 0}},
      {{before[0], 1}, {before[2], 1}, {before[3], 1}},
      {{before[0], 0}, {before[1], 0}, {before[3], 0}},
      {{before[0], 1}, {before[1], 0}, {before[2], 1}},
  };
  ASSERT_EQ(after.size(), 4u);
  for (std::size_t seat = 0; seat < 4; ++seat) {
    const Rating expected = update(before[seat], by_hand[seat], settings);
    EXPECT_EQ(after[seat].rating, expected.rating) << "seat " << seat;
    EXPECT_EQ(after[seat].deviation, expected.deviation) << "seat " << seat;
    EXPECT_EQ(after[seat].volatility, expected.volatility) << "seat " << seat;
  }
}

TEST(Glicko2, RateGameWantsOneOutcomePerSeatAndTwoSeats) {
  const std::vector<Rating> two(2);
  const std::vector<double> three = {1, 0.5, 0};
  const std::vector<double> one = {1};
  EXPECT_THROW(rate_game(two, three), std::invalid_argument);
  EXPECT_THROW(rate_game(std::span(two).first(1), one), std::invalid_argument);
}

TEST(Glicko2, ProvisionalWhileTheDeviationIsHigh) {
  EXPECT_TRUE(provisional(Rating{}));
  EXPECT_TRUE(provisional({1500, 350, 0.06}));
  EXPECT_FALSE(provisional({1500, 60, 0.06}));
}

}  // namespace
}  // namespace mancala::server::ratings
