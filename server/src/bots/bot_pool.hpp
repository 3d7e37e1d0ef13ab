#pragma once
// A few worker threads that run computer players' searches, so that no network thread and no
// room's strand ever waits for a bot. The queue is bounded: a job that finds it full is refused
// and the room asks again a little later, rather than the server buffering without limit.
//
// The workers run under SCHED_IDLE by default: they get a core only when no other thread of
// the machine wants it, and the kernel preempts them at once when a network thread wakes, so
// searches use the spare cores without adding to the round trip of people's moves (a nice
// value was not enough: a niced thread still holds a core for its time slice).
#include <cstddef>

#include "work_queue.hpp"

namespace mancala::server {

class Metrics;

// How the workers are scheduled: `idle` (SCHED_IDLE, the default) or `normal` (like every other
// thread, for comparing the two).
enum class BotPriority { idle, normal };

// Lowers the calling thread to SCHED_IDLE (a worker's on_thread_start); logs a warning when the
// system refuses.
void run_at_idle_priority();

class BotPool {
 public:
  using Job = WorkQueue::Job;

  // `adaptive_budget` false: every search gets its level's whole budget however long the queue.
  BotPool(int threads, std::size_t capacity, Metrics& metrics,
          BotPriority priority = BotPriority::idle, bool adaptive_budget = true);

  // Queues `job` for a worker; false when the queue is full or the pool has stopped.
  // A job must not throw.
  bool submit(Job job) { return queue_.push(std::move(job)); }
  // Drops the jobs still queued and waits for the running ones (each is time-bounded).
  void stop() { queue_.stop(); }

  // Searches waiting for a worker (not counting the running ones).
  std::size_t queued() const { return queue_.length(); }
  // The share of its level's budget that a search starting now gets: all of it while the queue
  // is short, less when many games wait, so that each waits about as long as a few full searches
  // rather than the whole queue's worth (50 level-5 games on one worker: 7 s a move otherwise).
  double budget_share() const;
  static double budget_share(std::size_t queued, std::size_t workers);

 private:
  const bool adaptive_budget_;
  WorkQueue queue_;
};

}  // namespace mancala::server
