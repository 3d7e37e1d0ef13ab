#pragma once
// The accounts API (issue 31): sign-up, log-in and out, the account's sessions and password,
// password resets. Checked and counted on a reader thread like the rest of the API; the routes
// that hash a password (about 0.1 s of one core and 64 MiB) then answer from the password
// workers (HttpContext::password_work).
#include "api_routes.hpp"

namespace mancala::server {

RouteTable account_routes();

}  // namespace mancala::server
