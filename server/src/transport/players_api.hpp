#pragma once
// The players API (issue 31): a player's profile with his ratings, and each game's leaderboard.
#include "api_routes.hpp"

namespace mancala::server {

RouteTable player_routes();

}  // namespace mancala::server
