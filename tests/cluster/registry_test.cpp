// Room ownership between processes (server/src/cluster_registry.hpp) on a throwaway PostgreSQL
// server: claims, leases that run out, take-over by a survivor, and the fence on the old owner.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <future>
#include <thread>

#include "cluster_registry.hpp"
#include "harness.hpp"
#include "metrics.hpp"
#include "pg_connection.hpp"
#include "storage.hpp"
#include "temp_postgres.hpp"

namespace mancala::server {
namespace {

using namespace std::chrono_literals;

// Runs a storage write and waits for it: true once committed.
bool committed(const std::function<void(Storage::Done)>& write) {
  std::promise<bool> done;
  write([&](bool ok) { done.set_value(ok); });
  return done.get_future().get();
}

// A game row, as a room's creation stores it; true once committed.
bool store_game(Storage& storage, const std::string& id) {
  GameMeta meta;
  meta.id = id;
  meta.game = "cups";
  meta.created = "2026-01-01T00:00:00.000Z";
  return committed([&](Storage::Done done) { storage.create_game(meta, done); });
}

// A database with the game rows the owner rows refer to.
std::string database_with_games(const std::vector<std::string>& ids) {
  const std::string db = testing::TempPostgres::shared().create_database();
  Histogram latency;
  auto storage = Storage::open(db, latency);
  for (const auto& id : ids) EXPECT_TRUE(store_game(*storage, id));
  return db;
}

// True while `observer` sees `process` live (its lease has not run out on PostgreSQL's clock).
bool sees_live(ClusterRegistry& observer, const std::string& process) {
  const auto live = observer.live_processes();
  return std::any_of(live.begin(), live.end(), [&](const auto& entry) { return entry.first == process; });
}

// Waits for the lease itself, not for a time that should cover it: until `observer` no longer
// sees `process` live. `meanwhile` runs at each look (a survivor renewing its own lease).
void wait_lease_ran_out(ClusterRegistry& observer, const std::string& process,
                        const std::function<void()>& meanwhile = [] {}) {
  testing::wait_until(
      [&] {
        meanwhile();
        return !sees_live(observer, process);
      },
      20s, process + "'s lease to run out", 50ms);
}

// Ends `process`'s lease now, as its running out does (the time in the row, not a wait for
// it): the lease stays as long as the test needs, however slow the machine, then ends at once.
void end_lease(const std::string& db, const std::string& process) {
  PgConnection connection(db);
  connection.prepare("UPDATE cluster_processes SET lease_until = now() WHERE id = ?1").bind(1, process).run();
}

std::vector<std::string> sorted(std::vector<std::string> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(ClusterRegistry, ASurvivorTakesTheRoomsOfAProcessWhoseLeaseRanOut) {
  const std::string db = database_with_games({"g1", "g2", "g3"});
  ClusterRegistry a(db, "a", 60s);
  ClusterRegistry b(db, "b", 60s);
  a.register_self("127.0.0.1:1");
  b.register_self("127.0.0.1:2");
  EXPECT_EQ(a.live_processes().size(), 2u);
  EXPECT_TRUE(a.claim("g1"));
  EXPECT_TRUE(a.claim("g2"));
  EXPECT_TRUE(a.claim("g1")) << "claiming one's own room again";
  EXPECT_FALSE(b.claim("g1")) << "a live process owns it";
  EXPECT_TRUE(b.claim("g3"));
  EXPECT_EQ(b.owner_of("g1"), "a");
  EXPECT_TRUE(b.take_over_rooms_of_dead_processes().empty()) << "nobody is dead";

  // a stops renewing (killed) and its lease runs out; b renews its own.
  end_lease(db, "a");
  wait_lease_ran_out(b, "a");
  EXPECT_TRUE(b.renew());
  EXPECT_FALSE(b.owner_of("g1")) << "a dead owner owns nothing";
  EXPECT_EQ(sorted(b.take_over_rooms_of_dead_processes()), (std::vector<std::string>{"g1", "g2"}));
  EXPECT_EQ(b.owner_of("g2"), "b");
  EXPECT_TRUE(b.take_over_rooms_of_dead_processes().empty()) << "taken once";

  EXPECT_FALSE(a.renew()) << "the old owner wakes up fenced";
  EXPECT_FALSE(a.claim("g1")) << "and cannot take its rooms back from a live owner";
  a.register_self("127.0.0.1:1");  // a restart
  EXPECT_FALSE(a.claim("g1"));
  EXPECT_TRUE(a.renew());
}

TEST(ClusterRegistry, AGracefulStopFreesTheRoomsAtOnce) {
  const std::string db = database_with_games({"g1"});
  ClusterRegistry a(db, "a", 60s);
  ClusterRegistry b(db, "b", 60s);
  a.register_self("a:1");
  b.register_self("b:1");
  ASSERT_TRUE(a.claim("g1"));
  a.leave();
  EXPECT_EQ(b.take_over_rooms_of_dead_processes(), (std::vector<std::string>{"g1"}));
  EXPECT_EQ(b.live_processes(), (std::vector<std::pair<std::string, std::string>>{{"b", "b:1"}}));
}

// The seek pool (quick pairing) has one holder at a time: the first to claim it; a survivor
// once the holder's lease ran out; never a process whose own lease ran out.
TEST(ClusterRegistry, TheSeekPoolHasOneHolderAndASurvivorTakesItOver) {
  const std::string db = database_with_games({});
  ClusterRegistry a(db, "a", 60s);
  ClusterRegistry b(db, "b", 60s);
  a.register_self("a:1");
  b.register_self("b:1");
  EXPECT_TRUE(a.claim_seek_pool());
  EXPECT_TRUE(a.claim_seek_pool()) << "claiming it again keeps it";
  EXPECT_FALSE(b.claim_seek_pool()) << "a live process holds it";
  end_lease(db, "a");
  wait_lease_ran_out(b, "a");
  EXPECT_FALSE(a.claim_seek_pool()) << "a process whose lease ran out takes nothing";
  EXPECT_TRUE(b.claim_seek_pool()) << "the survivor takes it";
  a.register_self("a:1");  // a restart
  EXPECT_FALSE(a.claim_seek_pool()) << "and cannot take it back from a live holder";
  EXPECT_TRUE(b.claim_seek_pool());
}

// Storage's write fence: a game created by a process gets its owner row in the same
// transaction, and once the room has moved to another process its appends are refused.
std::shared_ptr<const StoredAction> move_action(std::int64_t version) {
  auto action = std::make_shared<StoredAction>();
  action->version = version;
  action->kind = "move";
  action->seat = 0;
  action->tokens = "a";
  action->at = "2026-01-01T00:00:01.000Z";
  return action;
}

bool append_move(Storage& storage, const std::string& game_id, std::int64_t version) {
  return committed(
      [&](Storage::Done done) { storage.append_action(game_id, move_action(version), {}, done); });
}

// A fresh database shared by process a, whose lease the test ends (`end_lease`), and process
// b, which outlives it.
struct TwoProcesses {
  TwoProcesses() {
    a.register_self("a:1");
    b.register_self("b:1");
  }
  // The storage `process` writes through, fenced by the owner rows.
  std::unique_ptr<Storage> storage_of(const std::string& process) { return Storage::open(db, latency, process); }

  std::string db = testing::TempPostgres::shared().create_database();
  ClusterRegistry a{db, "a", 60s};  // the first creates the registry's tables
  ClusterRegistry b{db, "b", 60s};
  Histogram latency;
};

TEST(ClusterRegistry, AnOwnerThatLostItsRoomCannotChangeIt) {
  TwoProcesses processes;
  auto storage = processes.storage_of("a");
  ASSERT_TRUE(store_game(*storage, "g1"));
  EXPECT_EQ(processes.b.owner_of("g1"), "a") << "created rooms are owned by their creator";
  EXPECT_TRUE(append_move(*storage, "g1", 1));
  ASSERT_TRUE(committed([&](Storage::Done done) { storage->create_player({"p1", "Ada", "hash"}, done); }));
  ASSERT_TRUE(committed([&](Storage::Done done) { storage->take_seat("g1", 0, "p1", std::nullopt, done); }))
      << "the owner seats players";

  end_lease(processes.db, "a");
  wait_lease_ran_out(processes.b, "a");
  ASSERT_EQ(processes.b.take_over_rooms_of_dead_processes(), (std::vector<std::string>{"g1"}));
  EXPECT_FALSE(append_move(*storage, "g1", 2)) << "the old owner is fenced off";
  EXPECT_EQ(storage->load_actions("g1").size(), 1u);
  EXPECT_FALSE(committed([&](Storage::Done done) { storage->take_seat("g1", 1, "p1", std::nullopt, done); }))
      << "nor may it seat anyone";
  EXPECT_FALSE(committed([&](Storage::Done done) { storage->free_seat("g1", 0, done); }));
  EXPECT_FALSE(committed([&](Storage::Done done) { storage->delete_game("g1", done); }));
  const auto game = storage->load_game("g1");
  ASSERT_TRUE(game) << "the room is still there";
  EXPECT_EQ(game->meta.seats.size(), 1u) << "with the seat it had";
}

// PostgreSQL's moves have no foreign key to their game (migration 9): the owner row, which
// has one, stands in for it, and deleting a game deletes its moves.
TEST(ClusterRegistry, AGameThatIsGoneTakesItsMovesAndGetsNoMore) {
  TwoProcesses processes;
  auto storage = processes.storage_of("a");
  ASSERT_TRUE(store_game(*storage, "g1"));
  ASSERT_TRUE(append_move(*storage, "g1", 1));
  ASSERT_TRUE(committed([&](Storage::Done done) { storage->delete_game("g1", done); }));
  EXPECT_FALSE(storage->load_game("g1"));
  EXPECT_EQ(storage->load_actions("g1").size(), 0u) << "its moves went with it";
  EXPECT_FALSE(append_move(*storage, "g1", 2)) << "no move is written for a game that is gone";
  EXPECT_FALSE(append_move(*storage, "never", 1)) << "nor for one that never was";
  EXPECT_EQ(storage->load_actions("never").size(), 0u);
}

// In a group commit's pipeline a fence that fails shows only at the end, for the whole batch;
// the batch runs again job by job and only the lost room's write fails: the moves of a room
// still owned, queued around it, commit.
TEST(ClusterRegistry, AWriteToALostRoomFailsAloneInItsBatch) {
  TwoProcesses processes;
  auto storage = processes.storage_of("a");
  ASSERT_TRUE(store_game(*storage, "lost"));
  end_lease(processes.db, "a");
  wait_lease_ran_out(processes.b, "a");
  ASSERT_EQ(processes.b.take_over_rooms_of_dead_processes(), (std::vector<std::string>{"lost"}));
  processes.a.register_self("a:1");  // back, as a paused process is when it wakes
  ASSERT_TRUE(store_game(*storage, "kept"));

  // Queued without waiting, so that they share commits: kept 1-4, lost 1, kept 5-8.
  std::vector<std::future<bool>> kept;
  std::promise<bool> lost;
  for (std::int64_t version = 1; version <= 8; ++version) {
    if (version == 5)
      storage->append_action("lost", move_action(1), {}, [&](bool ok) { lost.set_value(ok); });
    auto promise = std::make_shared<std::promise<bool>>();
    kept.push_back(promise->get_future());
    storage->append_action("kept", move_action(version), {}, [promise](bool ok) { promise->set_value(ok); });
  }
  EXPECT_FALSE(lost.get_future().get()) << "the old owner is fenced off";
  for (auto& done : kept) EXPECT_TRUE(done.get()) << "a room it still owns is written";
  EXPECT_EQ(storage->load_actions("lost").size(), 0u);
  EXPECT_EQ(storage->load_actions("kept").size(), 8u);
}

// Each process notes itself alive on its own rooms: a room taken over is charged up to its own
// owner's last note, not up to the note of another process that was alive all along.
TEST(ClusterRegistry, ARoomTakenOverIsChargedUpToItsOwnOwnersLastNote) {
  TwoProcesses processes;
  auto storage_a = processes.storage_of("a");
  auto storage_b = processes.storage_of("b");
  ASSERT_TRUE(store_game(*storage_a, "g1"));
  const auto note = [](Storage& storage, const std::string& at) {
    return committed([&](Storage::Done done) { storage.note_alive(at, done); });
  };
  ASSERT_TRUE(note(*storage_a, "2026-01-01T00:00:10.000Z"));
  ASSERT_TRUE(note(*storage_b, "2026-01-01T00:00:50.000Z"));

  end_lease(processes.db, "a");
  wait_lease_ran_out(processes.b, "a");
  ASSERT_EQ(processes.b.take_over_rooms_of_dead_processes(), (std::vector<std::string>{"g1"}));
  EXPECT_EQ(storage_b->load_last_alive("g1"), "2026-01-01T00:00:10.000Z") << "its own owner's last note";
  EXPECT_EQ(storage_b->load_last_alive(), "2026-01-01T00:00:50.000Z") << "the server's, for a room nobody noted";
  ASSERT_TRUE(note(*storage_b, "2026-01-01T00:01:00.000Z"));
  EXPECT_EQ(storage_b->load_last_alive("g1"), "2026-01-01T00:01:00.000Z") << "b notes its new room from now on";
}

}  // namespace
}  // namespace mancala::server
