#pragma once
// The room as others see it: its lobby entry (`RoomSummary`) and the `room` message (`RoomView`),
// as pure functions of a snapshot the room takes on its strand. No strand, no storage, no
// sockets: a test builds a snapshot by hand, and a new kind of room (a seek's, a tournament's)
// shows itself through the same two functions.
#include <cstdint>
#include <optional>
#include <vector>

#include "chat_log.hpp"
#include "clock.hpp"
#include "identity.hpp"
#include "mancala/match.hpp"
#include "mancala/protocol/server_messages.hpp"
#include "room_status.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// One seat as the room knows it at the moment of the snapshot.
struct SeatSnapshot {
  PlayerRef player;        // null while the seat is free
  bool connected = false;  // a computer player's seat always is
  int bot_level = 0;       // 0 for a person's seat or a free one
  SystemTime grace_until{};  // until when an away player may come back
};

// Everything the views read, borrowed from the room for the length of one call.
struct RoomSnapshot {
  const GameMeta& meta;
  RoomStatus status;
  std::vector<SeatSnapshot> seats;
  int spectators = 0;
  Json time_control;      // the clock's settings; null: no clock
  Json clock;             // the clock's view; null: no clock
  std::int64_t version = 0;
  const Match& match;
  const std::string& rematch;  // the rematch's room, once it exists
  const ChatLog& chat;
  bool forgotten = false;  // the room is on its way out: the lobby no longer lists it
};

protocol::RoomSummary room_summary(const RoomSnapshot& room);
// The `room` message for one member: `seated` members see a private room's invite and do not
// see the spectators' lines said during play (chat_log.hpp).
protocol::RoomView room_view(const RoomSnapshot& room, bool seated);
// The lobby lists a public room while it waits with a free seat or plays; nullopt takes it out.
std::optional<protocol::RoomSummary> lobby_entry(const RoomSnapshot& room);

}  // namespace mancala::server
