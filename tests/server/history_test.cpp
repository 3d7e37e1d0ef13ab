// The history API: lists, records that replay through the engine, positions.
#include <gtest/gtest.h>

#include "mancala/match.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "table.hpp"

namespace mancala::testing {
namespace {

Json get_json(unsigned short port, const std::string& target, int expected_status = 200,
              const std::string& bearer = "") {
  std::string body;
  EXPECT_EQ(http_get(port, target, &body, bearer), expected_status) << target << ": " << body;
  return Json::parse(body);
}

TEST(History, ListRecordAndPositions) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  play_to_end(table, 31);
  const std::string& token = table.tokens[0];

  // A private game: invisible without its players' token.
  EXPECT_EQ(get_json(server.port(), "/api/games")["games"].size(), 0u);
  get_json(server.port(), "/api/games/" + table.room, 404);
  const Json list = get_json(server.port(), "/api/games?player=Seat%200&status=finished", 200, token);
  ASSERT_EQ(list["games"].size(), 1u);
  const Json& summary = list["games"][0];
  EXPECT_EQ(summary["id"], table.room);
  EXPECT_EQ(summary["game"], "cups");
  EXPECT_EQ(summary["status"], "finished");
  EXPECT_EQ(summary["players"][1]["name"], "Seat 1");
  EXPECT_EQ(summary["result"], table.state["result"]);
  EXPECT_FALSE(summary["finished"].is_null());
  EXPECT_EQ(get_json(server.port(), "/api/games?status=playing", 200, token)["games"].size(), 0u);
  EXPECT_EQ(get_json(server.port(), "/api/games?game=coin_duel", 200, token)["games"].size(), 0u);
  get_json(server.port(), "/api/games?limit=0", 400);

  const Json record = get_json(server.port(), "/api/games/" + table.room, 200, token);
  EXPECT_EQ(record["game"], "cups");
  std::int64_t last_version = 0;
  for (const auto& turn : record["turns"])
    if (turn.contains("version")) {
      EXPECT_EQ(turn["version"], last_version + 1);
      EXPECT_TRUE(turn.contains("at"));
      EXPECT_TRUE(turn.contains("events"));
      last_version = turn["version"];
    }
  EXPECT_EQ(last_version, table.version);
  const Match replayed = Match::from_record(record);  // options as parsed JSON text
  Json final_state = table.state;
  final_state.erase("clock");  // the server's, not the engine's
  EXPECT_EQ(replayed.state(), final_state) << "the record replays to the final state";

  const Json positions = get_json(server.port(), "/api/games/" + table.room + "/positions", 200, token);
  ASSERT_EQ(positions["states"].size(), table.states.size());
  for (std::size_t v = 0; v < table.states.size(); ++v)
    EXPECT_EQ(positions["states"][v], table.states[v]) << "version " << v;
}

// A visitor with an invite link and no name yet reads what it opens; an unknown one is 404. The
// invite goes in the body (issue 46): a path with it in, which proxies log, is no endpoint.
TEST(History, AnInviteSaysWhatItOpens) {
  ServerProcess server;
  Client ada(server.port());
  ada.hello("Ada");
  const Json room = ada.request({{"type", "create_room"}, {"game", "cups"}, {"private", true}})["room"];
  const std::string invite = room["invite"];
  const HttpReply found = http_call(server.port(), "POST", "/api/invites", Json{{"invite", invite}});
  ASSERT_EQ(found.status, 200) << found.text;
  EXPECT_EQ(found.body["id"], room["id"]);
  EXPECT_EQ(found.body["game"], "cups");
  EXPECT_EQ(found.body["host"], "Ada");
  EXPECT_EQ(found.body["status"], "waiting");
  const HttpReply unknown = http_call(server.port(), "POST", "/api/invites", Json{{"invite", "nothing-like-it"}});
  EXPECT_EQ(unknown.status, 404);
  EXPECT_NE(unknown.text.find("unknown"), std::string::npos) << unknown.text;
  EXPECT_EQ(http_call(server.port(), "POST", "/api/invites", Json{{"code", invite}}).status, 400);
  EXPECT_EQ(http_call(server.port(), "GET", "/api/invites").status, 405);
  std::string body;
  EXPECT_EQ(http_get(server.port(), "/api/invites/" + invite, &body), 404) << "the old path is gone";
  EXPECT_EQ(body.find(room["id"].get<std::string>()), std::string::npos) << body;
}

// A stored game's positions in pages (issue 46): ?from= and ?count= (at most 50), each page
// with the total and where the next one starts.
TEST(History, PositionsComeInPages) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  play_to_end(table, 7);
  const std::string target = "/api/games/" + table.room + "/positions";
  Json states = Json::array();
  for (Json next = 0; !next.is_null();) {
    const HttpReply page = http_call(server.port(), "GET", target + "?count=7&from=" + next.dump(), Json(),
                                     {{"Authorization", "Bearer " + table.tokens[0]}});
    ASSERT_EQ(page.status, 200) << page.text;
    EXPECT_EQ(page.body["total"], table.states.size());
    EXPECT_LE(page.body["states"].size(), 7u);
    for (const Json& state : page.body["states"]) states.push_back(state);
    next = page.body["next"];
  }
  ASSERT_EQ(states.size(), table.states.size());
  for (std::size_t v = 0; v < states.size(); ++v) EXPECT_EQ(states[v], table.states[v]) << "version " << v;
  const auto bearer = std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer " + table.tokens[0]}};
  EXPECT_EQ(http_call(server.port(), "GET", target + "?count=51", Json(), bearer).status, 400);
  EXPECT_EQ(http_call(server.port(), "GET", target + "?from=" + std::to_string(states.size()), Json(), bearer).status, 400);
}

TEST(History, PagesNewestFirst) {
  ServerProcess server;
  std::vector<std::string> rooms;
  Client ada(server.port()), bob(server.port());
  ada.hello("Ada");
  bob.hello("Bob");
  for (int i = 0; i < 3; ++i) {
    const Json created = ada.request({{"type", "create_room"}, {"game", "cups"}});
    rooms.push_back(created["room"]["id"]);
    bob.request({{"type", "join_room"}, {"room", rooms.back()}});
  }
  Json page = get_json(server.port(), "/api/games?player=Ada&limit=2");
  ASSERT_EQ(page["games"].size(), 2u);
  EXPECT_EQ(page["games"][0]["id"], rooms[2]);
  EXPECT_EQ(page["games"][1]["id"], rooms[1]);
  ASSERT_TRUE(page["next"].is_string());
  page = get_json(server.port(), "/api/games?player=Ada&limit=2&before=" + page["next"].get<std::string>());
  ASSERT_EQ(page["games"].size(), 1u);
  EXPECT_EQ(page["games"][0]["id"], rooms[0]);
  EXPECT_TRUE(page["next"].is_null());
  EXPECT_EQ(get_json(server.port(), "/api/games?player=Nobody")["games"].size(), 0u);
}

TEST(Http, HealthMetricsStaticFilesAndGameTypes) {
  TempDir dir;  // a database file: a :memory: one has no WAL to count
  ServerProcess server(dir.file("metrics.db"));
  std::string body;
  EXPECT_EQ(http_get(server.port(), "/healthz", &body), 200);
  EXPECT_EQ(http_get(server.port(), "/metrics", &body), 200);
  EXPECT_NE(body.find("mancala_db_commit_seconds_bucket"), std::string::npos);
  // The schema's migrations were commits of their own.
  const auto wal_writes = body.find("\nmancala_sqlite_wal_writes_total ");
  ASSERT_NE(wal_writes, std::string::npos);
  EXPECT_GT(std::stod(body.substr(wal_writes + 33)), 0);
  EXPECT_NE(body.find("\nmancala_sqlite_writebacks_total "), std::string::npos);
  EXPECT_NE(body.find("mancala_errors_total{code=\"rate_limited\"}"), std::string::npos);
  EXPECT_EQ(http_get(server.port(), "/", &body), 200);
  EXPECT_NE(body.find("<html"), std::string::npos);
  EXPECT_EQ(http_get(server.port(), "/../CMakeLists.txt", &body), 404);
  EXPECT_EQ(http_get(server.port(), "/%2e%2e/CMakeLists.txt", &body), 404);
  EXPECT_EQ(http_get(server.port(), "/no-such-file.js", &body), 404);
  const Json types = get_json(server.port(), "/api/game-types");
  ASSERT_FALSE(types["games"].empty());
  EXPECT_EQ(types["games"][0]["id"], "cups");
  EXPECT_TRUE(types["games"][0]["options"].is_object());
}

}  // namespace
}  // namespace mancala::testing
