#include "push_decisions.hpp"

#include <algorithm>

namespace mancala::server {

std::vector<PushNotice> turn_notices(const RoomSnapshot& room, std::optional<int> mover, int next) {
  if (next < 0 || static_cast<std::size_t>(next) >= room.seats.size() || (mover && next == *mover)) return {};
  const SeatSnapshot& seat = room.seats[static_cast<std::size_t>(next)];
  if (!seat.player || seat.connected || seat.bot_level > 0) return {};
  const PlayerRef& moved = mover ? room.seats[static_cast<std::size_t>(*mover)].player : nullptr;
  return {{seat.player->id, room.meta.id, "Your move",
           (moved ? moved->name : std::string("Your opponent")) + " has moved: it is your turn.", ""}};
}

std::vector<PushNotice> rematch_notices(const RoomSnapshot& room, int asker, const std::vector<int>& asked) {
  std::vector<PushNotice> out;
  const std::string& name = room.seats[static_cast<std::size_t>(asker)].player->name;
  for (std::size_t i = 0; i < room.seats.size(); ++i) {
    const PlayerRef& player = room.seats[i].player;
    if (player && std::find(asked.begin(), asked.end(), static_cast<int>(i)) == asked.end())
      out.push_back({player->id, room.meta.id, "Rematch?", name + " offers you a rematch.", ""});
  }
  return out;
}

}  // namespace mancala::server
