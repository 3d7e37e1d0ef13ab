#pragma once
// Every message a client may send, as typed values, and the one parser that produces them.
// Anything the parser returns has been checked for shape and ranges; what is left to the server
// is what needs its state (does the room exist, is it your turn, ...).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mancala/protocol/errors.hpp"
#include "mancala/protocol/names.hpp"

namespace mancala::protocol {

// A request's `id`: absent, a string of at most 64 bytes, or an integer. Echoed in the reply.
using RequestId = std::variant<std::monostate, std::string, std::int64_t>;

inline constexpr std::size_t kMaxIdBytes = 64;
inline constexpr int kMinGraceSeconds = 30;
inline constexpr int kMaxGraceSeconds = 3600;
inline constexpr int kDefaultGraceSeconds = 120;

// Where a joiner wants to sit: a given seat, the first free one (neither set), or spectating.
struct SeatChoice {
  std::optional<int> seat;
  bool spectate = false;
};

struct Hello {
  std::string name;   // trimmed and checked; empty when a token is given
  std::string token;  // empty for a new player
  // Both empty: the connection's session cookie says who it is (an account), or the server
  // answers bad_request.
  bool anonymous() const { return name.empty() && token.empty(); }
};
// A computer player for a seat: levels 1 (random) to 5 (the strongest).
inline constexpr int kMinBotLevel = 1;
inline constexpr int kMaxBotLevel = 5;
struct BotSeat {
  int seat = 0;
  int level = 0;
};

// A game clock (protocol "Clocks"): real-time, `initial_s` for each seat plus `increment_s`
// after each of its turns; or correspondence, `per_move_s` for every move (per_move_s > 0).
inline constexpr int kMinInitialSeconds = 10;
inline constexpr int kMaxInitialSeconds = 10800;
inline constexpr int kMaxIncrementSeconds = 60;
inline constexpr int kMinPerMoveSeconds = 60;
inline constexpr int kMaxPerMoveSeconds = 1'209'600;  // 14 days
struct ClockChoice {
  int initial_s = 0;
  int increment_s = 0;
  int per_move_s = 0;
  bool correspondence() const { return per_move_s > 0; }
  bool operator==(const ClockChoice&) const = default;
};
// The clock as the wire writes it: {"initial_s","increment_s"} or {"per_move_s"}.
Json clock_json(const ClockChoice& clock);

struct CreateRoom {
  std::string game;
  Json options = Json::object();
  bool is_private = false;
  bool rated = false;  // only between accounts, without computer players (the server checks)
  int grace_seconds = kDefaultGraceSeconds;
  SeatChoice choice;
  // Seats filled at once by computer players: distinct seats, none of them the creator's.
  // Whether a person is left (the game's seat count) is the server's check.
  std::vector<BotSeat> bots;
  std::optional<ClockChoice> clock;  // none: the game has no clock
};
struct ListRooms {};
struct WatchLobby {};
struct JoinRoom {
  std::string room;    // exactly one of room and invite is set
  std::string invite;
  SeatChoice choice;
};
struct LeaveRoom {
  std::string room;
};
struct Move {
  std::string room;
  std::int64_t expected_version = 0;
  std::string tokens;
};
struct Sync {
  std::string room;
  std::int64_t since = 0;
};
struct Resign {
  std::string room;
};
// One of a game's special actions (Game::special_actions); on the wire its type is the
// action's name, e.g. {"type":"concede"}.
struct Special {
  std::string room;
  std::string action;
};
// A claim on the room's open claim window; on the wire {"type":"plex"} (Njaka's Plex!, the only
// game with one).
struct Claim {
  std::string room;
  std::string window;
};
struct ClaimAbandon {
  std::string room;
};
// A seated player puts a computer player on a free seat of a waiting room.
struct AddBot {
  std::string room;
  BotSeat bot;
};

// A seated player of a finished game asks to play it again (seats rotated by one).
struct Rematch {
  std::string room;
};

// A line of chat in a room: a seated player's goes to the players, anyone else's to the
// spectators. Checked by check_chat_text (names.hpp).
struct Chat {
  std::string room;
  std::string text;
};
// The room's creator turns the spectators' chat off or on.
struct SpectatorChat {
  std::string room;
  bool on = true;
};
// A member reports a recent message (by its sender and time) to the operator.
struct ReportChat {
  std::string room;
  std::string player_id;
  std::string at;
};

// Quick pairing (protocol "Quick pairing"): a player asks for an opponent with this game,
// options, clock and ratedness; the server pairs compatible seeks and seats them in a new room.
inline constexpr int kMaxSeeksPerPlayer = 3;
struct Seek {
  std::string game;
  Json options = Json::object();  // the game's options without the player count (`seats` says it)
  std::optional<ClockChoice> clock;
  bool rated = false;  // accounts only (the server checks)
  // The table sizes accepted, ascending and distinct, each 2 to 4; empty: the game's default
  // (its only size, or for Njaka any of 2, 3, 4). Whether the game has them is the server's check.
  std::vector<int> seats;
};
struct CancelSeek {
  std::string seek;
};
struct WatchSeeks {};
// Asks for a tournament's standings, pushed as `tournament` at most once a second while they change.
struct WatchTournament {
  std::string tournament;
};

using ClientMessage = std::variant<Hello, CreateRoom, ListRooms, WatchLobby, JoinRoom, LeaveRoom,
                                   Move, Sync, Resign, Special, Claim, ClaimAbandon, AddBot, Rematch,
                                   Chat, SpectatorChat, ReportChat, Seek, CancelSeek, WatchSeeks,
                                   WatchTournament>;

// One inbound frame: its id (when it had a valid one) and either the message or the error to
// answer with.
struct Parsed {
  RequestId id;
  std::variant<ClientMessage, Error> body;
};

Parsed parse_client_message(std::string_view text);

// The room a message names ("" for none; a join by invite names its room only once the invite
// is resolved).
std::string room_named_by(const ClientMessage& message);

// The message's `type` as written on the wire (for logs and metrics).
std::string_view type_name(const ClientMessage& message);

// The message as a client writes it, with `id` when it has one: parsing the text gives the same
// message back. (The cluster forwards a room's messages to the process that owns it this way.)
std::string write_client_message(const RequestId& id, const ClientMessage& message);

}  // namespace mancala::protocol
