// The hub's parts on their own, without processes or sockets: the index of rooms with its cap,
// the checks of a new room (plan_room), the lobby and its coalesced broadcast, a stored game made ready to be a room
// again (restore_game), and the bus messages between processes.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "bus_messages.hpp"
#include "game_log.hpp"
#include "lobby.hpp"
#include "room_index.hpp"
#include "room_plan.hpp"
#include "room_restorer.hpp"

namespace mancala::server {
namespace {

using protocol::Code;

const Player kAda{"p-ada", "Ada", {}};
const RoomDraw kDraw{7, "room1", "invite1", "2026-11-27T10:00:00Z", "2026-11-27T10:00:05Z"};

protocol::CreateRoom create(std::string game, Json options = Json::object()) {
  protocol::CreateRoom create;
  create.game = std::move(game);
  create.options = std::move(options);
  return create;
}

const RoomPlan& plan_of(const std::variant<RoomPlan, protocol::Error>& planned) {
  if (const auto* error = std::get_if<protocol::Error>(&planned)) ADD_FAILURE() << error->message;
  return std::get<RoomPlan>(planned);
}

const protocol::Error& refusal_of(const std::variant<RoomPlan, protocol::Error>& planned) {
  EXPECT_TRUE(std::holds_alternative<protocol::Error>(planned)) << "the request was accepted";
  return std::get<protocol::Error>(planned);
}

// A stand-in for Room: the index needs only its id, invite and status.
struct FakeRoom {
  std::string room_id;
  std::string room_invite;
  RoomStatus room_status = RoomStatus::waiting;
  const std::string& id() const { return room_id; }
  const std::string& invite() const { return room_invite; }
  RoomStatus status() const { return room_status; }
};

std::shared_ptr<FakeRoom> fake_room(std::string id, std::string invite = "",
                                    RoomStatus status = RoomStatus::waiting) {
  return std::make_shared<FakeRoom>(FakeRoom{std::move(id), std::move(invite), status});
}

TEST(RoomIndex, RoomsAreFoundByIdInviteAndSeatedPlayer) {
  RoomIndex<FakeRoom> index;
  index.add(fake_room("r1", "secret"), {"ada", "bo"});
  index.add(fake_room("r2", "", RoomStatus::playing), {"ada"});
  EXPECT_EQ(index.find("r1")->id(), "r1");
  EXPECT_EQ(index.find_by_invite("secret")->id(), "r1");
  EXPECT_EQ(index.find_by_invite("r1"), nullptr);
  EXPECT_EQ(index.rooms_seating("ada").size(), 2u);
  EXPECT_TRUE(index.seated_in("bo", "r1"));
  index.seat("bo", "r1", false);
  EXPECT_FALSE(index.seated_in("bo", "r1"));
  EXPECT_EQ(index.counts().waiting, 1);
  EXPECT_EQ(index.counts().playing, 1);
  EXPECT_TRUE(index.remove("r1"));
  EXPECT_FALSE(index.remove("r1"));
  EXPECT_EQ(index.find_by_invite("secret"), nullptr);  // the invite goes with its room
  EXPECT_EQ(index.rooms_seating("ada").size(), 1u);    // a seat in a removed room leads nowhere
}

TEST(RoomIndex, ThePerPlayerCapCountsWaitingRoomsAndTheOnesBeingCreated) {
  RoomIndex<FakeRoom> index;
  index.add(fake_room("seated"), {"ada"});
  index.add(fake_room("started", "", RoomStatus::playing), {"ada"});  // not waiting: not counted
  EXPECT_TRUE(index.reserve("ada", 3));
  EXPECT_TRUE(index.reserve("ada", 3));   // two being stored, one seated: the cap is reached
  EXPECT_FALSE(index.reserve("ada", 3));
  EXPECT_TRUE(index.reserve("bo", 3));     // the cap is each player's own
  index.end_reservation("ada", nullptr);   // that creation failed: its place is free again
  EXPECT_TRUE(index.reserve("ada", 3));
  const std::string created = "created";
  index.add(fake_room(created), {});       // the creator watches it without a seat
  index.end_reservation("ada", &created);  // it counts by itself now
  EXPECT_FALSE(index.reserve("ada", 3));
  index.remove(created);
  EXPECT_TRUE(index.reserve("ada", 3));
}

TEST(PlanRoom, APublicRoomSeatsItsCreatorAndWaits) {
  const auto planned = plan_room(create("cups"), kAda, kDraw);
  const RoomPlan& plan = plan_of(planned);
  EXPECT_EQ(plan.creator_seat, 0);
  EXPECT_EQ(plan.meta.id, "room1");
  EXPECT_EQ(plan.meta.invite, "");  // only private rooms have one
  EXPECT_EQ(plan.meta.status, "waiting");
  EXPECT_EQ(plan.meta.started, "");
  EXPECT_EQ(plan.meta.host_name, "Ada");
  ASSERT_EQ(plan.meta.seats.size(), 1u);
  EXPECT_EQ(plan.meta.seats[0].player_id, "p-ada");
  EXPECT_EQ(plan.meta.options, plan.match.options());  // resolved: defaults filled in
  EXPECT_TRUE(plan.meta.clock.is_null());
}

TEST(PlanRoom, ComputerPlayersInEveryOtherSeatStartTheGameAtOnce) {
  auto request = create("njaka", Json{{"players", 3}});
  request.is_private = true;
  request.choice.seat = 1;
  request.bots = {{0, 2}, {2, 5}};
  request.clock = protocol::ClockChoice{300, 3, 0};
  const auto planned = plan_room(request, kAda, kDraw);
  const RoomPlan& plan = plan_of(planned);
  EXPECT_EQ(plan.creator_seat, 1);
  EXPECT_EQ(plan.meta.invite, "invite1");
  EXPECT_EQ(plan.meta.status, "playing");
  EXPECT_EQ(plan.meta.started, "2026-11-27T10:00:05Z");
  ASSERT_EQ(plan.meta.seats.size(), 3u);
  EXPECT_EQ(plan.meta.seats[2].bot_level, 5);
  EXPECT_EQ(plan.meta.clock, (Json{{"initial_s", 300}, {"increment_s", 3}}));
}

TEST(PlanRoom, TheSameRequestAndDrawGiveTheSamePlan) {
  const auto a = plan_room(create("coin_duel", Json{{"stage", 3}}), kAda, kDraw);
  const auto b = plan_room(create("coin_duel", Json{{"stage", 3}}), kAda, kDraw);
  EXPECT_EQ(plan_of(a).match.state(), plan_of(b).match.state());
  EXPECT_EQ(plan_of(a).meta.draws, plan_of(b).meta.draws);
}

TEST(PlanRoom, RefusesWhatTheGameDoesNotHave) {
  EXPECT_EQ(refusal_of(plan_room(create("chess"), kAda, kDraw)).code, Code::unknown_game);
  EXPECT_EQ(refusal_of(plan_room(create("cups", Json{{"cups_per_side", 11}}), kAda, kDraw)).code, Code::bad_option);

  auto seat = create("cups");
  seat.choice.seat = 2;
  EXPECT_EQ(refusal_of(plan_room(seat, kAda, kDraw)).message, "this game has seats 0..1");

  auto bot = create("cups");
  bot.bots = {{3, 1}};
  EXPECT_EQ(refusal_of(plan_room(bot, kAda, kDraw)).message, "'bots' names seat 3; this game has seats 0..1");

  auto nobody = create("cups");
  nobody.choice.spectate = true;
  nobody.bots = {{0, 1}, {1, 1}};
  EXPECT_EQ(refusal_of(plan_room(nobody, kAda, kDraw)).code, Code::bad_request);
}

class RecordingConnection : public Connection {
 public:
  void send(SharedText text) override { sent.push_back(*text); }
  void close(CloseCode) override {}
  std::vector<std::string> sent;
};

protocol::RoomSummary entry(std::string id, int spectators = 0) {
  protocol::RoomSummary summary;
  summary.id = std::move(id);
  summary.game = "cups";
  summary.status = "waiting";
  summary.spectators = spectators;
  return summary;
}

std::vector<std::string> ids(const std::vector<protocol::RoomSummary>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.id);
  return out;
}

TEST(Lobby, EntriesKeepTheOrderTheyWereFirstListedIn) {
  net::io_context io;
  Lobby lobby(io);
  EXPECT_TRUE(lobby.list("b", entry("b")));
  EXPECT_TRUE(lobby.list("a", entry("a")));
  EXPECT_FALSE(lobby.list("b", entry("b")));   // the same entry again: no change
  EXPECT_TRUE(lobby.list("b", entry("b", 1)));  // a spectator came: a change, same place
  EXPECT_EQ(ids(lobby.entries()), (std::vector<std::string>{"b", "a"}));
  EXPECT_TRUE(lobby.list("b", std::nullopt));
  EXPECT_FALSE(lobby.list("b", std::nullopt));
  EXPECT_EQ(ids(lobby.entries()), (std::vector<std::string>{"a"}));
  const auto kept = lobby.entries_where([](const std::string& id) { return id != "a"; });
  EXPECT_TRUE(kept.empty());
}

TEST(Lobby, WatchersHearAFlurryOfChangesAsOneMessage) {
  net::io_context io;
  Lobby lobby(io);
  auto watcher = std::make_shared<RecordingConnection>();
  auto gone = std::make_shared<RecordingConnection>();
  lobby.watch(watcher);
  lobby.watch(gone);
  lobby.unwatch(gone.get());
  lobby.list("a", entry("a"));
  lobby.list("b", entry("b"));
  lobby.list("a", entry("a", 2));
  io.run_for(Lobby::kDelay * 4);  // the coalescing timer fires once
  ASSERT_EQ(watcher->sent.size(), 1u);
  const Json rooms = Json::parse(watcher->sent[0]);
  EXPECT_EQ(rooms["type"], "rooms");
  ASSERT_EQ(rooms["rooms"].size(), 2u);
  EXPECT_EQ(rooms["rooms"][0]["spectators"], 2);
  EXPECT_TRUE(gone->sent.empty());
}

// A Cups game played a few turns and stored as the database would hold it.
StoredGame stored_cups_game(int turns) {
  StoredGame stored;
  stored.meta.id = "r";
  stored.meta.game = "cups";
  Match match = Match::create("cups", Json::object(), 3);
  stored.meta.options = match.options();
  stored.meta.draws = match.draws();
  stored.meta.seats = {{0, "p-ada", "Ada"}, {1, "", "Computer", 2}};
  for (int version = 1; version <= turns; ++version) {
    const Seat seat = match.game().to_move();
    const std::string tokens = match.legal_tokens().at(0);
    EXPECT_TRUE(match.play(seat, tokens).ok());
    stored.actions.push_back({version, "move", seat, tokens, "[]", "2026-11-27T10:00:00Z", Json()});
  }
  return stored;
}

TEST(RestoreGame, ReplaysTheStoredActionsAndSeatsTheKnownPlayers) {
  PlayerDirectory players;
  players.load({StoredPlayer{"p-ada", "Ada", std::string(64, '0')}});
  const StoredGame stored = stored_cups_game(4);
  const RestoredGame game = restore_game(stored, "", players);
  EXPECT_EQ(game.version, 4);
  EXPECT_EQ(game.match.state(), replay(stored.meta, stored.actions).state());
  ASSERT_EQ(game.seats.size(), 2u);
  ASSERT_TRUE(game.seats[0]);
  EXPECT_EQ(game.seats[0]->name, "Ada");
  EXPECT_FALSE(game.seats[1]);  // the computer player's: the room seats it itself
}

TEST(RestoreGame, AnUnknownPlayerOrABrokenActionIsRefusedWithTheReason) {
  PlayerDirectory nobody;
  EXPECT_THROW(restore_game(stored_cups_game(1), "", nobody), std::runtime_error);
  PlayerDirectory players;
  players.load({StoredPlayer{"p-ada", "Ada", std::string(64, '0')}});
  StoredGame broken = stored_cups_game(2);
  broken.actions[1].tokens = "nonsense";
  EXPECT_THROW(restore_game(broken, "", players), EngineError);
}

TEST(BusMessages, EveryKindReadsBackAsWritten) {
  const std::vector<bus::Message> messages = {
      bus::Frame{7, "{\"type\":\"update\"}\nwith a newline"},
      bus::Request{"host-1-a", 3, "p-ada", "{\"type\":\"sync\",\"room\":\"r\"}", {}},
      bus::Attach{"host-1-a", 3, "p-ada", "r", {}},
      bus::Gone{"host-1-a", 3},
      bus::Summary{"host-1-a", "r", entry("r", 1)},
      bus::Summary{"host-1-a", "r", std::nullopt},
      bus::LobbyHello{"host-2-b"},
      bus::Taken{"host-2-b", {"r1", "r2"}},
      bus::SessionsEnded{"host-2-b", {std::string(64, 'a'), std::string(64, 'b')}},
      bus::PlayersChanged{"host-2-b", {"p-ada"}},
      bus::PoolTaken{"host-2-b"},
      bus::Reseek{"host-1-a", 3, "p-ada", "sAbC-7", "{\"type\":\"seek\",\"game\":\"cups\"}", {}},
      bus::Seated{"host-1-a", {"p-ada", "p-bo"}},
  };
  for (const auto& message : messages) {
    const bus::Message back = bus::read(bus::write(message));
    EXPECT_EQ(back.index(), message.index());
    EXPECT_EQ(bus::write(back), bus::write(message));
  }
  EXPECT_EQ(bus::write(bus::Frame{7, "x"}), bus::frame_header(7) + "x");
}

// Issue 46 (item 11): a request and an attach say whether their player is an account, and its
// ratings, which the owner's seats show; the numbers cross exactly.
TEST(BusMessages, ARequestCarriesItsPlayersAccountAndRatings) {
  const bus::Who ada{true, {{"cups", SeatRating{{1623.4567891234, 87.25, 0.0599999}, 12}},
                            {"njaka", SeatRating{{1500, 350, 0.06}, 0}}}};
  const auto request = std::get<bus::Request>(
      bus::read(bus::write(bus::Request{"host-1-a", 3, "p-ada", "{\"type\":\"sync\",\"room\":\"r\"}", ada})));
  EXPECT_TRUE(request.who.account);
  ASSERT_EQ(request.who.ratings.size(), 2u);
  const SeatRating cups = request.who.ratings.at("cups");
  EXPECT_EQ(cups.rating.rating, 1623.4567891234);
  EXPECT_EQ(cups.rating.deviation, 87.25);
  EXPECT_EQ(cups.rating.volatility, 0.0599999);
  EXPECT_EQ(cups.games, 12);
  EXPECT_EQ(request.text, "{\"type\":\"sync\",\"room\":\"r\"}");
  const auto attach = std::get<bus::Attach>(bus::read(bus::write(bus::Attach{"host-1-a", 3, "p-ada", "r", ada})));
  EXPECT_TRUE(attach.who.account);
  EXPECT_EQ(attach.room, "r");
  EXPECT_EQ(attach.who.ratings.at("njaka").games, 0);
  EXPECT_FALSE(std::get<bus::Attach>(bus::read(bus::write(bus::Attach{"host-1-a", 3, "p-bo", "r", {}}))).who.account);
  // A process from before the flag wrote none: its players read as guests, as they did.
  EXPECT_FALSE(std::get<bus::Attach>(bus::read("attach host-1-a 3 p-ada r")).who.account);
  EXPECT_THROW(bus::read("attach host-1-a 3 p-ada r account;cups,1500,x,0.06,1"), std::invalid_argument);
  EXPECT_THROW(bus::read("attach host-1-a 3 p-ada r admin"), std::invalid_argument);
}

TEST(BusMessages, UnreadablePayloadsAreRefusedWithAReason) {
  EXPECT_THROW(bus::read(""), std::invalid_argument);
  EXPECT_THROW(bus::read("launch host-1"), std::invalid_argument);
  EXPECT_THROW(bus::read("attach host-1 3"), std::invalid_argument);
}

}  // namespace
}  // namespace mancala::server
