#include "bot_pool.hpp"

#include "metrics.hpp"

namespace mancala::server {

BotPool::BotPool(int threads, std::size_t capacity, Metrics& metrics)
    : metrics_(metrics), capacity_(capacity) {
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

void BotPool::work() {
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
