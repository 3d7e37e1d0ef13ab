#pragma once
// Counters and histograms for GET /metrics, in the Prometheus text format. Lock-free: they are
// updated on every move from any thread.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "mancala/protocol/errors.hpp"

namespace mancala::server {

// A latency histogram with fixed bucket bounds in seconds.
class Histogram {
 public:
  static constexpr std::array<double, 12> kBounds = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02,
                                                     0.05,   0.1,   0.2,   0.5,   1.0,  5.0};
  void observe(std::chrono::steady_clock::duration elapsed);
  void render(std::string& out, const char* name, const char* help) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBounds.size() + 1> buckets_{};
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_nanoseconds_{0};
};

// What this process's SQLite files have had (storage/sqlite_vfs.hpp); zero on PostgreSQL.
struct SqliteWrites {
  std::uint64_t wal_writes = 0;           // one per commit
  std::uint64_t database_writebacks = 0;  // a checkpoint's pages sent to the disk, 256 KiB each
};

struct RoomCounts {
  std::int64_t waiting = 0;
  std::int64_t playing = 0;
  std::int64_t finished = 0;
};

class Metrics {
 public:
  std::atomic<std::int64_t> connections{0};
  std::atomic<std::uint64_t> connections_total{0};
  std::atomic<std::uint64_t> moves_applied{0};
  std::atomic<std::uint64_t> messages_received{0};
  Histogram move_latency;    // a move's arrival to its broadcast (validation, commit, sending)
  Histogram commit_latency;  // one group commit, BEGIN to durable COMMIT
  // The part of move_latency from handing the move to the writer to its commit: the wait for
  // the commit in flight, then its own. The rest is reading, playing and the thread hand-offs.
  Histogram move_commit;
  std::array<std::atomic<std::uint64_t>, protocol::kCodeCount> errors{};
  std::atomic<std::uint64_t> bot_moves{0};  // computer players' moves accepted by their rooms
  Histogram bot_think;                      // one search on the bot pool
  std::atomic<std::int64_t> bot_queue{0};   // searches waiting for a bot worker
  std::atomic<std::uint64_t> bot_searches_shortened{0};  // run on part of the level's budget (long queue)
  std::function<RoomCounts()> room_counts;  // set by the hub
  std::function<SqliteWrites()> sqlite_writes;  // set by the server

  void count_error(protocol::Code code) { ++errors[static_cast<std::size_t>(code)]; }
  std::string render() const;
};

}  // namespace mancala::server
