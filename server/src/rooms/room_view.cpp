#include "room_view.hpp"

#include <algorithm>
#include <cmath>

namespace mancala::server {

namespace {

protocol::SeatView seat_view(const RoomSnapshot& room, int number, const SeatSnapshot& seat) {
  const auto& player = seat.player;
  // The countdown a client shows while a player is away from a running game.
  const bool away = player && !seat.connected && room.status == RoomStatus::playing;
  protocol::SeatView out{number, player ? player->id : "", player ? player->name : "", seat.connected,
                         seat.bot_level, away ? format_utc(seat.grace_until) : ""};
  if (player && player->account) {
    out.account = true;
    const SeatRating rating = player->ratings->of(room.meta.game).value_or(SeatRating{});
    out.rating = static_cast<int>(std::lround(rating.rating.rating));
    out.provisional = rating.provisional();
  }
  return out;
}

}  // namespace

protocol::RoomSummary room_summary(const RoomSnapshot& room) {
  const GameMeta& meta = room.meta;
  // `created` comes from the database after a restart: the room's original time.
  protocol::RoomSummary out{meta.id, meta.game,          meta.options, std::string(to_string(room.status)),
                            {},      room.spectators, room.time_control, meta.rated, meta.host_name, meta.created};
  for (std::size_t i = 0; i < room.seats.size(); ++i)
    out.seats.push_back(seat_view(room, static_cast<int>(i), room.seats[i]));
  return out;
}

protocol::RoomView room_view(const RoomSnapshot& room, bool seated) {
  const GameMeta& meta = room.meta;
  protocol::RoomView out;
  out.summary = room_summary(room);
  out.grace_seconds = meta.grace_seconds;
  out.is_private = meta.is_private;
  if (meta.is_private && seated) out.invite = meta.invite;  // a spectator could pass it on
  out.version = room.version;
  out.clock = room.clock;
  if (room.status != RoomStatus::waiting) out.state = protocol::write_state(room.match, out.clock);
  out.rematch = room.rematch;
  out.host_id = meta.host_id;
  out.spectator_chat = meta.spectator_chat;
  out.chat = room.chat.visible(seated);
  return out;
}

std::optional<protocol::RoomSummary> lobby_entry(const RoomSnapshot& room) {
  const bool has_free_seat =
      std::any_of(room.seats.begin(), room.seats.end(), [](const SeatSnapshot& seat) { return !seat.player; });
  const bool listed = !room.meta.is_private && !room.forgotten &&
                      (room.status == RoomStatus::playing || (room.status == RoomStatus::waiting && has_free_seat));
  if (!listed) return std::nullopt;
  return room_summary(room);
}

}  // namespace mancala::server
