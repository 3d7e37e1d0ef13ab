#pragma once
// What a `create_room` asks for, checked and written down before anything is stored: the game
// and its resolved options, the creator's seat, the computer players, the clock. Pure: the
// random and the time it needs come in as `RoomDraw`, so the same request gives the same plan.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "identity.hpp"
#include "mancala/match.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// The fresh values a new room takes: the game's seed, its id and invite, and the times it was
// created and, when computer players fill every other seat, started.
struct RoomDraw {
  std::uint64_t seed = 0;
  std::string room_id;
  std::string invite;
  std::string created;
  std::string started;
};

struct RoomPlan {
  GameMeta meta;                     // as it will be stored (status "playing" when already full)
  Match match;                       // the opening position
  std::optional<int> creator_seat;   // none: the creator watches
};

// A requested clock as GameMeta::clock stores it; null for none.
Json clock_settings(const std::optional<protocol::ClockChoice>& clock);

// The plan, or the error to answer with (an unknown game or option, a seat or a computer
// player's seat the game does not have, computer players in every seat of a watcher's room).
std::variant<RoomPlan, protocol::Error> plan_room(const protocol::CreateRoom& create, const Player& creator,
                                                  const RoomDraw& draw);

}  // namespace mancala::server
