#include "push_api.hpp"

#include "api_parts.hpp"
#include "base64url.hpp"
#include "log.hpp"
#include "push_crypto.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kMaxEndpoint = 2048;
constexpr std::size_t kAuthSecretSize = 16;

void check_push_on(const HttpContext& context) {
  if (context.push_key.empty())
    throw HttpError{http::status::not_found, "push_off", "this server sends no push notifications"};
}

// The player a subscription belongs to: an account by its session, a guest by its token.
std::string push_player(const ApiCall& call) {
  if (const auto session = account_session(call.http(), call.context)) return session->player_id;
  if (const PlayerRef guest = guest_of(call.http(), call.context)) return guest->id;
  throw HttpError{http::status::unauthorized, "not_logged_in",
                  "log in, or send your guest token as 'Authorization: Bearer …'"};
}

std::string checked_endpoint(const HttpContext& context, const Json& body) {
  std::string endpoint = string_field(body, "endpoint");
  if (endpoint.size() > kMaxEndpoint)
    throw HttpError{http::status::bad_request, "bad_subscription", "the endpoint is longer than 2048 characters"};
  const PushUrlCheck check = check_push_endpoint(endpoint, context.push_endpoints);
  if (!check.url) throw HttpError{http::status::bad_request, "bad_subscription", check.problem};
  return endpoint;
}

// The browser's keys as the Push API's PushSubscription.toJSON() writes them, checked: a P-256
// point and a 16-byte secret, both base64url.
std::pair<std::string, std::string> checked_keys(const Json& body) {
  const auto keys = body.find("keys");
  if (keys == body.end() || !keys->is_object())
    throw HttpError{http::status::bad_request, "bad_subscription", "'keys' must hold 'p256dh' and 'auth'"};
  const std::string p256dh = string_field(*keys, "p256dh");
  const std::string auth = string_field(*keys, "auth");
  const auto point = from_base64url(p256dh);
  const auto secret = from_base64url(auth);
  try {
    if (!point || !secret || secret->size() != kAuthSecretSize) throw PushCryptoError("");
    EcKey::from_public(*point);
  } catch (const PushCryptoError&) {
    throw HttpError{http::status::bad_request, "bad_subscription",
                    "'keys.p256dh' must be a P-256 public key and 'keys.auth' 16 bytes, both base64url"};
  }
  return {p256dh, auth};
}

void subscribe(const ApiCall& call) {
  check_push_on(call.context);
  const std::string player = push_player(call);
  const Json body = body_object(call.http());
  const std::string endpoint = checked_endpoint(call.context, body);
  const auto [p256dh, auth] = checked_keys(body);
  call.context.storage.push_subscriptions().add({endpoint, player, p256dh, auth});
  log_info("push_subscribed", {{"player", player}, {"address", call.address}});
  call.reply(json_response(call.http(), http::status::created, Json{{"subscribed", true}}));
}

void unsubscribe(const ApiCall& call) {
  check_push_on(call.context);
  const std::string player = push_player(call);
  const std::string endpoint = string_field(body_object(call.http()), "endpoint");
  if (!call.context.storage.push_subscriptions().remove(player, endpoint))
    throw not_found("you have no push subscription with this endpoint");
  log_info("push_unsubscribed", {{"player", player}, {"address", call.address}});
  call.reply(json_response(call.http(), http::status::ok, Json{{"subscribed", false}}));
}

void key(const ApiCall& call) {
  check_push_on(call.context);
  call.reply(json_response(call.http(), http::status::ok, Json{{"key", call.context.push_key}}));
}

// Subscriptions and unsubscriptions each count against the address, so that a client cannot
// fill the table, or make the server post to endpoints of its choosing, at speed.
constexpr RouteLimit kPushRequests{&RequestLimits::push_by_address, "push requests"};

constexpr Route kRoutes[] = {
    {http::verb::get, "/api/push/key", {}, key},
    {http::verb::post, "/api/push/subscriptions", kPushRequests, subscribe},
    {http::verb::delete_, "/api/push/subscriptions", kPushRequests, unsubscribe},
};

}  // namespace

RouteTable push_routes() { return {"push", kRoutes, count_per_address}; }

}  // namespace mancala::server
