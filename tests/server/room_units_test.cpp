// The units a room is made of (server/src/rooms/README.md), each on its own: its views and its
// push decisions as pure functions of a snapshot, the chat's rules, the seat rules, an update
// prepared before its commit, the storage reads on a real SQLite file, and one whole room on a
// real strand that tells its host of the finished game. No processes, no sockets, no sleeps:
// the reads and the room are waited for by the answer they send.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "bot_pool.hpp"
#include "chat_log.hpp"
#include "game_log.hpp"
#include "push_decisions.hpp"
#include "reader_pool.hpp"
#include "room.hpp"
#include "room_reads.hpp"
#include "room_update.hpp"
#include "room_view.hpp"
#include "seat_rules.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

using protocol::Code;

PlayerRef person(std::string id, std::string name, bool account = false) {
  return std::make_shared<const Player>(Player{std::move(id), std::move(name), {}, account});
}

GameMeta cups_meta(const std::string& id = "r1") {
  GameMeta meta;
  meta.id = id;
  meta.game = "cups";
  meta.created = "2026-01-01T00:00:00.000Z";
  meta.invite = "secret";
  meta.host_id = "ada";
  meta.host_name = "Ada";
  return meta;
}

// A two-seat room's snapshot: seat 0 Ada (connected), seat 1 as given.
struct SnapshotParts {
  GameMeta meta = cups_meta();
  Match match = Match::create("cups", Json::object(), 1);
  std::string rematch;
  ChatLog chat;
  RoomSnapshot take(RoomStatus status, std::vector<SeatSnapshot> seats) const {
    return RoomSnapshot{meta, status, std::move(seats), 1, Json(), Json(), 3, match, rematch, chat, false};
  }
};

const SystemTime kGrace = SystemTime{} + std::chrono::hours(24 * 365 * 56);

// ---- views ---------------------------------------------------------------------------------

TEST(RoomView, TheSummaryShowsEachSeatAndTheAwayPlayersCountdownOnlyDuringPlay) {
  SnapshotParts parts;
  const std::vector<SeatSnapshot> seats{{person("ada", "Ada"), true, 0, kGrace}, {person("bo", "Bo"), false, 0, kGrace}};
  const auto playing = room_summary(parts.take(RoomStatus::playing, seats));
  ASSERT_EQ(playing.seats.size(), 2u);
  EXPECT_EQ(playing.status, "playing");
  EXPECT_EQ(playing.seats[1].name, "Bo");
  EXPECT_EQ(playing.seats[0].grace_until, "") << "connected: no countdown";
  EXPECT_EQ(playing.seats[1].grace_until, format_utc(kGrace));
  EXPECT_EQ(playing.spectators, 1);
  EXPECT_EQ(playing.host, "Ada");
  EXPECT_EQ(room_summary(parts.take(RoomStatus::finished, seats)).seats[1].grace_until, "")
      << "nobody claims against an away player once the game is over";
}

TEST(RoomView, APrivateRoomsInviteGoesToSeatedMembersAndSpectatorsChatStaysHiddenFromThem) {
  SnapshotParts parts;
  parts.meta.is_private = true;
  parts.chat.record({{kSpectatorsChannel, "wes", "Wes", "she wins", "t1"}, /*during_play=*/true});
  const auto room = parts.take(RoomStatus::playing, {{person("ada", "Ada"), true}, {person("bo", "Bo"), true}});
  const auto seated = room_view(room, /*seated=*/true);
  const auto watching = room_view(room, /*seated=*/false);
  EXPECT_EQ(seated.invite, "secret");
  EXPECT_EQ(watching.invite, "") << "a spectator could pass the invite on";
  EXPECT_TRUE(seated.chat.empty());
  EXPECT_EQ(watching.chat.size(), 1u);
  EXPECT_NE(seated.state, "null") << "a running game shows its state";
  EXPECT_EQ(seated.version, 3);
  EXPECT_EQ(room_view(parts.take(RoomStatus::waiting, {{person("ada", "Ada"), true}, {}}), true).state, "null");
}

TEST(RoomView, TheLobbyListsPublicRoomsThatWaitWithAFreeSeatOrPlay) {
  SnapshotParts parts;
  const std::vector<SeatSnapshot> one_free{{person("ada", "Ada"), true}, {}};
  const std::vector<SeatSnapshot> full{{person("ada", "Ada"), true}, {person("bo", "Bo"), true}};
  EXPECT_TRUE(lobby_entry(parts.take(RoomStatus::waiting, one_free)));
  EXPECT_FALSE(lobby_entry(parts.take(RoomStatus::waiting, full)));
  EXPECT_TRUE(lobby_entry(parts.take(RoomStatus::playing, full)));
  EXPECT_FALSE(lobby_entry(parts.take(RoomStatus::finished, full)));
  auto forgotten = parts.take(RoomStatus::waiting, one_free);
  forgotten.forgotten = true;
  EXPECT_FALSE(lobby_entry(forgotten));
  parts.meta.is_private = true;
  EXPECT_FALSE(lobby_entry(parts.take(RoomStatus::playing, full)));
}

// ---- push decisions --------------------------------------------------------------------------

TEST(PushDecisions, OnlyTheAbsentPlayerNowToMoveIsToldAndOncePerOpponentsMove) {
  SnapshotParts parts;
  const auto away = parts.take(RoomStatus::playing, {{person("ada", "Ada"), true}, {person("bo", "Bo"), false}});
  const auto notices = turn_notices(away, 0, 1);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].player_id, "bo");
  EXPECT_EQ(notices[0].room_id, "r1");
  EXPECT_EQ(notices[0].body, "Ada has moved: it is your turn.");
  EXPECT_EQ(turn_notices(away, std::nullopt, 1)[0].body, "Your opponent has moved: it is your turn.");
  EXPECT_TRUE(turn_notices(away, 1, 1).empty()) << "his own turn goes on";
  EXPECT_TRUE(turn_notices(away, 0, kNoSeat).empty()) << "nobody to move";
  const auto here = parts.take(RoomStatus::playing, {{person("ada", "Ada"), true}, {person("bo", "Bo"), true}});
  EXPECT_TRUE(turn_notices(here, 0, 1).empty()) << "connected: he sees it";
}

TEST(PushDecisions, ARematchOfferReachesThePlayersWhoHaveNotAsked) {
  SnapshotParts parts;
  const auto room = parts.take(RoomStatus::finished,
                               {{person("ada", "Ada"), true}, {person("bo", "Bo"), true}, {person("cy", "Cy"), true}});
  const auto notices = rematch_notices(room, 0, {0, 2});
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].player_id, "bo");
  EXPECT_EQ(notices[0].body, "Ada offers you a rematch.");
}

// ---- chat ----------------------------------------------------------------------------------

TEST(ChatRules, MembersSpeakSpectatorsOnlyWhileAllowedAndSeatedPlayersOnTheirChannel) {
  ChatLog log;
  const Player ada{"ada", "Ada", {}, true};
  const Player wes{"wes", "Wes", {}};
  const SteadyTime now{};
  EXPECT_EQ(log.refusal("r1", {ada, /*member=*/false, /*seated=*/true}, true, "hi", now)->code, Code::not_found);
  EXPECT_EQ(log.refusal("r1", {wes, true, false}, /*spectator_chat=*/false, "hi", now)->code, Code::not_allowed);
  EXPECT_FALSE(log.refusal("r1", {ada, true, true}, /*spectator_chat=*/false, "hi", now)) << "players always may";
  EXPECT_EQ(log.refusal("r1", {ada, true, true}, true, "hi", now)->code, Code::rate_limited) << "the same line again";
  EXPECT_FALSE(log.refusal("r1", {wes, true, false}, true, "hi", now));

  const StoredChatLine seated = ChatLog::line({ada, true, true}, "gl", "t1", /*during_play=*/true);
  EXPECT_EQ(seated.line.channel, kPlayersChannel);
  EXPECT_TRUE(seated.line.account);
  EXPECT_TRUE(seated.during_play);
  const StoredChatLine watching = ChatLog::line({wes, true, false}, "go", "t2", true);
  EXPECT_EQ(watching.line.channel, kSpectatorsChannel);
  EXPECT_FALSE(ChatLog::may_read(watching, /*seated=*/true));
}

// ---- seat rules ----------------------------------------------------------------------------

TEST(SeatRules, AJoinTakesTheChosenOrFirstFreeSeatOnlyWhileTheRoomWaits) {
  const RoomSeats seats({person("ada", "Ada"), nullptr, nullptr});
  EXPECT_EQ(seats.seat_of(person("ada", "other name")), 0);
  EXPECT_FALSE(seats.seat_of(nullptr));
  EXPECT_EQ(seats.free_count(), 2);
  EXPECT_EQ(choose_seat(seats, {}, RoomStatus::waiting, false, false).seat, 1);
  EXPECT_EQ(choose_seat(seats, {2, false}, RoomStatus::waiting, false, false).seat, 2);
  EXPECT_EQ(choose_seat(seats, {0, false}, RoomStatus::waiting, false, false).refusal->code, Code::seat_taken);
  EXPECT_EQ(choose_seat(seats, {3, false}, RoomStatus::waiting, false, false).refusal->message,
            "this room has seats 0..2");
  const auto watch = choose_seat(seats, {std::nullopt, true}, RoomStatus::waiting, false, false);
  EXPECT_FALSE(watch.seat || watch.refusal) << "a spectator";
  const auto late = choose_seat(seats, {}, RoomStatus::playing, false, false);
  EXPECT_FALSE(late.seat || late.refusal) << "a game under way is watched";
  EXPECT_EQ(choose_seat(seats, {}, RoomStatus::waiting, /*rated=*/true, false).refusal->code, Code::not_allowed);
  EXPECT_EQ(choose_seat(seats, {}, RoomStatus::waiting, true, /*account=*/true).seat, 1);
  EXPECT_FALSE(choose_seat(seats, {std::nullopt, true}, RoomStatus::waiting, true, false).refusal)
      << "anyone may watch a rated room";
}

// What quick pairing's playban counts: leaving (a resignation, a timeout) before one's own first
// move, once per seat, whatever the others did.
TEST(SeatRules, TheSeatsThatLeftAGameUnplayedAreThoseThatLeftBeforeTheirFirstMove) {
  EXPECT_EQ(seats_that_left_unplayed(Json::parse(R"([{"event":"resign","player":1}])")), std::vector<int>{1});
  EXPECT_EQ(seats_that_left_unplayed(Json::parse(R"([{"seat":0,"tokens":"c"},{"event":"timeout","seat":1}])")),
            std::vector<int>{1});
  EXPECT_TRUE(seats_that_left_unplayed(Json::parse(R"([{"seat":0,"tokens":"c"},{"event":"resign","player":0}])")).empty());
  EXPECT_EQ(seats_that_left_unplayed(Json::parse(
                R"([{"event":"resign","player":2},{"seat":0,"tokens":"a"},{"event":"resign","player":2},)"
                R"({"event":"capture","seat":1},{"event":"timeout","seat":1}])")),
            (std::vector<int>{2, 1}));
  EXPECT_TRUE(seats_that_left_unplayed(Json::array()).empty());
}

TEST(SeatRules, ComputerPlayersSitOnFreeSeatsOfWaitingUnratedRoomsAndOnlyARunningGameTakesMoves) {
  const RoomSeats seats({person("ada", "Ada"), nullptr});
  EXPECT_FALSE(bot_seat_refusal(seats, {1, 3}, RoomStatus::waiting, false));
  EXPECT_EQ(bot_seat_refusal(seats, {0, 3}, RoomStatus::waiting, false)->code, Code::seat_taken);
  EXPECT_EQ(bot_seat_refusal(seats, {2, 3}, RoomStatus::waiting, false)->code, Code::bad_request);
  EXPECT_EQ(bot_seat_refusal(seats, {1, 3}, RoomStatus::waiting, true)->code, Code::not_allowed);
  EXPECT_EQ(bot_seat_refusal(seats, {1, 3}, RoomStatus::playing, false)->code, Code::not_allowed);
  EXPECT_EQ(not_playing_refusal(RoomStatus::waiting)->code, Code::not_started);
  EXPECT_EQ(not_playing_refusal(RoomStatus::finished)->code, Code::game_over);
  EXPECT_FALSE(not_playing_refusal(RoomStatus::playing));
  EXPECT_EQ(not_visible("r9").message, "no room r9");
}

// ---- an update prepared before its commit ----------------------------------------------------

TEST(RoomUpdate, AMoveIsWrittenOnceForEveryoneWithTheMoversIdOnHisCopyAndNoStoredEvents) {
  Match match = Match::create("cups", Json::object(), 1);
  const std::string token = match.legal_tokens().front();
  Outcome outcome = match.play(0, token);
  ASSERT_TRUE(outcome.ok());
  const auto update = prepare_update("r1", 4, match, {"move", 0, token, std::move(outcome)}, Json(), 0,
                                     protocol::RequestId(std::int64_t{7}), "t");
  EXPECT_EQ(update.action->version, 5);
  EXPECT_EQ(update.action->kind, "move");
  EXPECT_EQ(update.action->tokens, token);
  EXPECT_EQ(update.action->events, "") << "a move's events are made again by a replay";
  EXPECT_EQ(update.action->at, "t");
  const Json text = Json::parse(*update.text);
  EXPECT_EQ(text["version"], 5);
  EXPECT_FALSE(text.contains("id"));
  EXPECT_EQ(Json::parse(*update.mover_text)["id"], 7);
  EXPECT_FALSE(update.effects.finished_at);
  EXPECT_FALSE(prepare_update("r1", 4, match, {"move", 0, token, {}}, Json(), 0, std::nullopt, "t").mover_text)
      << "a computer player's or the server's update has no mover";
}

TEST(RoomUpdate, AnUpdateThatEndsTheGameCarriesTheResultAndEachSeatsOutcome) {
  Match match = Match::create("cups", Json::object(), 1);
  Outcome outcome = match.resign(1);
  ASSERT_TRUE(outcome.ok());
  const auto update = prepare_update("r1", 0, match, {"resign", 1, "", std::move(outcome)}, Json(), 0, std::nullopt, "t");
  ASSERT_TRUE(update.effects.finished_at);
  EXPECT_EQ(*update.effects.finished_at, "t");
  EXPECT_EQ(update.effects.result, match.result());
  EXPECT_EQ(update.effects.outcomes.size(), 2u);
  EXPECT_NE(update.action->events, "") << "a resignation keeps its events";
}

// ---- storage reads -------------------------------------------------------------------------

class RecordingConnection : public Connection {
 public:
  void send(SharedText text) override {
    const std::lock_guard lock(mutex_);
    sent_.push_back(Json::parse(*text));
    arrived_.notify_all();
  }
  void close(CloseCode) override {}
  // The next message sent to this connection (a read answers from a reader thread).
  Json next() {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(arrived_.wait_for(lock, std::chrono::seconds(30), [&] { return read_ < sent_.size(); }))
        << "no message within 30 s";
    return read_ < sent_.size() ? sent_[read_++] : Json();
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::vector<Json> sent_;
  std::size_t read_ = 0;
};

bool wait_for(const std::function<void(Storage::Done)>& start) {
  std::promise<bool> done;
  start([&](bool ok) { done.set_value(ok); });
  return done.get_future().get();
}

// A SQLite file of its own with one game of cups between ada and bo, playing.
class StoredRoom : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("mancala-room-units-" + std::to_string(getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    storage_ = Storage::open((dir_ / "r.db").string(), latency_);
    for (const auto* id : {"ada", "bo"})
      ASSERT_TRUE(wait_for([&](auto done) { storage_->create_player({id, id, std::string(64, id[0])}, done); }));
    meta_ = cups_meta();
    meta_.status = "playing";
    meta_.started = meta_.created;
    meta_.seats = {{0, "ada", "ada"}, {1, "bo", "bo"}};
    ASSERT_TRUE(wait_for([&](auto done) { storage_->create_game(meta_, done); }));
  }
  void TearDown() override {
    readers_.stop();
    storage_->stop();
    std::filesystem::remove_all(dir_);
  }
  // Plays and stores the first legal move of the seat to move; returns its tokens.
  std::string store_a_move(Match& match, std::int64_t version) {
    const int seat = match.game().to_move();
    const std::string token = match.legal_tokens().front();
    Outcome outcome = match.play(seat, token);
    const auto update = prepare_update(meta_.id, version, match, {"move", seat, token, std::move(outcome)}, Json(),
                                       0, std::nullopt, now_utc());
    EXPECT_TRUE(wait_for([&](auto done) { storage_->append_action(meta_.id, update.action, update.effects, done); }));
    return token;
  }
  Caller caller_of(const PlayerRef& player, std::int64_t id) {
    return Caller{connection_, player, protocol::RequestId(id), std::chrono::steady_clock::now(), nullptr};
  }

  std::filesystem::path dir_;
  Histogram latency_;
  std::unique_ptr<Storage> storage_;
  ReaderPool readers_{1};
  GameMeta meta_;
  std::shared_ptr<RecordingConnection> connection_ = std::make_shared<RecordingConnection>();
};

TEST_F(StoredRoom, AStaleMoveIsAnsweredFromStorageAndSyncReadsTheUpdatesBetween) {
  Match match = opening(meta_);
  const std::string first = store_a_move(match, 0);
  store_a_move(match, 1);
  const RoomReads reads(readers_, *storage_);
  const auto ada = person("ada", "ada");

  reads.resend_or_refuse(caller_of(ada, 1), meta_, protocol::Move{meta_.id, 0, first}, 0, 2);
  const Json again = connection_->next();
  EXPECT_EQ(again["type"], "update") << again.dump();
  EXPECT_EQ(again["id"], 1);
  EXPECT_EQ(again["version"], 1) << "the stored update the lost reply carried";

  reads.resend_or_refuse(caller_of(ada, 2), meta_, protocol::Move{meta_.id, 0, "zz"}, 0, 2);
  const Json refused = connection_->next();
  EXPECT_EQ(refused["code"], "stale_version") << refused.dump();
  EXPECT_EQ(refused["version"], 2) << "the details sit beside the code";

  reads.send_updates(caller_of(ada, 3), meta_, 0, 2);
  const Json updates = connection_->next();
  EXPECT_EQ(updates["type"], "updates") << updates.dump();
  EXPECT_EQ(updates["updates"].size(), 2u);
}

TEST_F(StoredRoom, AGameReadBackIsTheStoredOneAtItsVersion) {
  Match match = opening(meta_);
  store_a_move(match, 0);
  const RoomReads reads(readers_, *storage_);
  std::promise<RoomReads::Rebuilt> rebuilt;
  reads.read_back(meta_, [&](RoomReads::Rebuilt r) { rebuilt.set_value(std::move(r)); });
  auto read = rebuilt.get_future().get();
  ASSERT_TRUE(read);
  EXPECT_EQ(read->second, 1);
  EXPECT_EQ(read->first.state(), match.state());
}

TEST_F(StoredRoom, ASilencedPlayerIsRefusedAndOthersGoOn) {
  const RoomReads reads(readers_, *storage_);
  std::promise<void> allowed;
  reads.unless_silenced(caller_of(person("bo", "bo"), 1), "bo", [&] { allowed.set_value(); });
  EXPECT_EQ(allowed.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  storage_->chat().silence("ada", "2999-01-01T00:00:00.000Z");
  reads.unless_silenced(caller_of(person("ada", "ada"), 2), "ada", [] { ADD_FAILURE() << "a silenced line went on"; });
  const Json refused = connection_->next();
  EXPECT_EQ(refused["code"], "silenced") << refused.dump();
}

// ---- one whole room: the host learns the finished game ----------------------------------------

// Records what the room tells its host; everything but the finished game is of no interest here.
// Records which players' seats the room gives back to the index (a finished game frees them).
class ListeningHost : public RoomHost {
 public:
  void seat_index(const std::string& player_id, const std::string&, bool seated) override {
    if (!seated && ++freed == 2) both_freed.set_value();
  }
  void forget(const std::string&) override {}
  void publish(const std::string&, std::optional<protocol::RoomSummary>) override {}
  void create_rematch(const GameMeta&, std::vector<PlayerRef>, std::vector<int>, std::vector<Caller>,
                      std::function<void(std::string)>) override {}
  void players_changed(const std::vector<std::string>&) override {}
  void game_finished(const std::string& room_id, const Json& result, const std::vector<std::string>&) override {
    finished_room = room_id;
    finished_result = result;
    told.set_value();
  }
  std::string finished_room;  // read once `told` is ready
  Json finished_result;
  std::promise<void> told;
  std::atomic<int> freed{0};
  std::promise<void> both_freed;
};

TEST_F(StoredRoom, AResignationIsStoredBeforeTheResignerHearsItAndFreesBothSeats) {
  net::io_context io;
  auto work = net::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  ListeningHost host;
  Metrics metrics;
  BotPool bots(1, 4, metrics, BotPriority::normal);
  const TimeSource time;
  const auto ada = person("ada", "ada");
  const auto bo = person("bo", "bo");
  auto room = std::make_shared<Room>(Room::Services{io, host, *storage_, metrics, bots, time, readers_}, meta_,
                                     opening(meta_), 0, std::vector<PlayerRef>{ada, bo});
  room->handle(caller_of(bo, 1), protocol::Resign{meta_.id});
  const Json update = connection_->next();
  EXPECT_EQ(update["type"], "update") << update.dump();
  EXPECT_FALSE(storage_->load_game(meta_.id)->meta.result.is_null()) << "heard only once the result is stored";
  auto freed = host.both_freed.get_future();
  EXPECT_EQ(freed.wait_for(std::chrono::seconds(30)), std::future_status::ready) << "seats still indexed";
  EXPECT_EQ(room->status(), RoomStatus::finished);
  ASSERT_EQ(host.told.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  EXPECT_EQ(host.finished_room, meta_.id) << "the host hears of the finished game (a tournament scores it)";
  EXPECT_EQ(host.finished_result, storage_->load_game(meta_.id)->meta.result);
  work.reset();
  io.stop();
  runner.join();
  bots.stop();
}

}  // namespace
}  // namespace mancala::server
