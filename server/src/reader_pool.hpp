#pragma once
// A thread or two for the reads that may wait on the disk: history pages and records, `sync`,
// the resend of a move whose reply was lost, rebuilding a room from its stored actions. Network
// threads and rooms' strands hand such a read over and go on; the job sends or posts its result
// back itself. Each thread takes a reader connection of its own from the storage while it reads
// (for a SQLite :memory: database the read runs on the writer thread, which this thread waits
// for, not a network thread).
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mancala::server {

class ReaderPool {
 public:
  using Job = std::function<void()>;

  explicit ReaderPool(int threads = 2);
  ~ReaderPool();
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;

  // Queues `job` for a reader thread. A job must not throw. After `stop`, jobs are dropped.
  void run(Job job);
  // Finishes the job each thread is running, drops the queued ones and ends the threads.
  void stop();

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::server
