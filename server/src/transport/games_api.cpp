#include "games_api.hpp"

#include "api_parts.hpp"
#include "chat_log.hpp"
#include "game_log.hpp"
#include "mancala/registry.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

Json summary_json(const GameMeta& meta) {
  const auto text_or_null = [](const std::string& text) { return text.empty() ? Json() : Json(text); };
  return Json{{"id", meta.id},           {"game", meta.game},
              {"options", meta.options}, {"players", players_json(meta)},
              {"status", meta.status},   {"started", text_or_null(meta.started)},
              {"finished", text_or_null(meta.finished)}, {"result", meta.result},
              {"time_control", meta.clock}, {"rated", meta.rated},
              {"host", text_or_null(meta.host_name)}};
}

Json list_games(const Query& query, const std::string& viewer, Storage& storage) {
  GameQuery filter;
  filter.viewer_id = viewer;
  if (const auto it = query.find("player"); it != query.end()) filter.player_name = it->second;
  if (const auto it = query.find("player_id"); it != query.end()) filter.player_id = it->second;
  if (const auto it = query.find("game"); it != query.end()) filter.game = it->second;
  if (const auto it = query.find("status"); it != query.end()) {
    if (it->second != "finished" && it->second != "playing")
      throw bad_request("'status' must be finished or playing");
    filter.status = it->second;
  }
  if (const auto it = query.find("limit"); it != query.end())
    filter.limit = static_cast<int>(parse_integer("limit", it->second, 1, 100));
  if (const auto it = query.find("before"); it != query.end())
    filter.before = parse_integer("before", it->second, 1, std::numeric_limits<std::int64_t>::max());
  const GamePage page = storage.list_games(filter);
  Json games = Json::array();
  for (const auto& meta : page.games) games.push_back(summary_json(meta));
  return Json{{"games", std::move(games)},
              {"next", page.next ? Json(std::to_string(*page.next)) : Json()}};
}

// The chat lines the viewer could have read live: a seated player did not see the spectators'
// while the game was being played.
Json chat_seen_by(const GameMeta& meta, const std::string& viewer, Storage& storage) {
  const bool seated = !viewer.empty() && std::any_of(meta.seats.begin(), meta.seats.end(),
                                                      [&](const StoredSeat& seat) { return seat.player_id == viewer; });
  Json out = Json::array();
  for (const auto& said : storage.chat().lines(meta.id))
    if (ChatLog::may_read(said, seated)) out.push_back(protocol::to_json(said.line));
  return out;
}

// Each game's type, with its board's fixed layout when it has one (Duovallis), so that the
// updates need not repeat it. The same for the whole run: written once.
const Json& game_types_json() {
  static const Json body = [] {
    Json types = Json::array();
    for (const auto& type : game_types()) {
      Json entry = {{"id", type.id},
                    {"name", type.name},
                    {"min_players", type.min_players},
                    {"max_players", type.max_players},
                    {"options", describe_options(type.options)}};
      Json specials = Json::array();
      for (const auto& action : type.special_actions)
        specials.push_back({{"name", action.name}, {"ends_turn", action.ends_turn}});
      entry["special_actions"] = std::move(specials);
      entry["claim_windows"] = Json(std::vector<std::string_view>(type.claim_windows.begin(), type.claim_windows.end()));
      const auto game = type.create(GameSetup{resolve_options(type.options, Json::object()), 0});
      Json layout = json_tree([&](JsonWriter& out) { game->write_layout(out); });
      if (!layout.is_null()) entry["layout"] = std::move(layout);
      types.push_back(std::move(entry));
    }
    return Json{{"games", std::move(types)}};
  }();
  return body;
}

// A stored game's states, a page of them (PositionsPage): {id, from, total, states, next}.
Json positions_json(const StoredGame& game, const HttpRequest& request) {
  PositionsPage page(request);
  Json states = game_states(game.meta, game.actions);
  const auto total = static_cast<std::int64_t>(states.size());
  for (std::int64_t index = 0; index < total; ++index)
    if (page.wants(index)) page.add(std::move(states[static_cast<std::size_t>(index)]));
  Json answer = std::move(page).answer(total);
  answer["id"] = game.meta.id;
  return answer;
}


void list(const ApiCall& call) {
  call.reply(json_response(call.http(), http::status::ok, list_games(query_of(call.http()), call.viewer(), call.context.storage)));
}

void game_types(const ApiCall& call) { call.reply(json_response(call.http(), http::status::ok, game_types_json())); }

void game(const ApiCall& call) {
  const StoredGame game = visible_game(call.params[0], call.viewer(), call.context.storage);
  Json record = game_record(game.meta, game.actions);
  record["chat"] = chat_seen_by(game.meta, call.viewer(), call.context.storage);
  call.reply(json_response(call.http(), http::status::ok, record));
}

void positions(const ApiCall& call) {
  const StoredGame game = visible_game(call.params[0], call.viewer(), call.context.storage);
  call.reply(json_response(call.http(), http::status::ok, positions_json(game, call.http())));
}

// What an invite link opens, for the page of a visitor who has no name yet: holding the invite
// is what lets anyone into the room, so it may also say what the room is. The invite comes in
// the body (POST /api/invites {"invite": "…"}), never in the path, which proxies log.
void invite(const ApiCall& call) {
  const Json body = Json::parse(call.http().body(), nullptr, /*allow_exceptions=*/false);
  const auto invite = body.is_object() ? body.find("invite") : body.end();
  if (!body.is_object() || invite == body.end() || !invite->is_string() || invite->get<std::string>().empty())
    throw bad_request("the body must be {\"invite\": \"<the invite>\"}");
  const auto id = call.context.storage.game_of_invite(invite->get<std::string>());
  const auto game = id ? call.context.storage.load_game(*id) : std::nullopt;
  if (!game) throw not_found("this invite is unknown, or its room expired; ask for a new link");
  call.reply(json_response(call.http(), http::status::ok, summary_json(game->meta)));
}

constexpr Route kRoutes[] = {
    {http::verb::get, "/api/games", {}, list},
    {http::verb::get, "/api/games/{id}", {}, game},
    {http::verb::get, "/api/games/{id}/positions", {}, positions},
    {http::verb::get, "/api/game-types", {}, game_types},
    {http::verb::post, "/api/invites", {&RequestLimits::invite_lookups, "invites looked up"}, invite},
};

}  // namespace

RouteTable game_routes() { return {"games", kRoutes, count_per_address}; }

}  // namespace mancala::server
