#pragma once
// A few worker threads that run computer players' searches, so that no network thread and no
// room's strand ever waits for a bot. The queue is bounded: a job that finds it full is refused
// and the room asks again a little later, rather than the server buffering without limit.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mancala::server {

class Metrics;

class BotPool {
 public:
  using Job = std::function<void()>;

  BotPool(int threads, std::size_t capacity, Metrics& metrics);
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // Queues `job` for a worker; false when the queue is full or the pool has stopped.
  // A job must not throw.
  bool submit(Job job);
  // Drops the jobs still queued and waits for the running ones (each is time-bounded).
  void stop();

 private:
  void work();

  Metrics& metrics_;
  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::server
