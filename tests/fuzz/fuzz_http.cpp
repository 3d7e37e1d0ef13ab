// Fuzz target: the HTTP request path. The input is the raw bytes of a request, read by Beast's
// parser with the server's limits, then routed as the server routes it: the Origin check of a
// WebSocket upgrade, the API (/healthz, /metrics, /api/...) against an in-memory database that
// holds a public and a private game, and the mapping of paths to the web client's files.
// Invariants: nothing throws; every API answer is a valid HTTP response whose JSON body parses,
// and none is a 500 (a request the router could not handle); a static path resolves only to a
// regular file inside the folder.
#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <string_view>

#include "bot_pool.hpp"
#include "check.hpp"
#include "http_api.hpp"
#include "http_session.hpp"
#include "hub.hpp"
#include "identity.hpp"
#include "mancala/match.hpp"
#include "metrics.hpp"
#include "static_files.hpp"
#include "storage.hpp"

namespace mancala::fuzz {
namespace {

using namespace mancala::server;

constexpr std::string_view kOwnerToken = "owner-token";  // "Authorization: Bearer owner-token"

// Runs one storage write and waits until it is durable.
void write_and_wait(const std::function<void(Storage::Done)>& write) {
  std::promise<bool> committed;
  write([&](bool ok) { committed.set_value(ok); });
  FUZZ_CHECK(committed.get_future().get());
}

// A finished game of Cups (ids "public1" and "private1"), so that records and positions are
// served and private games are hidden from everyone but their players.
void store_game(Storage& storage, const std::string& id, bool is_private) {
  Match match = Match::create("cups", Json::object(), 7);
  GameMeta meta;
  meta.id = id;
  meta.game = "cups";
  meta.options = match.options();
  meta.draws = match.draws();
  meta.is_private = is_private;
  meta.invite = is_private ? "invite-" + id : "";
  meta.status = "playing";
  meta.created = meta.started = "2026-01-01T00:00:00Z";
  meta.seats = {{0, "owner", "Owner"}, {1, "other", "Other"}};
  write_and_wait([&](Storage::Done done) { storage.create_game(meta, std::move(done)); });
  Random random(7);
  for (std::int64_t version = 1; !match.over(); ++version) {
    const auto legal = match.legal_tokens();
    const Seat seat = match.game().to_move();
    const std::string token = legal[random.below(static_cast<std::uint32_t>(legal.size()))];
    const Outcome outcome = match.play(token);
    auto action = std::make_shared<StoredAction>();
    action->version = version;
    action->kind = "move";
    action->seat = seat;
    action->tokens = token;
    action->events = to_json_text(Json(outcome.events));
    action->at = "2026-01-01T00:00:01Z";
    UpdateEffects effects;
    if (match.over()) {
      effects.finished_at = "2026-01-01T00:00:02Z";
      effects.result = match.state().at("result");
    }
    write_and_wait([&](Storage::Done done) {
      storage.append_action(id, action, std::move(effects), std::move(done));
    });
  }
}

void add_player(Storage& storage, const StoredPlayer& player) {
  write_and_wait([&](Storage::Done done) { storage.create_player(player, std::move(done)); });
}

// The server's shared objects, made once for the whole run (as in run_server).
struct Server {
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
                      .static_root = MANCALA_WEB_CLIENT,
                      .allowed_origins = {"https://mancala.example"},
                      .rate_limit = 20,
                      .public_origin = "",
                      .bind_address = "127.0.0.1",
                      .max_connections = 1000,
                      .limits = limits};

  Server() {
    add_player(storage, {"owner", "Owner", to_hex(sha256(kOwnerToken))});
    add_player(storage, {"other", "Other", to_hex(sha256("other-token"))});
    store_game(storage, "public1", false);
    store_game(storage, "private1", true);
    players.load(storage.load_players());
  }
};

Server& server() {
  static Server* instance = new Server;  // never destroyed: fuzzers exit from anywhere
  return *instance;
}

std::optional<HttpRequest> parse_request(const std::uint8_t* data, std::size_t size) {
  http::request_parser<http::string_body> parser;
  parser.body_limit(HttpSession::kMaxRequestBytes);
  parser.eager(true);
  error_code error;
  net::const_buffer input(data, size);
  while (input.size() > 0 && !parser.is_done() && !error) input += parser.put(input, error);
  if (!error && !parser.is_done()) parser.put_eof(error);
  if (error || !parser.is_done()) return std::nullopt;
  return parser.release();
}

void check_api(const HttpRequest& request) {
  const StringResponse response = handle_api(request, server().context, "192.0.2.1");
  FUZZ_CHECK(response.result() != http::status::internal_server_error);
  if (to_std(response[http::field::content_type]) == "application/json")
    FUZZ_CHECK(!Json::parse(response.body()).is_discarded());
}

void check_static(std::string_view path) {
  const std::filesystem::path root = std::filesystem::canonical(server().context.static_root);
  const auto file = resolve_static_path(root, path);
  if (!file) return;
  const auto relative = file->lexically_relative(root);
  FUZZ_CHECK(!relative.empty() && *relative.begin() != "..");
  FUZZ_CHECK(std::filesystem::is_regular_file(*file));
  FUZZ_CHECK(!content_type(*file).empty());
}

}  // namespace
}  // namespace mancala::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala::fuzz;
  const auto request = parse_request(data, size);
  if (!request) return 0;
  const std::string_view target = to_std(request->target());
  const std::string_view path = target.substr(0, target.find('?'));
  if (websocket::is_upgrade(*request)) {
    const auto& context = server().context;
    origin_allowed(*request, context.allowed_origins, "", "127.0.0.1");
    origin_allowed(*request, context.allowed_origins, "https://public.example", "0.0.0.0");
    return 0;
  }
  if (is_api_target(path)) check_api(*request);
  else check_static(path);
  return 0;
}
