// The LISTEN/NOTIFY bus between server processes (server/src/pg_bus.hpp), on a throwaway
// PostgreSQL server: order, identical payloads, the size limit, and what it costs (printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

#include "pg_bus.hpp"
#include "pg_connection.hpp"
#include "temp_postgres.hpp"

namespace mancala::server {
namespace {

using Clock = std::chrono::steady_clock;

// Collects what arrives on one bus, for a test to wait on.
struct Inbox {
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<std::string> payloads;
  std::vector<Clock::time_point> times;

  PgBus::Handler handler() {
    return [this](const std::string&, const std::string& payload) {
      const std::lock_guard lock(mutex);
      payloads.push_back(payload);
      times.push_back(Clock::now());
      arrived.notify_all();
    };
  }
  bool wait_for(std::size_t count, std::chrono::seconds timeout = std::chrono::seconds(20)) {
    std::unique_lock lock(mutex);
    return arrived.wait_for(lock, timeout, [&] { return payloads.size() >= count; });
  }
};

TEST(PgBus, MessagesArriveInOrderAndIdenticalOnesAreKept) {
  const std::string db = testing::TempPostgres::shared().create_database();
  Inbox inbox;
  PgBus receiver(db, {"to_b"}, inbox.handler());
  PgBus sender(db, {"to_a"}, [](const std::string&, const std::string&) {});
  constexpr int kCount = 2000;
  for (int i = 0; i < kCount; ++i) sender.publish("to_b", i % 10 == 0 ? "same" : std::to_string(i));
  ASSERT_TRUE(inbox.wait_for(kCount)) << "got " << inbox.payloads.size();
  for (int i = 0; i < kCount; ++i)
    EXPECT_EQ(inbox.payloads[static_cast<std::size_t>(i)], i % 10 == 0 ? "same" : std::to_string(i));
}

// A message over NOTIFY's limit goes through a bus_spill row; it arrives whole, in its place
// among the short ones, and its row is gone once read.
TEST(PgBus, LongMessagesArriveWholeAndInOrder) {
  const std::string db = testing::TempPostgres::shared().create_database();
  Inbox inbox;
  PgBus receiver(db, {"to_b"}, inbox.handler());
  PgBus sender(db, {"to_a"}, [](const std::string&, const std::string&) {});
  const std::string at_limit(PgBus::kMaxPayload, 'a');
  const std::string long_one = std::string(PgBus::kMaxPayload + 1, 'b') + "'\\\"end";  // quotes survive
  const std::string very_long(200'000, 'c');
  for (const std::string& payload : {at_limit, long_one, std::string("short"), very_long}) sender.publish("to_b", payload);
  ASSERT_TRUE(inbox.wait_for(4));
  EXPECT_EQ(inbox.payloads[0], at_limit);
  EXPECT_EQ(inbox.payloads[1], long_one);
  EXPECT_EQ(inbox.payloads[2], "short");
  EXPECT_EQ(inbox.payloads[3], very_long);
  PgConnection check(db);
  auto left = check.prepare("SELECT count(*) FROM bus_spill");
  ASSERT_TRUE(left.step());
  EXPECT_EQ(left.integer(0), 0) << "a spilled message's row is deleted once read";
  EXPECT_THROW(sender.publish("to_b", std::string(PgBus::kMaxSpilledPayload + 1, 'x')), std::length_error);
}

// Throughput and one-way latency of the bus, printed for server/bench/NOTEBOOK.md (not a pass mark):
// messages of 300 bytes (about an update of a Cups game) from one process to another.
TEST(PgBus, PrintsThroughputAndLatency) {
  const std::string db = testing::TempPostgres::shared().create_database();
  Inbox inbox;
  PgBus receiver(db, {"to_b"}, inbox.handler());
  PgBus sender(db, {"to_a"}, [](const std::string&, const std::string&) {});
  const std::string body(300, 'u');
  // Paced: one message every 200 us for 1 s, so the latency is not queueing behind a burst.
  constexpr int kPaced = 5000;
  std::vector<Clock::time_point> sent;
  const auto start = Clock::now();
  for (int i = 0; i < kPaced; ++i) {
    std::this_thread::sleep_until(start + std::chrono::microseconds(200 * i));
    sent.push_back(Clock::now());
    sender.publish("to_b", body);
  }
  ASSERT_TRUE(inbox.wait_for(kPaced));
  std::vector<double> latency_ms;
  for (int i = 0; i < kPaced; ++i)
    latency_ms.push_back(std::chrono::duration<double, std::milli>(inbox.times[i] - sent[i]).count());
  std::sort(latency_ms.begin(), latency_ms.end());
  // Flat out: as fast as the sender can batch them.
  constexpr int kBurst = 50000;
  const auto burst_start = Clock::now();
  for (int i = 0; i < kBurst; ++i) sender.publish("to_b", body);
  ASSERT_TRUE(inbox.wait_for(kPaced + kBurst, std::chrono::seconds(60)));
  const double seconds = std::chrono::duration<double>(Clock::now() - burst_start).count();
  std::printf("bus: 5,000 msgs/s paced: p50 %.2f ms, p99 %.2f ms; flat out: %.0f msgs/s (300-byte messages)\n",
              latency_ms[latency_ms.size() / 2], latency_ms[latency_ms.size() * 99 / 100], kBurst / seconds);
}

}  // namespace
}  // namespace mancala::server
