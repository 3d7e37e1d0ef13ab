#pragma once
// One action of a game as a line of text, the form `mancala replay` and `mancala analyse` read,
// the server's what-if requests send, and an analysis names the action played: a move's tokens
// (`c3 R`), `resign <seat>`, `concede <seat>`, `plex <seat>` (a claim), `plex_timeout`.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/analysis.hpp"
#include "mancala/match.hpp"

namespace mancala {

// Applies the line to `match`; a refusal (illegal move, bad seat number…) comes back in the
// Outcome with the engine's words.
Outcome play_action_line(Match& match, std::string_view line);

// The line of a stored or recorded action by its kind (`move`, `resign`, `timeout`, a special
// action, a claim or a claim window's fallback), the seat that took it and a move's tokens.
std::string action_line(std::string_view kind, Seat seat, std::string_view tokens);

// A JSON game record's opening position (its game, options and draws).
Match record_opening(const Json& record);
// Replays the record's actions on `match` (from record_opening), forced events skipped;
// `visit(match, line)` runs after each with the action's line. Throws EngineError naming the
// action when one does not replay.
void replay_record_actions(Match& match, const Json& record,
                           const std::function<void(const Match&, const std::string& line)>& visit);

// The positions of a JSON game record for analysis, as replay_record_actions reaches them.
std::vector<analysis::GameStep> record_steps(const Json& record);

// A game's positions for analysis, collected while it is replayed: the opening first, then one
// call to `played` per action with the position it led to.
class StepCollector {
 public:
  explicit StepCollector(const Game& opening);
  void played(std::string line, const Game& after);
  const std::vector<analysis::GameStep>& steps() const { return steps_; }
  std::vector<analysis::GameStep> take() { return std::move(steps_); }

 private:
  std::vector<analysis::GameStep> steps_;
};

}  // namespace mancala
