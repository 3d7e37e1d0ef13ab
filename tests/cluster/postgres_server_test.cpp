// mancala-server on PostgreSQL, end to end (label `cluster`): a throwaway PostgreSQL server
// (temp_postgres.hpp) and real mancala-server processes with --db postgresql://…, driven by
// the same WebSocket clients as the server tests (tests/server/harness.hpp, table.hpp).
#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "table.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

// Says hello on `port` with seat 0's token, as a browser reconnecting at once would, and waits
// for that server to send the room: at once when it serves it, or when it takes it over.
bool wait_until_served(unsigned short port, const Table& table, std::chrono::milliseconds limit) {
  Client probe(port);
  const Json welcome = probe.request({{"type", "hello"}, {"token", table.tokens[0]}});
  EXPECT_EQ(welcome["type"], "welcome") << "a token made on another process is known: " << welcome.dump();
  return !probe.nothing_matching([](const Json& m) { return m["type"] == "room"; }, limit);
}

// A short lease (the default is 5 s): a killed process's rooms wait for it to run out.
const std::vector<std::string> kShortLease = {"--lease-ms", "600"};

// The SQLite durability test's twin: SIGKILL right after acknowledged moves, a restart on the
// same database, and nothing acknowledged is missing. The restarted process is a new one: it
// takes the rooms once the killed one's lease has run out.
TEST(PostgresServer, SigkillAfterAcknowledgedMovesLosesNothing) {
  const std::string db = TempPostgres::shared().create_database();
  auto server = std::make_unique<ServerProcess>(db, kShortLease);
  Table table = open_table(server->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(12);
  int kills = 0;
  for (int stretch : {1, 4, 9, 1000}) {
    for (int i = 0; i < stretch && table.state["result"].is_null(); ++i)
      played.push_back(play_one(table, rng)["tokens"]);
    server->kill_hard();  // the last move was acknowledged: kill before anything else happens
    ++kills;
    server = std::make_unique<ServerProcess>(db, kShortLease);
    if (table.state["result"].is_null()) {
      ASSERT_TRUE(wait_until_served(server->port(), table, std::chrono::seconds(10))) << server->log();
      reconnect_all(table, server->port());
    }
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    EXPECT_EQ(stored_moves(server->port(), table), played) << "every acknowledged move is in the history";
    if (!table.state["result"].is_null()) break;
  }
  EXPECT_FALSE(table.state["result"].is_null());
  EXPECT_GE(kills, 3);
}

// Several processes on one database: the owner of a room is SIGKILLed mid-game; after its lease
// ran out the other process takes the room, rebuilt from the database, the players reconnect
// there and play on, and every acknowledged move is in the history. Prints the failover time.
TEST(Cluster, ASurvivorTakesOverTheRoomOfAKilledOwnerAndTheGameGoesOn) {
  const std::string db = TempPostgres::shared().create_database();
  auto owner = std::make_unique<ServerProcess>(db, kShortLease);
  ServerProcess survivor(db, kShortLease);
  Table table = open_table(owner->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(5);
  for (int i = 0; i < 6; ++i) played.push_back(play_one(table, rng)["tokens"]);
  ASSERT_TRUE(table.state["result"].is_null()) << "the game must still be on";

  owner->kill_hard();
  const auto killed = std::chrono::steady_clock::now();
  ASSERT_TRUE(wait_until_served(survivor.port(), table, std::chrono::seconds(10)))
      << "the survivor never took the room over; its log:\n" << survivor.log();
  reconnect_all(table, survivor.port());
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  played.push_back(play_one(table, rng)["tokens"]);
  const auto failover = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed);
  std::cout << "failover with --lease-ms 600: " << failover.count()
            << " ms from SIGKILL of the owner to the first move accepted on the survivor" << std::endl;
  EXPECT_LT(failover, std::chrono::seconds(5));

  for (int i = 0; i < 6 && table.state["result"].is_null(); ++i) played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_EQ(stored_moves(survivor.port(), table), played) << "every acknowledged move is in the history";
}

// The fence end to end: an owner paused (SIGSTOP) past its lease loses the room to the other
// process; woken up, it does not acknowledge the move it is sent, and stops itself.
TEST(Cluster, AnOwnerPausedPastItsLeaseCannotAddMovesAndStops) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db, kShortLease);
  ServerProcess survivor(db, kShortLease);
  Table table = open_table(owner.port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(9);
  for (int i = 0; i < 3; ++i) played.push_back(play_one(table, rng)["tokens"]);

  ::kill(owner.pid(), SIGSTOP);
  ASSERT_TRUE(wait_until_served(survivor.port(), table, std::chrono::seconds(10))) << survivor.log();
  Client& mover = *table.clients[table.state["to_move"].get<std::size_t>()];
  mover.send({{"type", "move"}, {"id", "late"}, {"room", table.room}, {"expected_version", table.version},
              {"tokens", table.state["legal"][0]}});  // waits in the socket for the owner to wake up
  ::kill(owner.pid(), SIGCONT);
  EXPECT_TRUE(mover.nothing_matching_until_reply("late", [](const Json& m) { return m.value("type", "") == "update"; }))
      << "a move acknowledged by a process that lost the room";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (owner.running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(owner.running()) << "it stops once it finds its lease gone; its log:\n" << owner.log();
  EXPECT_NE(owner.log().find("\"lease_lost\""), std::string::npos) << owner.log();
  EXPECT_EQ(stored_moves(survivor.port(), table), played);
}

// A graceful stop (SIGTERM) commits what is queued, then leaves the registry: the other process
// takes the room at its next renewal, well before the lease would have run out.
TEST(Cluster, AGracefulStopHandsTheRoomsOverBeforeTheLeaseRunsOut) {
  const std::string db = TempPostgres::shared().create_database();
  const std::vector<std::string> long_lease = {"--lease-ms", "6000"};
  ServerProcess owner(db, long_lease);
  ServerProcess survivor(db, long_lease);
  Table table = open_table(owner.port(), "cups", Json::object(), 2);
  Random rng(4);
  const std::vector<std::string> played = {play_one(table, rng)["tokens"]};
  EXPECT_EQ(owner.terminate(), 0);
  const auto stopped = std::chrono::steady_clock::now();
  ASSERT_TRUE(wait_until_served(survivor.port(), table, std::chrono::seconds(10)));
  EXPECT_LT(std::chrono::steady_clock::now() - stopped, std::chrono::milliseconds(4000))
      << "taken at a renewal (every 2 s), not after the 6 s lease";
  EXPECT_EQ(stored_moves(survivor.port(), table), played);
}

// A second process on the database starts (it was refused before rooms had owners), does not
// restore the rooms of the live first one (a player saying hello there is sent the room by
// the first process, through the bus), and its history API shows their moves.
TEST(Cluster, ASecondProcessStartsAndLeavesTheFirstOnesRoomsAlone) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess first(db);
  Table table = open_table(first.port(), "cups", Json::object(), 2);
  ServerProcess second(db);  // starts although the first one runs
  EXPECT_TRUE(first.running());
  Client visitor(second.port());
  visitor.request({{"type", "hello"}, {"token", table.tokens[0]}});
  EXPECT_EQ(visitor.wait_for_type("room")["room"]["id"], table.room) << "forwarded from the first process";
  EXPECT_NE(second.log().find("\"event\":\"rooms_restored\",\"rooms\":0"), std::string::npos) << second.log();
  EXPECT_EQ(second.log().find("room_taken_over"), std::string::npos) << "the room stays the first process's";
  Random rng(3);
  const std::vector<std::string> played = {play_one(table, rng)["tokens"]};  // it still plays there
  EXPECT_EQ(stored_moves(second.port(), table), played) << "the history API reads the shared database";
}

TEST(PostgresServer, BackupIsLeftToPostgresTools) {
  EXPECT_EQ(run_server_command({"--db", TempPostgres::shared().url("postgres"), "--backup", "/tmp/never.db"}), 1);
}

}  // namespace
}  // namespace mancala::testing
