#pragma once
// The time rooms run on: game clocks and grace times. Normally the system clock. A test server
// (`mancala-server --clock-speed K`) runs it K times faster from the moment it started, so a
// 10-second clock runs out in 10/K real seconds and no test has to sleep through a real
// timeout. Timers wait for `real_delay_until` of a time on this source.
#include <chrono>

#include "clock.hpp"

namespace mancala::server {

class TimeSource {
 public:
  explicit TimeSource(double speed = 1.0)
      : speed_(speed), origin_(std::chrono::system_clock::now()), steady_origin_(std::chrono::steady_clock::now()) {}

  double speed() const { return speed_; }

  SystemTime now() const {
    if (speed_ == 1.0) return std::chrono::system_clock::now();
    const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_origin_);
    return origin_ + std::chrono::duration_cast<std::chrono::system_clock::duration>(elapsed * speed_);
  }

  // How long a timer must wait, in real time, until `when` arrives on this source.
  std::chrono::steady_clock::duration real_delay_until(SystemTime when) const {
    const auto left = std::chrono::duration<double>(when - now());
    if (left.count() <= 0) return std::chrono::steady_clock::duration::zero();
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(left / speed_);
  }

 private:
  double speed_;
  SystemTime origin_;
  SteadyTime steady_origin_;
};

}  // namespace mancala::server
