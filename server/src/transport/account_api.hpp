#pragma once
// The account and rating endpoints (issue 31): sign-up, log-in and out, the account's sessions
// and password, password resets, player profiles and leaderboards; and a player's Web Push
// subscriptions with the server's VAPID key (issue 33), which share their checks. Answered on a reader
// thread like the rest of the API (a password hash takes about 0.1 s of one core).
#include <optional>
#include <string>

#include "http_api.hpp"

namespace mancala::server {

bool is_account_target(std::string_view path);
StringResponse handle_account_api(const HttpRequest& request, const HttpContext& context, const std::string& address);

}  // namespace mancala::server
