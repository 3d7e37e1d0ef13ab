#pragma once
// The account and rating endpoints (issue 31): sign-up, log-in and out, the account's sessions
// and password, password resets, player profiles and leaderboards; and a player's Web Push
// subscriptions with the server's VAPID key (issue 33), which share their checks. Checked and
// counted on a reader thread like the rest of the API; the routes that hash a password (about
// 0.1 s of one core and 64 MiB) then answer from the password workers (HttpContext::password_work).
#include <memory>
#include <optional>
#include <string>

#include "http_api.hpp"

namespace mancala::server {

bool is_account_target(std::string_view path);
// Answers on this thread, hashing here too (for callers that wait: the HTTP fuzz test).
StringResponse handle_account_api(const HttpRequest& request, const HttpContext& context, const std::string& address);
// Answers through `reply`: at once, or from a password worker for a route that hashes.
void handle_account_api_async(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                              const std::string& address, const ApiReply& reply);

}  // namespace mancala::server
