#include "room_routing.hpp"

#include "log.hpp"

namespace mancala::server {

RoomRouting::RoomRouting(ReaderPool& readers, RoomIndex<Room>& rooms, Here here)
    : readers_(readers), rooms_(rooms), here_(std::move(here)) {}

void RoomRouting::route(Caller caller, protocol::ClientMessage message) {
  const Connection* connection = caller.connection.get();
  if (routable_now(connection, message)) return route_now(std::move(caller), std::move(message));
  {
    const std::lock_guard lock(mutex_);
    auto& queue = waiting_[connection];
    queue.push_back({std::move(caller), std::move(message)});
    if (queue.size() > 1) return;  // the reader draining the queue takes it in turn
  }
  readers_.run([this, connection] { route_in_turn(connection); });
}

bool RoomRouting::routable_now(const Connection* connection, const protocol::ClientMessage& message) {
  if (!others_) return true;
  {
    const std::lock_guard lock(mutex_);
    if (waiting_.contains(connection)) return false;
  }
  if (const auto* join = std::get_if<protocol::JoinRoom>(&message); join && !join->invite.empty())
    return rooms_.find_by_invite(join->invite) != nullptr;
  const std::string room = routed_to(message);
  return room.empty() || rooms_.find(room) || others_->owner_known(room);
}

void RoomRouting::route_in_turn(const Connection* connection) {
  for (;;) {
    Waiting next;
    {
      const std::lock_guard lock(mutex_);
      next = std::move(waiting_.at(connection).front());
    }
    route_now(std::move(next.caller), std::move(next.message));
    const std::lock_guard lock(mutex_);
    auto& queue = waiting_.at(connection);
    queue.pop_front();
    if (queue.empty()) return void(waiting_.erase(connection));
  }
}

void RoomRouting::route_now(Caller caller, protocol::ClientMessage message) {
  if (others_) {
    try {
      const std::string room = room_of(message);
      if (!room.empty() && !rooms_.find(room) && others_->forward(caller, message, room)) return;
    } catch (const std::exception& e) {  // the owner could not be looked up
      log_warn("forward_failed", {{"message", e.what()}});
      return caller.fail(protocol::Code::unavailable,
                         "the server that holds this room cannot be reached now (it may be being replaced, or "
                         "the database is away); try again in a moment",
                         {{"retry_after_ms", kRetryAfterMs}});
    }
  }
  here_(std::move(caller), std::move(message));
}

std::string RoomRouting::room_of(const protocol::ClientMessage& message) const {
  if (const auto* join = std::get_if<protocol::JoinRoom>(&message); join && !join->invite.empty()) {
    if (const auto room = rooms_.find_by_invite(join->invite)) return room->id();
    return others_->room_of_invite(join->invite);
  }
  return routed_to(message);
}

std::string RoomRouting::routed_to(const protocol::ClientMessage& message) {
  const bool for_pool = std::holds_alternative<protocol::Seek>(message) ||
                        std::holds_alternative<protocol::CancelSeek>(message) ||
                        std::holds_alternative<protocol::WatchSeeks>(message);
  return for_pool ? kSeekPoolRoom : protocol::room_named_by(message);
}

}  // namespace mancala::server
