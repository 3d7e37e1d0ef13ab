// Every API's routes, walked from the route tables themselves (api_route_tables), each asked
// something it must refuse: a method it lacks, another site's Origin, unknown ids, no
// credentials, a body that is no JSON. Every refusal must have the one shape of the HTTP API
// (issue 50, protocol/README.md "The HTTP API"): {"error": {"code": <snake_case>, "message":
// <words>}} and nothing else, as JSON, with Allow on a 405 and Retry-After on a 429 or 503. A
// route added to a table is walked without a change here.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "api_routes.hpp"
#include "bot_pool.hpp"
#include "hub.hpp"
#include "identity.hpp"
#include "metrics.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

// The server's shared objects over an in-memory database, as run_server makes them (no
// analysis workers: those routes answer 503 analysis_off, which is a refusal like another).
struct Api {
  Metrics metrics;
  std::unique_ptr<Storage> opened = Storage::open(":memory:", metrics.commit_latency);
  Storage& storage = *opened;
  PlayerDirectory players;
  net::io_context io;
  BotPool bots{1, 1, metrics};
  Hub hub{io, storage, players, metrics, bots};
  RequestLimits limits;
  HttpContext context{.hub = hub,
                      .storage = storage,
                      .players = players,
                      .metrics = metrics,
                      .static_root = "",
                      .allowed_origins = {},
                      .rate_limit = 20,
                      .public_origin = "http://127.0.0.1:8080",
                      .bind_address = "127.0.0.1",
                      .max_connections = 10,
                      .limits = limits};

  StringResponse ask(http::verb method, const std::string& target, const std::string& body = "",
                     const std::string& origin = "") {
    HttpRequest request{method, target, 11};
    request.set(http::field::host, "127.0.0.1:8080");
    if (!origin.empty()) request.set(http::field::origin, origin);
    request.body() = body;
    request.prepare_payload();
    return handle_api(request, context, "192.0.2.7");
  }
};

// The pattern with each {…} segment made `value`.
std::string filled(std::string_view pattern, const std::string& value) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '{') {
      out += pattern[i];
      continue;
    }
    out += value;
    i = pattern.find('}', i);
  }
  return out;
}

// Empty when `response` is an error of the one shape; else what is wrong with it.
std::string shape_problem(const StringResponse& response) {
  const auto status = static_cast<int>(response.result());
  if (status < 400) return "not an error (" + std::to_string(status) + ")";
  if (to_std(response[http::field::content_type]) != "application/json") return "not JSON";
  const Json body = Json::parse(response.body(), nullptr, false);
  if (!body.is_object() || body.size() != 1 || !body.contains("error")) return "not {\"error\": …}";
  const Json& error = body["error"];
  if (!error.is_object() || error.size() != 2 || !error.contains("code") || !error.contains("message"))
    return "error is not {code, message}";
  if (!error["code"].is_string() || !std::regex_match(error["code"].get<std::string>(), std::regex("[a-z][a-z0-9_]*")))
    return "code is not snake_case";
  if (!error["message"].is_string() || error["message"].get<std::string>().size() < 10) return "no message to act on";
  if (status == 405 && response[http::field::allow].empty()) return "405 without Allow";
  // A server without analysis workers stays so: nothing to come back for.
  const bool for_good = error["code"] == "analysis_off" || error["code"] == "tournaments_off";
  if ((status == 429 || (status == 503 && !for_good)) && response[http::field::retry_after].empty())
    return "no Retry-After";
  return "";
}

std::string describe(http::verb method, const std::string& target, const StringResponse& response) {
  return std::string(to_std(http::to_string(method))) + " " + target + " -> " +
         std::to_string(static_cast<int>(response.result())) + " " + response.body();
}

TEST(HttpErrors, EveryApiHasItsTable) {
  std::set<std::string> apis;
  for (const RouteTable& table : api_route_tables()) {
    EXPECT_FALSE(table.routes.empty()) << table.api;
    apis.insert(std::string(table.api));
  }
  EXPECT_EQ(apis, (std::set<std::string>{"accounts", "players", "push", "mutes", "games", "analysis", "tournaments"}));
}

TEST(HttpErrors, EveryRouteRefusesInTheOneShape) {
  Api api;
  int refusals = 0;
  const auto expect_error = [&](http::verb method, const std::string& target, const std::string& body,
                                const std::string& origin, int status = 0) {
    const StringResponse response = api.ask(method, target, body, origin);
    EXPECT_EQ(shape_problem(response), "") << describe(method, target, response);
    if (status) {
      EXPECT_EQ(static_cast<int>(response.result()), status) << describe(method, target, response);
    }
    ++refusals;
  };
  for (const RouteTable& table : api_route_tables())
    for (const Route& route : table.routes) {
      const std::string target = filled(route.pattern, "no-such-thing");
      // A method no route of any table has.
      expect_error(http::verb::patch, target, "", "", 405);
      // Another site's page may not change anything.
      if (route.method != http::verb::get)
        expect_error(route.method, target, "{}", "https://elsewhere.example", 403);
      // A segment that is not UTF-8 once decoded.
      if (route.pattern.find('{') != std::string_view::npos)
        expect_error(route.method, filled(route.pattern, "%FF"), "", "", 400);
      // Unknown ids, no credentials, no JSON: refused, whatever the reason, unless the route
      // has nothing to refuse (the game types, a log-out without a session).
      const StringResponse plain = api.ask(route.method, target, "no JSON here", "");
      if (plain.result_int() >= 400) {
        EXPECT_EQ(shape_problem(plain), "") << describe(route.method, target, plain);
        ++refusals;
      }
    }
  expect_error(http::verb::get, "/api/no-such-endpoint", "", "", 404);
  expect_error(http::verb::get, "/api/games/a/b/c", "", "", 404);
  EXPECT_GT(refusals, 60) << "every route was walked";
}

// The limits in the tables refuse in the shape too, with Retry-After.
TEST(HttpErrors, ALimitedRouteSaysWhenToComeBack) {
  Api api;
  StringResponse response;
  for (int i = 0; i < 200 && response.result_int() != 429; ++i)
    response = api.ask(http::verb::post, "/api/invites", R"({"invite":"nope"})");
  ASSERT_EQ(response.result_int(), 429) << response.body();
  EXPECT_EQ(shape_problem(response), "");
  EXPECT_EQ(Json::parse(response.body())["error"]["code"], "rate_limited");
}

}  // namespace
}  // namespace mancala::server
