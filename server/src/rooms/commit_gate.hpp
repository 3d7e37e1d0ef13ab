#pragma once
// A room's commit gate: at most one write in flight, and nothing after it runs until it is
// durable. A step that writes `hold`s the gate; steps arriving meanwhile wait in order; when the
// write reports, `release` runs its continuation and then the waiting steps, until one of them
// holds the gate again. So nobody hears of a change the database does not have, and two steps of
// one room never interleave with a write. Plain state on the room's strand (no I/O, no locks):
// the room posts to the strand, and tests call it directly.
#include <deque>
#include <functional>
#include <utility>

namespace mancala::server {

class CommitGate {
 public:
  using Step = std::function<void()>;

  bool held() const { return held_; }
  std::size_t waiting() const { return waiting_.size(); }

  // Runs `step` now when no write is in flight; else keeps it for after the write. (A template,
  // so that a step run at once is never copied into a std::function.)
  template <class F>
  void run_or_wait(F&& step) {
    if (held_) waiting_.emplace_back(std::forward<F>(step));
    else step();
  }
  // A write is starting: later steps wait for `release`.
  void hold() { held_ = true; }
  // The write reported: `then` runs first, then the steps that waited, in order, until one of
  // them holds the gate again (the rest wait for that write).
  void release(const Step& then);

 private:
  void run_waiting();

  bool held_ = false;
  std::deque<Step> waiting_;
};

}  // namespace mancala::server
