#include "game_log.hpp"

#include <algorithm>

#include "mancala/action_line.hpp"
#include "room_clock.hpp"

namespace mancala::server {

Outcome apply_action(Match& match, std::string_view kind, int seat, std::string_view tokens) {
  if (kind == "move") return match.play(seat, tokens);
  if (kind == "resign" || kind == "abandon") return match.resign(seat);
  if (kind == "timeout") return match.timeout(seat);
  return match.declared_action(kind, seat);  // a special action, a claim or a fallback, by the game's names
}

Match opening(const GameMeta& meta) { return Match::restore(meta.game, meta.options, meta.draws); }

std::string events_to_store(std::string_view kind, std::string events) {
  return kind == "move" ? std::string() : std::move(events);
}

Match replay(const GameMeta& meta, const std::vector<StoredAction>& actions,
             const std::function<void(const Match&, const StoredAction&)>& visit) {
  Match match = opening(meta);
  for (const auto& action : actions) {
    Outcome outcome = apply_action(match, action.kind, action.seat.value_or(kNoSeat), action.tokens);
    if (!outcome.ok())
      throw EngineError(outcome.error->code, "game " + meta.id + " version " +
                                                 std::to_string(action.version) +
                                                 " does not replay: " + outcome.error->message);
    if (!visit) continue;
    if (!action.events.empty()) {
      visit(match, action);
      continue;
    }
    StoredAction told = action;
    told.events = to_json_text(Json(std::move(outcome.events)));
    visit(match, told);
  }
  return match;
}

protocol::Update make_update(std::string_view room, const StoredAction& action, const Match& match) {
  return protocol::Update{std::string(room), action.version, action.seat, action.kind, action.tokens, action.events,
                          protocol::write_state(match, action.clock)};  // the clock as it stood right after
}

Json game_record(const GameMeta& meta, const std::vector<StoredAction>& actions) {
  Json turns = Json::array();
  const Match match = replay(meta, actions, [&](const Match&, const StoredAction& action) {
    // The entry that replays this action: the move itself, or the special event that leads the
    // events of a resign, a special action or a claim window's settling. It carries the whole update.
    const bool is_move = action.kind == "move";
    const Json events = Json::parse(action.events);
    Json head = is_move ? Json{{"seat", action.seat.value_or(kNoSeat)}, {"tokens", action.tokens}}
                        : (events.empty() ? Json::object() : events[0]);
    head["version"] = action.version;
    head["at"] = action.at;
    head["events"] = events;
    if (!action.clock.is_null()) head["clock"] = action.clock;
    turns.push_back(std::move(head));
    for (std::size_t i = is_move ? 0 : 1; i < events.size(); ++i)
      if (recorded_event(events[i])) turns.push_back(events[i]);
  });
  return Json{{"id", meta.id},
              {"game", meta.game},
              {"options", meta.options},
              {"players", players_json(meta)},
              {"rated", meta.rated},
              {"host", meta.host_name.empty() ? Json() : Json(meta.host_name)},
              {"draws", meta.draws},
              {"status", meta.status},
              {"time_control", meta.clock},
              {"started", meta.started.empty() ? Json() : Json(meta.started)},
              {"finished", meta.finished.empty() ? Json() : Json(meta.finished)},
              {"turns", std::move(turns)},
              {"rounds", match.game().rounds()},
              {"result", match.result()}};
}

Json players_json(const GameMeta& meta) {
  Json players = Json::array();
  for (const auto& seat : meta.seats) {
    Json player{{"seat", seat.seat}, {"name", seat.name}};
    if (!seat.bot_level) {
      player["player_id"] = seat.player_id;
      player["account"] = seat.account;
    }
    players.push_back(std::move(player));
  }
  return players;
}

Json game_states(const GameMeta& meta, const std::vector<StoredAction>& actions) {
  Json states = Json::array();
  const Match start = opening(meta);
  Json first = start.state();
  first["clock"] = opening_clock_view(meta, start);
  states.push_back(std::move(first));
  replay(meta, actions, [&](const Match& match, const StoredAction& action) {
    Json state = match.state();
    state["clock"] = action.clock;
    states.push_back(std::move(state));
  });
  return states;
}

std::vector<analysis::GameStep> game_steps(const GameMeta& meta, const std::vector<StoredAction>& actions) {
  StepCollector steps(opening(meta).game());
  replay(meta, actions, [&](const Match& match, const StoredAction& action) {
    steps.played(action_line(action.kind, action.seat.value_or(kNoSeat), action.tokens), match.game());
  });
  return steps.take();
}

std::vector<protocol::Update> updates_between(const GameMeta& meta, const std::vector<StoredAction>& actions,
                                              std::int64_t since, std::int64_t until) {
  std::vector<protocol::Update> updates;
  replay(meta, actions, [&](const Match& match, const StoredAction& action) {
    if (action.version > since && action.version <= until) updates.push_back(make_update(meta.id, action, match));
  });
  return updates;
}

std::optional<protocol::Update> stored_update_of(const GameMeta& meta, std::vector<StoredAction> actions,
                                                 const protocol::Move& move, int seat) {
  const auto applied = static_cast<std::size_t>(move.expected_version);  // index of version+1
  if (move.expected_version < 0 || applied >= actions.size()) return std::nullopt;
  const StoredAction& action = actions[applied];
  if (action.kind != "move" || action.seat != seat || action.tokens != move.tokens) return std::nullopt;
  const std::int64_t version = action.version;
  actions.resize(applied + 1);
  std::optional<protocol::Update> update;
  replay(meta, actions, [&](const Match& match, const StoredAction& told) {
    if (told.version == version) update = make_update(meta.id, told, match);
  });
  return update;
}

}  // namespace mancala::server
