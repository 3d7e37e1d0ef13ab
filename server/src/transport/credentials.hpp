#pragma once
// Who a request of the HTTP API comes from, read in one place (issue 50): a guest by the token
// of `Authorization: Bearer <token>`, an account by its session cookie (session_cookie.hpp).
#include <optional>
#include <string>

#include "http_api.hpp"
#include "identity.hpp"

namespace mancala::server {

// The token of `Authorization: Bearer <token>`; empty when the request has none. The scheme is
// case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" are Bearer too.
std::string bearer_token(const HttpRequest& request);

// The account session whose cookie the request carries, if it is a live one.
struct AccountSession {
  std::string hash;  // of the cookie's secret, as the database keeps it
  std::string player_id;
};
std::optional<AccountSession> account_session(const HttpRequest& request, const HttpContext& context);
// The same, or 401 not_logged_in.
AccountSession required_session(const HttpRequest& request, const HttpContext& context);

// The guest of this process presenting a Bearer token, if the request has one; 400 bad_token
// for a token no guest has (an account's API says so instead of taking him for nobody).
PlayerRef guest_of(const HttpRequest& request, const HttpContext& context);

// The player presenting a Bearer token (a guest, also one another process made) or else a
// session cookie (an account); empty for nobody. A token no player has is nobody too: the
// history and analysis APIs then answer as they answer anyone.
std::string viewer_id(const HttpRequest& request, const HttpContext& context);

}  // namespace mancala::server
