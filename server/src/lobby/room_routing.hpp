#pragma once
// Several processes: a message for a room this process does not hold goes to the process that
// owns it. Finding that owner (or the room of an invite made elsewhere) is a database read, so
// it runs on a reader, never on a network thread; an owner already known is sent to at once.
// Quick pairing's messages go to the process that holds the seek pool, as to a room's owner.
// A connection's routed messages leave in the order they came: while one waits for its lookup,
// the ones after it wait behind it, so a move never overtakes the join before it.
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "connection.hpp"
#include "other_processes.hpp"
#include "reader_pool.hpp"
#include "room.hpp"
#include "room_index.hpp"

namespace mancala::server {

class RoomRouting {
 public:
  // `here` answers a message this process serves (the hub's handle_here).
  using Here = std::function<void(Caller, protocol::ClientMessage)>;
  RoomRouting(ReaderPool& readers, RoomIndex<Room>& rooms, Here here);

  // Before listening; null: one process, everything is served here.
  void set_other_processes(OtherProcesses* others) { others_ = others; }
  // Routes a message: served here, or forwarded, or answered `unavailable` when its owner
  // cannot be found now.
  void route(Caller caller, protocol::ClientMessage message);

 private:
  struct Waiting {
    Caller caller;
    protocol::ClientMessage message;
  };

  // True when no database read is needed to route it (no other process, a room of ours, an
  // owner already looked up) and nothing of the connection waits before it.
  bool routable_now(const Connection* connection, const protocol::ClientMessage& message);
  void route_now(Caller caller, protocol::ClientMessage message);
  void route_in_turn(const Connection* connection);  // on a reader: the connection's queue
  std::string room_of(const protocol::ClientMessage& message) const;  // may read the database
  // The room a message goes to without a read: the one it names, or the seek pool's (kSeekPoolRoom).
  static std::string routed_to(const protocol::ClientMessage& message);

  ReaderPool& readers_;
  RoomIndex<Room>& rooms_;
  Here here_;
  OtherProcesses* others_ = nullptr;
  std::mutex mutex_;
  std::unordered_map<const Connection*, std::deque<Waiting>> waiting_;  // a reader drains each
};

}  // namespace mancala::server
