#include "analysis_jobs.hpp"

#include <cmath>

#include "bot_pool.hpp"
#include "clock.hpp"
#include "game_log.hpp"
#include "log.hpp"
#include "mancala/action_line.hpp"
#include "mancala/record_text.hpp"
#include "storage.hpp"

namespace mancala::server {

using analysis::GameStep;
using analysis::PlyAnalysis;

namespace {

// Every analysis searches with the same seed, so an analysis repeats exactly (with a budget
// without a clock) whichever process does it and however often it resumes.
constexpr std::uint64_t kAnalysisSeed = 32;
// What-if answers come while a person waits: a small budget, unless tests ask for less.
constexpr std::int64_t kWhatIfPlayouts = 3'000;
constexpr auto kRetryAfter = std::chrono::milliseconds(500);

Json thresholds_json() {
  return Json{{"inaccuracy", analysis::kInaccuracyDrop},
              {"mistake", analysis::kMistakeDrop},
              {"blunder", analysis::kBlunderDrop}};
}

double rounded(double value) { return std::round(value * 10'000) / 10'000; }

Json eval_json(const std::vector<double>& eval) {
  Json out = Json::array();
  for (double share : eval) out.push_back(rounded(share));
  return out;
}

Json text_or_null(const std::optional<std::string>& text) { return text ? Json(*text) : Json(); }

// The steps of what an analysis row names: a stored game replayed, or the record text imported.
std::vector<GameStep> steps_of(Storage& storage, const std::string& game_id, const std::string& record_text) {
  if (!record_text.empty()) return record_steps(record_from_text(record_text));
  const auto game = storage.load_game(game_id);
  if (!game) throw std::runtime_error("game " + game_id + " is no longer stored");
  return game_steps(game->meta, game->actions);
}

PlyAnalysis ply_from_json(const Json& json) {
  PlyAnalysis ply;
  ply.position.to_move = json.at("to_move").is_null() ? kNoSeat : json.at("to_move").get<Seat>();
  ply.position.eval = json.at("eval").get<std::vector<double>>();
  if (json.at("best").is_string()) ply.position.best = json.at("best").get<std::string>();
  ply.position.exact = json.at("exact").get<bool>();
  if (json.at("played").is_string()) ply.played = json.at("played").get<std::string>();
  ply.played_is_move = json.at("is_move").get<bool>();
  return ply;
}

}  // namespace

Json position_analysis_json(const analysis::PositionAnalysis& position) {
  return Json{{"to_move", position.to_move == kNoSeat ? Json() : Json(position.to_move)},
              {"eval", eval_json(position.eval)},
              {"best", text_or_null(position.best)},
              {"exact", position.exact}};
}

namespace {

// What is stored of a position: its analysis and the action taken from it.
std::string stored_ply_text(const PlyAnalysis& ply) {
  Json json = position_analysis_json(ply.position);
  json["played"] = text_or_null(ply.played);
  json["is_move"] = ply.played_is_move;
  return json.dump();
}

Json judged_json(const analysis::GameAnalysis& judged, const std::vector<std::string>& texts) {
  Json positions = Json::array();
  for (std::size_t k = 0; k < judged.plies.size(); ++k) {
    const PlyAnalysis& ply = judged.plies[k];
    Json entry{{"index", k}};
    entry.update(Json::parse(texts[k]));
    entry.erase("is_move");
    entry["drop"] = ply.played_is_move ? Json(rounded(ply.drop)) : Json();
    entry["mark"] = ply.mark == analysis::Mark::none ? Json() : Json(std::string(to_string(ply.mark)));
    positions.push_back(std::move(entry));
  }
  return positions;
}

Json accuracy_json(const analysis::GameAnalysis& judged) {
  Json out = Json::array();
  for (const auto& accuracy : judged.accuracy) out.push_back(accuracy ? Json(std::round(*accuracy * 10) / 10) : Json());
  return out;
}

}  // namespace

std::string game_analysis_id(const std::string& game_id) { return "game:" + game_id; }

struct AnalysisJobs::Run {
  std::string id;
  std::vector<GameStep> steps;
  int players = 2;
};

std::shared_ptr<AnalysisJobs> AnalysisJobs::create(net::io_context& io, BotPool& pool, Storage& storage,
                                                   std::int64_t playouts) {
  return std::shared_ptr<AnalysisJobs>(new AnalysisJobs(io, pool, storage, playouts));
}

AnalysisJobs::AnalysisJobs(net::io_context& io, BotPool& pool, Storage& storage, std::int64_t playouts)
    : io_(io), pool_(pool), storage_(storage), playouts_(playouts) {}

analysis::Budget AnalysisJobs::budget(int players) const {
  if (playouts_ > 0) return analysis::Budget{playouts_, std::chrono::milliseconds(0)};
  return analysis::default_budget(players);
}

bool AnalysisJobs::exists(const std::string& id) { return storage_.analyses().find(id).has_value(); }

Json AnalysisJobs::status(const std::string& id) {
  const auto row = storage_.analyses().find(id);
  if (!row)
    return Json{{"state", "none"}, {"done", 0}, {"total", 0}, {"thresholds", thresholds_json()},
                {"positions", Json::array()}, {"accuracy", Json()}};
  const auto texts = storage_.analyses().positions(id);
  if (row->state == "running" && !running(id)) resume(*row, texts.size());
  std::vector<PlyAnalysis> plies;
  for (const auto& text : texts) plies.push_back(ply_from_json(Json::parse(text)));
  const int players = plies.empty() ? 2 : static_cast<int>(plies.front().position.eval.size());
  const bool done = row->state == "done";
  const auto judged = analysis::judge_plies(std::move(plies), players, done);
  const std::string state = row->state != "running" ? row->state : texts.empty() ? "queued" : "running";
  return Json{{"state", state},
              {"done", texts.size()},
              {"total", row->total},
              {"thresholds", thresholds_json()},
              {"positions", judged_json(judged, texts)},
              {"accuracy", done ? accuracy_json(judged) : Json()}};
}

void AnalysisJobs::start(const std::string& id, const std::string& game_id, const std::string& record_text) {
  if (exists(id)) return;
  auto steps = steps_of(storage_, game_id, record_text);
  storage_.analyses().create(StoredAnalysis{id, game_id, record_text, static_cast<std::int64_t>(steps.size()),
                                            "running", now_utc(), ""});
  log_info("analysis_started", {{"analysis", id}, {"positions", steps.size()}});
  launch(id, std::move(steps), 0);
}

void AnalysisJobs::resume_unfinished() {
  for (const auto& row : storage_.analyses().unfinished())
    resume(row, storage_.analyses().positions(row.id).size());
}

void AnalysisJobs::resume(const StoredAnalysis& row, std::size_t done_positions) {
  try {
    log_info("analysis_resumed", {{"analysis", row.id}, {"from", done_positions}});
    launch(row.id, steps_of(storage_, row.game_id, row.record_text), done_positions);
  } catch (const std::exception& e) {  // a game that no longer replays: say so rather than run forever
    log_error("analysis_unresumable", {{"analysis", row.id}, {"message", e.what()}});
    storage_.analyses().mark_failed(row.id, [](bool) {});
  }
}

void AnalysisJobs::launch(const std::string& id, std::vector<GameStep> steps, std::size_t first) {
  auto run = std::make_shared<Run>();
  run->id = id;
  run->players = steps.front().position->players();
  run->steps = std::move(steps);
  {
    const std::lock_guard lock(mutex_);
    if (!running_.emplace(id, run).second) return;  // another request launched it just now
  }
  schedule(run, first);
}

bool AnalysisJobs::running(const std::string& id) {
  const std::lock_guard lock(mutex_);
  return running_.contains(id);
}

void AnalysisJobs::forget(const std::string& id) {
  const std::lock_guard lock(mutex_);
  running_.erase(id);
}

void AnalysisJobs::schedule(const std::shared_ptr<Run>& run, std::size_t index) {
  if (index >= run->steps.size() || stopped_) return forget(run->id);
  const bool queued = pool_.submit([self = shared_from_this(), run, index] { self->analyse(run, index); });
  if (!queued) retry_later(run, index);  // the bots' queue is full: its moves come first
}

void AnalysisJobs::analyse(const std::shared_ptr<Run>& run, std::size_t index) {
  try {
    const PlyAnalysis ply = analysis::analyse_step(run->steps, index, budget(run->players), kAnalysisSeed);
    const bool last = index + 1 == run->steps.size();
    storage_.analyses().add_position(run->id, static_cast<std::int64_t>(index), stored_ply_text(ply), last,
                                     [self = shared_from_this(), run, index](bool committed) {
                                       self->stored(run, index, committed);
                                     });
  } catch (const std::exception& e) {
    log_error("analysis_failed", {{"analysis", run->id}, {"position", index}, {"message", e.what()}});
    storage_.analyses().mark_failed(run->id, [](bool) {});
    forget(run->id);
  }
}

// On the writer thread: the next position goes to the pool; a failed write is tried again.
void AnalysisJobs::stored(const std::shared_ptr<Run>& run, std::size_t index, bool committed) {
  if (!committed) return retry_later(run, index);
  if (index + 1 == run->steps.size()) log_info("analysis_done", {{"analysis", run->id}});
  schedule(run, index + 1);
}

void AnalysisJobs::retry_later(const std::shared_ptr<Run>& run, std::size_t index) {
  auto timer = std::make_shared<net::steady_timer>(io_, kRetryAfter);
  timer->async_wait([self = shared_from_this(), run, index, timer](const error_code& error) {
    if (!error) self->schedule(run, index);
  });
}

bool AnalysisJobs::analyse_once(std::shared_ptr<const Game> position, WhatIfDone done) {
  const analysis::Budget small{playouts_ > 0 ? std::min(playouts_, kWhatIfPlayouts) : kWhatIfPlayouts,
                               std::chrono::milliseconds(0)};
  return pool_.submit([position = std::move(position), done = std::move(done), small] {
    std::optional<analysis::PositionAnalysis> result;
    try {
      result = analysis::analyse_position(*position, small, kAnalysisSeed);
    } catch (const std::exception& e) {
      log_error("whatif_failed", {{"message", e.what()}});
    }
    done(std::move(result));  // once, whatever happened
  });
}

}  // namespace mancala::server
