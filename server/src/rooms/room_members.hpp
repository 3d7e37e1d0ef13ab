#pragma once
// Who is in a room right now, and since when a seat nobody is connected for may still come
// back: the connections (seated players' and spectators'), each seat's presence and its grace
// time. Plain state on the room's strand: the room decides what to announce, this only keeps
// count, so tests need neither sockets nor a clock.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "clock.hpp"
#include "connection.hpp"

namespace mancala::server {

class RoomMembers {
 public:
  struct Member {
    std::shared_ptr<Connection> connection;
    PlayerRef player;
    std::optional<int> seat;  // nothing for a spectator
  };

  // `seats` seats, each away until `grace_until` (after a restart the grace time counts from
  // the restart).
  RoomMembers(int seats, SystemTime grace_until) : grace_until_(static_cast<std::size_t>(seats), grace_until) {}

  const std::vector<Member>& all() const { return members_; }
  bool empty() const { return members_.empty(); }
  Member* find(const Connection* connection);
  const Member* find(const Connection* connection) const {
    return const_cast<RoomMembers*>(this)->find(connection);
  }
  // Some connection of `seat` is here.
  bool seat_connected(int seat) const;
  int spectators() const;
  SystemTime grace_until(int seat) const { return grace_until_[static_cast<std::size_t>(seat)]; }
  void set_grace_until(int seat, SystemTime when) { grace_until_[static_cast<std::size_t>(seat)] = when; }

  // Adds a connection (which must not be here yet).
  void add(Member member) { members_.push_back(std::move(member)); }
  // Takes one connection out. When it was the last of its seat, that seat's grace time runs
  // until `grace_until`. Nothing when the connection was not a member.
  std::optional<Member> remove(const Connection* connection, SystemTime grace_until);
  // Takes out every connection of a player (leaving a seat before the game starts), no grace.
  std::vector<Member> remove_player(const std::string& player_id);
  std::vector<Member> remove_all();

  // Sends `text` to every member but `except`.
  void send(const SharedText& text, const Connection* except = nullptr) const;

 private:
  std::vector<Member> members_;
  std::vector<SystemTime> grace_until_;
};

}  // namespace mancala::server
