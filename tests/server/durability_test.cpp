// Reconnection, crashes and restarts: nothing acknowledged is ever lost.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "table.hpp"

namespace mancala::testing {
namespace {

TEST(Reconnection, DropReconnectWithTokenSyncAndContinue) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  Random rng(4);
  for (int i = 0; i < 3; ++i) play_one(table, rng);
  const std::int64_t seen = table.version;
  table.clients[1]->drop();
  const Json away = table.clients[0]->wait_for_type("presence");
  EXPECT_EQ(away["seat"], 1);
  EXPECT_FALSE(away["connected"].get<bool>());
  // Seat 0 plays on while seat 1 is away (if it is seat 0's turn).
  while (table.state["to_move"] == 0 && table.state["result"].is_null()) {
    const std::string token = table.state["legal"][0];
    const Json update = table.clients[0]->request(
        {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", token}});
    ASSERT_EQ(update["type"], "update");
    table.version = update["version"];
    table.state = update["state"];
    table.states.push_back(table.state);
  }
  table.clients[1] = std::make_unique<Client>(server.port());
  ASSERT_EQ(table.clients[1]->request({{"type", "hello"}, {"token", table.tokens[1]}})["type"], "welcome");
  EXPECT_EQ(table.clients[1]->wait_for_type("room")["room"]["version"], table.version);
  EXPECT_TRUE(table.clients[0]->wait_for_type("presence")["connected"].get<bool>());
  const Json sync = table.clients[1]->request({{"type", "sync"}, {"room", table.room}, {"since", seen}});
  ASSERT_EQ(sync["type"], "updates");
  ASSERT_EQ(sync["updates"].size(), static_cast<std::size_t>(table.version - seen));
  for (const auto& update : sync["updates"])
    EXPECT_EQ(update["state"], table.states[update["version"].get<std::size_t>()]);
  play_to_end(table, 8);
  EXPECT_FALSE(table.state["result"].is_null());
}

// A client that missed more than 500 updates (asleep through most of a Coin Duel match, where
// every decision is an update and four rounds run to about a thousand) is sent the room as it
// stands instead; one exactly 500 behind still gets every update, in order.
TEST(Reconnection, SyncMoreThan500UpdatesBehindIsAnsweredWithTheRoom) {
  ServerProcess server;
  Table table = open_table(server.port(), "coin_duel", Json::object(), 2);
  Random rng(5);
  std::vector<Json> played = {Json()};  // played[v]: the update that made version v
  while (table.version < 501) {
    ASSERT_TRUE(table.state["result"].is_null()) << "the match ended at version " << table.version;
    played.push_back(play_one(table, rng));
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
  }
  // The seat to move is the one that fell behind: it must be able to play on from the answer.
  Client& late = *table.clients[table.state["to_move"].get<std::size_t>()];

  const Json room = late.request({{"type", "sync"}, {"room", table.room}, {"since", 0}});
  ASSERT_EQ(room["type"], "room") << "501 missing updates";
  EXPECT_FALSE(room.contains("updates"));
  EXPECT_EQ(room["room"]["id"], table.room);
  EXPECT_EQ(room["room"]["status"], "playing");
  EXPECT_EQ(room["room"]["version"], 501);
  EXPECT_EQ(room["room"]["state"], table.state);
  EXPECT_EQ(room["room"]["invite"], table.invite) << "a seated player of a private room";

  const Json sync = late.request({{"type", "sync"}, {"room", table.room}, {"since", 1}});
  ASSERT_EQ(sync["type"], "updates") << "500 missing updates";
  EXPECT_EQ(sync["room"], table.room);
  ASSERT_EQ(sync["updates"].size(), 500u);
  for (std::size_t v = 2; v <= 501; ++v) {
    Json expected = played[v];
    expected.erase("type");
    expected.erase("id");
    EXPECT_EQ(sync["updates"][v - 2], expected) << "version " << v;
  }

  const Json move = late.request({{"type", "move"},
                                   {"room", table.room},
                                   {"expected_version", room["room"]["version"]},
                                   {"tokens", room["room"]["state"]["legal"][0]}});
  ASSERT_EQ(move["type"], "update") << move.dump();
  EXPECT_EQ(move["version"], 502);
}

TEST(Durability, SigkillAfterAcknowledgedMovesLosesNothing) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto server = std::make_unique<ServerProcess>(db);
  Table table = open_table(server->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(12);
  int kills = 0;
  for (int stretch : {1, 4, 9, 2, 1000}) {
    for (int i = 0; i < stretch && table.state["result"].is_null(); ++i)
      played.push_back(play_one(table, rng)["tokens"]);
    // The last move was acknowledged; kill the server before it can do anything else.
    server->kill_hard();
    ++kills;
    server = std::make_unique<ServerProcess>(db);
    if (table.state["result"].is_null()) reconnect_all(table, server->port());
    EXPECT_EQ(stored_moves(server->port(), table), played) << "every acknowledged move is in the history";
    if (!table.state["result"].is_null()) break;
  }
  EXPECT_FALSE(table.state["result"].is_null());
  EXPECT_GE(kills, 3);
}

// A move whose commit fails is refused to its mover, announced to nobody, and the room is
// rebuilt from the database (off its strand, on a reader): the same move then goes through at
// the same version, and the game plays to its end with exactly the stored moves.
TEST(Durability, AMoveThatCannotBeStoredIsRefusedAndPlayGoesOn) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  ServerProcess server(db);
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  Random rng(31);
  for (int i = 0; i < 3; ++i) play_one(table, rng);

  execute_on(db, "CREATE TRIGGER refuse_moves BEFORE INSERT ON moves "
                 "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;");
  const int seat = table.state["to_move"].get<int>();
  const std::string token = table.state["legal"][0];
  const Json move = {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", token}};
  const Json refused = table.clients[static_cast<std::size_t>(seat)]->request(move);
  ASSERT_EQ(refused["type"], "error") << refused.dump();
  EXPECT_EQ(refused["code"], "internal");
  const auto is_update = [](const Json& message) { return message.value("type", "") == "update"; };
  EXPECT_TRUE(table.clients[static_cast<std::size_t>(1 - seat)]->sync_barrier(table.room, table.version, is_update))
      << "a move that was not stored is announced to nobody";

  execute_on(db, "DROP TRIGGER refuse_moves;");
  const Json update = table.clients[static_cast<std::size_t>(seat)]->request(move);
  ASSERT_EQ(update["type"], "update") << "the room was rebuilt at the stored version: " << update.dump();
  EXPECT_EQ(update["version"], table.version + 1);
  EXPECT_EQ(table.clients[static_cast<std::size_t>(1 - seat)]->wait_for(is_update)["version"], table.version + 1);
  table.version = update["version"];
  table.state = update["state"];
  table.states.push_back(table.state);
  play_to_end(table, 32);
  ASSERT_FALSE(table.state["result"].is_null());

  EXPECT_EQ(static_cast<std::int64_t>(stored_moves(server.port(), table).size()), table.version) << "every version is one stored move, the refused one none";
}

// The disk runs full under SQLite (here the database's page limit, not a real disk): each move
// that does not fit is refused `unavailable`, saying the disk is full, and nothing changes;
// the log says so once, not once per move; once there is room again play goes on by itself,
// and every acknowledged move is stored.
TEST(Durability, AFullDiskRefusesMovesCleanlyAndPlayGoesOnWhenThereIsRoom) {
  TempDir dir;
  const std::string db = dir.file("full.db");
  const std::string limit = dir.file("pages");
  const auto set_limit = [&](long long pages) { std::ofstream(limit) << pages << "\n"; };
  set_limit(1000000);
  ServerProcess server(db, {"--test-page-limit-file", limit});
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  Random rng(8);
  std::vector<std::string> played;
  played.push_back(play_one(table, rng)["tokens"]);

  set_limit(1);  // the database may not grow any more
  std::vector<std::string> refusals;
  for (int i = 0; i < 300 && refusals.size() < 3 && table.state["result"].is_null(); ++i) {
    try {
      played.push_back(play_one(table, rng)["tokens"]);
    } catch (const std::runtime_error& e) {
      refusals.push_back(e.what());
    }
  }
  ASSERT_EQ(refusals.size(), 3u) << "the page limit never stopped a move";
  for (const auto& refusal : refusals) {
    EXPECT_NE(refusal.find("\"code\":\"unavailable\""), std::string::npos) << refusal;
    EXPECT_NE(refusal.find("disk is full"), std::string::npos) << refusal;
  }
  std::string log = server.log();
  std::size_t said = 0;
  for (auto at = log.find("\"disk_full\""); at != std::string::npos; at = log.find("\"disk_full\"", at + 1)) ++said;
  EXPECT_EQ(said, 1u) << "once a minute, not once per refused move:\n" << log;

  set_limit(1000000);
  for (int i = 0; i < 3 && table.state["result"].is_null(); ++i) played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_EQ(stored_moves(server.port(), table), played);
}

TEST(Durability, GracefulStopKeepsGamesAndExitsZero) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto server = std::make_unique<ServerProcess>(db);
  Table table = open_table(server->port(), "cups", Json::object(), 2);
  Random rng(2);
  play_one(table, rng);
  EXPECT_EQ(server->terminate(), 0);
  int code = 0;
  EXPECT_TRUE(table.clients[0]->wait_closed(5s, &code));
  EXPECT_EQ(code, 1001);
  server = std::make_unique<ServerProcess>(db);
  reconnect_all(table, server->port());
  play_to_end(table, 3);
}

TEST(Durability, BackupWritesAConsistentCopy) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  ServerProcess server(db);
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  Random rng(1);
  for (int i = 0; i < 3; ++i) play_one(table, rng);
  const std::string copy = dir.file("copy.db");
  EXPECT_EQ(run_server_command({"--db", db, "--backup", copy}), 0);
  EXPECT_NE(run_server_command({"--db", db, "--backup", copy}), 0) << "never overwrites a file";
  ServerProcess restored(copy);
  std::string body;
  ASSERT_EQ(http_get(restored.port(), "/api/games/" + table.room + "/positions", &body, table.tokens[0]), 200);
  const Json positions = Json::parse(body);
  ASSERT_EQ(positions["states"].size(), 4u);
  EXPECT_EQ(positions["states"][3], table.state);
}

// The current UTC time to the second, in the form the server writes ("2026-01-01T12:00:00").
std::string utc_seconds_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  return text;
}

const Json& lobby_entry(const Json& rooms, const std::string& id) {
  for (const auto& room : rooms)
    if (room["id"] == id) return room;
  throw std::runtime_error("room " + id + " is not in the lobby: " + rooms.dump());
}

TEST(Lobby, HostAndCreationTimeSurviveARestart) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto server = std::make_unique<ServerProcess>(db);
  std::string seated_room, watched_room;
  Json first;  // the lobby before the restart
  {
    Client ada(server->port()), cyd(server->port());
    ada.hello("Ada");
    cyd.hello("Cyd");
    const std::string before = utc_seconds_now();
    seated_room = ada.request({{"type", "create_room"}, {"game", "cups"}})["room"]["id"];
    // A host who only watches is still the host, though no seat says so.
    watched_room = cyd.request({{"type", "create_room"}, {"game", "oanquan"}, {"spectate", true}})["room"]["id"];
    const std::string after = utc_seconds_now();
    const Json rooms = ada.request({{"type", "list_rooms"}})["rooms"];
    EXPECT_EQ(lobby_entry(rooms, seated_room)["host"], "Ada");
    EXPECT_EQ(lobby_entry(rooms, watched_room)["host"], "Cyd");
    const std::string created = lobby_entry(rooms, seated_room)["created"];
    ASSERT_EQ(created.size(), 24u) << created;  // 2026-01-01T12:00:00.000Z
    EXPECT_EQ(created.back(), 'Z');
    EXPECT_GE(created.substr(0, 19), before);
    EXPECT_LE(created.substr(0, 19), after);
    first = rooms;
  }
  // No pause before the restart: the times carry milliseconds and a restart takes more than one,
  // so a time written at the restart would differ from the one the lobby showed before it.
  EXPECT_EQ(server->terminate(), 0);
  server = std::make_unique<ServerProcess>(db);
  Client bob(server->port());
  bob.hello("Bob");
  const Json restored = bob.request({{"type", "list_rooms"}})["rooms"];
  // (The watched room has gone: a room nobody sits in closes when its last member leaves.)
  EXPECT_EQ(lobby_entry(restored, seated_room)["host"], "Ada");
  EXPECT_EQ(lobby_entry(restored, seated_room)["created"], lobby_entry(first, seated_room)["created"]);
}

TEST(Abandonment, OpponentMayClaimAfterTheGraceTime) {
  // Grace times run on the rooms' clock: 20 times faster here, so 30 s pass in 1.5 s.
  ServerProcess server(":memory:", {"--clock-speed", "20"});
  Client ada(server.port()), bob(server.port());
  ada.hello("Ada");
  bob.hello("Bob");
  const Json created = ada.request(
      {{"type", "create_room"}, {"game", "cups"}, {"private", true}, {"grace_seconds", 30}});
  const std::string room = created["room"]["id"];
  const Json started = bob.request({{"type", "join_room"}, {"invite", created["room"]["invite"]}});
  ASSERT_EQ(started["room"]["status"], "playing");
  const int to_move = started["room"]["state"]["to_move"];
  Client& absent = to_move == 0 ? ada : bob;
  Client& present = to_move == 0 ? bob : ada;
  absent.drop();
  const Json away = present.wait_for_type("presence");
  const Json early = present.request({{"type", "claim_abandon"}, {"room", room}});
  EXPECT_EQ(early["code"], "not_abandoned");
  // Until when, as a field: clients need not read it out of the English message.
  EXPECT_EQ(early["grace_until"], away["grace_until"]) << early.dump() << away.dump();
  // Asks until the grace time has run out on the room's clock (1.5 s of real time), each
  // refusal saying it has not yet.
  Json update;
  wait_until(
      [&] {
        update = present.request({{"type", "claim_abandon"}, {"room", room}});
        if (update["type"] == "update") return true;
        EXPECT_EQ(update["code"], "not_abandoned") << update.dump();
        return false;
      },
      10s, "the grace time to run out", 100ms);
  EXPECT_EQ(update["action"], "abandon");
  EXPECT_EQ(update["events"][0]["event"], "resign");
  EXPECT_EQ(update["events"][0]["player"], to_move);
  EXPECT_FALSE(update["state"]["result"].is_null());
  (void)away;
}

TEST(CommandLine, HelpAndBadUsage) {
  std::string out;
  EXPECT_EQ(run_server_command({"--help"}, &out), 0);
  EXPECT_NE(out.find("--allow-origin"), std::string::npos);
  EXPECT_EQ(run_server_command({"--port", "http"}), 2);
  EXPECT_EQ(run_server_command({"--log-level", "loud"}), 2);
  EXPECT_EQ(run_server_command({"--frobnicate"}), 2);
}

// A container's health check runs `--health` with the flags the server was started with.
TEST(CommandLine, HealthAsksTheServerThatTheSameFlagsStart) {
  ServerProcess server;
  const std::string port = std::to_string(server.port());
  std::string out;
  EXPECT_EQ(run_server_command({"--health", "--bind", "0.0.0.0", "--port", port}, &out), 0) << "a wildcard bind is asked on loopback";
  EXPECT_NE(out.find("healthy: http://127.0.0.1:" + port + "/healthz answered 200"), std::string::npos) << out;
  EXPECT_EQ(run_server_command({"--port", port, "--health"}), 0);
  server.terminate();
  EXPECT_EQ(run_server_command({"--health", "--port", port}), 1) << "nothing listens there any more";
  EXPECT_EQ(run_server_command({"--health", "--port", "0"}), 1) << "port 0 names no server";
}

}  // namespace
}  // namespace mancala::testing
