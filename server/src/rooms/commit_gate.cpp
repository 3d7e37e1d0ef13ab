#include "commit_gate.hpp"

namespace mancala::server {

void CommitGate::release(const Step& then) {
  held_ = false;
  then();
  run_waiting();
}

void CommitGate::run_waiting() {
  while (!held_ && !waiting_.empty()) {
    Step step = std::move(waiting_.front());
    waiting_.pop_front();
    step();
  }
}

}  // namespace mancala::server
