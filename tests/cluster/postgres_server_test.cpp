// mancala-server on PostgreSQL, end to end (label `cluster`): a throwaway PostgreSQL server
// (temp_postgres.hpp) and real mancala-server processes with --db postgresql://…, driven by
// the same WebSocket clients as the server tests (tests/server/harness.hpp, table.hpp).
#include <gtest/gtest.h>

#include <csignal>
#include <iostream>
#include <thread>

#include "pg_connection.hpp"
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
// The same, with the debug lines that say when a process checked for rooms to take over.
// For three processes on a machine that may be busy: a 600 ms lease lapsed during the set-up
// under `stress -c 2` (scripts/soak.sh), before the database was even stopped, and a survivor
// rightly took that room. Two seconds is a lapse only for a process starved that long.
const std::vector<std::string> kSteadyLeaseDebug = {"--lease-ms", "2000", "--log-level", "debug"};

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// Waits until `server` has failed seven renewals since it had failed `failed_before`: they
// come a third of a lease apart, so PostgreSQL has been out of its reach for twice its lease,
// by its own clock and not by a guess of ours.
void wait_cut_off_for_twice_the_lease(const ServerProcess& server, std::size_t failed_before) {
  wait_until([&] { return count_of(server.log(), "\"cluster_tick_failed\"") >= failed_before + 7; },
             std::chrono::seconds(20), "seven failed renewals", std::chrono::milliseconds(20));
}

// Waits until `server` has checked for rooms to take over after it found its lease lapsed: it
// checks only two leases after it last could not reach PostgreSQL, so a room it would wrongly take
// is taken by then.
void wait_take_over_checked(const ServerProcess& server) {
  wait_until(
      [&] {
        const std::string log = server.log();
        const auto lapsed = log.rfind("\"lease_lapsed\"");
        return lapsed != std::string::npos && log.find("\"take_over_checked\"", lapsed) != std::string::npos;
      },
      std::chrono::seconds(10), "a take-over check after the lapse", std::chrono::milliseconds(20));
}

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
// process, where the game goes on; woken up, it does not acknowledge the move it is sent from
// its stale state, and stops itself. The survivor has moved on by then, so that move is refused
// whichever way it is handled: by the old owner's fence, or passed on to the survivor (a
// process that already heard the room moved forwards it like any other process's request).
TEST(Cluster, AnOwnerPausedPastItsLeaseCannotAddMovesAndStops) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db, kShortLease);
  ServerProcess survivor(db, kShortLease);
  Table table = open_table(owner.port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(9);
  for (int i = 0; i < 3; ++i) played.push_back(play_one(table, rng)["tokens"]);
  const auto seat = table.state["to_move"].get<std::size_t>();
  const Json legal = table.state["legal"];
  ASSERT_GE(legal.size(), 2u) << "the late move must differ from the one played on the survivor";

  ::kill(owner.pid(), SIGSTOP);
  ASSERT_TRUE(wait_until_served(survivor.port(), table, std::chrono::seconds(10))) << survivor.log();
  Client same_player(survivor.port());
  ASSERT_EQ(same_player.request({{"type", "hello"}, {"token", table.tokens[seat]}})["type"], "welcome");
  const Json on_survivor = same_player.request(
      {{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", legal[1]}});
  ASSERT_EQ(on_survivor["type"], "update") << on_survivor.dump();
  played.push_back(legal[1]);

  Client& mover = *table.clients[seat];
  mover.send({{"type", "move"}, {"id", "late"}, {"room", table.room}, {"expected_version", table.version},
              {"tokens", legal[0]}});  // waits in the socket for the owner to wake up
  ::kill(owner.pid(), SIGCONT);
  try {
    const Json reply = mover.wait_for([](const Json& m) { return m.value("id", Json()) == "late"; });
    EXPECT_EQ(reply["type"], "error")
        << "a move acknowledged by a process that lost the room: " << reply.dump();
  } catch (const std::runtime_error& e) {
    // The owner may stop before it answers; only an answer that never comes is wrong.
    EXPECT_NE(std::string(e.what()).find("connection ended"), std::string::npos) << e.what();
  }
  eventually([&] { return !owner.running(); }, std::chrono::seconds(5), std::chrono::milliseconds(50));
  EXPECT_FALSE(owner.running()) << "it stops once it finds its lease gone; its log:\n" << owner.log();
  EXPECT_NE(owner.log().find("\"lease_lost\""), std::string::npos) << owner.log();
  EXPECT_EQ(stored_moves(survivor.port(), table), played);
}

// The only process is SIGKILLed mid-game and started again at once, with the default 5 s
// lease: the new process sees that the one it replaces is gone (same machine, its pid ended)
// and serves its rooms from the start instead of after the lease. Prints the time.
TEST(PostgresServer, ARestartOfTheOnlyProcessServesItsRoomsAtOnce) {
  const std::string db = TempPostgres::shared().create_database();
  const std::vector<std::string> lease = {"--lease-ms", "5000"};
  auto server = std::make_unique<ServerProcess>(db, lease);
  Table table = open_table(server->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(21);
  for (int i = 0; i < 5; ++i) played.push_back(play_one(table, rng)["tokens"]);
  ASSERT_TRUE(table.state["result"].is_null()) << "the game must still be on";

  server->kill_hard();
  const auto killed = std::chrono::steady_clock::now();
  server = std::make_unique<ServerProcess>(db, lease);
  ASSERT_TRUE(wait_until_served(server->port(), table, std::chrono::seconds(3)))
      << "the room waited for the dead process's lease; the log:\n" << server->log();
  reconnect_all(table, server->port());
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  played.push_back(play_one(table, rng)["tokens"]);
  const auto resumed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed);
  std::cout << "restart of the only process with --lease-ms 5000: " << resumed.count()
            << " ms from SIGKILL to the first move accepted by the new process (its start included)" << std::endl;
  EXPECT_NE(server->log().find("\"process_found_dead\""), std::string::npos) << server->log();
  EXPECT_EQ(stored_moves(server->port(), table), played) << "every acknowledged move is in the history";
}

// The owner of a room stops answering (paused) while its lease still holds: a request sent
// through the other process is answered `unavailable` with a time to retry, instead of never;
// once the owner answers again, so does the room.
TEST(Cluster, ARequestToAnOwnerThatDoesNotAnswerIsToldToRetry) {
  const std::string db = TempPostgres::shared().create_database();
  const std::vector<std::string> long_lease = {"--lease-ms", "20000"};
  ServerProcess owner(db, long_lease);
  ServerProcess other(db, long_lease);
  Table table = open_table(owner.port(), "cups", Json::object(), 2);
  Random rng(8);
  for (int i = 0; i < 2; ++i) play_one(table, rng);
  Client probe(other.port());
  ASSERT_EQ(probe.request({{"type", "hello"}, {"token", table.tokens[0]}})["type"], "welcome");
  probe.wait_for_type("room");  // sent by the owner through the bus: forwarding works
  const Json sync = {{"type", "sync"}, {"room", table.room}, {"since", table.version}};

  ::kill(owner.pid(), SIGSTOP);
  const auto sent = std::chrono::steady_clock::now();
  Json answer;
  try {
    answer = probe.request(sync, std::chrono::seconds(10));
  } catch (const std::exception& e) {
    ::kill(owner.pid(), SIGCONT);
    FAIL() << "a request about the room was never answered: " << e.what() << "\n" << other.log();
  }
  const auto waited = std::chrono::steady_clock::now() - sent;
  ::kill(owner.pid(), SIGCONT);
  EXPECT_EQ(answer.value("code", ""), "unavailable") << answer.dump();
  EXPECT_TRUE(answer.contains("retry_after_ms")) << answer.dump();
  EXPECT_LT(waited, std::chrono::seconds(6)) << "answered within the router's deadline, long before the lease";
  EXPECT_EQ(probe.request(sync)["type"], "updates") << "the owner answers again once it is back";
}

// The owner is SIGKILLed with the default lease: every request a player sends the other process
// meanwhile is answered, `unavailable` until the room is served there, then served.
TEST(Cluster, EveryRequestIsAnsweredWhileAKilledOwnersRoomMoves) {
  const std::string db = TempPostgres::shared().create_database();
  const std::vector<std::string> lease = {"--lease-ms", "5000"};
  auto owner = std::make_unique<ServerProcess>(db, lease);
  ServerProcess survivor(db, lease);
  Table table = open_table(owner->port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(3);
  for (int i = 0; i < 3; ++i) played.push_back(play_one(table, rng)["tokens"]);
  Client probe(survivor.port());
  ASSERT_EQ(probe.request({{"type", "hello"}, {"token", table.tokens[0]}})["type"], "welcome");
  probe.wait_for_type("room");

  owner->kill_hard();
  const auto killed = std::chrono::steady_clock::now();
  int refusals = 0;
  bool served = false;
  while (!served && std::chrono::steady_clock::now() - killed < std::chrono::seconds(15)) {
    Json answer;
    try {
      answer = probe.request({{"type", "sync"}, {"room", table.room}, {"since", table.version}}, std::chrono::seconds(6));
    } catch (const std::exception& e) {
      FAIL() << "a request was left without an answer: " << e.what() << "\n" << survivor.log();
    }
    served = answer["type"] == "updates";
    if (served) break;
    ASSERT_EQ(answer.value("code", ""), "unavailable") << answer.dump();
    ++refusals;
    // Retries when the server said to, as a client must: its `retry_after_ms` is under test.
    std::this_thread::sleep_for(std::chrono::milliseconds(answer.value("retry_after_ms", 1000)));
  }
  ASSERT_TRUE(served) << survivor.log();
  std::cout << "served by the survivor " << std::chrono::duration_cast<std::chrono::milliseconds>(
                                                 std::chrono::steady_clock::now() - killed).count()
            << " ms after the owner's SIGKILL (lease 5000 ms), " << refusals << " requests told to retry meanwhile"
            << std::endl;
  reconnect_all(table, survivor.port());
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_EQ(stored_moves(survivor.port(), table), played) << "every acknowledged move is in the history";
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

// The move of the player to move, sent again while the server answers `unavailable` (the
// database cannot be reached); any other refusal fails. Gives up after `limit`.
Json play_once_served(Table& table, Random& rng, std::chrono::milliseconds limit, int* unavailable) {
  Json update;
  wait_until(
      [&] {
        try {
          update = play_one(table, rng);
          return true;
        } catch (const std::runtime_error& e) {
          EXPECT_NE(std::string(e.what()).find("\"code\":\"unavailable\""), std::string::npos) << e.what();
          ++*unavailable;
          return false;
        }
      },
      limit, "a move served again", std::chrono::milliseconds(50));
  return update;
}

// PostgreSQL stops for twice the lease and starts again (an upgrade, a failover): the process
// keeps its rooms and its connections, answers what needs the database `unavailable` with a
// time to retry (never `internal`, never silence), takes its lease back once PostgreSQL is
// there and plays on within a second, and every acknowledged move is there. (It stopped
// itself before, on finding its lease lapsed.)
TEST(PostgresServer, ADatabaseRestartLongerThanTheLeaseStopsNoProcess) {
  TempPostgres pg;  // its own server: this test stops it
  const std::string db = pg.create_database();
  ServerProcess server(db, kShortLease);
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(21);
  for (int i = 0; i < 3; ++i) played.push_back(play_one(table, rng)["tokens"]);

  pg.stop_server();
  const std::size_t failed_before = count_of(server.log(), "\"cluster_tick_failed\"");
  Client& mover = *table.clients[table.state["to_move"].get<std::size_t>()];
  const Json refused = mover.request({{"type", "move"}, {"room", table.room}, {"expected_version", table.version},
                                      {"tokens", table.state["legal"][0]}});
  EXPECT_EQ(refused["code"], "unavailable") << refused.dump();
  EXPECT_GT(refused.value("retry_after_ms", 0), 0) << refused.dump();
  Client newcomer(server.port());
  const Json welcome = newcomer.request({{"type", "hello"}, {"name", "Late"}});
  EXPECT_EQ(welcome["code"], "unavailable") << welcome.dump();
  std::string body;
  EXPECT_EQ(http_get(server.port(), "/api/games/" + table.room, &body, table.tokens[0]), 503) << body;
  EXPECT_EQ(http_get(server.port(), "/healthz", &body), 503) << body;
  EXPECT_NE(body.find("degraded"), std::string::npos) << body;
  wait_cut_off_for_twice_the_lease(server, failed_before);
  pg.start_server();

  const auto back = std::chrono::steady_clock::now();
  int unavailable = 0;
  played.push_back(play_once_served(table, rng, std::chrono::seconds(10), &unavailable)["tokens"]);
  const auto resumed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - back);
  std::cout << "play resumed " << resumed.count() << " ms after PostgreSQL was back (" << unavailable
            << " move(s) answered unavailable meanwhile)" << std::endl;
  EXPECT_LT(resumed.count(), 1000);
  for (int i = 0; i < 2 && table.state["result"].is_null(); ++i) played.push_back(play_one(table, rng)["tokens"]);

  // Its next renewal finds the lease lapsed (within a third of the lease): it must go on.
  eventually([&] { return server.log().find("\"lease_lapsed\"") != std::string::npos; }, std::chrono::seconds(3));
  EXPECT_NE(server.log().find("\"lease_lapsed\""), std::string::npos) << server.log();
  played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_TRUE(server.running()) << "the process stopped itself; its log:\n" << server.log();
  EXPECT_EQ(server.log().find("\"lease_lost\""), std::string::npos) << server.log();
  EXPECT_EQ(http_get(server.port(), "/healthz", &body), 200) << body;
  EXPECT_EQ(stored_moves(server.port(), table), played);
}

// The same restart under three processes sharing the database, a game on each: none of them
// exits, none takes another's rooms (none could reach the database to do so), and every game
// goes on with every acknowledged move.
TEST(Cluster, ADatabaseRestartLongerThanTheLeaseStopsNoneOfThreeProcesses) {
  TempPostgres pg;
  const std::string db = pg.create_database();
  std::vector<std::unique_ptr<ServerProcess>> servers;
  std::vector<Table> tables;
  std::vector<std::vector<std::string>> played(3);
  Random rng(23);
  for (int i = 0; i < 3; ++i) {
    servers.push_back(std::make_unique<ServerProcess>(db, kSteadyLeaseDebug));
    tables.push_back(open_table(servers.back()->port(), "cups", Json::object(), 2));
    played[static_cast<std::size_t>(i)].push_back(play_one(tables.back(), rng)["tokens"]);
  }

  std::vector<std::size_t> failed_before;
  for (const auto& server : servers) failed_before.push_back(count_of(server->log(), "\"cluster_tick_failed\""));
  pg.stop_server();
  for (std::size_t i = 0; i < 3; ++i) wait_cut_off_for_twice_the_lease(*servers[i], failed_before[i]);
  pg.start_server();
  for (std::size_t i = 0; i < 3; ++i) {
    int unavailable = 0;
    played[i].push_back(play_once_served(tables[i], rng, std::chrono::seconds(10), &unavailable)["tokens"]);
    played[i].push_back(play_one(tables[i], rng)["tokens"]);
  }
  for (const auto& server : servers)  // each finds its lease lapsed
    eventually([&] { return server->log().find("\"lease_lapsed\"") != std::string::npos; }, std::chrono::seconds(3));
  // Two leases later, each would have taken the others' rooms by now if it were going to: its
  // take-over check comes two leases after it could not reach PostgreSQL (ClusterMembership::tick).
  for (const auto& server : servers) wait_take_over_checked(*server);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NE(servers[i]->log().find("\"lease_lapsed\""), std::string::npos) << servers[i]->log();
    played[i].push_back(play_one(tables[i], rng)["tokens"]);
    EXPECT_TRUE(servers[i]->running()) << "process " << i << " stopped itself; its log:\n" << servers[i]->log();
    EXPECT_EQ(servers[i]->log().find("\"room_given_up\""), std::string::npos) << servers[i]->log();
    EXPECT_EQ(stored_moves(servers[i]->port(), tables[i]), played[i]);
  }
}

// Every connection to PostgreSQL is terminated while a game runs (what a failover or a
// connection limit does): each pooled connection finds out at its next statement and is
// replaced, and no request fails for it: moves, a new player's hello, the history API.
TEST(PostgresServer, TerminatedDatabaseConnectionsFailNoRequest) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess server(db, kShortLease);
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  std::vector<std::string> played;
  Random rng(22);
  std::string body;
  for (int round = 0; round < 3 && table.state["result"].is_null(); ++round) {
    played.push_back(play_one(table, rng)["tokens"]);
    EXPECT_EQ(http_get(server.port(), "/api/games/" + table.room, &body, table.tokens[0]), 200) << body;
    server::PgConnection admin(db);
    auto terminated = admin.prepare(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()");
    ASSERT_TRUE(terminated.step());
    EXPECT_GT(terminated.integer(0), 0) << "the server holds connections to terminate";
    played.push_back(play_one(table, rng)["tokens"]);  // throws on any refusal
    EXPECT_EQ(http_get(server.port(), "/api/games/" + table.room, &body, table.tokens[0]), 200) << body;
    Client newcomer(server.port());
    EXPECT_EQ(newcomer.request({{"type", "hello"}, {"name", "Newcomer"}})["type"], "welcome");
  }
  EXPECT_EQ(stored_moves(server.port(), table), played);
  EXPECT_TRUE(server.running()) << server.log();
}

TEST(PostgresServer, BackupIsLeftToPostgresTools) {
  EXPECT_EQ(run_server_command({"--db", TempPostgres::shared().url("postgres"), "--backup", "/tmp/never.db"}), 1);
}

}  // namespace
}  // namespace mancala::testing
