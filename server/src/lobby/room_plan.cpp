#include "room_plan.hpp"

#include "game_clock.hpp"
#include "mancala/bot.hpp"

namespace mancala::server {
namespace {

using protocol::Code;

std::optional<protocol::Error> check_seats(const protocol::CreateRoom& create, int seats) {
  const std::string range = "this game has seats 0.." + std::to_string(seats - 1);
  if (create.choice.seat && *create.choice.seat >= seats) return protocol::Error{Code::bad_request, range, {}};
  for (const auto& bot : create.bots)
    if (bot.seat >= seats)
      return protocol::Error{Code::bad_request, "'bots' names seat " + std::to_string(bot.seat) + "; " + range, {}};
  if (create.choice.spectate && static_cast<int>(create.bots.size()) >= seats)
    return protocol::Error{Code::bad_request,
                           "at least one seat must be a person's: leave a seat free or take one yourself", {}};
  return std::nullopt;
}

// A rated result must say something about two people: accounts only, nobody's computer.
std::optional<protocol::Error> check_rated(const protocol::CreateRoom& create, const Player& creator) {
  if (!create.rated) return std::nullopt;
  if (!creator.account)
    return protocol::Error{Code::not_allowed, "only players with an account can create a rated room; sign up or log in", {}};
  if (!create.bots.empty())
    return protocol::Error{Code::not_allowed, "a rated room is for people only: leave out the computer players", {}};
  if (create.choice.spectate)
    return protocol::Error{Code::not_allowed, "the creator of a rated room plays in it", {}};
  return std::nullopt;
}

}  // namespace

Json clock_settings(const std::optional<protocol::ClockChoice>& clock) {
  if (!clock) return Json();
  const auto settings = clock->correspondence()
                            ? ClockSettings::correspondence(std::chrono::seconds(clock->per_move_s))
                            : ClockSettings::real_time(std::chrono::seconds(clock->initial_s),
                                                       std::chrono::seconds(clock->increment_s));
  return settings.to_json();
}

std::variant<RoomPlan, protocol::Error> plan_room(const protocol::CreateRoom& create, const Player& creator,
                                                  const RoomDraw& draw) {
  std::optional<Match> match;
  try {
    match.emplace(Match::create(create.game, create.options, draw.seed));
  } catch (const EngineError& e) {
    return protocol::Error{protocol::from_engine(e.code()), e.what(), {}};
  }
  const int seats = match->game().players();
  if (auto refusal = check_seats(create, seats)) return std::move(*refusal);
  if (auto refusal = check_rated(create, creator)) return std::move(*refusal);

  GameMeta meta;
  meta.id = draw.room_id;
  meta.game = create.game;
  meta.options = match->options();
  meta.draws = match->draws();
  meta.is_private = create.is_private;
  meta.rated = create.rated;
  if (create.is_private) meta.invite = draw.invite;
  meta.grace_seconds = create.grace_seconds;
  meta.clock = clock_settings(create.clock);
  meta.created = draw.created;
  meta.host_id = creator.id;
  meta.host_name = creator.name;
  std::optional<int> creator_seat;
  if (!create.choice.spectate) {
    creator_seat = create.choice.seat.value_or(0);
    meta.seats.push_back({*creator_seat, creator.id, creator.name, 0, creator.account});
  }
  for (const auto& bot : create.bots) meta.seats.push_back({bot.seat, "", bots::display_name(bot.level), bot.level});
  if (static_cast<int>(meta.seats.size()) == seats) {  // computer players took every other seat
    meta.status = "playing";
    meta.started = draw.started;  // the clock's time: version 0 of its history
  }
  return RoomPlan{std::move(meta), std::move(*match), creator_seat};
}

}  // namespace mancala::server
