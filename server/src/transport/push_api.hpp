#pragma once
// The Web Push API (issue 33): the server's VAPID key, and a player's subscriptions (an account
// by its session, a guest by its Bearer token).
#include "api_routes.hpp"

namespace mancala::server {

RouteTable push_routes();

}  // namespace mancala::server
