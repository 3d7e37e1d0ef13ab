#pragma once
// Game analyses on workers of their own (issue 32; the bots' until issue 46): one job per
// position, so that what-ifs and other analyses interleave with a long one, each position
// stored as it is done (analysis_store.hpp). A stored game is analysed once; an analysis a
// restart interrupted resumes at its first missing position, at the start or when it is next
// asked for. Also the what-if searches: one position, a small budget, nothing stored.
//
// What an analysis may cost is bounded (issue 46, AnalysisLimits): a game or record of more
// positions is not analysed, and only so many analyses are queued or running at once, in all
// and per player and per address; the one who asked may cancel his. Resumed analyses keep to
// the same limits: beyond the global one they wait, in the database, for a free place.
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

class Storage;
class WorkQueue;
struct StoredAnalysis;

// Who asks for an analysis: the player (empty for nobody known) and the address.
struct AnalysisAsker {
  std::string player;
  std::string address;
};

// What analyses may cost. A 1,000-move Njaka game is about 100 s of a core with the default
// budget, and each position is about 200 bytes of the analysis's answer.
struct AnalysisLimits {
  std::size_t max_positions = 300;  // a longer game or record is not analysed
  std::size_t max_running = 8;      // analyses queued or running at once, in all
  std::size_t max_per_asker = 2;    // ... per player and per address
};

// Whether an analysis may start, and why not.
enum class AnalysisAdmission { admitted, exists, too_long, queue_full, asker_busy };

// The analysis of a stored game, by the game's id.
std::string game_analysis_id(const std::string& game_id);

// One position's analysis as the API shows it: to_move, eval, best, exact.
Json position_analysis_json(const analysis::PositionAnalysis& position);

class AnalysisJobs : public std::enable_shared_from_this<AnalysisJobs> {
 public:
  // `playouts`: the search budget a position (--analysis-playouts); 0 for the engine's default.
  // `workers`: the analysis workers (the what-ifs' too).
  static std::shared_ptr<AnalysisJobs> create(net::io_context& io, WorkQueue& workers, Storage& storage,
                                              std::int64_t playouts, AnalysisLimits limits = {});

  const AnalysisLimits& limits() const { return limits_; }

  // The analysis as the API answers it (protocol/README.md): state none when never asked.
  // Resumes a running analysis that nobody in this process is working on (a restart).
  Json status(const std::string& id);
  // Whether an analysis of this id exists (then start() adds no work).
  bool exists(const std::string& id);
  // Whether `asker` may start another analysis now (admitted, queue_full or asker_busy): asked
  // before the work of reading what is to be analysed. start() asks again.
  AnalysisAdmission admits(const AnalysisAsker& asker);
  // Starts analysing a stored game (`game_id`) or an imported record (its canonical text) under
  // `id`, unless it exists or a limit is in the way. Throws EngineError when the game does not
  // replay.
  AnalysisAdmission start(const std::string& id, const std::string& game_id, const std::string& record_text,
                          const AnalysisAsker& asker);
  // Cancels a queued or running analysis (who may is the caller's business): its positions are
  // forgotten, so it may be asked for again. False when it is not running.
  bool cancel(const std::string& id);
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
  AnalysisJobs(net::io_context& io, WorkQueue& workers, Storage& storage, std::int64_t playouts,
               AnalysisLimits limits);
  AnalysisAdmission admits_locked(const AnalysisAsker& asker) const;  // mutex_ held
  std::shared_ptr<Run> reserve(const std::string& id, const AnalysisAsker& asker, AnalysisAdmission& admission);
  bool resume(const StoredAnalysis& analysis, std::size_t done_positions);
  void resume_waiting();
  void launch(const std::shared_ptr<Run>& run, std::vector<analysis::GameStep> steps, std::size_t first);
  void schedule(const std::shared_ptr<Run>& run, std::size_t index);
  void analyse(const std::shared_ptr<Run>& run, std::size_t index);
  void stored(const std::shared_ptr<Run>& run, std::size_t index, bool committed);
  void retry_later(const std::shared_ptr<Run>& run, std::size_t index);
  void forget(const std::shared_ptr<Run>& run);
  bool running(const std::string& id);
  analysis::Budget budget(int players) const;

  net::io_context& io_;
  WorkQueue& workers_;
  Storage& storage_;
  std::int64_t playouts_;
  const AnalysisLimits limits_;
  std::atomic<bool> stopped_{false};
  std::mutex mutex_;
  // Analyses this process works on, and those being read before they start (reserve).
  std::map<std::string, std::shared_ptr<Run>> running_;
};

}  // namespace mancala::server
