#pragma once
// The HTTP API's routes, one table per API (accounts, players, push, mutes, games, analysis, tournaments),
// and the one dispatcher that walks them (issue 50). Each route is listed once: its method, its
// path pattern, what its requests count against, and its handler. The dispatcher answers what
// no route takes (404 for a path no table has, 405 with Allow for a method its routes lack),
// refuses a POST, PUT or DELETE from another site's page (403), counts the route's limit (429),
// and then runs the handler; whatever fails becomes the one error answer (http_answers.hpp).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "http_api.hpp"

namespace mancala::server {

// One request being answered, as a route's handler gets it.
struct ApiCall {
  ApiCall(std::shared_ptr<const HttpRequest> request_, const HttpContext& context_, std::string address_,
          ApiReply reply_, bool wait_here_)
      : request(std::move(request_)), context(context_), address(std::move(address_)), reply(std::move(reply_)),
        wait_here(wait_here_) {}

  std::shared_ptr<const HttpRequest> request;
  const HttpContext& context;
  std::string address;              // the client's: limits and log lines
  ApiReply reply;                   // answers at once, or later from a worker
  bool wait_here = false;           // answer on this thread, hashes too (callers that wait)
  std::vector<std::string> params = {};  // the pattern's {…} segments, percent-decoded

  const HttpRequest& http() const { return *request; }
  // Who asks (credentials.hpp's viewer_id), read once.
  const std::string& viewer() const;

 private:
  mutable std::optional<std::string> viewer_ = {};
};

// What a route's requests count against before its handler runs; none when the handler counts
// what depends on what it finds (a failed log-in, a new analysis). `what` words the 429:
// "too many <what>; try again in N s".
struct RouteLimit {
  FailureLimiter RequestLimits::*limiter = nullptr;
  const char* what = "";
};

// A route's handler: answers through call.reply (at once, or later from a worker), or throws
// an HttpError.
using RouteHandler = void (*)(const ApiCall& call);

struct Route {
  http::verb method;         // GET answers HEAD too
  std::string_view pattern;  // "/api/games/{id}/analysis": each {…} is one path segment
  RouteLimit limit;
  RouteHandler handler;
};

// How an API counts a route's limit for a call, throwing the 429 (each API keeps its keys and
// its log line).
using RouteCounter = void (*)(const ApiCall& call, const RouteLimit& limit);

struct RouteTable {
  std::string_view api;
  std::span<const Route> routes;
  RouteCounter count;
};

// The counter of most APIs: every request counts against the client's address.
void count_per_address(const ApiCall& call, const RouteLimit& limit);

// Every API's table, in the order the dispatcher walks them.
std::span<const RouteTable> api_route_tables();

// Answers `call` from the tables; every failure, the handler's too, becomes an error answer.
void dispatch_api(ApiCall call);

}  // namespace mancala::server
