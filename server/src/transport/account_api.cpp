#include "account_api.hpp"

#include "identity.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/registry.hpp"
#include "mancala/utf8.hpp"
#include "password.hpp"
#include "push_crypto.hpp"
#include "random.hpp"
#include "session_cookie.hpp"
#include "http_session.hpp"
#include "hub.hpp"
#include "static_files.hpp"
#include "storage.hpp"
#include "text.hpp"
#include "work_queue.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kMaxAccountName = 24;
constexpr std::size_t kHashMilliseconds = 100;  // about one Argon2id hash on one core (for Retry-After)
constexpr int kLeaderboardSize = 50;

// A refusal: its HTTP status, a code for programs and words for people.
struct Refusal {
  http::status status;
  std::string code;
  std::string message;
  std::optional<std::chrono::seconds> retry_after;
};

StringResponse answer(const HttpRequest& request, http::status status, const Json& body) {
  return text_response(request, status, "application/json", to_json_text(body));
}

StringResponse refusal_response(const HttpRequest& request, const Refusal& refusal) {
  Json error{{"code", refusal.code}, {"message", refusal.message}};
  if (refusal.retry_after) error["retry_after_s"] = refusal.retry_after->count();
  auto response = text_response(request, refusal.status, "application/json",
                                Json{{"error", std::move(error)}}.dump(-1, ' ', false, Json::error_handler_t::replace));
  if (refusal.retry_after) response.set(http::field::retry_after, std::to_string(refusal.retry_after->count()));
  return response;
}

Json body_of(const HttpRequest& request) {
  Json body = Json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) throw Refusal{http::status::bad_request, "bad_request", "the body must be a JSON object", {}};
  return body;
}

std::string string_field(const Json& body, const char* name) {
  const auto it = body.find(name);
  if (it == body.end() || !it->is_string())
    throw Refusal{http::status::bad_request, "bad_request", std::string("'") + name + "' must be a string", {}};
  return it->get<std::string>();
}

// Account names end up in links (#/player/NAME): letters, digits, _ and - only.
std::string checked_account_name(const std::string& raw) {
  auto checked = protocol::check_name(raw);
  if (auto* error = std::get_if<protocol::Error>(&checked))
    throw Refusal{http::status::bad_request, "bad_name", error->message, {}};
  std::string name = std::get<std::string>(checked);
  const bool plain = std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-';
  });
  if (!plain || name.size() > kMaxAccountName)
    throw Refusal{http::status::bad_request, "bad_name",
                  "an account's name has 1-24 letters, digits, _ or - (no spaces)", {}};
  return name;
}

void check_password(const std::string& name, const std::string& password) {
  if (auto problem = password_problem(name, password))
    throw Refusal{http::status::bad_request, "weak_password", *problem, {}};
}

// A name as a log line may show it: the request's text, which may be anything, cut short.
std::string loggable_name(std::string_view name) {
  constexpr std::size_t kShown = 32;
  if (name.size() <= kShown && is_utf8(name)) return std::string(name);
  // Its longest well-formed head: never half a character, nor a byte a JSON log line cannot hold.
  const std::string_view head = name.substr(0, utf8_prefix(name.substr(0, kShown)));
  return std::string(head) + "… (" + std::to_string(name.size()) + " bytes)";
}

Refusal too_many(const std::string& what, std::chrono::seconds wait) {
  return Refusal{http::status::too_many_requests, "rate_limited",
                 "too many " + what + "; try again in " + std::to_string(wait.count()) + " s", wait};
}

void wait_if_limited(FailureLimiter& limiter, const std::string& key, const std::string& address, const char* what,
                     const std::string& refused = "failed attempts") {
  if (const auto wait = limiter.wait(key)) {
    log_warn_throttled("login_locked", {{"address", address}, {"by", what}, {"retry_after_s", wait->count()}});
    throw too_many(refused, *wait);
  }
}

// Every request that will hash a password counts against its address first, whatever comes of
// it: a hash is the dearest thing an anonymous request can ask for.
void count_hashing(const HttpContext& context, const std::string& address) {
  if (const auto wait = context.limits.password_hashes_by_address.take(address)) {
    log_warn_throttled("password_hashes_limited", {{"address", address}, {"retry_after_s", wait->count()}});
    throw too_many("log-ins, sign-ups and password changes", *wait);
  }
}

// The keys log-ins are counted by: failures per (address, name), per address and per name
// alone (at a much higher count, so that a guesser elsewhere does not lock the owner out).
struct LoginKeys {
  std::string name;
  std::string address_and_name;
};

LoginKeys login_keys(const std::string& address, const std::string& name) {
  const std::string name_key = "name:" + lower_case(name);
  return {name_key, address + " " + name_key};
}

void wait_if_failed_too_often(const HttpContext& context, const LoginKeys& keys, const std::string& address) {
  wait_if_limited(context.limits.logins_by_address_and_name, keys.address_and_name, address, "address_and_name");
  wait_if_limited(context.limits.logins_by_address, address, address, "address");
  wait_if_limited(context.limits.logins_by_name, keys.name, address, "name");
}

void count_failure(const HttpContext& context, const LoginKeys& keys, const std::string& address) {
  context.limits.logins_by_address_and_name.fail(keys.address_and_name);
  context.limits.logins_by_address.fail(address);
  context.limits.logins_by_name.fail(keys.name);
}

// State-changing requests from a browser must come from this site's own pages.
void check_origin(const HttpRequest& request, const HttpContext& context) {
  if (request[http::field::origin].empty()) return;  // not a browser: nothing to forge
  if (!origin_allowed(request, context.allowed_origins, context.public_origin, context.bind_address))
    throw Refusal{http::status::forbidden, "forbidden", "this Origin may not change accounts here", {}};
}

struct Session {
  std::string hash;
  std::string player_id;
};

// Cookies get Secure and the __Host- prefix when the site is https (--public-url) or this
// request came over https to a trusted proxy.
bool secure_cookies(const HttpRequest& request, const HttpContext& context) {
  return context.secure_cookies() || came_over_https(request);
}

std::optional<Session> current_session(const HttpRequest& request, const HttpContext& context) {
  const auto secret = session_secret(request, context.secure_cookies());
  if (!secret) return std::nullopt;
  const std::string hash = secret_hash(*secret);
  const auto player = context.storage.accounts().session_player(hash);
  if (!player) return std::nullopt;
  return Session{hash, *player};
}

Session required_session(const HttpRequest& request, const HttpContext& context) {
  auto session = current_session(request, context);
  if (!session) throw Refusal{http::status::unauthorized, "not_logged_in", "log in first", {}};
  return *session;
}

// A new session for the player, answered with its cookie. Beyond kMaxSessionsPerAccount the
// oldest ends, and with it what is open with it, as at a log-out.
StringResponse logged_in(const HttpRequest& request, const HttpContext& context, http::status status,
                         const std::string& player_id, const std::string& name) {
  const std::string secret = new_secret();
  const auto ended = context.storage.accounts().add_session(secret_hash(secret), player_id);
  if (!ended.empty()) {
    context.hub.close_sessions(ended);
    log_info("oldest_sessions_ended", {{"player", player_id}, {"count", ended.size()}});
  }
  auto response = answer(request, status, Json{{"player_id", player_id}, {"name", name}});
  response.set(http::field::set_cookie, session_cookie(secret, secure_cookies(request, context)));
  return response;
}

// The token of `Authorization: Bearer <token>`, if any.
std::string bearer_token(const HttpRequest& request) {
  const std::string_view header = to_std(request[http::field::authorization]);
  constexpr std::string_view kBearer = "Bearer ";
  if (header.size() <= kBearer.size() || lower_case(header.substr(0, kBearer.size())) != "bearer ") return "";
  return std::string(header.substr(kBearer.size()));
}

// The guest presenting `Authorization: Bearer <token>`, if any.
PlayerRef guest_of(const HttpRequest& request, const HttpContext& context) {
  const std::string token = bearer_token(request);
  if (token.empty()) return nullptr;
  auto guest = context.players.find_by_token(token);
  if (!guest) throw Refusal{http::status::bad_request, "bad_token", "no guest has this token", {}};
  return guest;
}

// What a route answers: its response, or its refusal's, never an exception.
StringResponse response_of(const HttpRequest& request, const std::function<StringResponse()>& route) {
  try {
    return route();
  } catch (const Refusal& refusal) {
    return refusal_response(request, refusal);
  } catch (const Unavailable& e) {
    log_warn("account_api_unavailable", {{"message", e.what()}});
    return refusal_response(request, {http::status::service_unavailable, "unavailable",
                                      "the database cannot be reached right now; try again shortly",
                                      std::chrono::seconds(1)});
  } catch (const std::exception& e) {
    log_error("account_api_fault", {{"path", std::string(to_std(request.target()).substr(0, 64))}, {"message", e.what()}});
    return refusal_response(request, {http::status::internal_server_error, "internal",
                                      "the server could not answer this request", {}});
  }
}

// One request on its way: what the routes that hash need to answer later, from a password
// worker, after the reader thread that checked the request has moved on.
struct Call {
  std::shared_ptr<const HttpRequest> request;
  const HttpContext& context;
  std::string address;
  ApiReply reply;
  bool hash_here = false;  // no workers (or a caller that waits): hash on this thread
};

// Runs `work` (which hashes) on the password workers, whose queue is bounded: when it is full
// the request is refused at once, before any hash, and the reader threads stay free for
// /healthz, the history API and hellos.
void hash_then(const Call& call, std::function<StringResponse()> work) {
  WorkQueue* workers = call.context.password_work;
  if (call.hash_here || !workers) return call.reply(response_of(*call.request, work));
  const bool queued = workers->push([request = call.request, reply = call.reply, work = std::move(work)] {
    reply(response_of(*request, work));
  });
  if (queued) return;
  const auto wait = std::chrono::seconds(std::max<std::size_t>(
      1, (workers->length() * kHashMilliseconds + 999) / 1000 / std::max<std::size_t>(1, workers->threads())));
  log_warn_throttled("password_workers_busy", {{"address", call.address}, {"queued", workers->length()}});
  throw Refusal{http::status::service_unavailable, "busy",
                "too many log-ins right now; try again in " + std::to_string(wait.count()) + " s", wait};
}

void sign_up(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  check_origin(request, context);
  if (const auto wait = context.limits.signups_by_address.take(address)) {  // every sign-up counts
    log_warn_throttled("login_locked",
                       {{"address", address}, {"by", "signups_by_address"}, {"retry_after_s", wait->count()}});
    throw too_many("sign-ups", *wait);
  }
  const Json body = body_of(request);
  const std::string name = checked_account_name(string_field(body, "name"));
  const std::string password = string_field(body, "password");
  check_password(name, password);
  const PlayerRef guest = guest_of(request, context);
  count_hashing(context, address);
  hash_then(call, [&context, address, name, password, guest, token = bearer_token(request), request = call.request] {
    NewAccount account{guest ? guest->id : random_text(kPlayerIdCharacters), !guest, name, hash_password(password),
                       "", secret_hash(new_secret())};
    const std::string secret = new_secret();
    account.session_hash = secret_hash(secret);
    try {
      context.storage.accounts().create_account(account);
    } catch (const NameTaken& taken) {
      log_info("signup_refused", {{"address", address}, {"name", name}, {"reason", "name_taken"}});
      // A look-alike (caro1 for carol) is refused too, by the accounts' name skeletons.
      throw Refusal{http::status::conflict, "name_taken",
                    lower_case(taken.account) == lower_case(name)
                        ? "the name '" + name + "' is taken; pick another"
                        : "the name '" + name + "' looks like the account '" + taken.account + "'; pick another",
                    {}};
    }
    context.players.become_account(account.player_id, name);
    context.hub.players_changed({account.player_id});  // a claimed guest's token ends everywhere
    // and so do the connections that said hello with it, on every process, as at a log-out
    if (guest) context.hub.close_sessions({secret_hash(token)});
    log_info("account_created", {{"address", address}, {"name", name}, {"player", account.player_id},
                                 {"claimed_guest", guest != nullptr}});
    auto response = answer(*request, http::status::created, Json{{"player_id", account.player_id}, {"name", name}});
    response.set(http::field::set_cookie, session_cookie(secret, secure_cookies(*request, context)));
    return response;
  });
}

// The same work and the same answer for an unknown name as for a wrong password, so that
// neither the time nor the words tell which names exist.
bool credentials_match(const std::optional<AccountRecord>& account, const std::string& password) {
  static const std::string decoy = hash_password("a password no account has, for the timing");
  return password_matches(password, account ? account->password_hash : decoy) && account.has_value();
}

// Failed log-ins are counted per (address, name), per address and per name; successful ones per
// address and per name too, so that not even the right password buys hashes without end.
void log_in(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  check_origin(request, context);
  const Json body = body_of(request);
  const std::string name = string_field(body, "name");
  const std::string password = string_field(body, "password");
  const LoginKeys keys = login_keys(address, name);
  wait_if_failed_too_often(context, keys, address);
  wait_if_limited(context.limits.sessions_by_address, address, address, "sessions_by_address", "log-ins");
  wait_if_limited(context.limits.sessions_by_name, keys.name, address, "sessions_by_name", "log-ins");
  count_hashing(context, address);
  auto account = context.storage.accounts().find_account(name);
  hash_then(call, [&context, address, name, password, keys, account = std::move(account), request = call.request] {
    if (!credentials_match(account, password)) {
      count_failure(context, keys, address);
      log_info("login_refused", {{"address", address}, {"name", loggable_name(name)}, {"known_name", account.has_value()}});
      throw Refusal{http::status::unauthorized, "bad_credentials", "the name or the password is wrong", {}};
    }
    context.limits.logins_by_address_and_name.clear(keys.address_and_name);
    // Counted again now, in one step: of log-ins checked at the same moment, only as many as
    // the limits hold get a session.
    if (const auto wait = context.limits.sessions_by_address.take(address)) throw too_many("log-ins", *wait);
    if (const auto wait = context.limits.sessions_by_name.take(keys.name)) throw too_many("log-ins", *wait);
    log_info("login", {{"address", address}, {"name", account->name}, {"player", account->player_id}});
    return logged_in(*request, context, http::status::ok, account->player_id, account->name);
  });
}

// Ends the account's sessions but `keep` (none when empty), and closes the WebSockets that were
// opened with them on every process, so that a stolen or forgotten session stops playing at once.
void end_sessions(const HttpContext& context, const std::string& player_id, const std::string& keep) {
  std::vector<std::string> ending;
  for (const auto& session : context.storage.accounts().sessions(player_id))
    if (session.hash != keep) ending.push_back(session.hash);
  context.storage.accounts().end_sessions(player_id, keep);
  context.hub.close_sessions(ending);
}

StringResponse log_out(const HttpRequest& request, const HttpContext& context, bool everywhere) {
  check_origin(request, context);
  if (const auto session = current_session(request, context)) {
    if (everywhere) {
      end_sessions(context, session->player_id, "");
    } else {
      context.storage.accounts().end_session(session->hash);
      context.hub.close_sessions({session->hash});
    }
    log_info(everywhere ? "logout_everywhere" : "logout", {{"player", session->player_id}});
  } else if (everywhere) {
    throw Refusal{http::status::unauthorized, "not_logged_in", "log in first", {}};
  }
  auto response = answer(request, http::status::ok, Json::object());
  response.set(http::field::set_cookie, cleared_session_cookie(secure_cookies(request, context)));
  return response;
}

StringResponse show_account(const HttpRequest& request, const HttpContext& context) {
  const Session session = required_session(request, context);
  const auto account = context.storage.accounts().account_of(session.player_id);
  if (!account) throw Refusal{http::status::unauthorized, "not_logged_in", "log in first", {}};
  Json sessions = Json::array();
  for (const auto& each : context.storage.accounts().sessions(session.player_id))
    sessions.push_back({{"id", each.hash.substr(0, 12)}, {"created", each.created}, {"last_used", each.last_used},
                        {"current", each.hash == session.hash}});
  return answer(request, http::status::ok,
                Json{{"player_id", account->player_id}, {"name", account->name}, {"sessions", std::move(sessions)}});
}

void change_password(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  check_origin(request, context);
  const Session session = required_session(request, context);
  auto account = context.storage.accounts().account_of(session.player_id);
  if (!account) throw Refusal{http::status::unauthorized, "not_logged_in", "log in first", {}};
  const LoginKeys keys = login_keys(address, account->name);
  wait_if_failed_too_often(context, keys, address);
  const Json body = body_of(request);
  const std::string password = string_field(body, "password");
  const std::string fresh = string_field(body, "new_password");
  check_password(account->name, fresh);
  count_hashing(context, address);
  hash_then(call, [&context, address, password, fresh, keys, session, account = std::move(*account), request = call.request] {
    if (!password_matches(password, account.password_hash)) {
      count_failure(context, keys, address);
      log_info("password_change_refused", {{"address", address}, {"player", account.player_id}});
      throw Refusal{http::status::unauthorized, "bad_credentials", "the current password is wrong", {}};
    }
    context.storage.accounts().set_password(account.player_id, hash_password(fresh));
    end_sessions(context, account.player_id, session.hash);  // every other device
    log_info("password_changed", {{"address", address}, {"player", account.player_id}});
    return answer(*request, http::status::ok, Json::object());
  });
}

Refusal bad_reset_code() {
  return Refusal{http::status::bad_request, "bad_code",
                 "this reset link is unknown, used or expired; ask the operator for a new one", {}};
}

// Counted per address only: the name's own count (a guesser's doing) never stops its owner's
// reset. The link is used up only by a new password that is accepted.
void reset_password(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  check_origin(request, context);
  wait_if_limited(context.limits.logins_by_address, address, address, "address");
  const Json body = body_of(request);
  const std::string code_hash = secret_hash(string_field(body, "code"));
  const std::string fresh = string_field(body, "new_password");
  check_password("", fresh);
  const auto player = context.storage.accounts().password_reset_player(code_hash);
  auto account = player ? context.storage.accounts().account_of(*player) : std::nullopt;
  if (!account) {
    context.limits.logins_by_address.fail(address);
    log_info("password_reset_refused", {{"address", address}});
    throw bad_reset_code();
  }
  check_password(account->name, fresh);
  count_hashing(context, address);
  hash_then(call, [&context, address, code_hash, fresh, account = std::move(*account), request = call.request] {
    const std::string hashed = hash_password(fresh);
    if (context.storage.accounts().take_password_reset(code_hash) != account.player_id) throw bad_reset_code();
    context.storage.accounts().set_password(account.player_id, hashed);
    end_sessions(context, account.player_id, "");
    log_info("password_reset", {{"address", address}, {"player", account.player_id}});
    return logged_in(*request, context, http::status::ok, account.player_id, account.name);
  });
}

Json rating_json(const SeatRating& rating) {
  return {{"rating", rating.rating.rating}, {"deviation", rating.rating.deviation},
          {"provisional", rating.provisional()}, {"games", rating.games}};
}

StringResponse show_player(const HttpRequest& request, const HttpContext& context, const std::string& who) {
  const auto profile = context.storage.accounts().profile(who);
  if (!profile) throw Refusal{http::status::not_found, "not_found", "no player '" + who + "'", {}};
  Json ratings = Json::object();
  for (const auto& [game, rating] : profile->ratings) ratings[game] = rating_json(rating);
  Json history = Json::object();
  for (const auto& point : profile->history)
    history[point.game].push_back(
        {{"at", point.at}, {"rating", point.rating}, {"deviation", point.deviation}, {"game_id", point.game_id}});
  return answer(request, http::status::ok,
                Json{{"name", profile->name},
                     {"player_id", profile->player_id},
                     {"account", profile->account},
                     {"ratings", std::move(ratings)},
                     {"games", {{"played", profile->played}, {"won", profile->won}, {"drawn", profile->drawn},
                                {"lost", profile->lost}}},
                     {"rating_history", std::move(history)}});
}

StringResponse show_leaderboard(const HttpRequest& request, const HttpContext& context, const std::string& game) {
  const auto& types = game_types();
  if (std::none_of(types.begin(), types.end(), [&](const GameType& type) { return type.id == game; }))
    throw Refusal{http::status::not_found, "not_found", "no game '" + game + "'", {}};
  Json players = Json::array();
  for (const auto& entry : context.storage.accounts().leaderboard(game, kLeaderboardSize))
    players.push_back({{"name", entry.name}, {"player_id", entry.player_id}, {"rating", entry.rating.rating.rating},
                       {"deviation", entry.rating.rating.deviation}, {"games", entry.rating.games}});
  return answer(request, http::status::ok, Json{{"game", game}, {"players", std::move(players)}});
}

// ---- Web Push subscriptions (issue 33) -------------------------------------------------

constexpr std::size_t kMaxEndpoint = 2048;
constexpr std::size_t kAuthSecretSize = 16;

void check_push_on(const HttpContext& context) {
  if (context.push_key.empty())
    throw Refusal{http::status::not_found, "push_off", "this server sends no push notifications", {}};
}

// Requests that write something (a push subscription, a mute) each count against the address,
// so a client cannot fill a table, or make the server post to endpoints of its choosing, at speed.
void count_request(FailureLimiter& limiter, const std::string& address, const std::string& what) {
  if (const auto wait = limiter.wait(address)) {
    log_warn_throttled(what + "_requests_limited", {{"address", address}, {"retry_after_s", wait->count()}});
    throw Refusal{http::status::too_many_requests, "rate_limited",
                  "too many " + what + " requests; try again in " + std::to_string(wait->count()) + " s", *wait};
  }
  limiter.fail(address);
}

void count_push_request(const HttpContext& context, const std::string& address) {
  count_request(context.limits.push_by_address, address, "push");
}

// The player a subscription belongs to: an account by its session, a guest by its token.
std::string push_player(const HttpRequest& request, const HttpContext& context) {
  if (const auto session = current_session(request, context)) return session->player_id;
  if (const PlayerRef guest = guest_of(request, context)) return guest->id;
  throw Refusal{http::status::unauthorized, "not_logged_in",
                "log in, or send your guest token as 'Authorization: Bearer …'", {}};
}

std::string checked_endpoint(const HttpContext& context, const Json& body) {
  std::string endpoint = string_field(body, "endpoint");
  if (endpoint.size() > kMaxEndpoint)
    throw Refusal{http::status::bad_request, "bad_subscription", "the endpoint is longer than 2048 characters", {}};
  const PushUrlCheck check = check_push_endpoint(endpoint, context.push_endpoints);
  if (!check.url) throw Refusal{http::status::bad_request, "bad_subscription", check.problem, {}};
  return endpoint;
}

// The browser's keys as the Push API's PushSubscription.toJSON() writes them, checked: a P-256
// point and a 16-byte secret, both base64url.
std::pair<std::string, std::string> checked_keys(const Json& body) {
  const auto keys = body.find("keys");
  if (keys == body.end() || !keys->is_object())
    throw Refusal{http::status::bad_request, "bad_subscription", "'keys' must hold 'p256dh' and 'auth'", {}};
  const std::string p256dh = string_field(*keys, "p256dh");
  const std::string auth = string_field(*keys, "auth");
  const auto point = from_base64url(p256dh);
  const auto secret = from_base64url(auth);
  try {
    if (!point || !secret || secret->size() != kAuthSecretSize) throw PushCryptoError("");
    EcKey::from_public(*point);
  } catch (const PushCryptoError&) {
    throw Refusal{http::status::bad_request, "bad_subscription",
                  "'keys.p256dh' must be a P-256 public key and 'keys.auth' 16 bytes, both base64url", {}};
  }
  return {p256dh, auth};
}

StringResponse subscribe_push(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  check_push_on(context);
  check_origin(request, context);
  count_push_request(context, address);
  const std::string player = push_player(request, context);
  const Json body = body_of(request);
  const std::string endpoint = checked_endpoint(context, body);
  const auto [p256dh, auth] = checked_keys(body);
  context.storage.push_subscriptions().add({endpoint, player, p256dh, auth});
  log_info("push_subscribed", {{"player", player}, {"address", address}});
  return answer(request, http::status::created, Json{{"subscribed", true}});
}

StringResponse unsubscribe_push(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  check_push_on(context);
  check_origin(request, context);
  count_push_request(context, address);
  const std::string player = push_player(request, context);
  const std::string endpoint = string_field(body_of(request), "endpoint");
  if (!context.storage.push_subscriptions().remove(player, endpoint))
    throw Refusal{http::status::not_found, "not_found", "you have no push subscription with this endpoint", {}};
  log_info("push_unsubscribed", {{"player", player}, {"address", address}});
  return answer(request, http::status::ok, Json{{"subscribed", false}});
}

StringResponse show_push_key(const HttpRequest& request, const HttpContext& context) {
  check_push_on(context);
  return answer(request, http::status::ok, Json{{"key", context.push_key}});
}

// An account's muted players (a guest's stay in the browser): hidden from him in every room's chat.
constexpr std::size_t kMaxMutes = 200;

StringResponse mutes_answer(const HttpRequest& request, const HttpContext& context, const std::string& player_id) {
  Json muted = Json::array();
  for (const auto& each : context.storage.chat().mutes(player_id))
    muted.push_back({{"player_id", each.player_id}, {"name", each.name}});
  return answer(request, http::status::ok, Json{{"muted", std::move(muted)}});
}

StringResponse change_mute(const HttpRequest& request, const HttpContext& context, const std::string& address,
                           const std::string& muted_id, bool muted) {
  check_origin(request, context);
  count_request(context.limits.mutes_by_address, address, "mute");
  const Session session = required_session(request, context);
  if (muted_id == session.player_id)
    throw Refusal{http::status::bad_request, "bad_request", "you cannot mute yourself", {}};
  MutedPlayer other{muted_id, ""};
  if (muted) {
    other.name = string_field(body_of(request), "name");
    if (other.name.size() > kMaxAccountName * 4)
      throw Refusal{http::status::bad_request, "bad_request", "'name' is longer than a player's name can be", {}};
    if (context.storage.chat().mutes(session.player_id).size() >= kMaxMutes)
      throw Refusal{http::status::conflict, "too_many_mutes",
                    "you muted " + std::to_string(kMaxMutes) + " players already; unmute one first", {}};
  }
  context.storage.chat().set_muted(session.player_id, other, muted);
  return mutes_answer(request, context, session.player_id);
}

std::optional<std::string> after_prefix(std::string_view path, std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix || path.size() == prefix.size()) return std::nullopt;
  const auto rest = url_decode(path.substr(prefix.size()), false);
  if (!rest || rest->find('/') != std::string::npos || !is_utf8(*rest))
    throw Refusal{http::status::not_found, "not_found", "no such endpoint", {}};
  return rest;
}

Refusal wrong_method() { return Refusal{http::status::method_not_allowed, "bad_request", "not with this method", {}}; }

// The routes that hash a password, which answer through `call.reply` (perhaps later, from a
// password worker); false for any other request.
bool route_hashing(const Call& call, std::string_view path) {
  const auto method = call.request->method();
  const auto post_only = [&](void (*handler)(const Call&)) {
    if (method != http::verb::post) throw wrong_method();
    handler(call);
    return true;
  };
  if (path == "/api/accounts") return post_only(sign_up);
  if (path == "/api/session" && method == http::verb::post) return post_only(log_in);
  if (path == "/api/account/password") return post_only(change_password);
  if (path == "/api/password-reset") return post_only(reset_password);
  return false;
}

StringResponse route(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  const std::string_view target = to_std(request.target());
  const std::string_view path = target.substr(0, target.find('?'));
  const auto method = request.method();
  if (path == "/api/session") {
    if (method == http::verb::delete_) return log_out(request, context, false);
    throw wrong_method();
  }
  if (path == "/api/sessions") return method == http::verb::delete_ ? log_out(request, context, true) : throw wrong_method();
  if (path == "/api/account") return show_account(request, context);
  if (path == "/api/account/mutes")
    return method == http::verb::get ? mutes_answer(request, context, required_session(request, context).player_id)
                                     : throw wrong_method();
  if (const auto muted = after_prefix(path, "/api/account/mutes/")) {
    if (method == http::verb::put) return change_mute(request, context, address, *muted, true);
    if (method == http::verb::delete_) return change_mute(request, context, address, *muted, false);
    throw wrong_method();
  }
  if (path == "/api/push/key") return show_push_key(request, context);
  if (path == "/api/push/subscriptions") {
    if (method == http::verb::post) return subscribe_push(request, context, address);
    if (method == http::verb::delete_) return unsubscribe_push(request, context, address);
    throw wrong_method();
  }
  if (const auto who = after_prefix(path, "/api/players/")) return show_player(request, context, *who);
  if (const auto game = after_prefix(path, "/api/leaderboard/")) return show_leaderboard(request, context, *game);
  throw Refusal{http::status::not_found, "not_found", "no such endpoint", {}};
}

}  // namespace

bool is_account_target(std::string_view path) {
  for (std::string_view exact : {"/api/accounts", "/api/session", "/api/sessions", "/api/account",
                                 "/api/account/password", "/api/password-reset", "/api/push/key",
                                 "/api/push/subscriptions", "/api/account/mutes"})
    if (path == exact) return true;
  return path.rfind("/api/players/", 0) == 0 || path.rfind("/api/leaderboard/", 0) == 0 ||
         path.rfind("/api/account/mutes/", 0) == 0;
}

namespace {

// Answers `call` through its reply: a route that hashes answers itself (perhaps later), any
// other, and every refusal, at once.
void answer_call(const Call& call) {
  const std::string_view target = to_std(call.request->target());
  const std::string_view path = target.substr(0, target.find('?'));
  bool answers_itself = false;
  StringResponse response = response_of(*call.request, [&]() -> StringResponse {
    if (route_hashing(call, path)) {
      answers_itself = true;
      return {};
    }
    return route(*call.request, call.context, call.address);
  });
  if (!answers_itself) call.reply(std::move(response));
}

}  // namespace

StringResponse handle_account_api(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  StringResponse out;
  answer_call(Call{std::make_shared<const HttpRequest>(request), context, address,
                   [&out](StringResponse response) { out = std::move(response); }, /*hash_here=*/true});
  return out;
}

void handle_account_api_async(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                              const std::string& address, const ApiReply& reply) {
  answer_call(Call{request, context, address, reply});
}

}  // namespace mancala::server
