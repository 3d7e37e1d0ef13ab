// The room's chess clock on its own: every time is handed in, so nothing here waits.
#include <gtest/gtest.h>

#include "game_clock.hpp"
#include "room_clock.hpp"

namespace mancala::server {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const SystemTime t0 = SystemTime(std::chrono::hours(500'000));

TEST(GameClock, RealTimeChargesTheMoverAndAddsTheIncrement) {
  GameClock clock(ClockSettings::real_time(seconds(180), seconds(2)), 2);
  clock.start(0, t0);
  EXPECT_EQ(clock.remaining(0, t0 + seconds(10)), seconds(170));
  EXPECT_EQ(clock.remaining(1, t0 + seconds(10)), seconds(180)) << "only the mover's time runs";
  clock.turn_passed(0, 1, t0 + seconds(10));
  EXPECT_EQ(clock.remaining(0, t0 + seconds(40)), seconds(172));
  EXPECT_EQ(clock.remaining(1, t0 + seconds(40)), seconds(150));
  EXPECT_EQ(clock.running(), 1);
  EXPECT_EQ(clock.flag_time(), t0 + seconds(10) + seconds(180));
}

TEST(GameClock, CorrespondenceRefillsAfterEveryMove) {
  GameClock clock(ClockSettings::correspondence(seconds(86400)), 2);
  clock.start(0, t0);
  clock.turn_passed(0, 1, t0 + std::chrono::hours(20));
  EXPECT_EQ(clock.remaining(0, t0 + std::chrono::hours(21)), seconds(86400));
  EXPECT_EQ(clock.remaining(1, t0 + std::chrono::hours(21)), std::chrono::hours(23));
  EXPECT_EQ(clock.flag_time(), t0 + std::chrono::hours(44));
}

TEST(GameClock, StoppedClockChargesNothingAndNeverGoesBelowZero) {
  GameClock clock(ClockSettings::real_time(seconds(10), seconds(0)), 3);
  clock.start(2, t0);
  clock.stop(t0 + seconds(4));  // a Plex race opened
  EXPECT_FALSE(clock.flag_time());
  EXPECT_EQ(clock.remaining(2, t0 + seconds(100)), seconds(6));
  clock.start(2, t0 + seconds(100));
  EXPECT_EQ(clock.remaining(2, t0 + seconds(200)), milliseconds(0));
  clock.retire(2);
  EXPECT_FALSE(clock.running());
}

TEST(GameClock, ResumeFromAStoredViewDoesNotChargeTheDowntime) {
  GameClock clock(ClockSettings::real_time(seconds(300), seconds(3)), 2);
  clock.start(0, t0);
  clock.turn_passed(0, 1, t0 + seconds(5));
  const Json stored = clock.view(t0 + seconds(5));
  EXPECT_EQ(stored.at("remaining_ms"), Json::array({298'000, 300'000}));
  EXPECT_EQ(stored.at("running"), 1);

  const SystemTime restart = t0 + std::chrono::hours(3);
  GameClock resumed = GameClock::resume(clock.settings(), stored, restart);
  EXPECT_EQ(resumed.remaining(1, restart + seconds(1)), seconds(299));
  EXPECT_EQ(resumed.remaining(0, restart + seconds(1)), seconds(298));
  EXPECT_EQ(resumed.running(), 1);
}

TEST(GameClock, SettingsSurviveTheirJsonForm) {
  const auto real_time = ClockSettings::from_json(Json{{"initial_s", 300}, {"increment_s", 3}});
  EXPECT_EQ(real_time.kind, ClockSettings::Kind::real_time);
  EXPECT_EQ(real_time.initial, seconds(300));
  EXPECT_EQ(ClockSettings::from_json(real_time.to_json()).increment, seconds(3));
  const auto daily = ClockSettings::from_json(Json{{"per_move_s", 86400}});
  EXPECT_EQ(daily.kind, ClockSettings::Kind::correspondence);
  EXPECT_EQ(daily.to_json(), (Json{{"per_move_s", 86400}}));
}

// ---- when a turn has passed (room_clock's `advance`) ----------------------------------------

GameClock started_clock(const Match& match, ClockSettings settings) {
  GameClock clock(settings, match.game().players());
  clock.start(match.game().to_move(), t0);
  return clock;
}

TEST(ClockAdvance, AHalfPlayedTurnIsOneTurnChargedWhenItCompletes) {
  Match match = Match::create("oanquan", Json::object(), 1);
  const int mover = match.game().to_move();
  GameClock clock = started_clock(match, ClockSettings::real_time(seconds(60), seconds(5)));
  ASSERT_TRUE(match.play(mover, match.legal_tokens().at(0)).ok());
  ASSERT_FALSE(match.pending().empty());
  clock = advance(clock, match, "move", mover, t0 + seconds(4));
  EXPECT_EQ(clock.running(), mover) << "still the same turn";
  EXPECT_EQ(clock.remaining(mover, t0 + seconds(4)), seconds(56));
  ASSERT_TRUE(match.play(mover, match.legal_tokens().at(0)).ok());
  ASSERT_TRUE(match.pending().empty());
  clock = advance(clock, match, "move", mover, t0 + seconds(10));
  EXPECT_EQ(clock.remaining(mover, t0 + seconds(10)), seconds(55)) << "10 s spent, one increment";
  EXPECT_EQ(clock.running(), match.game().to_move());
}

TEST(ClockAdvance, ATimeoutEndsATwoSeatGameWithTimeoutAsTheReason) {
  Match match = Match::create("cups", Json::object(), 1);
  const int mover = match.game().to_move();
  GameClock clock = started_clock(match, ClockSettings::real_time(seconds(10), seconds(0)));
  const Outcome outcome = match.timeout(mover);
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.events.at(0), (Json{{"event", "timeout"}, {"seat", mover}}));
  EXPECT_EQ(outcome.events.back().at("result").at("end_reason"), "timeout");
  EXPECT_EQ(match.result().at("end_reason"), "timeout");
  EXPECT_EQ(match.result().at("winner"), 1 - mover);
  EXPECT_EQ(match.state().at("result"), match.result());
  clock = advance(clock, match, "timeout", mover, t0 + seconds(10));
  EXPECT_FALSE(clock.running());
  EXPECT_EQ(clock.remaining(mover, t0 + seconds(10)), milliseconds(0));
  // The record replays it, reason included.
  EXPECT_EQ(Match::from_record(match.record()).result(), match.result());
}

TEST(ClockAdvance, ANjakaSeatThatLeavesStopsCountingAndTheMoverRunsOn) {
  Match match = Match::create("njaka", Json{{"players", 3}}, 1);
  const int mover = match.game().to_move();
  const int other = (mover + 1) % 3;
  GameClock clock = started_clock(match, ClockSettings::real_time(seconds(60), seconds(0)));
  ASSERT_TRUE(match.resign(other).ok());
  ASSERT_FALSE(match.over());
  clock = advance(clock, match, "resign", other, t0 + seconds(3));
  EXPECT_EQ(clock.remaining(other, t0 + seconds(3)), milliseconds(0));
  EXPECT_EQ(clock.running(), match.game().to_move());
  EXPECT_EQ(clock.remaining(mover, t0 + seconds(3)), seconds(57)) << "the mover's time ran on";
}

TEST(ClockAdvance, CorrespondenceRefillsOnlyForACompletedTurn) {
  Match match = Match::create("cups", Json::object(), 2);
  const int mover = match.game().to_move();
  GameClock clock = started_clock(match, ClockSettings::correspondence(seconds(3600)));
  ASSERT_TRUE(match.play(mover, match.legal_tokens().at(0)).ok());
  clock = advance(clock, match, "move", mover, t0 + seconds(1000));
  EXPECT_EQ(clock.remaining(mover, t0 + seconds(1000)), seconds(3600));
}

TEST(ChargedUntil, ARestartChargesUpToTheLastMomentTheServerRan) {
  const Json view = {{"remaining_ms", {5000, 60000}}, {"running", 1}, {"as_of", "2026-01-01T00:00:00.000Z"}};
  const Json charged = charged_until(view, "2026-01-01T00:00:10.000Z");
  EXPECT_EQ(charged["remaining_ms"], Json::array({5000, 50000}));
  EXPECT_EQ(charged["as_of"], "2026-01-01T00:00:10.000Z");
  EXPECT_EQ(charged_until(view, "2026-01-01T00:05:00.000Z")["remaining_ms"][1], 0) << "never below zero";
  EXPECT_EQ(charged_until(view, "2025-12-31T23:59:00.000Z"), view) << "a note older than the view";
  EXPECT_EQ(charged_until(view, ""), view) << "no note yet";
  Json stopped = view;
  stopped["running"] = nullptr;
  EXPECT_EQ(charged_until(stopped, "2026-01-01T00:00:10.000Z"), stopped);
  EXPECT_TRUE(charged_until(Json(), "2026-01-01T00:00:10.000Z").is_null());
}

}  // namespace
}  // namespace mancala::server
