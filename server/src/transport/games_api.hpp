#pragma once
// The games API (the history of protocol/README.md): lists of games, a game's record and its
// positions, the game types, and what an invite opens.
#include "api_routes.hpp"

namespace mancala::server {

RouteTable game_routes();

}  // namespace mancala::server
