#pragma once
// What a room tells a player who is not in it (issue 33): that it became their move in a long
// game, or that the opponent offers a rematch; and a tournament's reminder before its start.
// The sender only queues the notice; delivering it (Web Push: web_push.hpp) happens on a thread
// of its own, so a slow push service never holds up a room.
#include <string>

namespace mancala::server {

struct PushNotice {
  std::string player_id;  // whom to tell
  std::string room_id;    // notices of one room replace each other on the device
  std::string title;
  std::string body;
  std::string route;      // the page a click opens; empty: the room's, "#/room/<room_id>"
};

class PushNotices {
 public:
  virtual ~PushNotices() = default;
  // Queues the notice and returns at once; a full queue drops it with a log line.
  virtual void notify(PushNotice notice) = 0;
};

}  // namespace mancala::server
