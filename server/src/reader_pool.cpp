#include "reader_pool.hpp"

#include "log.hpp"

namespace mancala::server {

ReaderPool::ReaderPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

ReaderPool::~ReaderPool() { stop(); }

void ReaderPool::run(Job job) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;  // the server is stopping: nobody waits for the answer any more
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void ReaderPool::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& thread : threads_) thread.join();
}

void ReaderPool::work() {
  while (true) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      job();
    } catch (const std::exception& e) {  // a job should not throw; if one does, the thread lives on
      log_error("read_job_failed", {{"message", e.what()}});
    }
  }
}

}  // namespace mancala::server
