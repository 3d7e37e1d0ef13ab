#pragma once
// Game records as text (docs/records.md): a header of tags, then the numbered actions in the
// move notation, with comments, analysis marks and the forced events. Converts both ways to the
// JSON game record of notation.md; the import replays every action through the engine.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "mancala/analysis.hpp"
#include "mancala/error.hpp"
#include "mancala/json.hpp"

namespace mancala {

// How much a move lost, as the analysis marks it (`?!`, `?`, `??` in the text; "inaccuracy",
// "mistake", "blunder" in a record entry's "mark"). Never Mark::none in a note.
using MoveMark = analysis::Mark;

// What a text adds to one action: a mark and a comment (empty: none).
struct MoveNote {
  std::optional<MoveMark> mark;
  std::string comment;
};

// A text that does not convert, with where: line and column are 1-based. The code says what kind
// of fault it is (bad_request for the text's own syntax, unknown_game, bad_option, illegal_move…),
// and what() reads "line 7, column 4: …".
class RecordTextError : public EngineError {
 public:
  RecordTextError(ErrorCode code, int line, int column, const std::string& message);
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  int line_;
  int column_;
};

// The text of a JSON game record. Entries may carry "mark" and "comment"; `notes`, by action
// number (1-based: moves, resignations, claims… as the text numbers them), add to or replace
// them. Throws EngineError when the record does not replay.
std::string record_to_text(const Json& record, const std::map<int, MoveNote>& notes = {});

// The JSON game record of a text: game, options (defaults filled in), draws, turns (each action's
// "mark" and "comment" on its entry), and players, date, comment and result when there are any.
// Throws RecordTextError naming the line and column of the first fault.
Json record_from_text(std::string_view text);

}  // namespace mancala
