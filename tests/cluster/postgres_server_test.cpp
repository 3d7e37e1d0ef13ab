// mancala-server on PostgreSQL, end to end (label `cluster`): a throwaway PostgreSQL server
// (temp_postgres.hpp) and real mancala-server processes with --db postgresql://…, driven by
// the same WebSocket clients as the server tests (tests/server/harness.hpp, table.hpp).
#include <gtest/gtest.h>

#include "table.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

// Every seat of `table` says hello again on `port` with its token and gets its room back at the
// exact version and state.
void reconnect_all(Table& table, unsigned short port) {
  for (std::size_t seat = 0; seat < table.clients.size(); ++seat) {
    table.clients[seat] = std::make_unique<Client>(port);
    const Json welcome = table.clients[seat]->request({{"type", "hello"}, {"token", table.tokens[seat]}});
    ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
    const Json room = table.clients[seat]->wait_for_type("room");
    EXPECT_EQ(room["room"]["id"], table.room);
    EXPECT_EQ(room["room"]["version"], table.version) << "resumes at the exact version";
    EXPECT_EQ(room["room"]["state"], table.state) << "in the exact state";
  }
}

// The moves the history API holds for the room, in order.
std::vector<std::string> stored_moves(unsigned short port, const Table& table) {
  std::string body;
  EXPECT_EQ(http_get(port, "/api/games/" + table.room, &body, table.tokens[0]), 200) << body;
  const Json record = Json::parse(body);  // kept: a range-for over a temporary's member dangles
  std::vector<std::string> stored;
  for (const auto& turn : record["turns"])
    if (turn.contains("tokens")) stored.push_back(turn["tokens"]);
  return stored;
}

// The SQLite durability test's twin: SIGKILL right after acknowledged moves, a restart on the
// same database, and nothing acknowledged is missing.
TEST(PostgresServer, SigkillAfterAcknowledgedMovesLosesNothing) {
  const std::string db = TempPostgres::shared().create_database();
  auto server = std::make_unique<ServerProcess>(db);
  Table table = open_table(server->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(12);
  int kills = 0;
  for (int stretch : {1, 4, 9, 1000}) {
    for (int i = 0; i < stretch && table.state["result"].is_null(); ++i)
      played.push_back(play_one(table, rng)["tokens"]);
    server->kill_hard();  // the last move was acknowledged: kill before anything else happens
    ++kills;
    server = std::make_unique<ServerProcess>(db);
    if (table.state["result"].is_null()) reconnect_all(table, server->port());
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    EXPECT_EQ(stored_moves(server->port(), table), played) << "every acknowledged move is in the history";
    if (!table.state["result"].is_null()) break;
  }
  EXPECT_FALSE(table.state["result"].is_null());
  EXPECT_GE(kills, 3);
}

// Rooms have no owner process yet, so a second server on the same database must not start
// (it would restore and write the first one's rooms).
TEST(PostgresServer, ASecondServerOnTheSameDatabaseRefusesToStart) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess first(db);
  EXPECT_THROW(ServerProcess second(db), std::runtime_error);
  EXPECT_TRUE(first.running());
}

TEST(PostgresServer, BackupIsLeftToPostgresTools) {
  EXPECT_EQ(run_server_command({"--db", TempPostgres::shared().url("postgres"), "--backup", "/tmp/never.db"}), 1);
}

}  // namespace
}  // namespace mancala::testing
