#include "claim_race.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace mancala::server {
namespace {

std::int64_t millis(std::chrono::steady_clock::duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

}  // namespace

const ClaimRace::Window& ClaimRace::open(const ClaimWindow& rules, std::string id, SteadyTime now) {
  open_ = Window{std::move(id), rules, now, now + std::chrono::milliseconds(rules.length_ms)};
  return *open_;
}

ClaimRace::Verdict ClaimRace::judge(std::string_view id) const {
  if (is_open(id)) return Verdict::open;
  if (!id.empty() && id == closed_) return Verdict::lost;
  return Verdict::unknown;
}

ClaimRace::Window ClaimRace::close() {
  if (!open_) throw std::logic_error("no claim window is open");
  Window window = std::move(*open_);
  open_.reset();
  closed_ = window.id;
  return window;
}

std::int64_t ClaimRace::left_ms(SteadyTime now) const {
  return open_ ? std::max<std::int64_t>(0, millis(open_->deadline - now)) : 0;
}

std::int64_t ClaimRace::held_ms(SteadyTime now) const { return open_ ? millis(now - open_->opened) : 0; }

}  // namespace mancala::server
