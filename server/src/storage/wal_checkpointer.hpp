#pragma once
// Copies the write-ahead log back into the database file on its own thread and connection.
// SQLite would otherwise do it inside a commit every thousand pages, stalling the writer (and
// every move waiting on it) for a checkpoint's fsync.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mancala::server {

class WalCheckpointer {
 public:
  explicit WalCheckpointer(std::string path, std::chrono::milliseconds interval = std::chrono::seconds(1));
  ~WalCheckpointer();  // one last checkpoint, then the thread ends

 private:
  void run();

  std::string path_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace mancala::server
