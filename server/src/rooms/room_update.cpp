#include "room_update.hpp"

#include "game_log.hpp"

namespace mancala::server {

namespace {

// The records of the rounds that ended since `rounds_stored`, stored beside the game.
void add_new_rounds(const Match& match, std::size_t rounds_stored, UpdateEffects& effects) {
  const std::size_t rounds_after = match.game().rounds_played();
  if (rounds_after <= rounds_stored) return;
  const Json rounds = match.game().rounds();
  for (std::size_t i = rounds_stored; i < rounds_after; ++i)
    effects.new_rounds.emplace_back(static_cast<int>(i + 1), rounds[i]);
}

void add_result(const Match& match, const StoredAction& action, UpdateEffects& effects) {
  if (!match.over()) return;
  effects.finished_at = action.at;
  effects.result = match.result();
  effects.outcomes.resize(static_cast<std::size_t>(match.game().players()));
  match.game().outcome(effects.outcomes);
}

}  // namespace

PreparedUpdate prepare_update(const std::string& room_id, std::int64_t version, const Match& match,
                              AppliedAction applied, Json clock_view, std::size_t rounds_stored,
                              const std::optional<protocol::RequestId>& mover, std::string at) {
  protocol::Update update{room_id, version + 1, applied.seat, std::move(applied.kind), std::move(applied.tokens),
                          to_json_text(Json(std::move(applied.outcome.events))), protocol::write_state(match, clock_view)};
  PreparedUpdate out;
  out.text = std::make_shared<const std::string>(protocol::write_update({}, update));
  if (mover) out.mover_text = std::make_shared<const std::string>(protocol::with_id(*out.text, *mover));
  out.rounds_after = match.game().rounds_played();
  add_new_rounds(match, rounds_stored, out.effects);
  // The update's parts move into the stored action (a move's events do not: game_log.hpp,
  // events_to_store).
  std::string events = events_to_store(update.action, std::move(update.events));
  out.action = std::make_shared<const StoredAction>(StoredAction{update.version, std::move(update.action), applied.seat,
                                                                 std::move(update.tokens), std::move(events),
                                                                 std::move(at), std::move(clock_view)});
  add_result(match, *out.action, out.effects);
  return out;
}

}  // namespace mancala::server
