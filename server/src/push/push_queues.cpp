#include "push_queues.hpp"

#include <algorithm>

namespace mancala::server {

std::optional<PushQueues::Dropped> PushQueues::add(PushMessage message) {
  std::optional<Dropped> dropped;
  {
    const std::lock_guard lock(mutex_);
    if (stopped_) return Dropped{std::move(message), "the push sender has stopped"};
    const auto found = endpoints_.find(message.subscription.endpoint);
    const bool endpoint_full = found != endpoints_.end() && found->second.waiting.size() >= limits_.per_endpoint;
    if (!endpoint_full && waiting_ >= limits_.total)
      return Dropped{std::move(message), "every push queue together is full"};
    Endpoint& endpoint = endpoints_[message.subscription.endpoint];
    if (endpoint_full) {
      dropped = Dropped{std::move(endpoint.waiting.front()),
                        "this endpoint's queue is full: its oldest message made room"};
      endpoint.waiting.pop_front();
      --waiting_;
    }
    endpoint.waiting.push_back(std::move(message));
    ++waiting_;
    const bool was_idle = !endpoint.sending && endpoint.waiting.size() == 1;
    if (was_idle) ready_.push_back(endpoint.waiting.front().subscription.endpoint);
  }
  wake_.notify_one();
  return dropped;
}

std::optional<PushMessage> PushQueues::take_ready() {
  const auto turn = std::find_if(ready_.begin(), ready_.end(), [&](const std::string& endpoint) {
    const auto sending = sending_by_player_.find(endpoints_.at(endpoint).waiting.front().subscription.player_id);
    return sending == sending_by_player_.end() || sending->second < limits_.per_player_sending;
  });
  if (turn == ready_.end()) return std::nullopt;
  Endpoint& endpoint = endpoints_.at(*turn);
  ready_.erase(turn);
  PushMessage message = std::move(endpoint.waiting.front());
  endpoint.waiting.pop_front();
  endpoint.sending = true;
  --waiting_;
  ++sending_by_player_[message.subscription.player_id];
  return message;
}

std::optional<PushMessage> PushQueues::take() {
  std::unique_lock lock(mutex_);
  std::optional<PushMessage> message;
  wake_.wait(lock, [&] {
    if (!stopped_) message = take_ready();
    return stopped_ || message.has_value();
  });
  if (stopped_) return std::nullopt;
  return message;
}

void PushQueues::done(const PushMessage& message) {
  {
    const std::lock_guard lock(mutex_);
    const auto sending = sending_by_player_.find(message.subscription.player_id);
    if (sending != sending_by_player_.end() && --sending->second == 0) sending_by_player_.erase(sending);
    const auto endpoint = endpoints_.find(message.subscription.endpoint);
    if (endpoint == endpoints_.end()) return;
    endpoint->second.sending = false;
    if (endpoint->second.waiting.empty()) endpoints_.erase(endpoint);
    else ready_.push_back(endpoint->first);
  }
  wake_.notify_all();  // the player's turn freed may let another of its endpoints go, on any thread
}

void PushQueues::stop() {
  {
    const std::lock_guard lock(mutex_);
    stopped_ = true;
    for (auto& [name, endpoint] : endpoints_) endpoint.waiting.clear();
    ready_.clear();
    waiting_ = 0;
  }
  wake_.notify_all();
}

std::size_t PushQueues::waiting() const {
  const std::lock_guard lock(mutex_);
  return waiting_;
}

}  // namespace mancala::server
