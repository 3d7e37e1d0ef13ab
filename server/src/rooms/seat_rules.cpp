#include "seat_rules.hpp"

#include <algorithm>

namespace mancala::server {

using protocol::Code;

namespace {

protocol::Error no_such_seat(int count) {
  return {Code::bad_request, "this room has seats 0.." + std::to_string(count - 1)};
}

protocol::Error seat_taken(int seat) { return {Code::seat_taken, "seat " + std::to_string(seat) + " is taken"}; }

}  // namespace

std::optional<int> RoomSeats::seat_of(const PlayerRef& player) const {
  if (!player) return std::nullopt;
  for (int i = 0; i < count(); ++i)
    if (at(i) && at(i)->id == player->id) return i;
  return std::nullopt;
}

int RoomSeats::free_count() const { return static_cast<int>(std::count(players_.begin(), players_.end(), nullptr)); }

std::optional<int> RoomSeats::first_free() const {
  for (int i = 0; i < count(); ++i)
    if (!at(i)) return i;
  return std::nullopt;
}

SeatDecision choose_seat(const RoomSeats& seats, const protocol::SeatChoice& choice, RoomStatus status, bool rated,
                         bool account) {
  const bool waiting = status == RoomStatus::waiting;
  if (choice.seat && *choice.seat >= seats.count()) return {std::nullopt, no_such_seat(seats.count())};
  if (rated && !choice.spectate && !account && waiting)
    return {std::nullopt, protocol::Error{Code::not_allowed, "this room is rated: only players with an account take "
                                                             "its seats (sign up or log in), anyone may watch"}};
  if (choice.seat) {
    if (seats.at(*choice.seat) || !waiting) return {std::nullopt, seat_taken(*choice.seat)};
    return {choice.seat, std::nullopt};
  }
  if (!choice.spectate && waiting) return {seats.first_free(), std::nullopt};
  return {};
}

std::optional<protocol::Error> bot_seat_refusal(const RoomSeats& seats, const protocol::BotSeat& bot,
                                                RoomStatus status, bool rated) {
  if (status != RoomStatus::waiting)
    return protocol::Error{Code::not_allowed, "computer players join only while the room waits for players"};
  if (rated) return protocol::Error{Code::not_allowed, "a rated room is for people only"};
  if (bot.seat >= seats.count()) return no_such_seat(seats.count());
  if (seats.at(bot.seat)) return seat_taken(bot.seat);
  return std::nullopt;
}

std::optional<protocol::Error> not_playing_refusal(RoomStatus status) {
  if (status == RoomStatus::waiting)
    return protocol::Error{Code::not_started, "the game has not started; it starts when every seat is taken"};
  if (status == RoomStatus::finished) return protocol::Error{Code::game_over, "the game is over"};
  return std::nullopt;
}

protocol::Error not_visible(const std::string& room_id) { return {Code::not_found, "no room " + room_id}; }

std::vector<int> seats_that_left_unplayed(const Json& turns) {
  std::vector<int> moved;
  std::vector<int> left;
  for (const Json& entry : turns) {
    if (entry.contains("tokens")) {
      moved.push_back(entry.at("seat").get<int>());
      continue;
    }
    const std::string event = entry.value("event", std::string());
    // A resignation names its "player"; a timeout its "seat" (Match::record).
    const char* who = event == "resign" ? "player" : event == "timeout" ? "seat" : nullptr;
    if (!who || !entry.contains(who)) continue;
    const int seat = entry.at(who).get<int>();
    if (std::find(moved.begin(), moved.end(), seat) == moved.end() &&
        std::find(left.begin(), left.end(), seat) == left.end())
      left.push_back(seat);
  }
  return left;
}

}  // namespace mancala::server
