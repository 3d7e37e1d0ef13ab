// Reads that may wait on the disk (sync, resends, the history API) run on the server's reader
// threads, never on a network thread or a room's strand. The server is started with one network
// thread and every read made slow (`--test-read-delay-ms`), so a read that blocked the network
// thread would hold up every room; the tests check the order in which answers arrive.
#include <gtest/gtest.h>

#include <future>

#include "table.hpp"

namespace mancala::testing {
namespace {

constexpr int kReadDelayMs = 4000;

std::vector<std::string> slow_reads_on_one_thread() {
  return {"--threads", "1", "--test-read-delay-ms", std::to_string(kReadDelayMs)};
}

bool is_reply_to(const Json& message, int id) { return message.contains("id") && message["id"] == id; }

TEST(Readers, ASlowSyncAndHistoryReadDoNotHoldUpMovesInAnyRoom) {
  TempDir dir;
  ServerProcess server(dir.file("readers.db"), slow_reads_on_one_thread());
  Random rng(5);
  Table slow = open_table(server.port(), "cups", Json::object(), 2);
  Table other = open_table(server.port(), "cups", Json::object(), 2);
  play_one(slow, rng);  // version 1: something to sync

  constexpr int kSyncId = 9001;
  slow.clients[1]->send({{"type", "sync"}, {"room", slow.room}, {"since", 0}, {"id", kSyncId}});
  auto history = std::async(std::launch::async, [&] {
    std::string body;
    // The room is private: its players see it.
    const int status = http_get(server.port(), "/api/games/" + slow.room, &body, slow.tokens[0]);
    return std::make_pair(status, body);
  });

  // While both reads wait, moves go on: in another room, and in the room being synced.
  for (int i = 0; i < 3; ++i) play_one(other, rng);
  play_one(slow, rng);  // version 2
  EXPECT_TRUE(slow.clients[1]->nothing_matching([](const Json& m) { return is_reply_to(m, kSyncId); }, 0ms))
      << "the sync was answered before the moves that came after it: its read held up the network thread";
  EXPECT_NE(history.wait_for(0s), std::future_status::ready)
      << "the history read was answered before the moves that came after it";

  // The sync answers with the updates up to the version it was asked at, and no later one.
  const Json updates = slow.clients[1]->wait_for([](const Json& m) { return is_reply_to(m, kSyncId); },
                                                 std::chrono::milliseconds(3 * kReadDelayMs));
  ASSERT_EQ(updates.value("type", ""), "updates") << updates.dump();
  ASSERT_EQ(updates["updates"].size(), 1u) << updates.dump();
  EXPECT_EQ(updates["updates"][0]["version"], 1);
  EXPECT_EQ(updates["updates"][0]["state"], slow.states[1]);

  const auto [status, body] = history.get();
  EXPECT_EQ(status, 200) << body;
  EXPECT_NE(body.find(slow.room), std::string::npos) << body;
}

TEST(Readers, AResentMoveIsAnsweredFromTheReaderWhileTheRoomPlaysOn) {
  TempDir dir;
  ServerProcess server(dir.file("readers.db"), slow_reads_on_one_thread());
  Random rng(6);
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  const Json first = play_one(table, rng);  // version 1
  const std::string tokens = first["tokens"];
  Client& mover = *table.clients[first["seat"].get<std::size_t>()];

  // The mover sends its move again, as a client that lost the reply would; the room looks it up on
  // a reader thread and meanwhile takes seat 1's next move.
  constexpr int kResendId = 9002;
  mover.send({{"type", "move"}, {"room", table.room}, {"expected_version", 0},
                          {"tokens", tokens}, {"id", kResendId}});
  play_one(table, rng);  // version 2
  EXPECT_TRUE(mover.nothing_matching([](const Json& m) { return is_reply_to(m, kResendId); }, 0ms))
      << "the resend was answered before a later move: its read held up the room";

  const Json resent = mover.wait_for([](const Json& m) { return is_reply_to(m, kResendId); },
                                                 std::chrono::milliseconds(3 * kReadDelayMs));
  ASSERT_EQ(resent.value("type", ""), "update") << resent.dump();
  EXPECT_EQ(resent["version"], 1);
  EXPECT_EQ(resent["state"], table.states[1]);
}

}  // namespace
}  // namespace mancala::testing
