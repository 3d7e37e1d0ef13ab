// Fuzz target: the rules engine through its public interface (`Match`). The first bytes choose
// a game and its options from the game's own option table (so every game, option and player
// count is reachable, and now and then a value the table refuses); the rest is a script of
// actions: legal tokens, whole turns, random play-outs, arbitrary token texts for any seat,
// resign, concede, Plex! claims and timeouts. Invariants: an action that fails changes nothing
// (same state, same record); a legal token, or a turn of legal tokens, is never refused; errors
// and records are valid JSON; the record replays (`Match::from_record`) to the same state.
#include <cstdint>
#include <string>
#include <vector>

#include "check.hpp"
#include "fuzz_input.hpp"
#include "mancala/match.hpp"
#include "mancala/registry.hpp"

namespace mancala::fuzz {
namespace {

constexpr std::uint8_t kRefusedValue = 255;  // this byte asks for a value the table refuses
constexpr std::size_t kMaxTextBytes = 24;
constexpr int kMaxTurnTokens = 16;
constexpr std::size_t kMaxPlayOut = 16;  // decisions; longer ones made every input slow

// One option's value: absent (its default), one of its choices, or from its range the ends or
// a value inside.
std::optional<Json> option_value(const OptionSpec& spec, FuzzInput& in) {
  const std::uint8_t pick = in.byte();
  if (pick == kRefusedValue) return spec.choices.is_array() ? Json("no such choice") : Json(spec.max + 1);
  if (spec.choices.is_array()) {
    const std::size_t index = pick % (spec.choices.size() + 1);
    if (index == spec.choices.size()) return std::nullopt;
    return spec.choices[index];
  }
  switch (pick % 4) {
    case 0: return std::nullopt;
    case 1: return spec.min;
    case 2: return spec.max;
    default: return spec.min + static_cast<int>(in.u32() % static_cast<std::uint32_t>(spec.max - spec.min + 1));
  }
}

std::optional<Match> create_match(FuzzInput& in) {
  const auto types = game_types();
  const GameType& type = types[in.below(types.size())];
  Json options = Json::object();
  for (const OptionSpec& spec : type.options)
    if (auto value = option_value(spec, in)) options[spec.name] = std::move(*value);
  try {
    return Match::create(type.id, options, in.u32());
  } catch (const EngineError& e) {
    // Refused values and options that contradict each other (`only_with`) only.
    FUZZ_CHECK(e.code() == ErrorCode::bad_option);
    return std::nullopt;
  }
}

std::string join(const std::vector<std::string>& tokens) {
  std::string out;
  for (const auto& token : tokens) out += (out.empty() ? "" : " ") + token;
  return out;
}

// A seat number, now and then one that is not at the table (-1 or one past the last).
Seat any_seat(const Match& match, FuzzInput& in) {
  return static_cast<Seat>(in.below(static_cast<std::size_t>(match.game().players()) + 2)) - 1;
}

class Script {
 public:
  Script(Match match, FuzzInput& in) : match_(std::move(match)), in_(in) {}

  // The replay check is a step of its own (the script chooses when): replaying after every
  // input took most of the time of each run.
  void run() {
    while (!in_.empty()) step();
  }

 private:
  void step() {
    switch (in_.below(16)) {
      case 0: case 1: case 2: case 3: case 4: case 5: return play_legal_token();
      case 6: return play_whole_turn();
      case 7: return play_out(1 + in_.below(kMaxPlayOut));
      case 8: return attempt([&, text = in_.text(kMaxTextBytes)] { return match_.play(text); });
      case 9: return play_text_for_any_seat();
      case 10: return play_legal_token_with_text();
      case 11: return attempt([&, seat = any_seat(match_, in_)] { return match_.resign(seat); });
      case 12: return attempt([&, seat = any_seat(match_, in_)] { return match_.special_action("concede", seat); });
      case 13: return attempt([&, seat = any_seat(match_, in_)] { return match_.claim(seat); });
      case 14: return attempt([&] { return match_.close_claim_window(); });
      default: return check_replay();
    }
  }

  void play_legal_token() {
    const auto legal = match_.legal_tokens();
    if (legal.empty()) return;
    must_succeed(match_.play(match_.game().to_move(), legal[in_.below(legal.size())]));
  }

  // The tokens of one turn, chosen one at a time on a copy, then played as one move: it must be
  // accepted whole and lead to the same state as the tokens one by one.
  void play_whole_turn() {
    Match copy = match_;
    std::vector<std::string> tokens;
    for (int i = 0; i < kMaxTurnTokens; ++i) {
      const auto legal = copy.legal_tokens();
      if (legal.empty()) break;
      tokens.push_back(legal[in_.below(legal.size())]);
      must_succeed(copy.play(tokens.back()));
      if (copy.pending().empty()) break;
    }
    if (tokens.empty()) return;
    must_succeed(match_.play(join(tokens)));
    if (copy.pending().empty()) FUZZ_CHECK(match_.state() == copy.state());
  }

  // Uniformly random legal decisions from a seed, to reach late rounds and the game's end
  // with short inputs.
  void play_out(std::size_t decisions) {
    Random random(in_.byte());
    for (std::size_t i = 0; i < decisions; ++i) {
      const auto legal = match_.legal_tokens();
      if (legal.empty()) return;
      must_succeed(match_.play(legal[random.below(static_cast<std::uint32_t>(legal.size()))]));
    }
  }

  // Separate statements: the order in which the input is read must not depend on the compiler.
  void play_text_for_any_seat() {
    const Seat seat = any_seat(match_, in_);
    const std::string text = in_.text(kMaxTextBytes);
    attempt([&] { return match_.play(seat, text); });
  }

  // A legal token followed by anything: a second token, a space too many, garbage.
  void play_legal_token_with_text() {
    const auto legal = match_.legal_tokens();
    if (legal.empty()) return;
    const std::string token = legal[in_.below(legal.size())];
    const std::string move = token + in_.text(kMaxTextBytes);
    attempt([&] { return match_.play(move); });
  }

  void must_succeed(const Outcome& outcome) {
    if (!outcome.ok()) std::fprintf(stderr, "refused: %s\n", outcome.error->message.c_str());
    FUZZ_CHECK(outcome.ok());
  }

  // Any outcome is fine, but a refusal must leave the match exactly as it was. (A refusal that
  // left a trace in the record would not replay: check_replay catches it without copying the
  // whole record here on every action.)
  template <class Action>
  void attempt(Action action) {
    const std::string state_before = match_.state().dump();
    const Outcome outcome = action();
    if (outcome.ok()) return;
    FUZZ_CHECK(outcome.events.empty());
    FUZZ_CHECK(!outcome.error->to_json().dump().empty());  // what the server and the CLI print
    FUZZ_CHECK(match_.state().dump() == state_before);
  }

  // The record, written and read back as the server stores it, replays to the same state.
  void check_replay() {
    const Json record = Json::parse(match_.record().dump());
    const Match replayed = Match::from_record(record);
    FUZZ_CHECK(replayed.state() == match_.state());
  }

  Match match_;
  FuzzInput& in_;
};

}  // namespace
}  // namespace mancala::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala::fuzz;
  FuzzInput in(data, size);
  auto match = create_match(in);
  if (!match) return 0;
  Script script(std::move(*match), in);
  script.run();
  return 0;
}
