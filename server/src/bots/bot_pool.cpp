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

// Up to this many waiting searches per worker, each gets its full budget; beyond, the share
// falls so that the queue's total work stays about this many full searches, down to a floor
// that keeps a level 5 search well above level 4 (30,000 / 16 = 1,875 playouts against 600).
constexpr double kFullBudgetQueuePerWorker = 4;
constexpr double kSmallestShare = 1.0 / 16;

}  // namespace

// Lowering a thread to SCHED_IDLE needs no privilege; should the system refuse it all the same
// (a seccomp filter), the worker runs at normal priority and logs a warning saying so.
void run_at_idle_priority() {
  sched_param param{};
  param.sched_priority = 0;
  if (const int error = pthread_setschedparam(pthread_self(), SCHED_IDLE, &param); error != 0)
    log_warn("bot_thread_priority",
             {{"message", std::string("could not lower a worker to SCHED_IDLE: ") + std::strerror(error) +
                              "; it runs at normal priority and competes with the network threads"}});
}

BotPool::BotPool(int threads, std::size_t capacity, Metrics& metrics, BotPriority priority,
                 bool adaptive_budget)
    : adaptive_budget_(adaptive_budget),
      queue_(threads, capacity, "bot",
             {.on_thread_start = priority == BotPriority::idle ? run_at_idle_priority : std::function<void()>(),
              .on_length = [&metrics](std::size_t length) {
                metrics.bot_queue.store(static_cast<std::int64_t>(length));
              }}) {}

double BotPool::budget_share(std::size_t queued, std::size_t workers) {
  const double per_worker = static_cast<double>(queued) / static_cast<double>(std::max<std::size_t>(workers, 1));
  if (per_worker <= kFullBudgetQueuePerWorker) return 1;
  return std::max(kSmallestShare, kFullBudgetQueuePerWorker / per_worker);
}

double BotPool::budget_share() const {
  return adaptive_budget_ ? budget_share(queue_.length(), queue_.threads()) : 1;
}

}  // namespace mancala::server
