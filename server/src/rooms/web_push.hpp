#pragma once
// Web Push delivery (RFC 8030, 8291, 8292) of a room's notices to every browser the player
// subscribed: on one thread of its own with a bounded queue, each POST bounded by a timeout, so
// a push service that is slow or down delays only other notices, never a move. A subscription
// the push service calls gone (404, 410) is deleted. Log lines name the push service's origin,
// never an endpoint, a key or an auth secret.
#include <chrono>
#include <cstddef>
#include <string>

#include "push_crypto.hpp"
#include "push_http.hpp"
#include "push_notices.hpp"
#include "push_subscriptions.hpp"
#include "work_queue.hpp"

namespace mancala::server {

struct WebPushSettings {
  std::string subject;  // --vapid-subject: mailto: or https: contact for the push services
  std::chrono::milliseconds timeout{10000};  // for one POST, from the look-up to the answer
  std::size_t queue_capacity = 256;           // notices waiting; more are dropped
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
  // Drops what waits and lets the notice being sent finish (its POST is bounded by the timeout).
  void stop() { queue_.stop(); }

 private:
  void deliver(const PushNotice& notice);
  void send(const PushSubscription& subscription, const std::string& payload, const std::string& topic);

  const EcKey vapid_key_;
  const WebPushSettings settings_;
  const std::string public_key_;
  PushSubscriptions& subscriptions_;
  const PushHttpClient client_;
  WorkQueue queue_;  // last: its thread stops before the rest goes
};

// The JSON a notice travels as (the service worker shows it): title, body and the room's link.
std::string push_payload(const PushNotice& notice);
// RFC 8030's Topic for a room's notices: at most 32 base64url characters, the same for one room.
std::string push_topic(const std::string& room_id);

}  // namespace mancala::server
