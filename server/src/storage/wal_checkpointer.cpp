#include "wal_checkpointer.hpp"

#include "database.hpp"
#include "log.hpp"

namespace mancala::server {

WalCheckpointer::WalCheckpointer(std::string path, std::chrono::milliseconds interval)
    : path_(std::move(path)), interval_(interval), thread_([this] { run(); }) {}

WalCheckpointer::~WalCheckpointer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void WalCheckpointer::run() {
  try {
    Database db(path_, /*create=*/false);
    bool last = false;
    while (!last) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait_for(lock, interval_, [this] { return stopping_; });
        last = stopping_;
      }
      // PASSIVE never waits for the writer or the readers; what it cannot copy now waits.
      db.prepare("PRAGMA wal_checkpoint(PASSIVE)").run();
    }
  } catch (const std::exception& e) {
    log_error("checkpoint_failed", {{"message", e.what()}});
  }
}

}  // namespace mancala::server
