#include "api_routes.hpp"

#include <array>

#include "account_api.hpp"
#include "analysis_api.hpp"
#include "credentials.hpp"
#include "games_api.hpp"
#include "mutes_api.hpp"
#include "players_api.hpp"
#include "push_api.hpp"
#include "tournaments_api.hpp"
#include "http_session.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "mancala/utf8.hpp"
#include "static_files.hpp"

namespace mancala::server {
namespace {

bool answers(http::verb route, http::verb asked) {
  return route == asked || (route == http::verb::get && asked == http::verb::head);
}

bool changes_something(http::verb method) { return method != http::verb::get && method != http::verb::head; }

// The path's segments if they fit `pattern`, its {…} segments percent-decoded; a decoded segment
// must be UTF-8 (400: it may be quoted in an answer) and may not hold a "/".
std::optional<std::vector<std::string>> match(std::string_view pattern, std::string_view path) {
  std::vector<std::string> params;
  while (!pattern.empty() && !path.empty()) {
    const auto pattern_end = std::min(pattern.find('/', 1), pattern.size());
    const auto path_end = std::min(path.find('/', 1), path.size());
    const std::string_view want = pattern.substr(0, pattern_end);
    const std::string_view got = path.substr(0, path_end);
    if (want.size() > 2 && want[1] == '{') {
      const auto decoded = url_decode(got.substr(1), false);
      if (!decoded || decoded->empty() || decoded->find('/') != std::string::npos) return std::nullopt;
      if (!is_utf8(*decoded)) throw bad_request("the URL is not valid UTF-8 once percent-decoded; percent-encode UTF-8 text");
      params.push_back(*decoded);
    } else if (want != got) {
      return std::nullopt;
    }
    pattern.remove_prefix(pattern_end);
    path.remove_prefix(path_end);
  }
  if (!pattern.empty() || !path.empty()) return std::nullopt;
  return params;
}

std::string_view method_name(http::verb method) { return to_std(http::to_string(method)); }

// A POST, PUT or DELETE from a browser must come from this site's own pages.
void check_origin(const ApiCall& call) {
  if (!changes_something(call.http().method()) || call.http()[http::field::origin].empty()) return;
  const HttpContext& context = call.context;
  if (!origin_allowed(call.http(), context.allowed_origins, context.public_origin, context.bind_address))
    throw forbidden_origin("send " + std::string(method_name(call.http().method())) + " requests to this API");
}

void run(ApiCall& call, const RouteTable& table, const Route& route) {
  check_origin(call);
  if (route.limit.limiter) table.count(call, route.limit);
  route.handler(call);
}

void walk_tables(ApiCall& call) {
  std::string_view path = to_std(call.http().target());
  path = path.substr(0, path.find('?'));
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);  // "/api/games/" is "/api/games"
  std::string allow;
  for (const RouteTable& table : api_route_tables())
    for (const Route& route : table.routes) {
      auto params = match(route.pattern, path);
      if (!params) continue;
      if (answers(route.method, call.http().method())) {
        call.params = std::move(*params);
        return run(call, table, route);
      }
      if (allow.find(method_name(route.method)) == std::string::npos)
        allow += (allow.empty() ? "" : ", ") + std::string(method_name(route.method));
    }
  if (allow.find("GET") != std::string::npos) allow += ", HEAD";
  if (!allow.empty()) throw method_not_allowed(allow);
  throw not_found("there is no endpoint at " + std::string(path.substr(0, 128)) + " (protocol/README.md lists them)");
}

}  // namespace

const std::string& ApiCall::viewer() const {
  if (!viewer_) viewer_ = viewer_id(*request, context);
  return *viewer_;
}

void count_per_address(const ApiCall& call, const RouteLimit& limit) {
  if (const auto wait = (call.context.limits.*limit.limiter).take("address:" + call.address)) {
    log_warn_throttled("api_requests_limited", {{"address", call.address}, {"what", limit.what}, {"retry_after_s", wait->count()}});
    throw rate_limited(limit.what, *wait);
  }
}

std::span<const RouteTable> api_route_tables() {
  static const std::array tables{account_routes(), player_routes(), push_routes(), mute_routes(), game_routes(),
                                 analysis_routes(), tournament_routes()};
  return tables;
}

void dispatch_api(ApiCall call) {
  const HttpRequest& request = call.http();
  const ApiReply reply = call.reply;
  answer_safely(request, reply, [&] { walk_tables(call); });
}

}  // namespace mancala::server
