#pragma once
// One update of a game, made ready before its commit: the text every member gets (the state
// written straight as text, no tree), the mover's copy with his request id, the stored action
// and its effects (new round records, the result). Pure: all of it is written while the room
// holds its strand, so the commit's completion only has to send it (room.hpp, commit).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "connection.hpp"
#include "mancala/match.hpp"
#include "storage.hpp"

namespace mancala::server {

// What the room applied to its match: `kind` (move, resign, abandon, timeout, or the game's
// own) for `seat`, with the engine's outcome.
struct AppliedAction {
  std::string kind;
  int seat = 0;
  std::string tokens;  // a move's; empty for anything else
  Outcome outcome;
};

struct PreparedUpdate {
  SharedText text;        // for every member
  SharedText mover_text;  // for the mover, with his request id; null when the server made it
  std::shared_ptr<const StoredAction> action;
  UpdateEffects effects;
  std::size_t rounds_after = 0;  // rounds the game has played once this update is stored
};

// The update of `applied`, which took `match` (already changed) from version `version` on.
// `clock_view` is the clock as the update leaves it; `rounds_stored` the rounds whose records
// are stored already; `mover` the request's id when a person asked for it; `at` the time.
PreparedUpdate prepare_update(const std::string& room_id, std::int64_t version, const Match& match,
                              AppliedAction applied, Json clock_view, std::size_t rounds_stored,
                              const std::optional<protocol::RequestId>& mover, std::string at);

}  // namespace mancala::server
