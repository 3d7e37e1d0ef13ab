// The pieces a room is made of, on their own and without processes, sockets or sleeps: the
// claim race (times are passed in), the commit gate (steps are plain functions) and the
// members with their presence (connections that only record what they were sent).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "chat_log.hpp"
#include "claim_race.hpp"
#include "commit_gate.hpp"
#include "game_log.hpp"
#include "mancala/match.hpp"
#include "rematch.hpp"
#include "room_members.hpp"

namespace mancala::server {
namespace {

using std::chrono::milliseconds;

ClaimWindow window_of(std::int64_t length_ms, std::uint8_t eligible = 0b11) {
  return ClaimWindow{"grab", "grab_timeout", "grab_result", length_ms, 1, eligible};
}

TEST(ClaimRace, AClaimNamingTheOpenWindowMayWinIt) {
  ClaimRace race;
  const SteadyTime t0{};
  const auto& window = race.open(window_of(5000), "w1", t0);
  EXPECT_EQ(window.deadline, t0 + milliseconds(5000));
  EXPECT_EQ(race.judge("w1"), ClaimRace::Verdict::open);
  EXPECT_EQ(race.judge("w2"), ClaimRace::Verdict::unknown);
  EXPECT_EQ(race.judge(""), ClaimRace::Verdict::unknown);
}

TEST(ClaimRace, OnceClosedALateClaimLosesAndANewWindowHasANewId) {
  ClaimRace race;
  race.open(window_of(5000), "w1", SteadyTime{});
  const auto closed = race.close();
  EXPECT_EQ(closed.id, "w1");
  EXPECT_EQ(closed.rules.name, "grab");
  EXPECT_FALSE(race.current());
  EXPECT_EQ(race.judge("w1"), ClaimRace::Verdict::lost);
  race.open(window_of(5000), "w2", SteadyTime{});
  EXPECT_EQ(race.judge("w1"), ClaimRace::Verdict::lost);  // still the last one closed
  EXPECT_EQ(race.judge("w2"), ClaimRace::Verdict::open);
}

TEST(ClaimRace, CancelledWindowsAreNeitherOpenNorLost) {
  ClaimRace race;
  race.open(window_of(5000), "w1", SteadyTime{});
  race.cancel();  // the game ended meanwhile
  EXPECT_EQ(race.judge("w1"), ClaimRace::Verdict::unknown);
  EXPECT_THROW(race.close(), std::logic_error);
}

TEST(ClaimRace, TimeLeftAndTimeHeldComeFromTheTimesGiven) {
  ClaimRace race;
  const SteadyTime t0{};
  race.open(window_of(3000), "w", t0);
  EXPECT_EQ(race.left_ms(t0 + milliseconds(1200)), 1800);
  EXPECT_EQ(race.held_ms(t0 + milliseconds(1200)), 1200);
  EXPECT_EQ(race.left_ms(t0 + milliseconds(9000)), 0);  // never negative
}

TEST(ClaimWindowRules, EligibleSeatsAreABitmask) {
  const ClaimWindow rules = window_of(1000, 0b101);
  EXPECT_TRUE(rules.may_claim(0));
  EXPECT_FALSE(rules.may_claim(1));
  EXPECT_TRUE(rules.may_claim(2));
  EXPECT_FALSE(rules.may_claim(-1));
  EXPECT_FALSE(rules.may_claim(9));
}

TEST(CommitGate, StepsRunAtOnceWhileNoWriteIsInFlight) {
  CommitGate gate;
  std::vector<int> ran;
  gate.run_or_wait([&] { ran.push_back(1); });
  gate.run_or_wait([&] { ran.push_back(2); });
  EXPECT_EQ(ran, (std::vector<int>{1, 2}));
  EXPECT_FALSE(gate.held());
}

TEST(CommitGate, LaterStepsWaitUntilTheWriteReportsThenRunInOrder) {
  CommitGate gate;
  std::vector<std::string> ran;
  gate.hold();
  gate.run_or_wait([&] { ran.push_back("a"); });
  gate.run_or_wait([&] { ran.push_back("b"); });
  EXPECT_TRUE(ran.empty());
  EXPECT_EQ(gate.waiting(), 2u);
  gate.release([&] { ran.push_back("committed"); });
  EXPECT_EQ(ran, (std::vector<std::string>{"committed", "a", "b"}));
  EXPECT_EQ(gate.waiting(), 0u);
}

TEST(CommitGate, AWaitingStepThatWritesHoldsTheRestBack) {
  CommitGate gate;
  std::vector<std::string> ran;
  gate.hold();
  gate.run_or_wait([&] {
    ran.push_back("writes");
    gate.hold();
  });
  gate.run_or_wait([&] { ran.push_back("after"); });
  gate.release([] {});
  EXPECT_EQ(ran, (std::vector<std::string>{"writes"}));
  EXPECT_TRUE(gate.held());
  gate.release([] {});
  EXPECT_EQ(ran, (std::vector<std::string>{"writes", "after"}));
}

class RecordingConnection : public Connection {
 public:
  void send(SharedText text) override { sent.push_back(*text); }
  void close(CloseCode) override {}
  std::vector<std::string> sent;
};

PlayerRef player(std::string id) { return std::make_shared<const Player>(Player{std::move(id), "P", {}}); }

TEST(RoomMembers, ASeatIsConnectedWhileAnyOfItsConnectionsIsHere) {
  const SystemTime t0{};
  RoomMembers members(2, t0);
  auto phone = std::make_shared<RecordingConnection>();
  auto laptop = std::make_shared<RecordingConnection>();
  const auto ada = player("ada");
  members.add({phone, ada, 0});
  members.add({laptop, ada, 0});
  EXPECT_TRUE(members.seat_connected(0));
  EXPECT_FALSE(members.seat_connected(1));
  members.remove(phone.get(), t0 + std::chrono::seconds(60));
  EXPECT_TRUE(members.seat_connected(0));
  EXPECT_EQ(members.grace_until(0), t0);  // not the last connection: no grace time starts
  members.remove(laptop.get(), t0 + std::chrono::seconds(60));
  EXPECT_FALSE(members.seat_connected(0));
  EXPECT_EQ(members.grace_until(0), t0 + std::chrono::seconds(60));
  EXPECT_FALSE(members.remove(laptop.get(), t0));  // not a member any more
}

TEST(RoomMembers, SpectatorsCountAndSendingSkipsTheExcepted) {
  RoomMembers members(2, SystemTime{});
  auto seated = std::make_shared<RecordingConnection>();
  auto watcher = std::make_shared<RecordingConnection>();
  members.add({seated, player("ada"), 1});
  members.add({watcher, player("bo"), std::nullopt});
  EXPECT_EQ(members.spectators(), 1);
  members.send(std::make_shared<const std::string>("hi"), seated.get());
  EXPECT_TRUE(seated->sent.empty());
  EXPECT_EQ(watcher->sent, (std::vector<std::string>{"hi"}));
  ASSERT_NE(members.find(watcher.get()), nullptr);
  members.find(watcher.get())->seat = 0;  // a spectator who took a seat
  EXPECT_EQ(members.spectators(), 0);
}

TEST(RoomMembers, APlayerLeavingTakesAllItsConnections) {
  RoomMembers members(2, SystemTime{});
  const auto ada = player("ada");
  members.add({std::make_shared<RecordingConnection>(), ada, 0});
  members.add({std::make_shared<RecordingConnection>(), player("bo"), 1});
  members.add({std::make_shared<RecordingConnection>(), ada, 0});
  EXPECT_EQ(members.remove_player("ada").size(), 2u);
  EXPECT_EQ(members.all().size(), 1u);
  EXPECT_EQ(members.remove_all().size(), 1u);
  EXPECT_TRUE(members.empty());
}

TEST(RematchVotes, ComputerPlayersAgreeAsSoonAsAPersonAsks) {
  RematchVotes votes;
  EXPECT_FALSE(votes.refusal());
  EXPECT_FALSE(votes.ask(2, {0, 3, 0}));  // seat 2 asks; the computer in seat 1 agrees
  EXPECT_EQ(votes.asked(), (std::vector<int>{1, 2}));
  EXPECT_FALSE(votes.setting_up());
  EXPECT_TRUE(votes.ask(0, {0, 3, 0}));
  EXPECT_TRUE(votes.setting_up());
  ASSERT_TRUE(votes.refusal());
  EXPECT_EQ(votes.refusal()->message, "the rematch is being set up; its room follows");
  votes.set_up("next");
  EXPECT_EQ(votes.room(), "next");
  ASSERT_TRUE(votes.refusal());
  EXPECT_EQ(votes.refusal()->details, (Json{{"rematch", "next"}}));
}

TEST(RematchVotes, ARematchThatCouldNotBeSetUpStartsTheVotesOver) {
  RematchVotes votes;
  EXPECT_TRUE(votes.ask(0, {0, 1}));
  votes.set_up("");
  EXPECT_FALSE(votes.refusal());
  EXPECT_TRUE(votes.asked().empty());
  EXPECT_EQ(votes.room(), "");
}

// Stored actions of the kinds a game declares replay without the server naming the game:
// Njaka's claim window (Plex!) and Coin Duel's special action (concede).
TEST(DeclaredActions, AClaimWindowIsDescribedByTheGameAndSettledByItsNames) {
  Match match = Match::create("njaka", Json{{"players", 3}, {"plex_window_ms", 2500}}, 1);
  Random rng(7);
  while (!match.claim_window() && !match.over()) {
    const auto legal = match.legal_tokens();
    ASSERT_TRUE(match.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]).ok());
  }
  ASSERT_TRUE(match.claim_window());
  const ClaimWindow rules = *match.claim_window();
  EXPECT_EQ(rules.length_ms, 2500);
  EXPECT_EQ(match.state()["phase"], rules.name);  // views name the phase after the window
  EXPECT_EQ(match.play("a").error->code, ErrorCode::not_your_turn);
  Match unclaimed = match;
  const Outcome fallback = apply_action(unclaimed, rules.fallback, kNoSeat, "");
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ(fallback.events[0]["event"], rules.result_event);
  EXPECT_EQ(fallback.events[0]["winner"], rules.fallback_seat);
  Seat claimant = 0;
  while (!rules.may_claim(claimant)) ++claimant;
  const Outcome claimed = apply_action(match, rules.name, claimant, "");
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed.events[0]["winner"], claimant);
  EXPECT_FALSE(match.claim_window());
  EXPECT_EQ(apply_action(match, rules.name, claimant, "").error->code, ErrorCode::not_allowed);
}

TEST(DeclaredActions, SpecialActionsAreTheGamesOwnAndOthersAreRefused) {
  Match cups = Match::create("cups", Json::object(), 1);
  EXPECT_TRUE(cups.game().special_actions().empty());
  EXPECT_EQ(cups.special_action("concede", 0).error->code, ErrorCode::not_allowed);
  Match duel = Match::create("coin_duel", Json::object(), 1);
  ASSERT_EQ(duel.game().special_actions().size(), 1u);
  EXPECT_EQ(duel.game().special_actions()[0].name, "concede");
  EXPECT_TRUE(duel.game().special_actions()[0].ends_turn);
  EXPECT_EQ(duel.special_action("shrug", 0).error->code, ErrorCode::not_allowed);
}

// The chat's limits and who reads what, without a room.
TEST(ChatLog, LimitsLinesAndKeepsSpectatorsFromPlayersDuringPlay) {
  ChatLog log;
  const auto t0 = SteadyTime{} + std::chrono::hours(1);
  EXPECT_FALSE(log.take_turn("ada", "hi", t0));
  EXPECT_TRUE(log.take_turn("ada", "hi", t0 + std::chrono::seconds(30))) << "the same line twice in a row";
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(log.take_turn("ada", "line " + std::to_string(i), t0));
  EXPECT_TRUE(log.take_turn("ada", "sixth", t0 + std::chrono::seconds(9)));
  EXPECT_FALSE(log.take_turn("bob", "sixth", t0 + std::chrono::seconds(9))) << "per player";
  EXPECT_FALSE(log.take_turn("ada", "sixth", t0 + std::chrono::seconds(10))) << "the window moved on";

  log.record({{kPlayersChannel, "ada", "Ada", "good luck", "t1"}, /*during_play=*/true});
  log.record({{kSpectatorsChannel, "wes", "Wes", "she wins", "t2"}, /*during_play=*/true});
  log.record({{kSpectatorsChannel, "wes", "Wes", "well played", "t3"}, /*during_play=*/false});
  EXPECT_EQ(log.visible(/*seated=*/false).size(), 3u);
  const auto seated = log.visible(/*seated=*/true);
  ASSERT_EQ(seated.size(), 2u) << "a spectator's line said during play stays hidden from players";
  EXPECT_EQ(seated[1].text, "well played");
  EXPECT_TRUE(log.find("wes", "t2"));
  EXPECT_FALSE(log.find("ada", "t2"));
  for (int i = 0; i < 60; ++i) log.record({{kPlayersChannel, "ada", "Ada", "x", "t"}, false});
  EXPECT_EQ(log.visible(false).size(), ChatLog::kRecentLines);
}

}  // namespace
}  // namespace mancala::server
