#pragma once
// What the database keeps for Web Push (issue 33): each browser that asked to be told when it is
// its player's move. Every call blocks on the database: call them from a reader thread, the
// HTTP API's or the push sender's, never from a network thread or a room's strand.
#include <string>
#include <vector>

namespace mancala::server {

struct PushSubscription {
  std::string endpoint;  // the push service's URL for this browser
  std::string player_id;
  std::string p256dh;    // the browser's P-256 public key, base64url
  std::string auth;      // its 16-byte auth secret, base64url
};

class PushSubscriptions {
 public:
  // A player keeps at most this many (browsers, devices); a new one pushes out the oldest.
  static constexpr int kPerPlayer = 10;

  virtual ~PushSubscriptions() = default;
  // Adds the subscription, or gives an endpoint already stored to this player with these keys.
  virtual void add(const PushSubscription& subscription) = 0;
  // Removes the player's subscription with this endpoint; false when there was none.
  virtual bool remove(const std::string& player_id, const std::string& endpoint) = 0;
  // The push service said the endpoint is gone.
  virtual void forget(const std::string& endpoint) = 0;
  virtual std::vector<PushSubscription> of_player(const std::string& player_id) = 0;
};

}  // namespace mancala::server
