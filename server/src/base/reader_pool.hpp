#pragma once
// A thread or two for the reads that may wait on the disk: history pages and records, `sync`,
// the resend of a move whose reply was lost, rebuilding a room from its stored actions. Network
// threads and rooms' strands hand such a read over and go on; the job sends or posts its result
// back itself. Each thread takes a reader connection of its own from the storage while it reads
// (for a SQLite :memory: database the read runs on the writer thread, which this thread waits
// for, not a network thread).
#include "work_queue.hpp"

namespace mancala::server {

class ReaderPool {
 public:
  explicit ReaderPool(int threads = 2) : queue_(threads, WorkQueue::kUnbounded, "read") {}

  // Queues `job` for a reader thread. After `stop` the job is dropped: the server is stopping
  // and nobody waits for the answer any more.
  void run(WorkQueue::Job job) { queue_.push(std::move(job)); }
  // Finishes the job each thread is running, drops the queued ones and ends the threads.
  void stop() { queue_.stop(); }

 private:
  WorkQueue queue_;
};

}  // namespace mancala::server
