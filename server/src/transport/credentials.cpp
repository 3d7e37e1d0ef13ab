#include "credentials.hpp"

#include "accounts.hpp"
#include "http_answers.hpp"
#include "hub.hpp"
#include "password.hpp"
#include "session_cookie.hpp"
#include "storage.hpp"
#include "text.hpp"

namespace mancala::server {

std::string bearer_token(const HttpRequest& request) {
  const std::string_view header = to_std(request[http::field::authorization]);
  constexpr std::string_view kBearer = "bearer ";
  if (header.size() <= kBearer.size() || lower_case(header.substr(0, kBearer.size())) != kBearer) return "";
  return std::string(header.substr(kBearer.size()));
}

std::optional<AccountSession> account_session(const HttpRequest& request, const HttpContext& context) {
  const auto secret = session_secret(request, context.secure_cookies());
  if (!secret) return std::nullopt;
  std::string hash = secret_hash(*secret);
  auto player = context.storage.accounts().session_player(hash);
  if (!player) return std::nullopt;
  return AccountSession{std::move(hash), std::move(*player)};
}

AccountSession required_session(const HttpRequest& request, const HttpContext& context) {
  auto session = account_session(request, context);
  if (!session) throw HttpError{http::status::unauthorized, "not_logged_in", "log in first"};
  return std::move(*session);
}

PlayerRef guest_of(const HttpRequest& request, const HttpContext& context) {
  const std::string token = bearer_token(request);
  if (token.empty()) return nullptr;
  auto guest = context.players.find_by_token(token);
  if (!guest) throw HttpError{http::status::bad_request, "bad_token", "no guest has this token; say hello again for a new one"};
  return guest;
}

std::string viewer_id(const HttpRequest& request, const HttpContext& context) {
  const std::string token = bearer_token(request);
  if (token.empty()) {
    const auto session = account_session(request, context);
    return session ? session->player_id : "";
  }
  try {
    const auto player = context.hub.player_by_token(token);  // also one another process made
    return player ? player->id : "";
  } catch (const std::exception&) {
    throw HttpError{http::status::service_unavailable, "unavailable", "the player could not be looked up; try again",
                    std::chrono::seconds(1)};
  }
}

}  // namespace mancala::server
