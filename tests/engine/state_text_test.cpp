// The state view written as text (Match::write_state, each game's write_board/write_scores/
// write_rounds) is byte for byte what the JSON trees it replaced dumped. The expected hashes in
// state_text_hashes.inc were computed by this same file built against the engine as it was
// before the writer (commit ef399f2, where the state was a tree: `match.state().dump()`), with
// -DMANCALA_STATE_TEXT_REFERENCE; see the end of this file. Each covers many random games of one
// game and option set (every option's choices and range ends, every seat count), their every
// step's state text and events (round records are written by the same code) and their record.
// One deliberate change since: Duovallis's board leaves its fixed layout to /api/game-types, and
// is compared after the layout is put back (`with_old_duovallis_board`).
//
// Regenerate only when a view is meant to change, and say so in the commit:
//   MANCALA_PRINT_STATE_HASHES=1 build-core/tests/state_text_test
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mancala/match.hpp"
#include "mancala/registry.hpp"

namespace mancala {
namespace {

constexpr int kOptionSets = 12;  // random combinations per game, besides the defaults and each choice
constexpr std::uint64_t kSeeds = 4;  // games per option set
constexpr int kMaxSteps = 3000;

struct Expected {
  const char* key;   // "<game> <options>"
  const char* hash;  // FNV-1a of everything the games wrote, as 16 hex digits
};

#ifndef MANCALA_STATE_TEXT_REFERENCE
constexpr Expected kExpected[] = {
#include "state_text_hashes.inc"
};
#endif

void fnv1a(std::uint64_t& hash, const std::string& text) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001B3ULL;
  }
  hash ^= 0xFF;  // a separator, so that "ab","c" and "a","bc" differ
  hash *= 0x100000001B3ULL;
}

std::string hex(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

// One option's value, as the fuzzer picks them: absent (the default), a choice, or from a range
// its ends or a value inside.
void pick_option(const OptionSpec& spec, Random& rng, Json& options) {
  if (spec.choices.is_array()) {
    const auto index = rng.below(static_cast<std::uint32_t>(spec.choices.size() + 1));
    if (index < spec.choices.size()) options[spec.name] = spec.choices[index];
    return;
  }
  switch (rng.below(4)) {
    case 0: return;
    case 1: options[spec.name] = spec.min; return;
    case 2: options[spec.name] = spec.max; return;
    default:
      options[spec.name] = spec.min + static_cast<int>(rng.below(static_cast<std::uint32_t>(spec.max - spec.min + 1)));
  }
}

// The defaults, each choice of each option alone, then random combinations the engine accepts.
std::vector<Json> option_sets(const GameType& type) {
  std::vector<Json> sets{Json::object()};
  for (const OptionSpec& spec : type.options)
    if (spec.choices.is_array())
      for (const Json& choice : spec.choices) sets.push_back(Json{{spec.name, choice}});
  Random rng(0x5eed);
  for (int i = 0; i < kOptionSets; ++i) {
    Json options = Json::object();
    for (const OptionSpec& spec : type.options) pick_option(spec, rng, options);
    sets.push_back(std::move(options));
  }
  std::vector<Json> valid;
  for (Json& options : sets) {
    try {
      Match::create(type.id, options, 1);
      valid.push_back(std::move(options));
    } catch (const EngineError&) {  // contradicting options (`only_with`, a first player past the seats)
    }
  }
  return valid;
}

#ifndef MANCALA_STATE_TEXT_REFERENCE
// Duovallis's board no longer repeats the fixed layout (it is served once, with the game's
// type); put the layout's fields back in front of each hole's stones, as the old board had them,
// so the rest is still compared byte for byte with the old text.
std::string with_old_duovallis_board(const Match& match, const std::string& text) {
  Json state = Json::parse(text);
  const Json layout = json_tree([&](JsonWriter& out) { match.game().write_layout(out); });
  const Json board = state.at("board");
  Json holes = Json::array();
  for (std::size_t i = 0; i < layout.at("holes").size(); ++i) {
    Json hole = layout["holes"][i];
    hole["white"] = board.at("white").at(i);
    hole["black"] = board.at("black").at(i);
    holes.push_back(std::move(hole));
  }
  state["board"] = Json{{"holes", holes}, {"carry", board.at("carry")}, {"exchanges", board.at("exchanges")}};
  return state.dump();
}
#endif

// The state's text as the engine writes it now (or, for the reference, as the tree dumped).
std::string state_text(const Match& match) {
#ifdef MANCALA_STATE_TEXT_REFERENCE
  return match.state().dump();
#else
  std::string text;
  JsonWriter out(text);
  match.write_state(out);
  // The tree views are the same text parsed; and the round count the server reads is theirs.
  EXPECT_EQ(match.state().dump(), text);
  EXPECT_EQ(match.game().rounds_played(), match.game().rounds().size());
  if (match.type().id == "duovallis") return with_old_duovallis_board(match, text);
  return text;
#endif
}

std::map<std::string, int>& event_counts() {
  static std::map<std::string, int> counts;
  return counts;
}

// A random game: mostly random legal tokens, now and then a resignation, a concession, a
// timeout, a token that is not legal (refused, or lost under "forfeit"); claim windows claimed
// by a random seat or left to their fallback. Every step's events and state go into `hash`.
void play(Match& match, std::uint64_t seed, std::uint64_t& hash) {
  Random rng(seed * 1000003);
  fnv1a(hash, state_text(match));
  // Tokens of one game or another, mostly not legal where they are played.
  static const char* kOddTokens[] = {"0", "1", "2", "3", "4", "6", "7", "9", "12", "18", "23",
                                     "c1", "c2", "c4", "R", "L", "P", "Q", "x"};
  for (int step = 0; step < kMaxSteps && !match.over(); ++step) {
    const int players = match.game().players();
    const Seat to_move = match.game().to_move();
    const auto roll = rng.below(2000);
    Outcome outcome;
    if (match.game().phase() == Phase::claim) {
      outcome = rng.below(3) == 0 ? match.close_claim_window()
                                  : match.claim(static_cast<Seat>(rng.below(static_cast<std::uint32_t>(players))));
    } else if (roll < 3) {
      outcome = match.resign(static_cast<Seat>(rng.below(static_cast<std::uint32_t>(players))));
    } else if (roll < 5) {
      outcome = match.timeout(to_move);
    } else if (roll < 30) {
      outcome = match.special_action("concede", to_move);
    } else if (roll < 40) {
      outcome = match.play(to_move, kOddTokens[rng.below(std::size(kOddTokens))]);
    } else {
      const auto legal = match.legal_tokens();
      ASSERT_FALSE(legal.empty());
      outcome = match.play(to_move, legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    if (!outcome.ok()) continue;  // nothing changed
    for (const Json& event : outcome.events) {
      fnv1a(hash, event.dump());
      if (std::getenv("MANCALA_COUNT_EVENTS")) ++event_counts()[event.value("event", std::string())];
    }
    fnv1a(hash, state_text(match));
  }
  fnv1a(hash, match.record().dump());
}

std::map<std::string, std::string> hashes() {
  std::map<std::string, std::string> out;
  for (const GameType& type : game_types())
    for (const Json& options : option_sets(type)) {
      const std::string key = std::string(type.id) + " " + options.dump();
      SCOPED_TRACE(key);
      std::uint64_t hash = 0xCBF29CE484222325ULL;
      for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
        Match match = Match::create(type.id, options, seed);
        play(match, seed, hash);
      }
      out[key] = hex(hash);
    }
  return out;
}

// Keys and hashes as lines of state_text_hashes.inc.
void print(const std::map<std::string, std::string>& computed) {
  for (const auto& [key, hash] : computed)
    std::printf("    {R\"(%s)\", \"%s\"},\n", key.c_str(), hash.c_str());
}

#ifdef MANCALA_STATE_TEXT_REFERENCE
TEST(StateText, PrintReferenceHashes) {
  print(hashes());
  for (const auto& [kind, count] : event_counts()) std::printf("%s %d\n", kind.c_str(), count);
}
#else
TEST(StateText, EveryGameOptionSetAndSeatCountWritesTheTextTheTreesDumped) {
  const auto computed = hashes();
  if (std::getenv("MANCALA_PRINT_STATE_HASHES")) print(computed);
  std::map<std::string, std::string> expected;
  for (const Expected& e : kExpected) expected[e.key] = e.hash;
  EXPECT_EQ(computed.size(), expected.size()) << "the option sets changed: regenerate the reference";
  for (const auto& [key, hash] : computed) {
    const auto it = expected.find(key);
    if (it == expected.end()) {
      ADD_FAILURE() << "no reference hash for " << key;
      continue;
    }
    EXPECT_EQ(hash, it->second) << key;
  }
}

TEST(StateText, WriterEscapesAndSeparatesAsDumpDoes) {
  std::string text;
  JsonWriter out(text);
  out.begin_object()
      .field("a", 1)
      .key("b")
      .begin_array()
      .value(-2)
      .null()
      .value(true)
      .begin_object()
      .end_object()
      .begin_array()
      .end_array()
      .end_array()
      .field("quote \" and \\", "tab\there, Ngọc Ánh")
      .key("tree")
      .tree(Json{{"x", {1, 2}}})
      .field("u8", std::uint8_t{200})
      .end_object();
  const Json same = {{"a", 1},
                     {"b", {-2, nullptr, true, Json::object(), Json::array()}},
                     {"quote \" and \\", "tab\there, Ngọc Ánh"},
                     {"tree", {{"x", {1, 2}}}},
                     {"u8", 200}};
  EXPECT_EQ(text, same.dump());
}
#endif

}  // namespace
}  // namespace mancala
