#pragma once
// The mutes API: an account's muted players, kept by the server so that they follow it to
// every browser (a guest's stay in the browser); hidden from him in every room's chat.
#include "api_routes.hpp"

namespace mancala::server {

RouteTable mute_routes();

}  // namespace mancala::server
