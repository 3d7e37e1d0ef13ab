#pragma once
// What the database keeps of game analyses (issue 32): one row per analysis, keyed by what was
// analysed (`game:<id>` for a stored game, the SHA-256 of an imported record's canonical text),
// and one row per position as each is done, so a game is analysed once and an analysis
// interrupted by a restart resumes at its first missing position. Positions are inserted
// ignoring conflicts: two processes analysing the same game write the same rows harmlessly; a
// position of an analysis that is no longer running (cancelled) is not inserted.
// Reads block (reader threads); a position's write goes through the group commit.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mancala::server {

struct StoredAnalysis {
  std::string id;
  std::string game_id;      // a stored game's id; empty for an imported record
  std::string record_text;  // an imported record's canonical text (to resume); empty for a game
  std::int64_t total = 0;   // positions
  std::string state;        // running | done | failed
  std::string created;      // ISO 8601 UTC
  std::string finished;     // empty until done or failed
  std::string requested_by;    // the player who asked; empty for nobody known
  std::string requested_from;  // the address that asked
};

class AnalysisStore {
 public:
  using Done = std::function<void(bool committed)>;
  virtual ~AnalysisStore() = default;

  virtual std::optional<StoredAnalysis> find(const std::string& id) = 0;
  // Blocks until stored; an analysis of the same id already there stays as it is.
  virtual void create(const StoredAnalysis& analysis) = 0;
  // The positions done, as their JSON texts, from index 0 without a gap.
  virtual std::vector<std::string> positions(const std::string& id) = 0;
  // Queues position `index` for the next group commit; the last one also marks the analysis
  // done in the same transaction, so it is never done without all its positions.
  virtual void add_position(std::string id, std::int64_t index, std::string json, bool last, Done done) = 0;
  virtual void mark_failed(std::string id, Done done) = 0;
  // A running analysis cancelled: its row and positions go (a position still being searched is
  // then not stored), so it can be asked for again.
  virtual void remove_running(std::string id, Done done) = 0;
  // Analyses still running (this or another process was stopped during them).
  virtual std::vector<StoredAnalysis> unfinished() = 0;
};

}  // namespace mancala::server
