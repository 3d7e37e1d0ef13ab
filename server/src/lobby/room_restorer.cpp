#include "room_restorer.hpp"

#include <stdexcept>

#include "game_log.hpp"
#include "room_clock.hpp"
#include "storage.hpp"

namespace mancala::server {

RestoredGame restore_game(const StoredGame& stored, const std::string& last_alive, const PlayerDirectory& players) {
  std::vector<PlayerRef> seats(static_cast<std::size_t>(opening(stored.meta).game().players()));
  for (const auto& seat : stored.meta.seats) {
    if (seat.bot_level > 0) continue;  // the room seats its computer players itself
    auto player = players.find(seat.player_id);
    if (!player || seat.seat < 0 || static_cast<std::size_t>(seat.seat) >= seats.size())
      throw std::runtime_error("seat " + std::to_string(seat.seat) + " does not fit the game");
    seats[static_cast<std::size_t>(seat.seat)] = std::move(player);
  }
  Match match = replay(stored.meta, stored.actions);
  const std::int64_t version = stored.actions.empty() ? 0 : stored.actions.back().version;
  Json clock_view = charged_until(
      stored.actions.empty() ? opening_clock_view(stored.meta, match) : stored.actions.back().clock, last_alive);
  return RestoredGame{std::move(match), version, std::move(seats), std::move(clock_view)};
}

void load_missing_players(const StoredGame& stored, PlayerDirectory& players, Storage& storage) {
  for (const auto& seat : stored.meta.seats) {
    if (seat.bot_level > 0 || players.find(seat.player_id)) continue;
    for (const auto& player : storage.load_players())
      if (!players.find(player.id)) players.load({player});
    return;
  }
}

}  // namespace mancala::server
