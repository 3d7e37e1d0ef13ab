#include "analysis_api.hpp"

#include <algorithm>

#include "analysis_jobs.hpp"
#include "api_parts.hpp"
#include "game_log.hpp"
#include "http_session.hpp"
#include "log.hpp"
#include "mancala/action_line.hpp"
#include "mancala/record_text.hpp"
#include "sha256.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

constexpr std::string_view kGames = "/api/games/";
constexpr std::string_view kRecords = "/api/records";
constexpr std::string_view kWhatIf = "/api/whatif";
constexpr std::string_view kAnalysis = "/analysis";
constexpr std::string_view kRecordText = "/record.txt";
constexpr const char* kStillPlaying = "this game is still being played; it can be analysed when it ends";

// Who asks: rate limits count per address and, when known, per player.
struct Caller {
  std::string viewer;
  std::string address;
};

bool has_suffix(std::string_view path, std::string_view suffix) {
  return path.size() > suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
}

bool is_post(const HttpRequest& request) { return request.method() == http::verb::post; }

void count_against(FailureLimiter& limiter, const Caller& caller, const std::string& what) {
  std::vector<std::string> keys{"address:" + caller.address};
  if (!caller.viewer.empty()) keys.push_back("player:" + caller.viewer);
  for (const auto& key : keys)
    if (const auto wait = limiter.wait(key)) {
      log_warn("analysis_requests_limited", {{"key", key}, {"what", what}, {"retry_after_s", wait->count()}});
      throw HttpError{http::status::too_many_requests,
                      "too many " + what + "; try again in " + std::to_string(wait->count()) + " s", *wait};
    }
  for (const auto& key : keys) limiter.fail(key);
}

// Requests that start work or search must come from this site's pages when from a browser.
void check_origin(const HttpRequest& request, const HttpContext& context) {
  if (request[http::field::origin].empty()) return;
  if (!origin_allowed(request, context.allowed_origins, context.public_origin, context.bind_address))
    throw HttpError{http::status::forbidden, "this Origin may not ask for analyses here"};
}

void check_method(const HttpRequest& request, bool post_allowed, bool get_allowed) {
  const bool get = request.method() == http::verb::get || request.method() == http::verb::head;
  if ((is_post(request) && post_allowed) || (get && get_allowed)) return;
  throw HttpError{http::status::method_not_allowed,
                  std::string("use ") + (post_allowed && get_allowed ? "GET or POST" : post_allowed ? "POST" : "GET") +
                      " here"};
}

StoredGame finished_game(const std::string& id, const Caller& caller, Storage& storage) {
  StoredGame game = visible_game(id, caller.viewer, storage);
  if (game.meta.status != "finished") throw HttpError{http::status::conflict, kStillPlaying};
  return game;
}

AnalysisJobs& jobs_of(const HttpContext& context) {
  if (!context.analyses) throw HttpError{http::status::service_unavailable, "analysis is not available on this server"};
  return *context.analyses;
}

// 202 while the work goes on, 200 once there is nothing more to wait for.
StringResponse analysis_answer(const HttpRequest& request, const Json& status) {
  const auto& state = status["state"];
  const bool waiting = is_post(request) && (state == "queued" || state == "running");
  return json_response(request, waiting ? http::status::accepted : http::status::ok, status);
}

StringResponse game_analysis(const HttpRequest& request, const HttpContext& context, const Caller& caller,
                             const std::string& game_id) {
  check_method(request, true, true);
  finished_game(game_id, caller, context.storage);
  AnalysisJobs& jobs = jobs_of(context);
  const std::string id = game_analysis_id(game_id);
  if (is_post(request) && !jobs.exists(id)) {
    check_origin(request, context);
    count_against(context.limits.analyses, caller, "analyses");
    jobs.start(id, game_id, "");
  }
  return analysis_answer(request, jobs.status(id));
}

// The analysis's marks as the text record's notes: action k+1 is the one played at position k.
std::map<int, MoveNote> analysis_notes(const Json& status) {
  std::map<int, MoveNote> notes;
  if (status["state"] != "done") return notes;
  for (const Json& position : status["positions"]) {
    if (!position["mark"].is_string()) continue;
    MoveNote note{analysis::mark_from_name(position["mark"].get<std::string>()), ""};
    if (position["best"].is_string()) note.comment = "best: " + position["best"].get<std::string>();
    notes[position["index"].get<int>() + 1] = std::move(note);
  }
  return notes;
}

StringResponse game_record_text(const HttpRequest& request, const HttpContext& context, const Caller& caller,
                                const std::string& game_id) {
  check_method(request, false, true);
  const StoredGame game = visible_game(game_id, caller.viewer, context.storage);
  std::map<int, MoveNote> notes;
  if (context.analyses && game.meta.status == "finished")
    notes = analysis_notes(context.analyses->status(game_analysis_id(game_id)));
  auto response = text_response(request, http::status::ok, "text/plain; charset=utf-8",
                                record_to_text(game_record(game.meta, game.actions), notes));
  response.set(http::field::content_disposition,
               "attachment; filename=\"mancala-" + game.meta.game + "-" + game.meta.id + ".txt\"");
  return response;
}

// A record text from elsewhere, replayed: its key, canonical text, JSON record and states.
struct ImportedRecord {
  std::string key;
  std::string text;
  Json record;
  Json states = Json::array();
};

// The fields GET /api/games/<id> has that a text does not: a page shows both alike.
void with_stored_game_fields(Json& record) {
  const Json defaults{{"id", nullptr},
                      {"players", Json::array()},
                      {"rated", false},
                      {"host", nullptr},
                      {"status", record["result"].is_null() ? "playing" : "finished"},
                      {"time_control", nullptr},
                      {"started", nullptr},
                      {"finished", nullptr}};
  for (const auto& [name, value] : defaults.items())
    if (!record.contains(name)) record[name] = value;
}

ImportedRecord import_record(std::string_view text) {
  ImportedRecord out;
  try {
    out.record = record_from_text(text);
  } catch (const EngineError& e) {  // RecordTextError's words name the line and column
    throw HttpError{http::status::bad_request, e.what()};
  }
  out.text = record_to_text(out.record);
  out.key = to_hex(sha256(out.text));
  Match match = record_opening(out.record);
  out.states.push_back(match.state());
  replay_record_actions(match, out.record, [&](const Match& after, const std::string&) {
    out.states.push_back(after.state());
  });
  out.record["rounds"] = match.game().rounds();
  out.record["result"] = match.result();
  with_stored_game_fields(out.record);
  return out;
}

StringResponse parse_record(const HttpRequest& request, const HttpContext& context, const Caller& caller) {
  check_method(request, true, false);
  check_origin(request, context);
  count_against(context.limits.record_parses, caller, "record imports");
  ImportedRecord imported = import_record(request.body());
  return json_response(request, http::status::ok,
                       Json{{"key", imported.key},
                            {"record", std::move(imported.record)},
                            {"states", std::move(imported.states)},
                            {"text", imported.text}});
}

StringResponse record_analysis(const HttpRequest& request, const HttpContext& context, const Caller& caller,
                               const std::string& key) {
  check_method(request, true, true);
  const bool hex = key.size() == 64 && std::all_of(key.begin(), key.end(), [](char c) {
                     return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                   });
  if (!hex) throw HttpError{http::status::not_found, "a record's key is the SHA-256 of its text, 64 hex digits"};
  AnalysisJobs& jobs = jobs_of(context);
  if (is_post(request) && !jobs.exists(key)) {
    check_origin(request, context);
    const ImportedRecord imported = import_record(request.body());
    if (imported.key != key)
      throw HttpError{http::status::bad_request,
                      "this text's key is " + imported.key + ", not " + key + " (POST /api/records gives it)"};
    count_against(context.limits.record_analyses, caller, "record analyses");
    jobs.start(key, "", imported.text);
  }
  return analysis_answer(request, jobs.status(key));
}

StringResponse route(const HttpRequest& request, const HttpContext& context, const Caller& caller) {
  const std::string_view target = to_std(request.target());
  std::string_view path = target.substr(0, target.find('?'));
  if (path == kRecords) return parse_record(request, context, caller);
  const bool record = path.starts_with(std::string(kRecords) + "/");
  std::string_view rest = path.substr(record ? kRecords.size() + 1 : kGames.size());
  const bool analysis = has_suffix(rest, kAnalysis);
  rest.remove_suffix(analysis ? kAnalysis.size() : kRecordText.size());
  const auto id = decode_path_segment(rest);
  if (!id || id->empty() || id->find('/') != std::string::npos)
    throw HttpError{http::status::not_found, "no such endpoint"};
  if (record) return record_analysis(request, context, caller, *id);
  return analysis ? game_analysis(request, context, caller, *id) : game_record_text(request, context, caller, *id);
}

// ---------------------------------------------------------------------------------------------
// What-if

// The position `at` of the game or record the body names, ready for more moves.
Match whatif_position(const Json& body, const HttpContext& context, const Caller& caller) {
  const auto at = body.find("at");
  if (at == body.end() || !at->is_number_integer() || at->get<std::int64_t>() < 0)
    throw HttpError{http::status::bad_request, "'at' must be a position index (0 for the opening)"};
  std::vector<analysis::GameStep> steps;
  Json game_type;
  Json options;
  if (body.contains("game_id") && body["game_id"].is_string()) {
    const StoredGame game = finished_game(body["game_id"].get<std::string>(), caller, context.storage);
    steps = game_steps(game.meta, game.actions);
    game_type = game.meta.game;
    options = game.meta.options;
  } else if (body.contains("record") && body["record"].is_string()) {
    const ImportedRecord imported = import_record(body["record"].get<std::string>());
    steps = record_steps(imported.record);
    game_type = imported.record["game"];
    options = imported.record["options"];
  } else {
    throw HttpError{http::status::bad_request, "name the game: \"game_id\" or \"record\" (its text)"};
  }
  const auto index = static_cast<std::size_t>(at->get<std::int64_t>());
  if (index >= steps.size())
    throw HttpError{http::status::bad_request,
                    "'at' must be from 0 to " + std::to_string(steps.size() - 1) + " in this game"};
  return Match::from_game(game_type.get<std::string>(), options, steps[index].position->clone());
}

void play_moves(Match& match, const Json& body) {
  const auto moves = body.find("moves");
  if (moves == body.end()) return;
  if (!moves->is_array()) throw HttpError{http::status::bad_request, "'moves' must be a list of action lines"};
  for (std::size_t i = 0; i < moves->size(); ++i) {
    const Json& line = (*moves)[i];
    if (!line.is_string()) throw HttpError{http::status::bad_request, "'moves' must be a list of action lines"};
    const Outcome outcome = play_action_line(match, line.get<std::string>());
    if (!outcome.ok())
      throw HttpError{http::status::bad_request, "move " + std::to_string(i + 1) + " ('" + line.get<std::string>() +
                                                     "'): " + outcome.error->message};
  }
}

void answer_whatif(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                   const Caller& caller, const ApiReply& reply) {
  check_method(*request, true, false);
  check_origin(*request, context);
  const Json body = Json::parse(request->body(), nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) throw HttpError{http::status::bad_request, "the body must be a JSON object"};
  count_against(context.limits.whatifs, caller, "what-if requests");
  Match match = whatif_position(body, context, caller);
  play_moves(match, body);
  Json state = match.state();
  const bool queued = jobs_of(context).analyse_once(
      std::shared_ptr<const Game>(match.game().clone()),
      [request, reply, state = std::move(state)](std::optional<analysis::PositionAnalysis> result) {
        if (!result)
          return reply(error_response(*request, {http::status::internal_server_error, "the search failed"}));
        reply(json_response(*request, http::status::ok,
                            Json{{"state", state}, {"analysis", position_analysis_json(*result)}}));
      });
  if (!queued)
    throw HttpError{http::status::service_unavailable, "the engine is busy; try again in a few seconds",
                    std::chrono::seconds(2)};
}

}  // namespace

bool is_analysis_target(std::string_view path) {
  if (path == kRecords || path == kWhatIf) return true;
  if (path.starts_with(std::string(kRecords) + "/")) return has_suffix(path, kAnalysis);
  return path.starts_with(kGames) && (has_suffix(path, kAnalysis) || has_suffix(path, kRecordText));
}

void handle_analysis_api(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                         const std::string& address, const ApiReply& reply) {
  answer_safely(*request, reply, [&] {
    const Caller caller{viewer_id(*request, context), address};
    const std::string_view target = to_std(request->target());
    if (target.substr(0, target.find('?')) == kWhatIf) return answer_whatif(request, context, caller, reply);
    reply(route(*request, context, caller));
  });
}

}  // namespace mancala::server
