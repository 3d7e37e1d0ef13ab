#pragma once
// Every message the server sends, as typed values, and the functions that write them. Each
// writer returns the complete text of one WebSocket frame; `type` comes first and `id` second,
// so an unsolicited message written once can be given an id later (`with_id`).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/match.hpp"
#include "mancala/protocol/client_messages.hpp"

namespace mancala::protocol {

struct SeatView {
  int seat = 0;
  std::string player_id;  // empty while the seat is free
  std::string name;
  bool connected = false;
  int bot = 0;  // a computer player's level (1-5), 0 for a person; written as the level or false
  // While the seat's player is away from a running game: when the others may claim against
  // them (ISO 8601 UTC); empty otherwise. Lets a client that joins or reloads show the countdown.
  std::string grace_until;
  bool account = false;  // a person with an account (else a guest)
  std::optional<int> rating{};  // an account's rating in this room's game, rounded
  bool provisional = false;   // that rating is still uncertain ("1500?")
};

// The lobby's view of a public room.
struct RoomSummary {
  std::string id;
  std::string game;
  Json options;
  std::string status;  // waiting | playing | finished
  std::vector<SeatView> seats;
  int spectators = 0;
  // The clock's settings ({"initial_s","increment_s"} or {"per_move_s"}); null: no clock.
  Json time_control;
  bool rated = false;   // the result moves the players' ratings
  std::string host;     // the name of the player who created the room; empty: not known
  std::string created{};  // when the room was created, ISO-8601 UTC ("2026-01-01T12:00:00.000Z")
};

// One line of room chat as members receive it and the history keeps it.
struct ChatLine {
  std::string channel;  // players | spectators
  std::string player_id;
  std::string name;
  std::string text;
  std::string at;  // ISO 8601 UTC
  bool account = false;  // the author is an account, not a guest who took a name
};

// A member's view of a room. `invite` is empty unless the viewer may see it.
struct RoomView {
  RoomSummary summary;
  int grace_seconds = 0;
  bool is_private = false;
  std::string invite;
  std::int64_t version = 0;
  // The state view as JSON text, its clock included (`write_state`); null while the room waits.
  std::string state = "null";
  // {"remaining_ms":[…],"running":seat|null,"as_of":ISO}; null when the game has no clock.
  Json clock;
  std::string rematch;  // the id of the rematch's room, once it exists
  std::string host_id;  // the creator's player id (who may turn the spectators' chat off)
  bool spectator_chat = true;
  std::vector<ChatLine> chat;  // the recent lines this member may see, oldest first
};

// One committed change of a game. `action` says what caused it (move, resign, abandon, timeout,
// or a kind the game declares: a special action such as concede, a claim such as plex, a claim
// window's fallback such as plex_timeout); `seat` is the seat it was made for and `tokens` is empty for non-moves.
struct Update {
  std::string room;
  std::int64_t version = 0;
  std::optional<int> seat;
  std::string action;
  std::string tokens;
  std::string events = "[]";   // the events as JSON text, as they are stored
  std::string state = "null";  // the state view as JSON text, its clock included (`write_state`)
};

// The state view of protocol.md as JSON text: the match's view (Match::write_state_fields) and
// last the clock's (null when the game has no clock). Written without a JSON tree: every
// update carries one.
std::string write_state(const Match& match, const Json& clock);

std::string write_ok(const RequestId& id);
std::string write_error(const RequestId& id, const Error& error);
// An empty `token`: an account, whose proof is its session cookie (no token is sent).
std::string write_welcome(const RequestId& id, std::string_view player_id, std::string_view name,
                          std::string_view token);
std::string write_room(const RequestId& id, const RoomView& room);
std::string write_rooms(const RequestId& id, const std::vector<RoomSummary>& rooms);
std::string write_update(const RequestId& id, const Update& update);
std::string write_updates(const RequestId& id, std::string_view room,
                          const std::vector<Update>& updates);
// A claim window opened: {"type":"<name>_open", … ,"mover":fallback_seat} (Njaka: "plex_open",
// whose fallback seat is the mover).
std::string write_claim_open(std::string_view name, std::string_view room, std::string_view window,
                             std::int64_t deadline_ms, int fallback_seat);
// The seats that asked for a rematch so far (computer players' included).
std::string write_rematch(std::string_view room, const std::vector<int>& seats);
std::string write_chat(std::string_view room, const ChatLine& line);
Json to_json(const ChatLine& line);
// `grace_until` (ISO 8601 UTC) only when the player went away.
std::string write_presence(std::string_view room, int seat, bool connected,
                           std::string_view grace_until);

Json to_json(const RoomSummary& summary);

// A seek was taken: its id, for cancel_seek.
// `delayed_s` > 0: the mild playban holds the seek back that long before it is paired.
std::string write_seeking(const RequestId& id, std::string_view seek_id, int delayed_s = 0);
// The open seeks, one entry per set-up with how many wait for it, and per game how many players
// are seeking or playing it (the `seeks` message of watch_seeks).
struct SeekListing {
  std::string game;
  Json options = Json::object();
  Json clock;  // null: no clock
  bool rated = false;
  std::vector<int> seats;
  int waiting = 0;
};
std::string write_seeks(const std::vector<SeekListing>& seeks, const std::vector<std::pair<std::string, int>>& online);

// A tournament as GET /api/tournaments/<id> shows it (`view`, an object), pushed to its watchers.
std::string write_tournament(const Json& view);

// The request a server message answers: its `id`, or nothing for an unsolicited message (and for
// text that is not a message).
RequestId reply_id(std::string_view message);

// `message` (written by one of the functions above, without an id) with `id` added.
std::string with_id(std::string_view message, const RequestId& id);

}  // namespace mancala::protocol
