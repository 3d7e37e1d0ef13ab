#pragma once
// Replaying stored actions through the engine: rebuilding a room after a restart, the updates
// of `sync`, the record and the positions of the history API. Written once, so every one of
// them sees exactly the same game.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "mancala/analysis.hpp"
#include "mancala/match.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/server_messages.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// Applies one action of the given kind for `seat` (tokens only for moves).
Outcome apply_action(Match& match, std::string_view kind, int seat, std::string_view tokens);

// The game's opening position (Match::restore with its stored draws).
Match opening(const GameMeta& meta);

// The events text a stored action keeps. A move keeps none: its events are the engine's, and
// replaying the move makes them again. They were two thirds of a move's row, and every row is
// written twice (to the WAL and by a checkpoint). Other kinds keep theirs: a claim's settling
// event carries the race's latency, which no replay knows.
std::string events_to_store(std::string_view kind, std::string events);

// Replays `actions` in order; `visit(match, action)` runs after each one, with the action's
// events made again if it was stored without them. Throws EngineError naming the version when
// a stored action no longer replays (a changed rule or a corrupt row).
Match replay(const GameMeta& meta, const std::vector<StoredAction>& actions,
             const std::function<void(const Match&, const StoredAction&)>& visit = {});

// The update of a stored action, with the state of `match` right after it.
protocol::Update make_update(std::string_view room, const StoredAction& action, const Match& match);

// `sync`'s answer: the updates after version `since` up to and including `until`.
std::vector<protocol::Update> updates_between(const GameMeta& meta, const std::vector<StoredAction>& actions,
                                              std::int64_t since, std::int64_t until);

// A move sent again by a client that lost the reply (`expected_version` already played, by the
// same seat with the same tokens): the stored update it caused. Nullopt for any other move.
std::optional<protocol::Update> stored_update_of(const GameMeta& meta, std::vector<StoredAction> actions,
                                                 const protocol::Move& move, int seat);

// The game record of notation.md with the annotations of the history API (see
// protocol/README.md): replaying it with Match::from_record reproduces every position.
Json game_record(const GameMeta& meta, const std::vector<StoredAction>& actions);

// The positions of a stored game for analysis: position k is the state after the first k
// actions, as states[k] of game_states, with the line of the action taken from it.
std::vector<analysis::GameStep> game_steps(const GameMeta& meta, const std::vector<StoredAction>& actions);

// states[v] is the state at version v.
Json game_states(const GameMeta& meta, const std::vector<StoredAction>& actions);
// The seats of a stored game as the history shows them: name, and for a person the player id
// and whether it is an account.
Json players_json(const GameMeta& meta);

}  // namespace mancala::server
