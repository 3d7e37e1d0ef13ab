#include "account_api.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "api_parts.hpp"
#include "hub.hpp"
#include "identity.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/utf8.hpp"
#include "password.hpp"
#include "random.hpp"
#include "session_cookie.hpp"
#include "storage.hpp"
#include "text.hpp"
#include "work_queue.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kMaxAccountName = 24;
constexpr std::size_t kHashMilliseconds = 100;  // about one Argon2id hash on one core (for Retry-After)

StringResponse answer(const HttpRequest& request, http::status status, const Json& body) {
  return json_response(request, status, body);
}

// Account names end up in links (#/player/NAME): letters, digits, _ and - only.
std::string checked_account_name(const std::string& raw) {
  auto checked = protocol::check_name(raw);
  if (auto* error = std::get_if<protocol::Error>(&checked))
    throw HttpError{http::status::bad_request, "bad_name", error->message, {}};
  std::string name = std::get<std::string>(checked);
  const bool plain = std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '_' || c == '-';
  });
  if (!plain || name.size() > kMaxAccountName)
    throw HttpError{http::status::bad_request, "bad_name",
                  "an account's name has 1-24 letters, digits, _ or - (no spaces)", {}};
  return name;
}

void check_password(const std::string& name, const std::string& password) {
  if (auto problem = password_problem(name, password))
    throw HttpError{http::status::bad_request, "weak_password", *problem, {}};
}

// A name as a log line may show it: the request's text, which may be anything, cut short.
std::string loggable_name(std::string_view name) {
  constexpr std::size_t kShown = 32;
  if (name.size() <= kShown && is_utf8(name)) return std::string(name);
  // Its longest well-formed head: never half a character, nor a byte a JSON log line cannot hold.
  const std::string_view head = name.substr(0, utf8_prefix(name.substr(0, kShown)));
  return std::string(head) + "… (" + std::to_string(name.size()) + " bytes)";
}

HttpError too_many(const std::string& what, std::chrono::seconds wait) { return rate_limited(what, wait); }

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

using Session = AccountSession;

// Cookies get Secure and the __Host- prefix when the site is https (--public-url) or this
// request came over https to a trusted proxy.
bool secure_cookies(const HttpRequest& request, const HttpContext& context) {
  return context.secure_cookies() || came_over_https(request);
}

// A new session for the account, answered with its cookie and its language (so that the page
// can switch to it at once). Beyond kMaxSessionsPerAccount the oldest ends, and with it what is
// open with it, as at a log-out.
StringResponse logged_in(const HttpRequest& request, const HttpContext& context, http::status status,
                         const AccountRecord& account) {
  const std::string& player_id = account.player_id;
  const std::string secret = new_secret();
  const auto ended = context.storage.accounts().add_session(secret_hash(secret), player_id);
  if (!ended.empty()) {
    context.hub.close_sessions(ended);
    log_info("oldest_sessions_ended", {{"player", player_id}, {"count", ended.size()}});
  }
  auto response =
      answer(request, status, Json{{"player_id", player_id}, {"name", account.name}, {"language", account.language}});
  response.set(http::field::set_cookie, session_cookie(secret, secure_cookies(request, context)));
  return response;
}

// What a route answers: its response, or its refusal's, never an exception.
StringResponse response_of(const HttpRequest& request, const std::function<StringResponse()>& route) {
  StringResponse out;
  answer_safely(request, [&](StringResponse response) { out = std::move(response); }, [&] { out = route(); });
  return out;
}

// One request on its way: what the routes that hash need to answer later, from a password
// worker, after the reader thread that checked the request has moved on.
using Call = ApiCall;

// Runs `work` (which hashes) on the password workers, whose queue is bounded: when it is full
// the request is refused at once, before any hash, and the reader threads stay free for
// /healthz, the history API and hellos.
void hash_then(const Call& call, std::function<StringResponse()> work) {
  WorkQueue* workers = call.context.password_work;
  if (call.wait_here || !workers) return call.reply(response_of(*call.request, work));
  const bool queued = workers->push([request = call.request, reply = call.reply, work = std::move(work)] {
    reply(response_of(*request, work));
  });
  if (queued) return;
  const auto wait = std::chrono::seconds(std::max<std::size_t>(
      1, (workers->length() * kHashMilliseconds + 999) / 1000 / std::max<std::size_t>(1, workers->threads())));
  log_warn_throttled("password_workers_busy", {{"address", call.address}, {"queued", workers->length()}});
  throw HttpError{http::status::service_unavailable, "busy",
                "too many log-ins right now; try again in " + std::to_string(wait.count()) + " s", wait};
}

void sign_up(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  const Json body = body_object(request);
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
      throw HttpError{http::status::conflict, "name_taken",
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
  const Json body = body_object(request);
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
      throw HttpError{http::status::unauthorized, "bad_credentials", "the name or the password is wrong", {}};
    }
    context.limits.logins_by_address_and_name.clear(keys.address_and_name);
    // Counted again now, in one step: of log-ins checked at the same moment, only as many as
    // the limits hold get a session.
    if (const auto wait = context.limits.sessions_by_address.take(address)) throw too_many("log-ins", *wait);
    if (const auto wait = context.limits.sessions_by_name.take(keys.name)) throw too_many("log-ins", *wait);
    log_info("login", {{"address", address}, {"name", account->name}, {"player", account->player_id}});
    return logged_in(*request, context, http::status::ok, *account);
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
  if (const auto session = account_session(request, context)) {
    if (everywhere) {
      end_sessions(context, session->player_id, "");
    } else {
      context.storage.accounts().end_session(session->hash);
      context.hub.close_sessions({session->hash});
    }
    log_info(everywhere ? "logout_everywhere" : "logout", {{"player", session->player_id}});
  } else if (everywhere) {
    throw HttpError{http::status::unauthorized, "not_logged_in", "log in first", {}};
  }
  auto response = answer(request, http::status::ok, Json::object());
  response.set(http::field::set_cookie, cleared_session_cookie(secure_cookies(request, context)));
  return response;
}

StringResponse show_account(const HttpRequest& request, const HttpContext& context) {
  const Session session = required_session(request, context);
  const auto account = context.storage.accounts().account_of(session.player_id);
  if (!account) throw HttpError{http::status::unauthorized, "not_logged_in", "log in first", {}};
  Json sessions = Json::array();
  for (const auto& each : context.storage.accounts().sessions(session.player_id))
    sessions.push_back({{"id", each.hash.substr(0, 12)}, {"created", each.created}, {"last_used", each.last_used},
                        {"current", each.hash == session.hash}});
  return answer(request, http::status::ok,
                Json{{"player_id", account->player_id}, {"name", account->name}, {"language", account->language},
                     {"sessions", std::move(sessions)}});
}

// The languages the web client has catalogues for (web-client/js/i18n); kept with the account
// so that every browser it logs in from shows its pages in that language (issue 49).
constexpr std::string_view kLanguages[] = {"en", "vi", "de"};

StringResponse store_language(const HttpRequest& request, const HttpContext& context) {
  const Session session = required_session(request, context);
  if (!context.storage.accounts().account_of(session.player_id))
    throw HttpError{http::status::unauthorized, "not_logged_in", "log in first", {}};
  const std::string language = string_field(body_object(request), "language");
  if (std::find(std::begin(kLanguages), std::end(kLanguages), language) == std::end(kLanguages))
    throw HttpError{http::status::bad_request, "bad_language", "'language' is one of en, vi, de", {}};
  context.storage.accounts().set_language(session.player_id, language);
  log_info("language_chosen", {{"player", session.player_id}, {"language", language}});
  return answer(request, http::status::ok, Json{{"language", language}});
}

void change_password(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  const Session session = required_session(request, context);
  auto account = context.storage.accounts().account_of(session.player_id);
  if (!account) throw HttpError{http::status::unauthorized, "not_logged_in", "log in first", {}};
  const LoginKeys keys = login_keys(address, account->name);
  wait_if_failed_too_often(context, keys, address);
  const Json body = body_object(request);
  const std::string password = string_field(body, "password");
  const std::string fresh = string_field(body, "new_password");
  check_password(account->name, fresh);
  count_hashing(context, address);
  hash_then(call, [&context, address, password, fresh, keys, session, account = std::move(*account), request = call.request] {
    if (!password_matches(password, account.password_hash)) {
      count_failure(context, keys, address);
      log_info("password_change_refused", {{"address", address}, {"player", account.player_id}});
      throw HttpError{http::status::unauthorized, "bad_credentials", "the current password is wrong", {}};
    }
    context.storage.accounts().set_password(account.player_id, hash_password(fresh));
    end_sessions(context, account.player_id, session.hash);  // every other device
    log_info("password_changed", {{"address", address}, {"player", account.player_id}});
    return answer(*request, http::status::ok, Json::object());
  });
}

HttpError bad_reset_code() {
  return HttpError{http::status::bad_request, "bad_code",
                 "this reset link is unknown, used or expired; ask the operator for a new one", {}};
}

// Counted per address only: the name's own count (a guesser's doing) never stops its owner's
// reset. The link is used up only by a new password that is accepted.
void reset_password(const Call& call) {
  const HttpRequest& request = *call.request;
  const HttpContext& context = call.context;
  const std::string& address = call.address;
  wait_if_limited(context.limits.logins_by_address, address, address, "address");
  const Json body = body_object(request);
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
    return logged_in(*request, context, http::status::ok, account);
  });
}

void log_out_here(const Call& call) { call.reply(log_out(call.http(), call.context, false)); }
void log_out_everywhere(const Call& call) { call.reply(log_out(call.http(), call.context, true)); }
void account(const Call& call) { call.reply(show_account(call.http(), call.context)); }
void set_language(const Call& call) { call.reply(store_language(call.http(), call.context)); }

// Beyond the sign-ups and language changes counted here, the handlers count what depends on what
// they find: failed log-ins (per address and name, per address, per name), sessions made, and
// every request that will hash a password.
constexpr Route kRoutes[] = {
    {http::verb::post, "/api/accounts", {&RequestLimits::signups_by_address, "sign-ups"}, sign_up},
    {http::verb::post, "/api/session", {}, log_in},
    {http::verb::delete_, "/api/session", {}, log_out_here},
    {http::verb::delete_, "/api/sessions", {}, log_out_everywhere},
    {http::verb::get, "/api/account", {}, account},
    {http::verb::put, "/api/account/language", {&RequestLimits::account_settings_by_address, "language changes"},
     set_language},
    {http::verb::post, "/api/account/password", {}, change_password},
    {http::verb::post, "/api/password-reset", {}, reset_password},
};

}  // namespace

RouteTable account_routes() { return {"accounts", kRoutes, count_per_address}; }

}  // namespace mancala::server
