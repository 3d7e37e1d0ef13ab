#include "bot_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "log.hpp"
#include "metrics.hpp"

namespace mancala::server {
namespace {

// Lowering a thread to SCHED_IDLE needs no privilege; should the system refuse it all the same
// (a seccomp filter), the worker runs at normal priority and logs a warning saying so.
void run_at_idle_priority() {
  sched_param param{};
  param.sched_priority = 0;
  if (const int error = pthread_setschedparam(pthread_self(), SCHED_IDLE, &param); error != 0)
    log_warn("bot_thread_priority",
             {{"message", std::string("could not lower a bot worker to SCHED_IDLE: ") + std::strerror(error) +
                              "; it runs at normal priority and competes with the network threads"}});
}

// Up to this many waiting searches per worker, each gets its full budget; beyond, the share
// falls so that the queue's total work stays about this many full searches, down to a floor
// that keeps a level 5 search well above level 4 (30,000 / 16 = 1,875 playouts against 600).
constexpr double kFullBudgetQueuePerWorker = 4;
constexpr double kSmallestShare = 1.0 / 16;

}  // namespace

BotPool::BotPool(int threads, std::size_t capacity, Metrics& metrics, BotPriority priority,
                 bool adaptive_budget)
    : metrics_(metrics),
      capacity_(capacity),
      priority_(priority),
      workers_(static_cast<std::size_t>(std::max(threads, 0))),
      adaptive_budget_(adaptive_budget) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() { stop(); }

bool BotPool::submit(Job job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(job));
    metrics_.bot_queue.store(static_cast<std::int64_t>(queue_.size()));
  }
  wake_.notify_one();
  return true;
}

void BotPool::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    queue_.clear();
    metrics_.bot_queue.store(0);
  }
  wake_.notify_all();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

std::size_t BotPool::queued() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

double BotPool::budget_share(std::size_t queued, std::size_t workers) {
  const double per_worker = static_cast<double>(queued) / static_cast<double>(std::max<std::size_t>(workers, 1));
  if (per_worker <= kFullBudgetQueuePerWorker) return 1;
  return std::max(kSmallestShare, kFullBudgetQueuePerWorker / per_worker);
}

double BotPool::budget_share() const {
  if (!adaptive_budget_) return 1;
  const std::lock_guard lock(mutex_);
  return budget_share(queue_.size(), workers_);
}

void BotPool::work() {
  if (priority_ == BotPriority::idle) run_at_idle_priority();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      metrics_.bot_queue.store(static_cast<std::int64_t>(queue_.size()));
    }
    job();
  }
}

}  // namespace mancala::server
