#include "http_api.hpp"

#include <cctype>
#include <charconv>
#include <limits>
#include <map>

#include "account_api.hpp"
#include "analysis_api.hpp"
#include "api_parts.hpp"
#include "chat_log.hpp"
#include "game_log.hpp"
#include "hub.hpp"
#include "identity.hpp"
#include "log.hpp"
#include "mancala/registry.hpp"
#include "mancala/utf8.hpp"
#include "metrics.hpp"
#include "password.hpp"
#include "session_cookie.hpp"
#include "static_files.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

HttpError no_endpoint(std::string_view path) {
  return not_found("there is no endpoint at " + std::string(path.substr(0, 128)) + " (protocol/README.md lists them)");
}

using Query = std::map<std::string, std::string>;

// Anything decoded from the request may end up in a JSON answer (an id in "no game '…'"), and
// JSON holds only UTF-8: other bytes are refused here rather than failing the answer later.
std::optional<std::string> decode_utf8(std::string_view text, bool plus_is_space) {
  auto decoded = url_decode(text, plus_is_space);
  if (decoded && !is_utf8(*decoded))
    throw bad_request("the URL is not valid UTF-8 once percent-decoded; percent-encode UTF-8 text");
  return decoded;
}

Query parse_query(std::string_view query) {
  Query out;
  while (!query.empty()) {
    const auto end = std::min(query.find('&'), query.size());
    const auto pair = query.substr(0, end);
    const auto equals = pair.find('=');
    const auto key = decode_utf8(pair.substr(0, equals), true);
    const auto value = decode_utf8(equals == std::string_view::npos ? "" : pair.substr(equals + 1), true);
    if (!key || !value) throw bad_request("the query string is malformed: write it as name=value pairs joined by &");
    out[*key] = *value;
    query.remove_prefix(std::min(end + 1, query.size()));
  }
  return out;
}

std::int64_t parse_integer(const std::string& name, const std::string& text, std::int64_t min,
                           std::int64_t max) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw bad_request("'" + name + "' must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return value;
}

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

StringResponse route(const HttpRequest& request, const HttpContext& context) {
  const std::string_view target = to_std(request.target());
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  const Query query = parse_query(question == std::string_view::npos ? "" : target.substr(question + 1));

  if (path == "/healthz") {  // a load balancer sends no new clients to a degraded process
    return context.storage.healthy()
               ? text_response(request, http::status::ok, "text/plain; charset=utf-8", "ok\n")
               : text_response(request, http::status::service_unavailable, "text/plain; charset=utf-8",
                               "degraded: the database does not answer\n");
  }
  if (path == "/metrics")  // who may see it is decided before (metrics_visible)
    return text_response(request, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                         context.metrics.render());
  if (path == "/api/game-types") return json_response(request, http::status::ok, game_types_json());
  const std::string viewer = viewer_id(request, context);
  if (path == "/api/games" || path == "/api/games/")
    return json_response(request, http::status::ok, list_games(query, viewer, context.storage));

  constexpr std::string_view kGames = "/api/games/";
  if (path.substr(0, kGames.size()) == kGames) {
    std::string_view rest = path.substr(kGames.size());
    constexpr std::string_view kPositions = "/positions";
    const bool positions = rest.size() > kPositions.size() &&
                           rest.substr(rest.size() - kPositions.size()) == kPositions;
    if (positions) rest.remove_suffix(kPositions.size());
    const auto id = decode_utf8(rest, false);
    if (!id || id->empty() || id->find('/') != std::string::npos)
      throw no_endpoint(path);
    const StoredGame game = visible_game(*id, viewer, context.storage);
    if (positions) return json_response(request, http::status::ok, positions_json(game, request));
    Json record = game_record(game.meta, game.actions);
    record["chat"] = chat_seen_by(game.meta, viewer, context.storage);
    return json_response(request, http::status::ok, record);
  }
  throw no_endpoint(path);
}

}  // namespace

// What the states may take of the answer: all it may be but some room for the rest of it.
PositionsPage::PositionsPage(const HttpRequest& request)
    : budget_(64 * 1024 + 10 * request.body().size() - 4 * 1024) {
  const std::string_view target = to_std(request.target());
  const auto question = target.find('?');
  const Query query = parse_query(question == std::string_view::npos ? "" : target.substr(question + 1));
  if (const auto it = query.find("from"); it != query.end())
    from_ = parse_integer("from", it->second, 0, std::numeric_limits<std::int32_t>::max());
  if (const auto it = query.find("count"); it != query.end()) count_ = parse_integer("count", it->second, 1, kMaxStates);
}

bool PositionsPage::wants(std::int64_t index) const { return !full_ && index >= from_ && index < from_ + count_; }

void PositionsPage::add(Json state) {
  const std::size_t size = to_json_text(state).size();
  if (!states_.empty() && bytes_ + size > budget_) {
    full_ = true;
    return;
  }
  bytes_ += size;
  states_.push_back(std::move(state));
}

Json PositionsPage::answer(std::int64_t total) && {
  if (from_ >= total)
    throw bad_request("'from' must be below " + std::to_string(total) + ", the number of positions there are");
  const auto next = from_ + static_cast<std::int64_t>(states_.size());
  return Json{{"from", from_}, {"total", total}, {"states", std::move(states_)}, {"next", next < total ? Json(next) : Json()}};
}

StoredGame visible_game(const std::string& id, const std::string& viewer, Storage& storage) {
  auto game = storage.load_game(id);
  const auto seated = [&](const GameMeta& meta) {
    return std::any_of(meta.seats.begin(), meta.seats.end(),
                       [&](const StoredSeat& seat) { return !viewer.empty() && seat.player_id == viewer; });
  };
  if (!game || (game->meta.is_private && !seated(game->meta)))
    throw not_found("no game '" + id + "' (or it is private and you are not one of its players)");
  return std::move(*game);
}

std::optional<std::string> decode_path_segment(std::string_view text) { return decode_utf8(text, false); }

// An address in one spelling (IPv4 seen through an IPv6 socket, ::ffff:a.b.c.d, as a.b.c.d);
// nothing for text that is no address, which must never become a rate limit's key.
static std::optional<net::ip::address> address_of(std::string_view text) {
  error_code error;
  const auto address = net::ip::make_address(std::string(text), error);
  if (error) return std::nullopt;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return net::ip::address(net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6()));
  return address;
}

bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted) {
  const auto address = address_of(peer);
  return address && std::any_of(trusted.begin(), trusted.end(),
                                [&](const std::string& proxy) { return address_of(proxy) == address; });
}

// X-Forwarded-For is one list however many field lines carry it (RFC 9110, 5.3): each proxy
// appends the address it saw, so only the entries on the right were written by proxies we
// trust. Read from the right, the client is the first entry that is not itself a trusted proxy;
// an entry that is no address stops the walk at the last hop known to be real.
std::string client_address(const HttpRequest& request, const std::string& peer, const std::vector<std::string>& trusted) {
  if (!is_trusted_proxy(peer, trusted)) return peer;
  std::vector<std::string_view> hops;
  const auto [first, last] = request.equal_range("X-Forwarded-For");
  for (auto field = first; field != last; ++field) {
    std::string_view rest = to_std(field->value());
    for (;;) {
      const auto comma = rest.find(',');
      std::string_view hop = rest.substr(0, comma);
      while (!hop.empty() && (hop.front() == ' ' || hop.front() == '\t')) hop.remove_prefix(1);
      while (!hop.empty() && (hop.back() == ' ' || hop.back() == '\t')) hop.remove_suffix(1);
      hops.push_back(hop);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  std::string client = address_of(peer)->to_string();
  for (auto hop = hops.rbegin(); hop != hops.rend(); ++hop) {
    const auto address = address_of(*hop);
    if (!address) break;
    client = address->to_string();
    if (!is_trusted_proxy(client, trusted)) break;
  }
  return client;
}

bool metrics_visible(const std::string& peer, bool forwarded, bool public_metrics) {
  if (public_metrics) return true;
  if (forwarded) return false;
  error_code error;
  auto address = net::ip::make_address(peer, error);
  if (error) return false;
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    address = net::ip::make_address_v4(net::ip::v4_mapped, address.to_v6());
  return address.is_loopback();
}

bool is_api_target(std::string_view path) {
  return path == "/healthz" || path == "/metrics" || path.substr(0, 5) == "/api/" || path == "/api";
}

// What an invite link opens, for the page of a visitor who has no name yet: holding the invite
// is what lets anyone into the room, so it may also say what the room is. The invite comes in
// the body (POST /api/invites {"invite": "…"}), never in the path, which proxies log.
StringResponse answer_invite(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  StringResponse out;
  answer_safely(request, [&](StringResponse response) { out = std::move(response); }, [&] {
    if (request.method() != http::verb::post) {
      HttpError refused = method_not_allowed("POST");
      refused.message = "POST the invite here as {\"invite\": \"…\"}";
      throw refused;
    }
    if (const auto wait = context.limits.invite_lookups.wait("address:" + address))
      throw rate_limited("invites looked up", *wait);
    context.limits.invite_lookups.fail("address:" + address);
    const Json body = Json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
    const auto invite = body.is_object() ? body.find("invite") : body.end();
    if (!body.is_object() || invite == body.end() || !invite->is_string() || invite->get<std::string>().empty())
      throw bad_request("the body must be {\"invite\": \"<the invite>\"}");
    const auto id = context.storage.game_of_invite(invite->get<std::string>());
    const auto game = id ? context.storage.load_game(*id) : std::nullopt;
    if (!game) throw not_found("this invite is unknown, or its room expired; ask for a new link");
    out = json_response(request, http::status::ok, summary_json(game->meta));
  });
  return out;
}

StringResponse handle_api(const HttpRequest& request, const HttpContext& context, const std::string& address) {
  const std::string_view target = to_std(request.target());
  if (is_account_target(target.substr(0, target.find('?')))) return handle_account_api(request, context, address);
  if (target.substr(0, target.find('?')) == "/api/invites") return answer_invite(request, context, address);
  StringResponse out;
  answer_safely(request, [&](StringResponse response) { out = std::move(response); }, [&] {
    if (request.method() != http::verb::get && request.method() != http::verb::head) throw method_not_allowed("GET, HEAD");
    out = route(request, context);
  });
  return out;
}

void handle_api_async(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                      const std::string& address, const ApiReply& reply) {
  const std::string_view target = to_std(request->target());
  if (is_analysis_target(target.substr(0, target.find('?'))))
    return handle_analysis_api(request, context, address, reply);
  if (is_account_target(target.substr(0, target.find('?'))))
    return handle_account_api_async(request, context, address, reply);  // hashes on its own workers
  reply(handle_api(*request, context, address));
}

}  // namespace mancala::server
