// The bot pool on its own: how its workers are scheduled and how its queue is bounded; and the
// work queue under it (and under the reader pool), and the names their threads carry.
#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bot_pool.hpp"
#include "metrics.hpp"
#include "thread_name.hpp"
#include "work_queue.hpp"

namespace mancala::server {
namespace {

// The scheduling policy of the worker that runs a job (sched_getscheduler(0) is the calling
// thread's on Linux).
int worker_policy(BotPriority priority) {
  Metrics metrics;
  BotPool pool(1, 4, metrics, priority);
  std::promise<int> policy;
  auto answer = policy.get_future();
  EXPECT_TRUE(pool.submit([&policy] { policy.set_value(sched_getscheduler(0)); }));
  return answer.get();
}

// Idle workers run only on a core that no network thread wants, so searches do not lengthen
// people's round trips.
TEST(BotPool, WorkersRunUnderSchedIdleByDefault) {
  EXPECT_EQ(worker_policy(BotPriority::idle), SCHED_IDLE);
}

TEST(BotPool, NormalPriorityLeavesWorkersLikeEveryOtherThread) {
  EXPECT_EQ(worker_policy(BotPriority::normal), SCHED_OTHER);
}

TEST(BotPool, QueueCountsWaitingSearchesAndRefusesPastItsCapacity) {
  Metrics metrics;
  BotPool paused(0, 2, metrics);  // no workers: jobs stay queued
  EXPECT_EQ(paused.queued(), 0u);
  EXPECT_TRUE(paused.submit([] {}));
  EXPECT_TRUE(paused.submit([] {}));
  EXPECT_EQ(paused.queued(), 2u);
  EXPECT_EQ(metrics.bot_queue.load(), 2);
  EXPECT_FALSE(paused.submit([] {}));
  paused.stop();
  EXPECT_EQ(paused.queued(), 0u);
  EXPECT_FALSE(paused.submit([] {}));
}

// A job that throws (none should) is logged, and its thread goes on to the next job.
TEST(WorkQueue, AJobThatThrowsLeavesItsThreadServingTheNext) {
  WorkQueue queue(1, WorkQueue::kUnbounded, "test");
  std::promise<void> done;
  EXPECT_TRUE(queue.push([] { throw std::runtime_error("a job failed"); }));
  EXPECT_TRUE(queue.push([&done] { done.set_value(); }));
  EXPECT_EQ(done.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST(WorkQueue, JobsRunInTheOrderQueuedAndNoneAfterStop) {
  std::vector<int> order;
  std::promise<void> done;
  {
    WorkQueue queue(1, WorkQueue::kUnbounded, "test");
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(queue.push([&order, i] { order.push_back(i); }));
    EXPECT_TRUE(queue.push([&done] { done.set_value(); }));
    done.get_future().wait();
    queue.stop();
    EXPECT_FALSE(queue.push([&order] { order.push_back(99); }));
  }
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

// Each thread carries its queue's name, so that `top -H` and a profile tell the pools apart.
TEST(WorkQueue, ItsThreadsAreNamedAfterTheQueue) {
  WorkQueue queue(2, WorkQueue::kUnbounded, "pool");
  std::set<std::string> names;
  std::mutex mutex;
  std::promise<void> both_seen;
  const std::shared_future<void> seen = both_seen.get_future().share();
  std::atomic<bool> reported{false};
  // Each job holds its thread until both threads have run one, so that the second job must go
  // to the other thread: a barrier, not a pause that only makes sharing likely.
  for (int i = 0; i < 2; ++i)
    EXPECT_TRUE(queue.push([&] {
      char name[16] = {};
      pthread_getname_np(pthread_self(), name, sizeof name);
      {
        const std::lock_guard lock(mutex);
        names.insert(name);
        if (names.size() == 2 && !reported.exchange(true)) both_seen.set_value();
      }
      seen.wait_for(std::chrono::seconds(10));
    }));
  ASSERT_EQ(seen.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  queue.stop();
  EXPECT_EQ(names, (std::set<std::string>{"pool-0", "pool-1"}));
}

// Linux refuses a name of more than 15 characters; such a name is cut, not dropped.
TEST(ThreadName, ALongNameKeepsItsFirstFifteenCharacters) {
  char name[16] = {};
  std::thread([&name] {
    name_this_thread("a-name-longer-than-fifteen");
    pthread_getname_np(pthread_self(), name, sizeof name);
  }).join();
  EXPECT_STREQ(name, "a-name-longer-t");
}

// A short queue leaves every search its level's whole budget; a long one shares it out, never
// below a sixteenth.
TEST(BotPool, BudgetShrinksOnlyWhileManySearchesWaitPerWorker) {
  EXPECT_EQ(BotPool::budget_share(0, 1), 1.0);
  EXPECT_EQ(BotPool::budget_share(4, 1), 1.0);
  EXPECT_LT(BotPool::budget_share(8, 1), 1.0);
  EXPECT_LT(BotPool::budget_share(40, 1), BotPool::budget_share(8, 1));
  EXPECT_EQ(BotPool::budget_share(8, 2), 1.0);  // the same queue over two workers
  EXPECT_EQ(BotPool::budget_share(4000, 1), 1.0 / 16);
}

TEST(BotPool, FullBudgetSettingIgnoresTheQueue) {
  Metrics metrics;
  BotPool adaptive(0, 100, metrics, BotPriority::normal, true);
  BotPool full(0, 100, metrics, BotPriority::normal, false);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(adaptive.submit([] {}));
    ASSERT_TRUE(full.submit([] {}));
  }
  EXPECT_LT(adaptive.budget_share(), 1.0);  // 50 waiting with no worker
  EXPECT_EQ(full.budget_share(), 1.0);
}

}  // namespace
}  // namespace mancala::server
