#include "metrics.hpp"

#include <cstdio>

namespace mancala::server {
namespace {

void line(std::string& out, const std::string& name, double value) {
  char number[64];
  std::snprintf(number, sizeof number, "%.9g", value);
  out += name + " " + number + "\n";
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

void Histogram::observe(std::chrono::steady_clock::duration elapsed) {
  const double seconds = std::chrono::duration<double>(elapsed).count();
  std::size_t bucket = 0;
  while (bucket < kBounds.size() && seconds > kBounds[bucket]) ++bucket;
  buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_nanoseconds_.fetch_add(
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()),
      std::memory_order_relaxed);
}

void Histogram::render(std::string& out, const char* name, const char* help) const {
  header(out, name, "histogram", help);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i <= kBounds.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    char bound[32];
    if (i < kBounds.size()) std::snprintf(bound, sizeof bound, "%g", kBounds[i]);
    else std::snprintf(bound, sizeof bound, "+Inf");
    line(out, std::string(name) + "_bucket{le=\"" + bound + "\"}", static_cast<double>(cumulative));
  }
  line(out, std::string(name) + "_sum", static_cast<double>(sum_nanoseconds_.load()) / 1e9);
  line(out, std::string(name) + "_count", static_cast<double>(count_.load()));
}

std::string Metrics::render() const {
  std::string out;
  header(out, "mancala_connections", "gauge", "Open WebSocket connections.");
  line(out, "mancala_connections", static_cast<double>(connections.load()));
  header(out, "mancala_connections_total", "counter", "WebSocket connections accepted.");
  line(out, "mancala_connections_total", static_cast<double>(connections_total.load()));
  header(out, "mancala_messages_received_total", "counter", "Client messages received.");
  line(out, "mancala_messages_received_total", static_cast<double>(messages_received.load()));
  const RoomCounts rooms = room_counts ? room_counts() : RoomCounts{};
  header(out, "mancala_rooms", "gauge", "Rooms held in memory, by status.");
  line(out, "mancala_rooms{status=\"waiting\"}", static_cast<double>(rooms.waiting));
  line(out, "mancala_rooms{status=\"playing\"}", static_cast<double>(rooms.playing));
  line(out, "mancala_rooms{status=\"finished\"}", static_cast<double>(rooms.finished));
  header(out, "mancala_moves_applied_total", "counter", "Committed game updates.");
  line(out, "mancala_moves_applied_total", static_cast<double>(moves_applied.load()));
  move_latency.render(out, "mancala_move_latency_seconds",
                      "From a move's arrival to its broadcast, commit included.");
  move_commit.render(out, "mancala_move_commit_seconds",
                     "From a move's hand-off to the writer to its commit (the commit in flight, then its own).");
  commit_latency.render(out, "mancala_db_commit_seconds", "One group commit, fsync included.");
  const SqliteWrites writes = sqlite_writes ? sqlite_writes() : SqliteWrites{};
  header(out, "mancala_sqlite_wal_writes_total", "counter", "Writes to SQLite's WAL: one per commit.");
  line(out, "mancala_sqlite_wal_writes_total", static_cast<double>(writes.wal_writes));
  header(out, "mancala_sqlite_writebacks_total", "counter",
         "Pieces of 256 KiB that checkpoints wrote to the database file and waited for at the disk.");
  line(out, "mancala_sqlite_writebacks_total", static_cast<double>(writes.database_writebacks));
  header(out, "mancala_bot_moves_total", "counter", "Moves made by computer players.");
  line(out, "mancala_bot_moves_total", static_cast<double>(bot_moves.load()));
  bot_think.render(out, "mancala_bot_think_seconds", "One computer player's search, on the bot pool.");
  header(out, "mancala_bot_queue", "gauge", "Computer players' searches waiting for a bot worker.");
  line(out, "mancala_bot_queue", static_cast<double>(bot_queue.load()));
  header(out, "mancala_bot_searches_shortened_total", "counter",
         "Computer players' searches given part of their level's budget because many waited.");
  line(out, "mancala_bot_searches_shortened_total", static_cast<double>(bot_searches_shortened.load()));
  header(out, "mancala_errors_total", "counter", "Error replies, by code.");
  for (int i = 0; i < protocol::kCodeCount; ++i)
    line(out, "mancala_errors_total{code=\"" + std::string(protocol::to_string(static_cast<protocol::Code>(i))) + "\"}",
         static_cast<double>(errors[static_cast<std::size_t>(i)].load()));
  return out;
}

}  // namespace mancala::server
