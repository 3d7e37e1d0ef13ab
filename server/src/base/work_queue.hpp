#pragma once
// A few threads taking jobs from one queue, first come first served, so that work which may take
// long (a computer player's search, a read that waits on the disk) never runs on a network
// thread or a room's strand. The computer players' pool and the reader pool are each one.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mancala::server {

class WorkQueue {
 public:
  using Job = std::function<void()>;
  static constexpr std::size_t kUnbounded = std::numeric_limits<std::size_t>::max();

  struct Hooks {
    std::function<void()> on_thread_start;         // first thing on each thread (its priority, say)
    std::function<void(std::size_t)> on_length;    // the queue's new length after each change
  };

  // `name` labels the log line of a job that throws (which should not happen: the thread logs it
  // and lives on).
  WorkQueue(int threads, std::size_t capacity, std::string name, Hooks hooks = {});
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `job`; false when the queue is full or has stopped.
  bool push(Job job);
  // Drops the queued jobs, lets each thread finish the one it runs, and ends the threads.
  void stop();
  // Jobs waiting for a thread (not counting the running ones).
  std::size_t length() const;
  std::size_t threads() const { return thread_count_; }

 private:
  void work();
  void report_length();  // with mutex_ held

  const std::size_t capacity_;
  const std::size_t thread_count_;
  const std::string name_;
  const Hooks hooks_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::server
