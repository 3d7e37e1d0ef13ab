#pragma once
// Game analyses on the computer players' worker pool (issue 32): one job per position, so that
// bots' moves interleave with analysis at the same idle priority, each position stored as it is
// done (analysis_store.hpp). A stored game is analysed once; an analysis a restart interrupted
// resumes at its first missing position, at the start or when it is next asked for. Also the
// what-if searches: one position, a small budget, nothing stored.
//
// Analyses are keyed: `game:<id>` for a stored game, the SHA-256 (hex) of an imported record's
// canonical text for a record. Any thread; the status reads block (call them on a reader).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "mancala/analysis.hpp"
#include "mancala/json.hpp"
#include "net.hpp"

namespace mancala::server {

class BotPool;
class Storage;
struct StoredAnalysis;

// The analysis of a stored game, by the game's id.
std::string game_analysis_id(const std::string& game_id);

// One position's analysis as the API shows it: to_move, eval, best, exact.
Json position_analysis_json(const analysis::PositionAnalysis& position);

class AnalysisJobs : public std::enable_shared_from_this<AnalysisJobs> {
 public:
  // `playouts`: the search budget a position (--analysis-playouts); 0 for the engine's default.
  static std::shared_ptr<AnalysisJobs> create(net::io_context& io, BotPool& pool, Storage& storage,
                                              std::int64_t playouts);

  // The analysis as the API answers it (protocol/README.md): state none when never asked.
  // Resumes a running analysis that nobody in this process is working on (a restart).
  Json status(const std::string& id);
  // Whether an analysis of this id exists (then start() adds no work).
  bool exists(const std::string& id);
  // Starts analysing a stored game (`game_id`) or an imported record (its canonical text) under
  // `id`, unless it exists. Throws EngineError when the game does not replay.
  void start(const std::string& id, const std::string& game_id, const std::string& record_text);
  // Analyses still running in the database, started again (at the server's start).
  void resume_unfinished();
  // No more positions are queued (before the pool stops): the ones searched now are still
  // stored, the rest wait in the database for the next start.
  void stop() { stopped_ = true; }

  // What-if: `position` searched with the small what-if budget on a worker; `done` runs there
  // with the result, or with nothing when the search failed. False when the queue is full.
  using WhatIfDone = std::function<void(std::optional<analysis::PositionAnalysis>)>;
  bool analyse_once(std::shared_ptr<const Game> position, WhatIfDone done);

 private:
  struct Run;
  AnalysisJobs(net::io_context& io, BotPool& pool, Storage& storage, std::int64_t playouts);
  void resume(const StoredAnalysis& analysis, std::size_t done_positions);
  void launch(const std::string& id, std::vector<analysis::GameStep> steps, std::size_t first);
  void schedule(const std::shared_ptr<Run>& run, std::size_t index);
  void analyse(const std::shared_ptr<Run>& run, std::size_t index);
  void stored(const std::shared_ptr<Run>& run, std::size_t index, bool committed);
  void retry_later(const std::shared_ptr<Run>& run, std::size_t index);
  void forget(const std::string& id);
  bool running(const std::string& id);
  analysis::Budget budget(int players) const;

  net::io_context& io_;
  BotPool& pool_;
  Storage& storage_;
  std::int64_t playouts_;
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Run>> running_;  // analyses this process works on
};

}  // namespace mancala::server
