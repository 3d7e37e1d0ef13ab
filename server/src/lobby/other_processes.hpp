#pragma once
// What the hub asks of the other server processes that share its database (the cluster layer
// implements it over the bus; a single process has none). A few calls, and nothing of the bus,
// the registry or PostgreSQL shows through them.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "connection.hpp"
#include "mancala/protocol/client_messages.hpp"

namespace mancala::server {

// Quick pairing's messages (seek, cancel_seek, watch_seeks) are routed as if they named this
// room: the cluster's one seek pool, held by one process (cluster_membership.hpp). Room ids never
// hold '#'.
inline const std::string kSeekPoolRoom = "#seeks";

class OtherProcesses {
 public:
  virtual ~OtherProcesses() = default;

  // Sends the message to the live process that owns `room`; false when nobody owns it, or this
  // process does (the hub answers it then). Throws when its owner is dead and not yet replaced,
  // or the owner cannot be looked up (the hub answers: try again).
  virtual bool forward(const Caller& caller, const protocol::ClientMessage& message, const std::string& room) = 0;
  // True when forward() needs no database read for this room (its owner was looked up before),
  // so that it may run on a network thread.
  virtual bool owner_known(const std::string& room) = 0;
  // The room an invite opens on another process ("" when none is open).
  virtual std::string room_of_invite(const std::string& invite) = 0;
  // After hello: the player's unfinished rooms owned by other processes send him their `room`.
  virtual void attach_remote_rooms(const std::shared_ptr<Connection>& connection, const PlayerRef& player) = 0;
  virtual void connection_closed(const std::shared_ptr<Connection>& connection) = 0;
  // A local public room's lobby entry changed (nullopt: it left the lobby).
  virtual void publish_summary(const std::string& room_id, const std::optional<protocol::RoomSummary>& summary) = 0;
  // Rooms this process just took over from a dead one, now rebuilt here.
  virtual void announce_taken(const std::vector<std::string>& room_ids) = 0;
  // Account sessions just ended here: the other processes close their connections of them.
  virtual void announce_ended_sessions(const std::vector<std::string>& session_hashes) = 0;
  // These players' accounts changed in the database: the other processes read them again.
  virtual void announce_players_changed(const std::vector<std::string>& player_ids) = 0;
  // This process took the seek pool (true): the others send it their clients' open seeks again,
  // and from now on their seeks come here. Or it gave it up (false: its lease had lapsed).
  virtual void seek_pool_held(bool held) = 0;
  // These players took a seat here: the pool's holder, wherever it is, ends their seeks.
  virtual void announce_seated(const std::vector<std::string>& player_ids) = 0;
};

}  // namespace mancala::server
