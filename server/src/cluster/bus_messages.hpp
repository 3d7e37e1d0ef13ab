#pragma once
// The messages server processes send each other over the bus (pg_bus.hpp), typed in this one
// place (as lila-ws types its LilaIn/LilaOut): the router builds and reads these structs and
// never compares a string of the wire. On the wire a message is a header line of words (the
// kind, then ids, which never hold spaces), a newline, and a body taken as it is, so frames,
// most of the traffic, are not escaped.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::server::bus {

// A frame for client `number` of the receiving process, from a room of the sender.
struct Frame {
  std::uint64_t number = 0;
  std::string text;
};
// Who the player of a request is, as his process knows him: whether he is an account, and its
// ratings by game, which the owner's seats show (a player's database row says neither).
struct Who {
  bool account = false;
  std::map<std::string, SeatRating> ratings;  // accounts only
};
// A client message for a room the receiver owns, from client `number` of process `from`.
struct Request {
  std::string from;
  std::uint64_t number = 0;
  std::string player_id;
  std::string text;  // the client message as the client wrote it
  Who who;
};
// Client `number` of `from` sits in `room`: the owner makes it a member again.
struct Attach {
  std::string from;
  std::uint64_t number = 0;
  std::string player_id;
  std::string room;
  Who who;
};
// Client `number` of `from` closed: the rooms of the receiver drop it.
struct Gone {
  std::string from;
  std::uint64_t number = 0;
};
// A public room's lobby entry on process `from` (none: it left the lobby).
struct Summary {
  std::string from;
  std::string room;
  std::optional<protocol::RoomSummary> entry;
};
// A process started: the others send their lobby entries again.
struct LobbyHello {
  std::string from;
};
// Process `from` took these rooms over from a dead one.
struct Taken {
  std::string from;
  std::vector<std::string> rooms;
};

// Account sessions that ended on process `from` (a log-out, a new password): the receivers
// close their connections that were opened with them. Sessions travel as their hashes only.
struct SessionsEnded {
  std::string from;
  std::vector<std::string> session_hashes;
};

// Players whose account changed in the database on process `from` (a guest claimed one, a
// rated result moved its ratings): the receivers that know them read them again.
struct PlayersChanged {
  std::string from;
  std::vector<std::string> player_ids;
};

// Quick pairing (issue 47). Process `from` now holds the cluster's seek pool: the others send it
// their clients' open seeks again (the old holder died with its pool) and its seeks go there.
struct PoolTaken {
  std::string from;
};
// An open seek of client `number` of `from`, sent again to a new holder of the pool: it keeps
// its id (the client may cancel it by that id) and gets no reply.
struct Reseek {
  std::string from;
  std::uint64_t number = 0;
  std::string player_id;
  std::string seek_id;
  std::string text;  // the seek message as the client wrote it
  Who who;
};
// These players took a seat on process `from`: the pool's holder ends their seeks.
struct Seated {
  std::string from;
  std::vector<std::string> player_ids;
};

using Message = std::variant<Frame, Request, Attach, Gone, Summary, LobbyHello, Taken, SessionsEnded, PlayersChanged,
                             PoolTaken, Reseek, Seated>;

std::string write(const Message& message);
// The header of a Frame for client `number`: a proxy writes it once and appends each frame.
std::string frame_header(std::uint64_t number);
// Throws std::invalid_argument (with what is wrong) for a payload that is not a message.
Message read(const std::string& payload);

}  // namespace mancala::server::bus
