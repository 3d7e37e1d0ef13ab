#pragma once
// Counts failed attempts per key (an address, an account name) in a sliding window: once a key
// has failed `limit` times within `window`, it must wait until its oldest failure in the window
// is older than that. Guessing passwords then costs an attacker days instead of seconds, while
// a person who mistypes a few times never notices. Any thread.
#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace mancala::server {

class FailureLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  FailureLimiter(std::size_t limit, std::chrono::seconds window) : limit_(limit), window_(window) {}

  // How long `key` must still wait; nothing when it may try now.
  std::optional<std::chrono::seconds> wait(const std::string& key, Clock::time_point now = Clock::now()) {
    const std::lock_guard lock(mutex_);
    const auto it = failures_.find(key);
    if (it == failures_.end()) return std::nullopt;
    forget_old(it->second, now);
    if (it->second.size() < limit_) return std::nullopt;
    const auto left = it->second.front() + window_ - now;
    return std::chrono::ceil<std::chrono::seconds>(left);
  }

  void fail(const std::string& key, Clock::time_point now = Clock::now()) {
    const std::lock_guard lock(mutex_);
    if (failures_.size() >= kMaxKeys) prune(now);
    auto& times = failures_[key];
    forget_old(times, now);
    times.push_back(now);
    if (times.size() > limit_) times.pop_front();
  }

  void clear(const std::string& key) {
    const std::lock_guard lock(mutex_);
    failures_.erase(key);
  }

 private:
  // Memory stays bounded however many addresses try: keys whose window passed go first.
  static constexpr std::size_t kMaxKeys = 100000;

  void forget_old(std::deque<Clock::time_point>& times, Clock::time_point now) const {
    while (!times.empty() && now - times.front() >= window_) times.pop_front();
  }

  void prune(Clock::time_point now) {
    for (auto it = failures_.begin(); it != failures_.end();) {
      forget_old(it->second, now);
      it = it->second.empty() ? failures_.erase(it) : std::next(it);
    }
    if (failures_.size() >= kMaxKeys) failures_.clear();  // a flood of fresh keys: start over
  }

  std::size_t limit_;
  std::chrono::seconds window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> failures_;
};

}  // namespace mancala::server
