#pragma once
// Web Push delivery (RFC 8030, 8291, 8292) of a room's notices to every browser the player
// subscribed, never on a network thread or a room's strand: one thread reads the player's
// subscriptions (a bounded queue of notices), then each subscription's message waits in its
// endpoint's own short queue (push_queues.hpp) for one of several sender threads, each POST
// bounded by a short deadline, its name look-up included. So a push service that is slow, down
// or a black hole delays only the messages for its own endpoints (and at most two senders at a
// time for one player), never another player's, never a move. A subscription the push service
// calls gone (404, 410) is deleted, and so is one whose endpoint the rules refuse (stored
// before they were made). Log lines name the push service's origin, never an endpoint, a key
// or an auth secret.
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "push_crypto.hpp"
#include "push_http.hpp"
#include "push_notices.hpp"
#include "push_queues.hpp"
#include "push_subscriptions.hpp"
#include "work_queue.hpp"

namespace mancala::server {

struct WebPushSettings {
  std::string subject;  // --vapid-subject: mailto: or https: contact for the push services
  std::chrono::milliseconds timeout{5000};  // for one POST, from the look-up to the answer
  std::size_t queue_capacity = 256;          // notices waiting for their subscriptions to be read
  int senders = 8;                           // threads posting to push services
  PushQueues::Limits queues;                 // per endpoint, per player, in all
  std::chrono::seconds ttl{std::chrono::hours(24)};  // how long a push service keeps a message
  PushEndpointRules endpoints;  // what the API accepted; checked again before each POST
  PushResolver resolver = resolve_with_system;  // tests may stand in for DNS (--test-push-resolve)
};

class WebPush final : public PushNotices {
 public:
  WebPush(EcKey vapid_key, WebPushSettings settings, PushSubscriptions& subscriptions);
  ~WebPush() override;

  void notify(PushNotice notice) override;
  // The VAPID public key as the Push API's applicationServerKey takes it (base64url).
  const std::string& public_key() const { return public_key_; }
  // Drops what waits and lets the messages being sent finish (each POST, its look-up included,
  // is bounded by the timeout).
  void stop();

 private:
  void fan_out(const PushNotice& notice);
  void send_until_stopped();
  void send(const PushMessage& message);
  void forget_refused(const PushMessage& message, const std::string& problem);

  const EcKey vapid_key_;
  const WebPushSettings settings_;
  const std::string public_key_;
  PushSubscriptions& subscriptions_;
  const PushHttpClient client_;
  PushQueues queues_;
  WorkQueue notices_;  // its thread reads the subscriptions and fills queues_
  std::vector<std::thread> senders_;  // last: they stop before the rest goes
};

// The JSON a notice travels as (the service worker shows it): title, body and the room's link.
std::string push_payload(const PushNotice& notice);
// RFC 8030's Topic for a room's notices: at most 32 base64url characters, the same for one room.
std::string push_topic(const std::string& room_id);

}  // namespace mancala::server
