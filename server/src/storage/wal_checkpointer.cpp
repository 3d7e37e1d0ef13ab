#include "wal_checkpointer.hpp"

#include <sqlite3.h>

#include <optional>

#include "clock.hpp"
#include "database.hpp"
#include "log.hpp"
#include "thread_name.hpp"

namespace mancala::server {

WalCheckpointer::WalCheckpointer(std::string path, Database& writer, Limits limits)
    : path_(std::move(path)), limits_(limits), writer_(writer.handle()) {
  auto page_size = writer.prepare("PRAGMA page_size");
  page_size.step();
  // After a spike (a long reader holding the WAL) the file shrinks back when the WAL starts over.
  const auto frame_bytes = page_size.integer(0) + 24;
  writer.execute("PRAGMA journal_size_limit = " + std::to_string(2 * frame_bytes * limits_.restart_frames));
  sqlite3_wal_hook(
      writer_,
      [](void* self, sqlite3* db, const char*, int frames) {
        static_cast<WalCheckpointer*>(self)->after_commit(db, frames);
        return SQLITE_OK;
      },
      this);
  thread_ = std::thread([this] {
    name_this_thread("checkpointer");
    run();
  });
}

WalCheckpointer::~WalCheckpointer() {
  sqlite3_wal_hook(writer_, nullptr, nullptr);
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void WalCheckpointer::after_commit(sqlite3* writer, int frames) {
  const bool started_over = frames < writer_frames_;
  writer_frames_ = frames;
  if (!started_over && frames < limits_.restart_frames) return;
  std::unique_lock lock(mutex_);
  if (started_over) ++generation_;
  if (frames < limits_.restart_frames) return;
  if (!caught_up(frames)) {
    pass_wanted_ = true;
    wake_.notify_one();
    return;
  }
  lock.unlock();
  // Nothing appends while this runs, so it copies the rest, and the next transaction starts the
  // WAL over. Busy (a background pass has the checkpoint lock) or blocked by a reader: the next
  // commit tries again.
  sqlite3_wal_checkpoint_v2(writer, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
}

bool WalCheckpointer::caught_up(int frames) const {
  // A pass over an earlier WAL says nothing of this one.
  return last_pass_.generation == generation_ && last_pass_.copied == last_pass_.frames &&
         frames - last_pass_.frames <= limits_.final_frames;
}

void WalCheckpointer::run() {
  std::optional<Database> db;
  try {
    db.emplace(path_, /*create=*/false);
  } catch (const std::exception& e) {
    return log_error("checkpointer_not_started", {{"message", e.what()}, {"effect", "the WAL is never copied back"}});
  }
  SteadyTime failure_logged{};
  bool last = false;
  while (!last) {
    unsigned generation = 0;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, limits_.interval, [this] { return stopping_ || pass_wanted_; });
      last = stopping_;
      pass_wanted_ = false;
      generation = generation_;
    }
    try {
      pass(*db, generation);
    } catch (const std::exception& e) {
      // A full disk or a passing I/O error: the next pass tries again. Said once a minute.
      const auto now = std::chrono::steady_clock::now();
      if (failure_logged != SteadyTime{} && now - failure_logged < std::chrono::minutes(1)) continue;
      failure_logged = now;
      log_error("checkpoint_failed", {{"message", e.what()}, {"effect", "the WAL grows until a pass succeeds"}});
    }
  }
}

void WalCheckpointer::pass(Database& db, unsigned generation) {
  // PASSIVE never waits for the writer or the readers; what it cannot copy now waits. Its row:
  // whether another checkpoint held the lock, the WAL's frames, and how many are copied.
  auto pass = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  if (!pass.step() || pass.integer(0) != 0) return;
  const std::lock_guard lock(mutex_);
  if (generation == generation_)
    last_pass_ = {generation, static_cast<int>(pass.integer(1)), static_cast<int>(pass.integer(2))};
}

}  // namespace mancala::server
