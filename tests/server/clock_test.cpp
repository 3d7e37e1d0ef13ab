// Game clocks against a real server: timeouts committed by the server itself, across restarts,
// and the clock in room messages, updates and the history. The server runs its clocks faster
// (--clock-speed), so no test waits for a real timeout.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "table.hpp"

namespace mancala::testing {
namespace {

// Game time runs this many times faster than real time in these servers.
const std::vector<std::string> kFastClocks = {"--clock-speed", "10"};

Json real_time(int initial_s, int increment_s) {
  return {{"clock", {{"initial_s", initial_s}, {"increment_s", increment_s}}}};
}

std::int64_t remaining(const Json& clock, int seat) { return clock["remaining_ms"][seat].get<std::int64_t>(); }

bool is_timeout(const Json& m) { return m.value("type", "") == "update" && m.value("action", "") == "timeout"; }

Json history(unsigned short port, const std::string& path, const std::string& token) {
  std::string body;
  EXPECT_EQ(http_get(port, path, &body, token), 200) << body;
  return Json::parse(body);
}

// Every client sees the same timeout update for `seat`; returns it.
Json expect_timeout_for_everyone(Table& table, int seat) {
  Json first;
  for (auto& client : table.clients) {
    const Json update = client->wait_for(is_timeout, 20s);
    if (first.is_null()) first = update;
    EXPECT_EQ(update, first) << "every client sees the same timeout";
  }
  EXPECT_EQ(first["seat"], seat);
  EXPECT_EQ(first["tokens"], "");
  EXPECT_EQ(first["events"][0], (Json{{"event", "timeout"}, {"seat", seat}}));
  EXPECT_EQ(remaining(first["state"]["clock"], seat), 0);
  table.version = first["version"];
  table.state = first["state"];
  return first;
}

TEST(Clocks, RoomAndUpdatesCarryTheClockAndTheServerCommitsTheTimeout) {
  ServerProcess server(":memory:", kFastClocks);
  Table table = open_table(server.port(), "cups", Json::object(), 2, real_time(30, 5));
  // Version 0: both full, the player to move running.
  const Json& start = table.state["clock"];
  const int first = table.state["to_move"];
  ASSERT_TRUE(start.is_object()) << table.state.dump();
  EXPECT_EQ(start["running"], first);
  EXPECT_LE(remaining(start, first), 30000);
  EXPECT_EQ(remaining(start, 1 - first), 30000);
  EXPECT_TRUE(start["as_of"].is_string());

  Random rng(3);
  const Json moved = play_one(table, rng);
  const Json& clock = moved["state"]["clock"];
  if (moved["state"]["to_move"] != first) {
    EXPECT_EQ(clock["running"], 1 - first);
    EXPECT_GT(remaining(clock, first), 30000) << "the increment is added after a turn";
    EXPECT_LE(remaining(clock, first), 35000);
    EXPECT_EQ(remaining(clock, 1 - first), 30000);
  }
  const Json room = table.clients[0]->request({{"type", "join_room"}, {"room", table.room}});
  EXPECT_EQ(room["room"]["time_control"], (Json{{"initial_s", 30}, {"increment_s", 5}}));
  EXPECT_EQ(room["room"]["clock"]["running"], clock["running"]);
  EXPECT_EQ(room["room"]["state"]["clock"], room["room"]["clock"]);

  // Nobody moves: the server ends the game by itself (30 s of game time: 3 s here).
  const int stalled = table.state["to_move"];
  const std::int64_t before = table.version;
  const Json timeout = expect_timeout_for_everyone(table, stalled);
  EXPECT_EQ(timeout["version"], before + 1);
  EXPECT_EQ(timeout["state"]["result"]["winner"], 1 - stalled);
  EXPECT_EQ(timeout["state"]["result"]["end_reason"], "timeout");
  EXPECT_TRUE(timeout["state"]["clock"]["running"].is_null());

  const Json late = table.clients[static_cast<std::size_t>(stalled)]->request(
      {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", "r1"}});
  EXPECT_EQ(late["code"], "game_over");

  const Json record = history(server.port(), "/api/games/" + table.room, table.tokens[0]);
  EXPECT_EQ(record["status"], "finished");
  EXPECT_EQ(record["result"]["end_reason"], "timeout");
  EXPECT_EQ(record["time_control"], (Json{{"initial_s", 30}, {"increment_s", 5}}));
  const Json& last = record["turns"].back().value("event", "") == "game_end" ? record["turns"][record["turns"].size() - 2]
                                                                               : record["turns"].back();
  EXPECT_EQ(last["event"], "timeout") << record["turns"].dump();
  EXPECT_EQ(last["seat"], stalled);
  EXPECT_TRUE(last["clock"].is_object());

  const Json list = history(server.port(), "/api/games?status=finished", table.tokens[0]);
  ASSERT_EQ(list["games"].size(), 1u);
  EXPECT_EQ(list["games"][0]["time_control"], record["time_control"]);

  const Json positions = history(server.port(), "/api/games/" + table.room + "/positions", table.tokens[0]);
  ASSERT_EQ(positions["states"].size(), static_cast<std::size_t>(table.version + 1));
  EXPECT_EQ(positions["states"][0]["clock"]["remaining_ms"], Json::array({30000, 30000}));
  EXPECT_EQ(positions["states"][0]["clock"]["running"], first);
  EXPECT_EQ(positions["states"][1]["clock"], moved["state"]["clock"]);
  EXPECT_EQ(positions["states"][table.version]["clock"], timeout["state"]["clock"]);
}

TEST(Clocks, GamesWithoutAClockSayNull) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  EXPECT_TRUE(table.state.contains("clock"));
  EXPECT_TRUE(table.state["clock"].is_null());
  Random rng(1);
  EXPECT_TRUE(play_one(table, rng)["state"]["clock"].is_null());
  const Json room = table.clients[0]->request({{"type", "join_room"}, {"room", table.room}});
  EXPECT_TRUE(room["room"]["clock"].is_null());
  EXPECT_TRUE(room["room"]["time_control"].is_null());
}

TEST(Clocks, TheTimeoutStillComesAfterARestartThatChargedNothing) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto server = std::make_unique<ServerProcess>(db, kFastClocks);
  Table table = open_table(server->port(), "cups", Json::object(), 2, real_time(40, 0));
  Random rng(9);
  play_one(table, rng);
  play_one(table, rng);
  const Json stored = table.state["clock"];
  const int running = stored["running"];
  server->kill_hard();
  sleep(2);  // 20 s of game time while the server is down: not charged
  server = std::make_unique<ServerProcess>(db, kFastClocks);
  for (std::size_t seat = 0; seat < table.clients.size(); ++seat) {
    table.clients[seat] = std::make_unique<Client>(server->port());
    ASSERT_EQ(table.clients[seat]->request({{"type", "hello"}, {"token", table.tokens[seat]}})["type"], "welcome");
    const Json room = table.clients[seat]->wait_for_type("room");
    EXPECT_EQ(room["room"]["version"], table.version);
    const Json& clock = room["room"]["clock"];
    EXPECT_EQ(clock["running"], running);
    EXPECT_GT(remaining(clock, running), remaining(stored, running) - 10000)
        << "the downtime was charged: " << clock.dump() << " after " << stored.dump();
    EXPECT_EQ(remaining(clock, 1 - running), remaining(stored, 1 - running));
  }
  expect_timeout_for_everyone(table, running);
  EXPECT_EQ(table.state["result"]["end_reason"], "timeout");
  const Json record = history(server->port(), "/api/games/" + table.room, table.tokens[0]);
  EXPECT_EQ(record["status"], "finished");
}

TEST(Clocks, ACorrespondenceGameSurvivesARestartWithItsClock) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  auto server = std::make_unique<ServerProcess>(db);
  Table table = open_table(server->port(), "cups", Json::object(), 2, {{"clock", {{"per_move_s", 86400}}}});
  const int first = table.state["to_move"];
  Random rng(5);
  play_one(table, rng);
  const Json stored = table.state["clock"];
  EXPECT_EQ(remaining(stored, first), 86400000) << "refilled after the move";
  server->kill_hard();
  server = std::make_unique<ServerProcess>(db);
  const Json positions = history(server->port(), "/api/games/" + table.room + "/positions", table.tokens[0]);
  EXPECT_EQ(positions["states"][0]["clock"]["remaining_ms"], Json::array({86400000, 86400000}));
  EXPECT_EQ(positions["states"][1]["clock"], stored);
  Client again(server->port());
  ASSERT_EQ(again.request({{"type", "hello"}, {"token", table.tokens[0]}})["type"], "welcome");
  const Json room = again.wait_for_type("room");
  EXPECT_EQ(room["room"]["status"], "playing");
  EXPECT_EQ(room["room"]["time_control"], (Json{{"per_move_s", 86400}}));
  const Json& clock = room["room"]["clock"];
  const int running = stored["running"];
  EXPECT_EQ(clock["running"], running);
  EXPECT_GT(remaining(clock, running), 86400000 - 60000);
  EXPECT_LE(remaining(clock, running), remaining(stored, running));
}

TEST(Clocks, AGracefulRestartChargesTheTimeUpToTheStopButNotTheDowntime) {
  TempDir dir;
  const std::string db = dir.file("game.db");
  const std::vector<std::string> fast = {"--clock-speed", "1000"};  // a second is 1000 s of game time
  auto server = std::make_unique<ServerProcess>(db, fast);
  Table table = open_table(server->port(), "cups", Json::object(), 2, {{"clock", {{"per_move_s", 86400}}}});
  Random rng(5);
  play_one(table, rng);
  const int running = table.state["clock"]["running"];
  sleep(2);  // about 2000 s of thinking while the server runs: charged
  table.clients.clear();  // so that the stop does not wait for their close handshakes
  EXPECT_EQ(server->terminate(), 0);
  sleep(3);  // 3000 s while it is down: not charged
  server = std::make_unique<ServerProcess>(db, fast);
  Client again(server->port());
  ASSERT_EQ(again.request({{"type", "hello"}, {"token", table.tokens[0]}})["type"], "welcome");
  const Json clock = again.wait_for_type("room")["room"]["clock"];
  EXPECT_EQ(clock["running"], running);
  const std::int64_t spent = 86400000 - remaining(clock, running);
  EXPECT_GT(spent, 1900000) << "the time before the stop counts: " << clock.dump();
  EXPECT_LT(spent, 3500000) << "the downtime does not: " << clock.dump();
}

TEST(Clocks, AHalfPlayedTurnIsChargedOnceWhenItCompletes) {
  ServerProcess server;
  Table table = open_table(server.port(), "oanquan", Json::object(), 2, real_time(300, 60));
  const int mover = table.state["to_move"];
  Client& client = *table.clients[static_cast<std::size_t>(mover)];
  const auto move = [&](const std::string& token) {
    const Json update = client.request(
        {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", token}});
    EXPECT_EQ(update["type"], "update") << update.dump();
    table.version = update["version"];
    table.state = update["state"];
    return update;
  };
  const Json half = move(table.state["legal"][0]);
  ASSERT_NE(half["state"]["pending"], "") << "a square alone leaves the turn half-played";
  EXPECT_EQ(half["state"]["clock"]["running"], mover) << "the turn's clock runs on";
  EXPECT_LE(remaining(half["state"]["clock"], mover), 300000) << "no increment yet";
  const Json done = move(table.state["legal"][0]);
  EXPECT_EQ(done["state"]["pending"], "");
  EXPECT_GT(remaining(done["state"]["clock"], mover), 300000) << "one increment for the whole turn";
  EXPECT_LE(remaining(done["state"]["clock"], mover), 360000);
}

TEST(Clocks, ANjakaSeatThatRunsOutLeavesAndPlayGoesOn) {
  ServerProcess server(":memory:", kFastClocks);
  Table table = open_table(server.port(), "njaka", {{"players", 3}}, 3, real_time(20, 0));
  const int stalled = table.state["to_move"];
  const Json timeout = expect_timeout_for_everyone(table, stalled);
  EXPECT_TRUE(timeout["state"]["result"].is_null()) << "two players are left";
  EXPECT_EQ(timeout["state"]["phase"], "play");
  const int next = timeout["state"]["to_move"];
  EXPECT_NE(next, stalled);
  EXPECT_EQ(timeout["state"]["clock"]["running"], next);
  // The next seat stalls too: the last player left wins, by timeout.
  const Json last = expect_timeout_for_everyone(table, next);
  EXPECT_FALSE(last["state"]["result"].is_null());
  EXPECT_EQ(last["state"]["result"]["end_reason"], "timeout");
  EXPECT_TRUE(last["state"]["clock"]["running"].is_null());
}

TEST(Clocks, OutOfRangeSettingsAreRefusedWithTheirRange) {
  ServerProcess server;
  Client ada(server.port());
  ada.hello("Ada");
  const auto create = [&](const Json& clock) {
    return ada.request({{"type", "create_room"}, {"game", "cups"}, {"clock", clock}});
  };
  for (const Json& bad : {Json{{"initial_s", 5}}, Json{{"initial_s", 10801}}, Json{{"initial_s", 60}, {"increment_s", 61}},
                          Json{{"per_move_s", 59}}, Json{{"per_move_s", 1209601}},
                          Json{{"per_move_s", 86400}, {"initial_s", 60}}, Json("5+3"), Json::object()}) {
    const Json reply = create(bad);
    EXPECT_EQ(reply["code"], "bad_option") << bad.dump() << " -> " << reply.dump();
    EXPECT_NE(reply.value("message", "").find("clock"), std::string::npos) << reply.dump();
  }
  EXPECT_EQ(create(Json())["type"], "room") << "null: no clock";
  const Json ok = create({{"initial_s", 10800}, {"increment_s", 60}});
  ASSERT_EQ(ok["type"], "room") << ok.dump();
  EXPECT_EQ(ok["room"]["clock"]["remaining_ms"], Json::array({10800000, 10800000}));
  EXPECT_TRUE(ok["room"]["clock"]["running"].is_null()) << "nobody's time runs while the room waits";
}

}  // namespace
}  // namespace mancala::testing
