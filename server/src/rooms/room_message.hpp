#pragma once
// Everything a room is asked to do for a caller, as one typed message (lila-ws's room actors
// take theirs the same way): the client's room messages as protocol/ parsed them, and the hub's
// own two (a creator's welcome, a returning player's new connection). Room::handle takes any of
// them on the room's strand, so the hub passes a message on without knowing its kind. A new
// kind is one alternative here and one `on` overload in the room (README.md).
#include <optional>
#include <variant>

#include "mancala/protocol/client_messages.hpp"

namespace mancala::server {

// From the hub: the room was just stored with the caller as its creator, seated on `seat`
// (nothing: the creator watches computer players).
struct WelcomeCreator {
  std::optional<int> seat;
};
// From the hub: a seated player's new connection (a reconnection, a restart); no reply but `room`.
struct Attach {};

using RoomMessage =
    std::variant<protocol::JoinRoom, protocol::LeaveRoom, protocol::Move, protocol::Sync, protocol::Resign,
                 protocol::Special, protocol::Claim, protocol::ClaimAbandon, protocol::AddBot, protocol::Rematch,
                 protocol::Chat, protocol::SpectatorChat, protocol::ReportChat, WelcomeCreator, Attach>;

}  // namespace mancala::server
