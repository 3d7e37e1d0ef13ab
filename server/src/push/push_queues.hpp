#pragma once
// The push sender's waiting room (web_push.hpp): a short queue per endpoint, so that a push
// service that is slow or never answers holds up only the messages for its own subscriptions.
// Several sender threads take from it, each endpoint's messages one at a time and in order,
// and at most `per_player_sending` of one player's at once, so that one player's endpoints
// (up to 10) cannot occupy every sender. Endpoints take turns: one that has just sent goes
// behind the others that wait. A full queue drops its own oldest message, never another's.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "push_subscriptions.hpp"

namespace mancala::server {

struct PushMessage {
  PushSubscription subscription;
  std::string room_id;
  std::string payload;
  std::string topic;
};

class PushQueues {
 public:
  struct Limits {
    std::size_t per_endpoint = 4;        // messages waiting for one endpoint
    std::size_t per_player_sending = 2;  // one player's messages being sent at once
    std::size_t total = 4096;            // messages waiting for all endpoints
  };

  // A message that had to go, and why (words for the log).
  struct Dropped {
    PushMessage message;
    std::string reason;
  };

  explicit PushQueues(Limits limits) : limits_(limits) {}

  // Queues `message` behind the others for its endpoint. What had to go instead: that
  // endpoint's oldest message when its queue is full, `message` itself when all the queues
  // together are full or the queues have stopped.
  std::optional<Dropped> add(PushMessage message);
  // Waits until a message may be sent and hands it out; nullopt once stopped.
  std::optional<PushMessage> take();
  // The message `take` handed out was sent or failed: its endpoint and player may send again.
  void done(const PushMessage& message);
  // Drops what waits; every take() answers nullopt from now on.
  void stop();
  std::size_t waiting() const;

 private:
  struct Endpoint {
    std::deque<PushMessage> waiting;
    bool sending = false;
  };
  std::optional<PushMessage> take_ready();  // with mutex_ held

  const Limits limits_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::unordered_map<std::string, Endpoint> endpoints_;  // those with messages waiting or being sent
  std::deque<std::string> ready_;  // endpoints with messages waiting and none being sent, in turn
  std::unordered_map<std::string, std::size_t> sending_by_player_;
  std::size_t waiting_ = 0;
  bool stopped_ = false;
};

}  // namespace mancala::server
