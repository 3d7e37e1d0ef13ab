#pragma once
// Counts failed attempts per key (an address, an account name) in a sliding window: once a key
// has failed `limit` times within `window`, it must wait until its oldest failure in the window
// is older than that. Guessing passwords then costs an attacker days instead of seconds, while
// a person who mistypes a few times never notices. Any thread.
//
// Keys come from request text (an account name as typed), so a long one is kept as its SHA-256:
// memory per key stays bounded whatever a request sends.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "sha256.hpp"

namespace mancala::server {

class FailureLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  FailureLimiter(std::size_t limit, std::chrono::seconds window) : limit_(limit), window_(window) {}

  // How long `key` must still wait; nothing when it may try now.
  std::optional<std::chrono::seconds> wait(const std::string& key, Clock::time_point now = Clock::now()) {
    const std::lock_guard lock(mutex_);
    return wait_locked(bounded(key), now);
  }

  void fail(const std::string& key, Clock::time_point now = Clock::now()) {
    const std::lock_guard lock(mutex_);
    fail_locked(bounded(key), now);
  }

  // Counts one attempt unless `key` must wait, in one step: of many requests arriving at once,
  // only `limit` pass (a wait, then a fail, would let them all through).
  std::optional<std::chrono::seconds> take(const std::string& key, Clock::time_point now = Clock::now()) {
    const std::lock_guard lock(mutex_);
    const std::string kept = bounded(key);
    if (auto left = wait_locked(kept, now)) return left;
    fail_locked(kept, now);
    return std::nullopt;
  }

  void clear(const std::string& key) {
    const std::lock_guard lock(mutex_);
    failures_.erase(bounded(key));
  }

  // Keys longer than this are kept as their SHA-256 (64 hex digits).
  static constexpr std::size_t kMaxKeyBytes = 96;

  // The bytes of every key kept: what the limiter holds for the text requests sent it.
  std::size_t key_bytes() const {
    const std::lock_guard lock(mutex_);
    std::size_t total = 0;
    for (const auto& [key, times] : failures_) total += key.size();
    return total;
  }

 private:
  // Memory stays bounded however many addresses try: keys whose window passed go first.
  static constexpr std::size_t kMaxKeys = 100000;

  static std::string bounded(const std::string& key) {
    return key.size() <= kMaxKeyBytes ? key : "sha256:" + to_hex(sha256(key));
  }

  std::optional<std::chrono::seconds> wait_locked(const std::string& key, Clock::time_point now) {
    const auto it = failures_.find(key);
    if (it == failures_.end()) return std::nullopt;
    forget_old(it->second, now);
    if (it->second.size() < limit_) return std::nullopt;
    const auto left = it->second.front() + window_ - now;
    return std::max(std::chrono::seconds(1), std::chrono::ceil<std::chrono::seconds>(left));
  }

  void fail_locked(const std::string& key, Clock::time_point now) {
    if (failures_.size() >= kMaxKeys) prune(now);
    auto& times = failures_[key];
    forget_old(times, now);
    times.push_back(now);
    if (times.size() > limit_) times.pop_front();
  }

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
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::deque<Clock::time_point>> failures_;
};

}  // namespace mancala::server
