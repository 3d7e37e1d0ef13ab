#include "mancala/action_line.hpp"

#include <charconv>

namespace mancala {
namespace {

// `resign 1` -> the seat, or nothing when the rest is not a seat number.
std::optional<int> seat_argument(std::string_view line, std::size_t prefix) {
  if (line.size() <= prefix || line[prefix - 1] != ' ') return std::nullopt;
  int seat = 0;
  const char* first = line.data() + prefix;
  const auto [end, error] = std::from_chars(first, line.data() + line.size(), seat);
  if (error != std::errc() || end != line.data() + line.size()) return std::nullopt;
  return seat;
}

Outcome bad_line(std::string message) {
  return Outcome{MoveError{ErrorCode::bad_request, std::move(message), {}, {}}, {}};
}

// A record entry's line: its tokens, or its kind with the seat that took it; a claim window's
// settling is the claim (`plex 2`) or the window's fallback (`plex_timeout`).
std::string entry_line(const Json& entry, const std::optional<ClaimWindow>& window) {
  if (entry.contains("tokens")) return entry["tokens"].get<std::string>();
  const auto kind = entry.value("event", std::string());
  if (window && kind == window->result_event)
    return entry.value("fallback", false) ? std::string(window->fallback)
                                          : action_line(window->name, entry["winner"].get<int>(), "");
  return action_line(kind, entry.value("player", entry.value("seat", kNoSeat)), "");
}

}  // namespace

Outcome play_action_line(Match& match, std::string_view line) {
  if (line == "plex_timeout") return match.close_claim_window();
  for (const std::string_view word : {"resign", "concede", "plex"}) {
    if (line == word || (line.starts_with(word) && line.size() > word.size() && line[word.size()] == ' ')) {
      const auto seat = seat_argument(line, word.size() + 1);
      const std::string name(word);
      if (!seat) return bad_line(name + " needs a seat number, as in '" + name + " 0'");
      if (word == "resign") return match.resign(*seat);
      if (word == "concede") return match.special_action("concede", *seat);
      return match.claim(*seat);
    }
  }
  return match.play(line);
}

std::string action_line(std::string_view kind, Seat seat, std::string_view tokens) {
  if (kind == "move") return std::string(tokens);
  if (seat == kNoSeat) return std::string(kind);
  return std::string(kind) + " " + std::to_string(seat);
}

Match record_opening(const Json& record) {
  return Match::restore(record.at("game").get<std::string>(), record.value("options", Json()),
                        record.value("draws", Json::object()));
}

void replay_record_actions(Match& match, const Json& record,
                           const std::function<void(const Match&, const std::string& line)>& visit) {
  int number = 0;
  for (const Json& entry : record.value("turns", Json::array())) {
    const auto window = match.claim_window();
    const auto outcome = match.replay_entry(entry);
    if (!outcome) continue;  // a forced event: replaying the actions reproduces it
    ++number;
    if (!outcome->ok())
      throw EngineError(outcome->error->code, "action " + std::to_string(number) + " (" + entry.dump() +
                                                  ") does not replay: " + outcome->error->message);
    visit(match, entry_line(entry, window));
  }
}

std::vector<analysis::GameStep> record_steps(const Json& record) {
  Match match = record_opening(record);
  StepCollector steps(match.game());
  replay_record_actions(match, record, [&](const Match& after, const std::string& line) {
    steps.played(line, after.game());
  });
  return steps.take();
}

StepCollector::StepCollector(const Game& opening) { steps_.push_back({opening.clone(), std::nullopt}); }

void StepCollector::played(std::string line, const Game& after) {
  steps_.back().played = std::move(line);
  steps_.push_back({after.clone(), std::nullopt});
}

}  // namespace mancala
