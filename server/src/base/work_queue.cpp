#include "work_queue.hpp"

#include <algorithm>

#include "log.hpp"
#include "thread_name.hpp"

namespace mancala::server {

WorkQueue::WorkQueue(int threads, std::size_t capacity, std::string name, Hooks hooks)
    : capacity_(capacity),
      thread_count_(static_cast<std::size_t>(std::max(threads, 0))),
      name_(std::move(name)),
      hooks_(std::move(hooks)) {
  for (std::size_t i = 0; i < thread_count_; ++i) threads_.emplace_back([this, i] {
      name_this_thread(name_ + "-" + std::to_string(i));
      work();
    });
}

WorkQueue::~WorkQueue() { stop(); }

bool WorkQueue::push(Job job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_ || queue_.size() >= capacity_) return false;
    queue_.push_back(std::move(job));
    report_length();
  }
  wake_.notify_one();
  return true;
}

void WorkQueue::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
    report_length();
  }
  wake_.notify_all();
  for (auto& thread : threads_)
    if (thread.joinable()) thread.join();
}

std::size_t WorkQueue::length() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

void WorkQueue::report_length() {
  if (hooks_.on_length) hooks_.on_length(queue_.size());
}

void WorkQueue::work() {
  if (hooks_.on_thread_start) hooks_.on_thread_start();
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      report_length();
    }
    try {
      job();
    } catch (const std::exception& e) {
      log_error(name_ + "_job_failed", {{"message", e.what()}});
    }
  }
}

}  // namespace mancala::server
