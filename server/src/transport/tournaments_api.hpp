#pragma once
// The tournaments API (issue 48, protocol "Tournaments"): create, list and show tournaments,
// join and leave (pause) one. The tournaments themselves are tournaments/tournament_service.hpp's.
#include "api_routes.hpp"

namespace mancala::server {

RouteTable tournament_routes();

}  // namespace mancala::server
