#include "tournaments_api.hpp"

#include "api_parts.hpp"
#include "tournament_service.hpp"

namespace mancala::server {
namespace {

HttpError http_error_of(const TournamentRefusal& refusal) {
  using Kind = TournamentRefusal::Kind;
  const http::status status = refusal.kind == Kind::not_found     ? http::status::not_found
                              : refusal.kind == Kind::conflict    ? http::status::conflict
                              : refusal.kind == Kind::not_allowed ? http::status::forbidden
                                                                  : http::status::bad_request;
  return HttpError{status, refusal.code, refusal.what()};
}

Tournaments& tournaments_of(const ApiCall& call) {
  if (!call.context.tournaments)
    throw HttpError{http::status::service_unavailable, "tournaments_off", "tournaments are not run by this server"};
  return *call.context.tournaments;
}

// Runs the tournaments' call, its refusals answered as HTTP errors.
template <class Work>
auto refused_as_http(Work&& work) {
  try {
    return work();
  } catch (const TournamentRefusal& refusal) {
    throw http_error_of(refusal);
  }
}

// The player asking: a guest by Bearer token, else an account by its session cookie; 401 for nobody.
PlayerRef asking_player(const ApiCall& call) {
  if (auto guest = guest_of(call.http(), call.context)) return guest;
  const AccountSession session = required_session(call.http(), call.context);
  auto player = call.context.players.find(session.player_id);
  if (!player) throw HttpError{http::status::unauthorized, "not_logged_in", "log in again"};
  return player;
}

void create(const ApiCall& call) {
  const AccountSession session = required_session(call.http(), call.context);
  const auto creator = call.context.players.find(session.player_id);
  if (!creator) throw HttpError{http::status::unauthorized, "not_logged_in", "log in again"};
  const Json body = body_object(call.http());
  Json created = refused_as_http([&] { return tournaments_of(call).create(body, *creator); });
  call.reply(json_response(call.http(), http::status::created, std::move(created)));
}

void list(const ApiCall& call) {
  const Query query = query_of(call.http());
  const auto status = query.find("status");
  Json listed = refused_as_http([&] { return tournaments_of(call).list(status == query.end() ? "" : status->second); });
  call.reply(json_response(call.http(), http::status::ok, std::move(listed)));
}

void show(const ApiCall& call) {
  Json shown = refused_as_http([&] { return tournaments_of(call).view(call.params[0]); });
  call.reply(json_response(call.http(), http::status::ok, std::move(shown)));
}

void join(const ApiCall& call) {
  const PlayerRef player = asking_player(call);
  Json shown = refused_as_http([&] {
    tournaments_of(call).join(call.params[0], player);
    return tournaments_of(call).view(call.params[0]);
  });
  call.reply(json_response(call.http(), http::status::ok, std::move(shown)));
}

void leave(const ApiCall& call) {
  const PlayerRef player = asking_player(call);
  Json shown = refused_as_http([&] {
    tournaments_of(call).leave(call.params[0], player->id);
    return tournaments_of(call).view(call.params[0]);
  });
  call.reply(json_response(call.http(), http::status::ok, std::move(shown)));
}

// Creating, joining and leaving each count against the address.
constexpr RouteLimit kTournamentChanges{&RequestLimits::tournaments_by_address, "tournament requests"};

constexpr Route kRoutes[] = {
    {http::verb::post, "/api/tournaments", kTournamentChanges, create},
    {http::verb::get, "/api/tournaments", {}, list},
    {http::verb::get, "/api/tournaments/{id}", {}, show},
    {http::verb::post, "/api/tournaments/{id}/players", kTournamentChanges, join},
    {http::verb::delete_, "/api/tournaments/{id}/players", kTournamentChanges, leave},
};

}  // namespace

RouteTable tournament_routes() { return {"tournaments", kRoutes, count_per_address}; }

}  // namespace mancala::server
