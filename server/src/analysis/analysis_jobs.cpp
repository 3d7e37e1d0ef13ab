#include "analysis_jobs.hpp"

#include <cmath>
#include <future>

#include "clock.hpp"
#include "game_log.hpp"
#include "log.hpp"
#include "mancala/action_line.hpp"
#include "mancala/record_text.hpp"
#include "storage.hpp"
#include "work_queue.hpp"

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
  AnalysisAsker asker;
  std::vector<GameStep> steps;
  int players = 2;
  std::atomic<bool> cancelled{false};
};

std::shared_ptr<AnalysisJobs> AnalysisJobs::create(net::io_context& io, WorkQueue& workers, Storage& storage,
                                                   std::int64_t playouts, AnalysisLimits limits) {
  return std::shared_ptr<AnalysisJobs>(new AnalysisJobs(io, workers, storage, playouts, limits));
}

AnalysisJobs::AnalysisJobs(net::io_context& io, WorkQueue& workers, Storage& storage, std::int64_t playouts,
                           AnalysisLimits limits)
    : io_(io), workers_(workers), storage_(storage), playouts_(playouts), limits_(limits) {}

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

AnalysisAdmission AnalysisJobs::admits_locked(const AnalysisAsker& asker) const {
  if (running_.size() >= limits_.max_running) return AnalysisAdmission::queue_full;
  std::size_t by_player = 0;
  std::size_t by_address = 0;
  for (const auto& [id, run] : running_) {
    by_player += !asker.player.empty() && run->asker.player == asker.player;
    by_address += !asker.address.empty() && run->asker.address == asker.address;
  }
  if (by_player >= limits_.max_per_asker || by_address >= limits_.max_per_asker) return AnalysisAdmission::asker_busy;
  return AnalysisAdmission::admitted;
}

AnalysisAdmission AnalysisJobs::admits(const AnalysisAsker& asker) {
  const std::lock_guard lock(mutex_);
  return admits_locked(asker);
}

// A place in the queue for `id`, taken before its steps are read so that two requests at once
// cannot both take the last one; null (and why in `admission`) when there is none.
std::shared_ptr<AnalysisJobs::Run> AnalysisJobs::reserve(const std::string& id, const AnalysisAsker& asker,
                                                         AnalysisAdmission& admission) {
  const std::lock_guard lock(mutex_);
  if (running_.contains(id)) {
    admission = AnalysisAdmission::exists;
    return nullptr;
  }
  admission = admits_locked(asker);
  if (admission != AnalysisAdmission::admitted) return nullptr;
  auto run = std::make_shared<Run>();
  run->id = id;
  run->asker = asker;
  running_.emplace(id, run);
  return run;
}

AnalysisAdmission AnalysisJobs::start(const std::string& id, const std::string& game_id,
                                      const std::string& record_text, const AnalysisAsker& asker) {
  if (exists(id)) return AnalysisAdmission::exists;
  AnalysisAdmission admission = AnalysisAdmission::admitted;
  const auto run = reserve(id, asker, admission);
  if (!run) return admission;
  std::vector<GameStep> steps;
  try {
    steps = steps_of(storage_, game_id, record_text);
  } catch (...) {
    forget(run);
    throw;
  }
  if (steps.size() > limits_.max_positions) {
    forget(run);
    return AnalysisAdmission::too_long;
  }
  storage_.analyses().create(StoredAnalysis{id, game_id, record_text, static_cast<std::int64_t>(steps.size()),
                                            "running", now_utc(), "", asker.player, asker.address});
  log_info("analysis_started", {{"analysis", id}, {"positions", steps.size()}});
  launch(run, std::move(steps), 0);
  return AnalysisAdmission::admitted;
}

bool AnalysisJobs::cancel(const std::string& id) {
  const auto row = storage_.analyses().find(id);
  if (!row || row->state != "running") return false;
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = running_.find(id); it != running_.end()) {
      it->second->cancelled = true;  // its position being searched is dropped, no next one queued
      running_.erase(it);
    }
  }
  std::promise<bool> removed;
  storage_.analyses().remove_running(id, [&removed](bool committed) { removed.set_value(committed); });
  if (!removed.get_future().get()) throw std::runtime_error("the cancelled analysis could not be removed");
  log_info("analysis_cancelled", {{"analysis", id}});
  resume_waiting();
  return true;
}

void AnalysisJobs::resume_unfinished() {
  for (const auto& row : storage_.analyses().unfinished())
    if (!resume(row, storage_.analyses().positions(row.id).size())) break;  // the rest wait for a place
}

// An analysis a restart (or another process) left running, started again if there is a place
// for it; false when there is none (it stays queued in the database).
bool AnalysisJobs::resume(const StoredAnalysis& row, std::size_t done_positions) {
  if (row.total > static_cast<std::int64_t>(limits_.max_positions)) {  // from before the limit
    log_warn("analysis_too_long", {{"analysis", row.id}, {"positions", row.total}});
    storage_.analyses().mark_failed(row.id, [](bool) {});
    return true;
  }
  std::shared_ptr<Run> run;
  {
    const std::lock_guard lock(mutex_);
    if (running_.contains(row.id)) return true;
    if (running_.size() >= limits_.max_running) return false;
    run = std::make_shared<Run>();
    run->id = row.id;
    run->asker = {row.requested_by, row.requested_from};
    running_.emplace(row.id, run);
  }
  try {
    log_info("analysis_resumed", {{"analysis", row.id}, {"from", done_positions}});
    launch(run, steps_of(storage_, row.game_id, row.record_text), done_positions);
  } catch (const std::exception& e) {  // a game that no longer replays: say so rather than run forever
    log_error("analysis_unresumable", {{"analysis", row.id}, {"message", e.what()}});
    forget(run);
    storage_.analyses().mark_failed(row.id, [](bool) {});
  }
  return true;
}

// A place came free: the next analysis waiting in the database takes it. On a worker, since it
// reads the database (which the writer thread, where positions are stored, must not wait for).
void AnalysisJobs::resume_waiting() {
  workers_.push([self = shared_from_this()] {
    try {
      for (const auto& row : self->storage_.analyses().unfinished())
        if (!self->running(row.id)) {
          self->resume(row, self->storage_.analyses().positions(row.id).size());
          return;
        }
    } catch (const std::exception& e) {
      log_error("analysis_resume_failed", {{"message", e.what()}});
    }
  });
}

void AnalysisJobs::launch(const std::shared_ptr<Run>& run, std::vector<GameStep> steps, std::size_t first) {
  run->players = steps.front().position->players();
  run->steps = std::move(steps);
  schedule(run, first);
}

bool AnalysisJobs::running(const std::string& id) {
  const std::lock_guard lock(mutex_);
  return running_.contains(id);
}

// Only this run: a cancelled analysis asked for again is another run under the same id.
void AnalysisJobs::forget(const std::shared_ptr<Run>& run) {
  const std::lock_guard lock(mutex_);
  if (const auto it = running_.find(run->id); it != running_.end() && it->second == run) running_.erase(it);
}

void AnalysisJobs::schedule(const std::shared_ptr<Run>& run, std::size_t index) {
  if (run->cancelled) return;
  if (index >= run->steps.size() || stopped_) {
    forget(run);
    if (!stopped_) resume_waiting();
    return;
  }
  const bool queued = workers_.push([self = shared_from_this(), run, index] { self->analyse(run, index); });
  if (!queued) retry_later(run, index);  // the workers' queue is full (what-ifs): a little later
}

void AnalysisJobs::analyse(const std::shared_ptr<Run>& run, std::size_t index) {
  if (run->cancelled) return;
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
    forget(run);
  }
}

// On the writer thread: the next position goes to the workers; a failed write is tried again.
void AnalysisJobs::stored(const std::shared_ptr<Run>& run, std::size_t index, bool committed) {
  if (!committed) return retry_later(run, index);
  if (index + 1 == run->steps.size() && !run->cancelled) log_info("analysis_done", {{"analysis", run->id}});
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
  return workers_.push([position = std::move(position), done = std::move(done), small] {
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
