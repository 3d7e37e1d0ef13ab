#include "room_members.hpp"

#include <algorithm>
#include <utility>

namespace mancala::server {

RoomMembers::Member* RoomMembers::find(const Connection* connection) {
  const auto it = std::find_if(members_.begin(), members_.end(),
                               [connection](const Member& m) { return m.connection.get() == connection; });
  return it == members_.end() ? nullptr : &*it;
}

bool RoomMembers::seat_connected(int seat) const {
  return std::any_of(members_.begin(), members_.end(), [seat](const Member& m) { return m.seat == seat; });
}

int RoomMembers::spectators() const {
  return static_cast<int>(std::count_if(members_.begin(), members_.end(), [](const Member& m) { return !m.seat; }));
}

std::optional<RoomMembers::Member> RoomMembers::remove(const Connection* connection, SystemTime grace_until) {
  const auto it = std::find_if(members_.begin(), members_.end(),
                               [connection](const Member& m) { return m.connection.get() == connection; });
  if (it == members_.end()) return std::nullopt;
  Member gone = std::move(*it);
  members_.erase(it);
  if (gone.seat && !seat_connected(*gone.seat)) set_grace_until(*gone.seat, grace_until);
  return gone;
}

std::vector<RoomMembers::Member> RoomMembers::remove_player(const std::string& player_id) {
  std::vector<Member> gone, staying;
  for (auto& m : members_) (m.player && m.player->id == player_id ? gone : staying).push_back(std::move(m));
  members_ = std::move(staying);
  return gone;
}

std::vector<RoomMembers::Member> RoomMembers::remove_all() { return std::exchange(members_, {}); }

void RoomMembers::send(const SharedText& text, const Connection* except) const {
  for (const auto& m : members_)
    if (m.connection.get() != except) m.connection->send(text);
}

}  // namespace mancala::server
