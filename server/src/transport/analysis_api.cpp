#include "analysis_api.hpp"

#include <algorithm>

#include "analysis_jobs.hpp"
#include "api_parts.hpp"
#include "game_log.hpp"
#include "log.hpp"
#include "log_throttle.hpp"
#include "mancala/action_line.hpp"
#include "mancala/record_text.hpp"
#include "sha256.hpp"
#include "storage.hpp"
#include "work_queue.hpp"

namespace mancala::server {
namespace {

constexpr const char* kStillPlaying = "this game is still being played; it can be analysed when it ends";
// A record's length (issue 46): its bytes are bounded by the request body's limit (64 KiB), its
// entries (actions and forced events) here, so that nothing longer is replayed. A 22 KB
// four-seat Njaka record has about 1,900 moves.
constexpr std::size_t kMaxRecordTurns = 4'000;
constexpr auto kBusyRetry = std::chrono::seconds(2);
constexpr auto kQueueRetry = std::chrono::seconds(30);

// Who asks: rate limits count per address and, when known, per player.
struct Caller {
  std::string viewer;
  std::string address;
  AnalysisAsker asker() const { return {viewer, address}; }
};

bool is_post(const HttpRequest& request) { return request.method() == http::verb::post; }
bool is_delete(const HttpRequest& request) { return request.method() == http::verb::delete_; }

void count_against(FailureLimiter& limiter, const Caller& caller, const std::string& what) {
  std::vector<std::string> keys{"address:" + caller.address};
  if (!caller.viewer.empty()) keys.push_back("player:" + caller.viewer);
  for (const auto& key : keys)
    if (const auto wait = limiter.wait(key)) {
      log_warn_throttled("analysis_requests_limited", {{"key", key}, {"what", what}, {"retry_after_s", wait->count()}});
      throw rate_limited(what, *wait);
    }
  for (const auto& key : keys) limiter.fail(key);
}

// Reading and replaying records and games is work of its own (issue 46): `job` runs on a
// record-replay worker and answers through `reply` itself, so that no reader thread does it;
// a full queue is said so at once.
void on_replay_worker(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                      const ApiReply& reply, std::function<void()> job) {
  if (!context.record_replays) return job();
  const bool queued = context.record_replays->push(
      [request, reply, job = std::move(job)] { answer_safely(*request, reply, job); });
  if (!queued)
    throw HttpError{http::status::service_unavailable, "busy",
                    "the server is reading as many game records as it can; try again in a few seconds", kBusyRetry};
}

// What an analysis that may not start is answered, in words that say what to do.
void refuse_analysis(AnalysisAdmission admission, const AnalysisLimits& limits) {
  switch (admission) {
    case AnalysisAdmission::queue_full:
      throw HttpError{http::status::service_unavailable, "queue_full",
                      "the analysis queue is full (" + std::to_string(limits.max_running) +
                          " analyses); try again when one has finished",
                      kQueueRetry};
    case AnalysisAdmission::asker_busy:
      throw HttpError{http::status::too_many_requests, "too_many_analyses",
                      "you already have " + std::to_string(limits.max_per_asker) +
                          " analyses queued or running; wait for one to finish, or cancel one",
                      kQueueRetry};
    case AnalysisAdmission::too_long:
      throw HttpError{http::status::bad_request, "too_long", "this game is too long to analyse: analyses are for games of at most " +
                                                     std::to_string(limits.max_positions) + " positions"};
    case AnalysisAdmission::admitted:
    case AnalysisAdmission::exists:
      return;
  }
}

StoredGame finished_game(const std::string& id, const Caller& caller, Storage& storage) {
  StoredGame game = visible_game(id, caller.viewer, storage);
  if (game.meta.status != "finished") throw HttpError{http::status::conflict, "still_playing", kStillPlaying};
  return game;
}

AnalysisJobs& jobs_of(const HttpContext& context) {
  if (!context.analyses) throw HttpError{http::status::service_unavailable, "analysis_off", "analysis is not available on this server"};
  return *context.analyses;
}

// 202 while the work goes on, 200 once there is nothing more to wait for.
StringResponse analysis_answer(const HttpRequest& request, const Json& status) {
  const auto& state = status["state"];
  const bool waiting = is_post(request) && (state == "queued" || state == "running");
  return json_response(request, waiting ? http::status::accepted : http::status::ok, status);
}

// Cancelling an analysis: only who asked for it, or a seated player of its game, may.
bool may_cancel(const StoredAnalysis& row, const Caller& caller, const std::optional<StoredGame>& game) {
  if (!caller.viewer.empty() && row.requested_by == caller.viewer) return true;
  if (row.requested_by.empty() && caller.viewer.empty() && row.requested_from == caller.address) return true;
  return game && !caller.viewer.empty() &&
         std::any_of(game->meta.seats.begin(), game->meta.seats.end(),
                     [&](const StoredSeat& seat) { return seat.player_id == caller.viewer; });
}

StringResponse cancel_analysis(const HttpRequest& request, const HttpContext& context, const Caller& caller,
                               const std::string& id, const std::optional<StoredGame>& game) {
  const auto row = context.storage.analyses().find(id);
  if (!row) throw HttpError{http::status::not_found, "not_found", "nobody asked for this analysis"};
  if (row->state != "running")
    throw HttpError{http::status::conflict, "not_running", "this analysis is " + row->state + ": there is nothing to cancel"};
  if (!may_cancel(*row, caller, game))
    throw HttpError{http::status::forbidden, "forbidden", "only who asked for this analysis, or a player of the game, may cancel it"};
  jobs_of(context).cancel(id);
  return json_response(request, http::status::ok, jobs_of(context).status(id));
}

void game_analysis(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                   const Caller& caller, const std::string& game_id, const ApiReply& reply) {
  StoredGame game = finished_game(game_id, caller, context.storage);
  AnalysisJobs& jobs = jobs_of(context);
  const std::string id = game_analysis_id(game_id);
  if (is_delete(*request)) return reply(cancel_analysis(*request, context, caller, id, std::move(game)));
  if (!is_post(*request) || jobs.exists(id)) return reply(analysis_answer(*request, jobs.status(id)));
  count_against(context.limits.analyses, caller, "analyses");
  refuse_analysis(jobs.admits(caller.asker()), jobs.limits());
  on_replay_worker(request, context, reply, [request, &jobs, id, game_id, caller, reply] {
    refuse_analysis(jobs.start(id, game_id, "", caller.asker()), jobs.limits());
    reply(analysis_answer(*request, jobs.status(id)));
  });
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

// A record text from elsewhere, read: its key, canonical text, JSON record and its positions.
struct ImportedRecord {
  std::string key;
  std::string text;
  Json record;
  std::size_t positions = 0;
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

// The record's JSON, or 400 naming the line and column; 413 for one longer than a record may be.
Json read_record_text(std::string_view text) {
  Json record;
  try {
    record = record_from_text(text);
  } catch (const EngineError& e) {  // RecordTextError's words name the line and column
    throw HttpError{http::status::bad_request, "bad_record", e.what()};
  }
  if (const std::size_t turns = record["turns"].size(); turns > kMaxRecordTurns)
    throw HttpError{http::status::payload_too_large, "record_too_long", "this record has " + std::to_string(turns) +
                                                         " moves and events; a record may have at most " +
                                                         std::to_string(kMaxRecordTurns)};
  return record;
}

ImportedRecord import_record(std::string_view text) {
  ImportedRecord out;
  out.record = read_record_text(text);
  out.text = record_to_text(out.record);
  out.key = to_hex(sha256(out.text));
  Match match = record_opening(out.record);
  out.positions = 1;
  replay_record_actions(match, out.record, [&](const Match&, const std::string&) { ++out.positions; });
  out.record["rounds"] = match.game().rounds();
  out.record["result"] = match.result();
  with_stored_game_fields(out.record);
  return out;
}

// The answer is the record as read, not its states (issue 46: an import of 22 KB answered
// 35 MB): the states come a page at a time from its /positions.
void parse_record(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                  const ApiReply& reply) {
  on_replay_worker(request, context, reply, [request, reply] {
    ImportedRecord imported = import_record(request->body());
    reply(json_response(*request, http::status::ok,
                        Json{{"key", imported.key},
                             {"record", std::move(imported.record)},
                             {"positions", imported.positions},
                             {"text", imported.text}}));
  });
}

// A page of a record's positions (PositionsPage), replayed as far as the page goes:
// {key, from, total, states, next}.
Json record_positions_page(const Json& record, const std::string& key, PositionsPage page) {
  std::int64_t index = 0;
  const auto take = [&](const Match& match) {
    if (page.wants(index)) page.add(match.state());
    ++index;
  };
  Match match = record_opening(record);
  take(match);
  replay_record_actions(match, record, [&](const Match& after, const std::string&) { take(after); });
  Json answer = std::move(page).answer(index);
  answer["key"] = key;
  return answer;
}

// The record's JSON once its text is the key's: the canonical text itself (as the page sends
// it) is checked by its hash alone, another spelling once made canonical.
Json keyed_record(std::string_view text, const std::string& key) {
  Json record = read_record_text(text);
  const std::string canonical = to_hex(sha256(text)) == key ? std::string(text) : record_to_text(record);
  const std::string canonical_key = to_hex(sha256(canonical));
  if (canonical_key != key)
    throw HttpError{http::status::bad_request, "wrong_key",
                    "this text's key is " + canonical_key + ", not " + key + " (POST /api/records gives it)"};
  return record;
}

void record_positions(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                      const std::string& key, const ApiReply& reply) {
  PositionsPage page(*request);  // a bad query is refused before anything is queued
  on_replay_worker(request, context, reply, [request, reply, key, page = std::move(page)] {
    const Json record = keyed_record(request->body(), key);
    reply(json_response(*request, http::status::ok, record_positions_page(record, key, page)));
  });
}

void record_analysis(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                     const Caller& caller, const std::string& key, const ApiReply& reply) {
  AnalysisJobs& jobs = jobs_of(context);
  if (is_delete(*request)) return reply(cancel_analysis(*request, context, caller, key, std::nullopt));
  if (!is_post(*request) || jobs.exists(key)) return reply(analysis_answer(*request, jobs.status(key)));
  // Counted before the text is read: a wrong key costs the asker his limit, not the server a replay.
  count_against(context.limits.record_analyses, caller, "record analyses");
  refuse_analysis(jobs.admits(caller.asker()), jobs.limits());
  on_replay_worker(request, context, reply, [request, &jobs, key, caller, reply] {
    const Json record = keyed_record(request->body(), key);
    refuse_analysis(jobs.start(key, "", record_to_text(record), caller.asker()), jobs.limits());
    reply(analysis_answer(*request, jobs.status(key)));
  });
}

bool is_record_key(const std::string& key) {
  return key.size() == 64 &&
         std::all_of(key.begin(), key.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// ---------------------------------------------------------------------------------------------
// What-if

// The position `at` of the game or record the body names, ready for more moves.
Match whatif_position(const Json& body, const HttpContext& context, const Caller& caller) {
  const auto at = body.find("at");
  if (at == body.end() || !at->is_number_integer() || at->get<std::int64_t>() < 0)
    throw HttpError{http::status::bad_request, "bad_request", "'at' must be a position index (0 for the opening)"};
  std::vector<analysis::GameStep> steps;
  Json game_type;
  Json options;
  if (body.contains("game_id") && body["game_id"].is_string()) {
    const StoredGame game = finished_game(body["game_id"].get<std::string>(), caller, context.storage);
    steps = game_steps(game.meta, game.actions);
    game_type = game.meta.game;
    options = game.meta.options;
  } else if (body.contains("record") && body["record"].is_string()) {
    const Json record = read_record_text(body["record"].get<std::string>());
    steps = record_steps(record);
    game_type = record["game"];
    options = record["options"];
  } else {
    throw HttpError{http::status::bad_request, "bad_request", "name the game: \"game_id\" or \"record\" (its text)"};
  }
  const auto index = static_cast<std::size_t>(at->get<std::int64_t>());
  if (index >= steps.size())
    throw HttpError{http::status::bad_request, "bad_request",
                    "'at' must be from 0 to " + std::to_string(steps.size() - 1) + " in this game"};
  return Match::from_game(game_type.get<std::string>(), options, steps[index].position->clone());
}

void play_moves(Match& match, const Json& body) {
  const auto moves = body.find("moves");
  if (moves == body.end()) return;
  if (!moves->is_array()) throw HttpError{http::status::bad_request, "bad_request", "'moves' must be a list of action lines"};
  for (std::size_t i = 0; i < moves->size(); ++i) {
    const Json& line = (*moves)[i];
    if (!line.is_string()) throw HttpError{http::status::bad_request, "bad_request", "'moves' must be a list of action lines"};
    const Outcome outcome = play_action_line(match, line.get<std::string>());
    if (!outcome.ok())
      throw HttpError{http::status::bad_request, "illegal_move", "move " + std::to_string(i + 1) + " ('" + line.get<std::string>() +
                                                     "'): " + outcome.error->message};
  }
}

void answer_whatif(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                   const Caller& caller, const ApiReply& reply) {
  AnalysisJobs& jobs = jobs_of(context);
  on_replay_worker(request, context, reply, [request, &context, &jobs, caller, reply] {
    const Json body = Json::parse(request->body(), nullptr, /*allow_exceptions=*/false);
    if (!body.is_object()) throw HttpError{http::status::bad_request, "bad_request", "the body must be a JSON object"};
    Match match = whatif_position(body, context, caller);
    play_moves(match, body);
    Json state = match.state();
    const bool queued = jobs.analyse_once(
        std::shared_ptr<const Game>(match.game().clone()),
        [request, reply, state = std::move(state)](std::optional<analysis::PositionAnalysis> result) {
          if (!result)
            return reply(error_response(*request, {http::status::internal_server_error, "internal",
                                                     "the search failed; try again, or ask about another position"}));
          reply(json_response(*request, http::status::ok,
                              Json{{"state", state}, {"analysis", position_analysis_json(*result)}}));
        });
    if (!queued) throw HttpError{http::status::service_unavailable, "busy", "the engine is busy; try again in a few seconds", kBusyRetry};
  });
}

// ---------------------------------------------------------------------------------------------
// The routes

Caller caller_of(const ApiCall& call) { return {call.viewer(), call.address}; }

std::string record_key(const ApiCall& call) {
  if (!is_record_key(call.params[0]))
    throw not_found("a record's key is the SHA-256 of its text, 64 hex digits (POST /api/records gives it)");
  return call.params[0];
}

// GET reads a stored game's analysis, POST asks for it, DELETE cancels it.
void stored_game_analysis(const ApiCall& call) {
  game_analysis(call.request, call.context, caller_of(call), call.params[0], call.reply);
}
void stored_game_text(const ApiCall& call) {
  call.reply(game_record_text(call.http(), call.context, caller_of(call), call.params[0]));
}
void import(const ApiCall& call) { parse_record(call.request, call.context, call.reply); }
void imported_positions(const ApiCall& call) {
  record_positions(call.request, call.context, record_key(call), call.reply);
}
void imported_analysis(const ApiCall& call) {
  record_analysis(call.request, call.context, caller_of(call), record_key(call), call.reply);
}
void whatif(const ApiCall& call) { answer_whatif(call.request, call.context, caller_of(call), call.reply); }

// Per address and, when known, per player; before the body is read.
void count_analysis_request(const ApiCall& call, const RouteLimit& limit) {
  count_against(call.context.limits.*limit.limiter, caller_of(call), limit.what);
}

// New analyses are counted by their handlers, once they know that the analysis is new.
constexpr RouteLimit kCancels{&RequestLimits::analysis_cancels, "cancelled analyses"};
constexpr Route kRoutes[] = {
    {http::verb::get, "/api/games/{id}/analysis", {}, stored_game_analysis},
    {http::verb::post, "/api/games/{id}/analysis", {}, stored_game_analysis},
    {http::verb::delete_, "/api/games/{id}/analysis", kCancels, stored_game_analysis},
    {http::verb::get, "/api/games/{id}/record.txt", {}, stored_game_text},
    {http::verb::post, "/api/records", {&RequestLimits::record_parses, "record imports"}, import},
    {http::verb::post, "/api/records/{key}/positions", {&RequestLimits::record_positions, "pages of positions"},
     imported_positions},
    {http::verb::get, "/api/records/{key}/analysis", {}, imported_analysis},
    {http::verb::post, "/api/records/{key}/analysis", {}, imported_analysis},
    {http::verb::delete_, "/api/records/{key}/analysis", kCancels, imported_analysis},
    {http::verb::post, "/api/whatif", {&RequestLimits::whatifs, "what-if requests"}, whatif},
};

}  // namespace

RouteTable analysis_routes() { return {"analysis", kRoutes, count_analysis_request}; }

}  // namespace mancala::server
