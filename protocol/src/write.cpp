#include "mancala/protocol/server_messages.hpp"

namespace mancala::protocol {
namespace {

// Starts a message: the type first, then the id when there is one.
Json message(std::string_view type, const RequestId& id) {
  Json out = {{"type", type}};
  if (const auto* text = std::get_if<std::string>(&id)) out["id"] = *text;
  if (const auto* number = std::get_if<std::int64_t>(&id)) out["id"] = *number;
  return out;
}

// The same start, written as text: {"type":"…"[,"id":…]
void begin_message(JsonWriter& out, std::string_view type, const RequestId& id) {
  out.begin_object().field("type", type);
  if (const auto* text = std::get_if<std::string>(&id)) out.field("id", *text);
  if (const auto* number = std::get_if<std::int64_t>(&id)) out.field("id", *number);
}

void write_update_fields(JsonWriter& out, const Update& update) {
  out.field("room", update.room).field("version", update.version).key("seat");
  update.seat ? out.value(*update.seat) : out.null();
  out.field("action", update.action)
      .field("tokens", update.tokens)
      .key("events")
      .raw(update.events)
      .key("state")
      .raw(update.state);
}

Json seat_json(const SeatView& seat) {
  const bool taken = !seat.player_id.empty();
  Json out = {{"seat", seat.seat},
              {"player_id", taken ? Json(seat.player_id) : Json()},
              {"name", taken ? Json(seat.name) : Json()},
              {"connected", seat.connected},
              {"bot", seat.bot > 0 ? Json(seat.bot) : Json(false)}};
  if (!seat.grace_until.empty()) out["grace_until"] = seat.grace_until;
  if (taken && !seat.bot) {
    out["account"] = seat.account;
    if (seat.rating) {
      out["rating"] = *seat.rating;
      out["provisional"] = seat.provisional;
    }
  }
  return out;
}

}  // namespace

Json to_json(const RoomSummary& summary) {
  Json seats = Json::array();
  for (const auto& seat : summary.seats) seats.push_back(seat_json(seat));
  return Json{{"id", summary.id},         {"game", summary.game},
              {"options", summary.options}, {"status", summary.status},
              {"seats", std::move(seats)}, {"spectators", summary.spectators},
              {"time_control", summary.time_control},
              {"host", summary.host.empty() ? Json() : Json(summary.host)},
              {"created", summary.created}, {"rated", summary.rated}};
}

Json to_json(const ChatLine& line) {
  return Json{{"channel", line.channel}, {"player_id", line.player_id}, {"name", line.name},
              {"account", line.account}, {"text", line.text},       {"at", line.at}};
}

std::string write_chat(std::string_view room, const ChatLine& line) {
  Json out = message("chat", {});
  out["room"] = room;
  const Json fields = to_json(line);  // kept: items() only refers to it
  for (const auto& [key, value] : fields.items()) out[key] = value;
  return to_json_text(out);
}

std::string write_seeking(const RequestId& id, std::string_view seek_id, int delayed_s) {
  Json out = message("seeking", id);
  out["seek"] = seek_id;
  if (delayed_s > 0) out["delayed_s"] = delayed_s;
  return to_json_text(out);
}

std::string write_seeks(const std::vector<SeekListing>& seeks, const std::vector<std::pair<std::string, int>>& online) {
  Json out = message("seeks", {});
  Json list = Json::array();
  for (const auto& seek : seeks)
    list.push_back({{"game", seek.game}, {"options", seek.options}, {"clock", seek.clock}, {"rated", seek.rated},
                    {"seats", seek.seats}, {"waiting", seek.waiting}});
  out["seeks"] = std::move(list);
  Json counts = Json::object();
  for (const auto& [game, players] : online) counts[game] = players;
  out["online"] = std::move(counts);
  return to_json_text(out);
}

std::string write_tournament(const Json& view) {
  Json out = message("tournament", {});
  for (const auto& [key, value] : view.items()) out[key] = value;
  return to_json_text(out);
}

std::string write_ok(const RequestId& id) { return to_json_text(message("ok", id)); }

std::string write_error(const RequestId& id, const Error& error) {
  Json out = message("error", id);
  out["code"] = to_string(error.code);
  out["message"] = error.message;
  for (const auto& [key, value] : error.details.items()) out[key] = value;
  return to_json_text(out);
}

std::string write_welcome(const RequestId& id, std::string_view player_id, std::string_view name,
                          std::string_view token) {
  Json out = message("welcome", id);
  out["player_id"] = player_id;
  out["name"] = name;
  if (!token.empty()) out["token"] = token;
  out["account"] = token.empty();
  return to_json_text(out);
}

std::string write_room(const RequestId& id, const RoomView& room) {
  // Written field by field around the state's text, as an update is: every join and every
  // game's start sends one to each member.
  std::string text;
  text.reserve(512 + room.state.size());
  JsonWriter out(text);
  begin_message(out, "room", id);
  const RoomSummary& summary = room.summary;
  out.key("room").begin_object().field("id", summary.id).field("game", summary.game);
  out.key("options").tree(summary.options).field("grace_seconds", room.grace_seconds);
  out.field("private", room.is_private).field("rated", summary.rated);
  if (!room.invite.empty()) out.field("invite", room.invite);
  out.field("status", summary.status).key("seats").begin_array();
  for (const auto& seat : summary.seats) out.tree(seat_json(seat));
  out.end_array().field("spectators", summary.spectators).key("time_control").tree(summary.time_control);
  out.field("version", room.version).key("state").raw(room.state).key("clock").tree(room.clock);
  if (!room.rematch.empty()) out.field("rematch", room.rematch);
  out.key("host_id");
  room.host_id.empty() ? out.null() : out.value(room.host_id);
  out.field("spectator_chat", room.spectator_chat).key("chat").begin_array();
  for (const auto& line : room.chat) out.tree(to_json(line));
  out.end_array().end_object().end_object();
  return text;
}

std::string write_rooms(const RequestId& id, const std::vector<RoomSummary>& rooms) {
  Json list = Json::array();
  for (const auto& room : rooms) list.push_back(to_json(room));
  Json out = message("rooms", id);
  out["rooms"] = std::move(list);
  return to_json_text(out);
}

std::string write_state(const Match& match, const Json& clock) {
  std::string text;
  text.reserve(640);
  JsonWriter out(text);
  out.begin_object();
  match.write_state_fields(out);
  out.key("clock").tree(clock).end_object();
  return text;
}

std::string write_update(const RequestId& id, const Update& update) {
  // The most frequent message, written field by field around the state's text.
  std::string text;
  text.reserve(256 + update.state.size());
  JsonWriter out(text);
  begin_message(out, "update", id);
  write_update_fields(out, update);
  out.end_object();
  return text;
}

std::string write_updates(const RequestId& id, std::string_view room,
                          const std::vector<Update>& updates) {
  std::string text;
  JsonWriter out(text);
  begin_message(out, "updates", id);
  out.field("room", room).key("updates").begin_array();
  for (const auto& update : updates) {
    out.begin_object();
    write_update_fields(out, update);
    out.end_object();
  }
  out.end_array().end_object();
  return text;
}

std::string write_claim_open(std::string_view name, std::string_view room, std::string_view window,
                             std::int64_t deadline_ms, int fallback_seat) {
  Json out = message(std::string(name) + "_open", {});
  out["room"] = room;
  out["window"] = window;
  out["deadline_ms"] = deadline_ms;
  out["mover"] = fallback_seat;
  return to_json_text(out);
}

std::string write_rematch(std::string_view room, const std::vector<int>& seats) {
  Json out = message("rematch", {});
  out["room"] = room;
  out["seats"] = seats;
  return to_json_text(out);
}

std::string write_presence(std::string_view room, int seat, bool connected,
                           std::string_view grace_until) {
  Json out = message("presence", {});
  out["room"] = room;
  out["seat"] = seat;
  out["connected"] = connected;
  if (!connected) out["grace_until"] = grace_until;
  return to_json_text(out);
}

std::string with_id(std::string_view text, const RequestId& id) {
  if (std::holds_alternative<std::monostate>(id)) return std::string(text);
  // Every writer starts with {"type":"..." and a type never contains a quote, so the id goes
  // right after the second quote of the type's value.
  const auto type_end = text.find('"', text.find(':') + 2);
  const Json id_json = std::holds_alternative<std::string>(id) ? Json(std::get<std::string>(id))
                                                                : Json(std::get<std::int64_t>(id));
  std::string out;
  out.reserve(text.size() + 80);
  out.append(text.substr(0, type_end + 1));
  out.append(",\"id\":");
  append_json(out, id_json);
  out.append(text.substr(type_end + 1));
  return out;
}

}  // namespace mancala::protocol
