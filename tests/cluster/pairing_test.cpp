// Quick pairing across several mancala-server processes on one PostgreSQL database (label
// `cluster`; issue 47): one process holds the cluster's seek pool, the others forward their
// seeks to it; seekers arriving at different processes at the same moment are paired with each
// other exactly once; a seek outlives the SIGKILL of the pool's holder.
#include <gtest/gtest.h>

#include <set>

#include "harness.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

const std::vector<std::string> kShortLease = {"--lease-ms", "600"};
const Json kCupsSeek = {{"type", "seek"}, {"game", "cups"}, {"clock", {{"initial_s", 300}, {"increment_s", 3}}}};

bool is_room(const Json& m) { return m.value("type", "") == "room"; }
bool is_seeking(const Json& m) { return m.value("type", "") == "seeking"; }

struct Seeker {
  std::unique_ptr<Client> client;
  std::string player_id;
};

Seeker seeker_on(unsigned short port, const std::string& name) {
  Seeker seeker{std::make_unique<Client>(port), ""};
  seeker.player_id = seeker.client->hello(name).at("player_id");
  return seeker;
}

// Asks for a seek until it is taken: while the pool's holder is being replaced a seek is
// answered `unavailable`, and the client is told to ask again. The `seeking` reply.
Json seek_until_taken(Client& client, const Json& seek, std::chrono::milliseconds limit) {
  Json reply;
  const bool taken = eventually(
      [&] {
        reply = client.request(seek);
        return is_seeking(reply);
      },
      limit, 100ms);
  if (!taken) throw std::runtime_error("the seek was never taken: " + reply.dump());
  return reply;
}

// Two seekers, one at each process, send their seeks at the same moment, round after round
// (which goes first alternates): each round makes exactly one room, with both of them in it, and
// neither is left waiting or hears of a second room.
TEST(ClusterPairing, SeekersAtTwoProcessesAtTheSameMomentArePairedWithEachOtherOnce) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess holder(db);  // the first to start holds the pool
  ServerProcess other(db);
  std::set<std::string> every_room;
  for (int round = 0; round < 10; ++round) {
    std::vector<Seeker> seekers;
    seekers.push_back(seeker_on(holder.port(), "Here" + std::to_string(round)));
    seekers.push_back(seeker_on(other.port(), "There" + std::to_string(round)));
    if (round % 2 == 1) std::swap(seekers[0], seekers[1]);
    for (auto& s : seekers) s.client->send(kCupsSeek);  // no wait between: they race
    std::vector<Json> rooms;
    for (auto& s : seekers) rooms.push_back(s.client->wait_for(is_room, 10s)["room"]);
    ASSERT_EQ(rooms[0]["id"], rooms[1]["id"]) << "round " << round << ": paired with each other";
    EXPECT_EQ(rooms[0]["status"], "playing");
    std::set<std::string> seated;
    for (const auto& seat : rooms[0]["seats"]) seated.insert(seat.value("player_id", ""));
    EXPECT_EQ(seated, (std::set<std::string>{seekers[0].player_id, seekers[1].player_id}));
    EXPECT_TRUE(every_room.insert(rooms[0]["id"]).second) << "a room made once";
    // Nobody was seated twice: a `sync` of the room is the barrier for what the holder still sends.
    for (auto& s : seekers) {
      EXPECT_TRUE(s.client->sync_barrier(rooms[0]["id"], 0, is_room)) << s.player_id << " heard of a second room";
      EXPECT_EQ(s.client->request({{"type", "cancel_seek"}, {"seek", "any"}})["code"], "not_found");
    }
  }
}

// A seek made through a process that does not hold the pool is listed to watchers of every
// process, ends with its client's connection, and pairs with one made at the holder.
TEST(ClusterPairing, SeeksThroughAnotherProcessAreWatchedCancelledAndEndWithTheirConnection) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess holder(db);
  ServerProcess other(db);
  Seeker watcher = seeker_on(other.port(), "Watcher");
  ASSERT_EQ(watcher.client->request({{"type", "watch_seeks"}})["type"], "ok");
  const auto waiting_seen = [&](int wanted) {
    for (;;) {
      Json seeks;
      try {
        seeks = watcher.client->wait_for_type("seeks", 10s)["seeks"];
      } catch (const std::exception& e) {
        ADD_FAILURE() << "no `seeks` with " << wanted << " waiting: " << e.what();
        return false;
      }
      int total = 0;
      for (const auto& entry : seeks) total += entry.value("waiting", 0);
      if (total == wanted) return true;
    }
  };
  {
    Seeker gone = seeker_on(other.port(), "Gone");
    ASSERT_TRUE(is_seeking(gone.client->request(kCupsSeek)));
    EXPECT_TRUE(waiting_seen(1)) << "listed by the holder to a watcher of the other process";
  }  // its connection closes: the seek ends at the holder
  EXPECT_TRUE(waiting_seen(0));
  Seeker cancelling = seeker_on(other.port(), "Cancelling");
  const Json taken = cancelling.client->request(kCupsSeek);
  ASSERT_TRUE(is_seeking(taken)) << taken.dump();
  // Answered once the holder ended it (a seek and its cancel within a second may never be listed).
  EXPECT_EQ(cancelling.client->request({{"type", "cancel_seek"}, {"seek", taken["seek"]}})["type"], "ok");
  Seeker here = seeker_on(other.port(), "Here");
  Seeker there = seeker_on(holder.port(), "There");
  ASSERT_TRUE(is_seeking(here.client->request(kCupsSeek)));
  ASSERT_TRUE(is_seeking(there.client->request(kCupsSeek)));
  const Json room = here.client->wait_for(is_room)["room"];
  EXPECT_EQ(there.client->wait_for(is_room)["room"]["id"], room["id"]);
  EXPECT_TRUE(cancelling.client->nothing_matching(is_room, 300ms)) << "a cancelled seek is never paired";
  // Seated through the other process, the player plays there: his move reaches the holder's room.
  const Json synced = here.client->request({{"type", "sync"}, {"room", room["id"]}, {"since", 0}});
  EXPECT_EQ(synced["type"], "updates") << synced.dump();
}

// The pool's holder is SIGKILLed while a seeker at each survivor waits (for two set-ups): the
// survivor that takes the pool over keeps its own seeker's seek and is sent the other's again
// (same ids), so both paths are taken whichever survivor wins; a late seeker at the other
// survivor pairs with each, soon after the kill.
TEST(ClusterPairing, SeeksOutliveTheSigkillOfThePoolsHolder) {
  const std::string db = TempPostgres::shared().create_database();
  auto holder = std::make_unique<ServerProcess>(db, kShortLease);
  ServerProcess second(db, kShortLease);
  ServerProcess third(db, kShortLease);
  Json slow = kCupsSeek;
  slow["clock"] = {{"initial_s", 600}, {"increment_s", 5}};
  Seeker at_second = seeker_on(second.port(), "Waiting at second");
  Seeker at_third = seeker_on(third.port(), "Waiting at third");
  const Json taken_second = at_second.client->request(kCupsSeek);
  const Json taken_third = at_third.client->request(slow);
  ASSERT_TRUE(is_seeking(taken_second)) << taken_second.dump();
  ASSERT_TRUE(is_seeking(taken_third)) << taken_third.dump();
  holder->kill_hard();
  const auto killed = std::chrono::steady_clock::now();
  Seeker late_third = seeker_on(third.port(), "Late at third");
  Seeker late_second = seeker_on(second.port(), "Late at second");
  seek_until_taken(*late_third.client, kCupsSeek, 10s);
  seek_until_taken(*late_second.client, slow, 10s);
  const Json room = at_second.client->wait_for(is_room, 10s)["room"];
  const Json slow_room = at_third.client->wait_for(is_room, 10s)["room"];
  const auto paired_after = std::chrono::steady_clock::now() - killed;
  EXPECT_EQ(late_third.client->wait_for(is_room)["room"]["id"], room["id"]);
  EXPECT_EQ(late_second.client->wait_for(is_room)["room"]["id"], slow_room["id"]);
  EXPECT_LT(paired_after, 5s) << "about one lease (600 ms) at most, the look-ups and retries included";
  std::cout << "both paired " << std::chrono::duration_cast<std::chrono::milliseconds>(paired_after).count()
            << " ms after the SIGKILL of the pool's holder (--lease-ms 600)" << std::endl;
  const Json cancel = at_second.client->request({{"type", "cancel_seek"}, {"seek", taken_second["seek"]}});
  EXPECT_EQ(cancel["code"], "not_found") << "its seek ended with the pairing, under the id it kept: " << cancel.dump();
}

}  // namespace
}  // namespace mancala::testing
