#pragma once
// A few worker threads that run computer players' searches, so that no network thread and no
// room's strand ever waits for a bot. The queue is bounded: a job that finds it full is refused
// and the room asks again a little later, rather than the server buffering without limit.
//
// The workers run under SCHED_IDLE by default: they get a core only when no other thread of
// the machine wants it, and the kernel preempts them at once when a network thread wakes, so
// searches use the spare cores without adding to the round trip of people's moves (a nice
// value was not enough: a niced thread still holds a core for its time slice).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mancala::server {

class Metrics;

// How the workers are scheduled: `idle` (SCHED_IDLE, the default) or `normal` (like every other
// thread, for comparing the two).
enum class BotPriority { idle, normal };

class BotPool {
 public:
  using Job = std::function<void()>;

  // `adaptive_budget` false: every search gets its level's whole budget however long the queue.
  BotPool(int threads, std::size_t capacity, Metrics& metrics,
          BotPriority priority = BotPriority::idle, bool adaptive_budget = true);
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // Queues `job` for a worker; false when the queue is full or the pool has stopped.
  // A job must not throw.
  bool submit(Job job);
  // Drops the jobs still queued and waits for the running ones (each is time-bounded).
  void stop();

  // Searches waiting for a worker (not counting the running ones).
  std::size_t queued() const;
  // The share of its level's budget that a search starting now gets: all of it while the queue
  // is short, less when many games wait, so that each waits about as long as a few full searches
  // rather than the whole queue's worth (50 level-5 games on one worker: 7 s a move otherwise).
  double budget_share() const;
  static double budget_share(std::size_t queued, std::size_t workers);

 private:
  void work();

  Metrics& metrics_;
  const std::size_t capacity_;
  const BotPriority priority_;
  const std::size_t workers_;
  const bool adaptive_budget_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace mancala::server
