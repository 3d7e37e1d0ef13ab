// Cups: the rule book's worked examples (cups-and-coin-duel.md §8.1), its invariants (§9) over
// seeded random games, and bad input through the generic layer.
#include <numeric>

#include "games/cups.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::legal_tokens;
using testing::play;
using Tokens = std::vector<std::string>;
using Position = std::vector<int>;

Cups opening(int cups_per_side = 4) {
  const auto n = static_cast<std::size_t>(cups_per_side);
  Position start(2 * (n + 2), 0);
  start[n + 1] = start[2 * n + 3] = 10 * cups_per_side;  // the reserves
  return Cups::from_position({{"cups_per_side", cups_per_side}}, start, 0);
}

// The position vector of a South row and a North row, each "cups..., pot, reserve".
Position pos(Position south, Position north) {
  south.insert(south.end(), north.begin(), north.end());
  return south;
}

TEST(Cups, CUPS_1_SourceOpeningWithCaptureOfNothing) {
  Cups g = opening();
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4"}));
  ASSERT_TRUE(play(g, "r4"));
  EXPECT_EQ(g.position(), pos({1, 1, 1, 1, 0, 36}, {0, 0, 0, 0, 0, 40}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4"}));
  ASSERT_TRUE(play(g, "r3"));
  EXPECT_EQ(g.position(), pos({1, 0, 1, 1, 0, 36}, {1, 1, 1, 0, 1, 37}));
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4", "c4"}));
  ASSERT_TRUE(play(g, "c4"));
  EXPECT_EQ(g.position(), pos({1, 0, 1, 0, 1, 36}, {1, 1, 1, 0, 1, 37}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4"}));
}

Cups after_cups_1() {
  Cups g = opening();
  play(g, "r4");
  play(g, "r3");
  play(g, "c4");
  return g;
}

TEST(Cups, CUPS_2_CapturesOnBothSides) {
  Cups g = after_cups_1();
  ASSERT_TRUE(play(g, "r4"));
  EXPECT_EQ(g.position(), pos({0, 0, 1, 0, 1, 36}, {2, 2, 2, 1, 2, 33}));
  ASSERT_TRUE(play(g, "r2"));
  EXPECT_EQ(g.position(), pos({1, 1, 1, 0, 3, 34}, {2, 2, 0, 1, 2, 33}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4", "c4"}));
}

TEST(Cups, CUPS_3_ReservePlayIntoFilledCupDoesNotCapture) {
  Cups g = after_cups_1();
  play(g, "r4");
  play(g, "r2");
  Events events;
  ASSERT_TRUE(play(g, "r1", &events));
  EXPECT_EQ(g.position(), pos({1, 1, 1, 0, 3, 34}, {3, 2, 0, 1, 2, 32}));
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4"}));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["trace"][0]["result"], "filled");
  EXPECT_TRUE(events[0]["capture"].is_null());
}

TEST(Cups, CUPS_4_ExactBoardPlayFromFarthestCup) {
  Cups g = Cups::from_position({}, pos({4, 0, 1, 0, 10, 5}, {0, 2, 0, 0, 10, 5}), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "r3", "r4", "c1"}));
  ASSERT_TRUE(play(g, "c1"));
  EXPECT_EQ(g.position(), pos({0, 1, 2, 1, 11, 5}, {0, 2, 0, 0, 10, 5}));
  EXPECT_EQ(g.to_move(), 1);
}

Position cups_5_start() { return pos({0, 4, 0, 1, 30, 0}, {1, 0, 0, 0, 40, 3}); }

TEST(Cups, CUPS_5_BlockedCupIsRefusedUnderReject) {
  Match m = Match::from_game("cups", {}, Cups::from_position({}, cups_5_start(), 0).clone());
  EXPECT_EQ(m.legal_tokens(), (Tokens{"c4"}));
  const Outcome refused = m.play(0, "c2");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(refused.error->token, "c2");
  EXPECT_EQ(refused.error->legal, (Tokens{"c4"}));
  EXPECT_EQ(m.game().position(), cups_5_start());
  EXPECT_EQ(m.game().to_move(), 0);
  ASSERT_TRUE(m.play(0, "c4").ok());
  EXPECT_EQ(m.game().position(), pos({0, 4, 0, 0, 31, 0}, {1, 0, 0, 0, 40, 3}));
  EXPECT_EQ(m.game().to_move(), 1);
}

TEST(Cups, CUPS_6_PassThenEndOfGame) {
  Cups g = Cups::from_position({}, pos({2, 4, 3, 2, 30, 0}, {0, 0, 0, 1, 38, 0}), 0);
  EXPECT_EQ(g.to_move(), 1) << "South has no move and passes at once";
  EXPECT_EQ(g.state().passes, 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"c4"}));
  Events events;
  ASSERT_TRUE(play(g, "c4", &events));
  EXPECT_EQ(g.position(), pos({2, 4, 3, 2, 30, 0}, {0, 0, 0, 0, 39, 0}));
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.to_move(), kNoSeat);
  const Json result = g.result();
  EXPECT_EQ(result["end_reason"], "no_moves");
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["pots"], Json::array({30, 39}));
  EXPECT_EQ(result["board_left"][0], Json::array({2, 4, 3, 2}));
  ASSERT_EQ(events.back()["event"], "game_end");
}

TEST(Cups, CUPS_6_PassIsReportedAsAnEventOfTheMoveThatCausedIt) {
  // South r1 leaves North (no reserve, no exact cup) without a move: North passes.
  Cups g = Cups::from_position({}, pos({0, 0, 0, 0, 0, 5}, {2, 0, 0, 0, 0, 0}), 0);
  Events events;
  ASSERT_TRUE(play(g, "r1", &events));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], (Json{{"event", "pass"}, {"player", 1}}));
  EXPECT_EQ(g.to_move(), 0);
}

TEST(Cups, CUPS_7_ReservePlayLimitedByBeansLeft) {
  Cups g = Cups::from_position({}, pos({0, 0, 2, 0, 20, 2}, {1, 0, 3, 0, 25, 10}), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r1", "r2", "c3"}));
  ASSERT_TRUE(play(g, "r2"));
  EXPECT_EQ(g.position(), pos({1, 1, 2, 0, 23, 0}, {1, 0, 0, 0, 25, 10}));
  EXPECT_EQ(g.to_move(), 1);
}

TEST(Cups, CUPS_8_SixCupVariant) {
  Match m = Match::create("cups", {{"cups_per_side", 6}}, 1);
  ASSERT_TRUE(m.play("r5").ok());
  EXPECT_EQ(m.game().position(), pos({1, 1, 1, 1, 1, 0, 0, 55}, {0, 0, 0, 0, 0, 0, 0, 60}));
  ASSERT_TRUE(m.play("r5").ok());
  EXPECT_EQ(m.game().position(), pos({1, 0, 1, 1, 1, 0, 0, 55}, {1, 1, 1, 1, 1, 0, 1, 55}));
  EXPECT_EQ(m.legal_tokens(), (Tokens{"r1", "r2", "r3", "r4", "r5", "r6"}));
  ASSERT_TRUE(m.play("r6").ok());
  EXPECT_EQ(m.game().position(), pos({2, 1, 2, 2, 2, 1, 1, 49}, {0, 1, 1, 1, 1, 0, 1, 55}));
  EXPECT_EQ(m.game().to_move(), 1);
}

TEST(Cups, CUPS_9_ForfeitPolicyEndsTheGame) {
  const Json options = {{"illegal_move_policy", "forfeit"}};
  Match m = Match::from_game("cups", options, Cups::from_position(options, cups_5_start(), 0).clone());
  const Outcome forfeited = m.play(0, "c2");
  ASSERT_TRUE(forfeited.ok());
  EXPECT_EQ(m.game().phase(), Phase::over);
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "illegal_move");
  EXPECT_EQ(result["offender"], 0);
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["pots"], Json::array({30, 40}));
  EXPECT_EQ(forfeited.events.front()["event"], "illegal_move");
}

TEST(Cups, CUPS_9_OutOfDomainCupIsAProtocolErrorWithoutPenalty) {
  const Json options = {{"illegal_move_policy", "forfeit"}};
  Match m = Match::from_game("cups", options, Cups::from_position(options, cups_5_start(), 0).clone());
  const Outcome refused = m.play(0, "c7");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(m.game().phase(), Phase::play);
  EXPECT_EQ(m.game().position(), cups_5_start());
}

// §9 invariants, for every cups_per_side, over many seeded random games.
TEST(Cups, InvariantsHoldInRandomGamesForEveryCupCount) {
  for (int n = 3; n <= 10; ++n) {
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
      Cups g(GameSetup{resolve_options(cups_type().options, {{"cups_per_side", n}}), 0});
      Random rng(seed * 7919 + static_cast<std::uint64_t>(n));
      DecisionList list;
      int moves = 0;
      while (g.phase() == Phase::play) {
        const CupsState before = g.state();
        const Seat p = g.to_move();
        g.legal(list);
        ASSERT_FALSE(list.empty()) << "a player to move always has a legal move";
        const Decision d = list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))];
        g.apply(d, nullptr);
        ++moves;
        const CupsState& after = g.state();
        int total = 0;
        for (Seat s = 0; s < 2; ++s) {
          total += after.pot[s] + after.reserve[s];
          for (int i = 0; i < n; ++i) total += after.cups[s][i];
          ASSERT_LE(after.reserve[s], before.reserve[s]) << "reserves never grow";
          ASSERT_GE(after.pot[s], before.pot[s]) << "pots never shrink";
        }
        ASSERT_EQ(total, 20 * n) << "beans are conserved";
        if (d > kCupDecision) {
          ASSERT_EQ(after.pot[p], before.pot[p] + 1) << "a board play adds exactly one bean";
        } else {
          ASSERT_EQ(after.reserve[p], before.reserve[p] - d);
        }
        int changed = 0;  // the opponent's row changes only by one capture emptying one cup
        for (int i = 0; i < n; ++i)
          if (after.cups[1 - p][i] != before.cups[1 - p][i]) {
            ++changed;
            ASSERT_EQ(after.cups[1 - p][i], 0);
          }
        ASSERT_LE(changed, 1);
      }
      ASSERT_LE(moves, 2 * 20 * n) << "C-11 bounds the number of moves";
      const CupsState& end = g.state();
      EXPECT_EQ(end.reserve[0] + end.reserve[1], 0) << "C-9: the game ends with empty reserves";
      EXPECT_EQ(g.result()["end_reason"], "no_moves");
    }
  }
}

TEST(Cups, OptionsAreValidatedWithClearErrors) {
  auto code_of = [](const Json& options) {
    try {
      Match::create("cups", options, 1);
    } catch (const EngineError& e) {
      return std::string(to_string(e.code())) + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(code_of({{"cups_per_side", 11}}),
            "bad_option: option 'cups_per_side' is 11; it must be an integer from 3 to 10");
  EXPECT_EQ(code_of({{"cups_per_side", "4"}}).substr(0, 10), "bad_option");
  EXPECT_EQ(code_of({{"pits", 4}}).substr(0, 33), "bad_option: unknown option 'pits'");
  EXPECT_EQ(code_of({{"first_player", 2}}).substr(0, 10), "bad_option");
  EXPECT_EQ(code_of(Json::array()).substr(0, 10), "bad_option");
  EXPECT_EQ(code_of({{"first_player", "random"}, {"cups_per_side", 10}}), "accepted");
  // Options typed by people arrive as parsed JSON, where 1 is an unsigned number.
  EXPECT_EQ(code_of(Json::parse(R"({"first_player": 1, "cups_per_side": 3})")), "accepted");
  EXPECT_EQ(code_of(Json::parse(R"({"first_player": 1.0})")).substr(0, 10), "bad_option");
  EXPECT_EQ(code_of(Json::parse(R"({"first_player": true})")).substr(0, 10), "bad_option");
  try {
    Match::create("chess", {}, 1);
    FAIL() << "unknown game accepted";
  } catch (const EngineError& e) {
    EXPECT_EQ(e.code(), ErrorCode::unknown_game);
    EXPECT_NE(std::string(e.what()).find("cups"), std::string::npos) << "lists the known games";
  }
}

TEST(Cups, RandomFirstPlayerIsDrawnFromTheSeedAndStored) {
  int first_seats[2] = {0, 0};
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Match m = Match::create("cups", {{"first_player", "random"}}, seed);
    const int seat = m.draws()["first_player"].get<int>();
    EXPECT_EQ(m.game().to_move(), seat);
    EXPECT_EQ(Match::create("cups", {{"first_player", "random"}}, seed).game().to_move(), seat);
    ++first_seats[seat];
  }
  EXPECT_GT(first_seats[0], 50);
  EXPECT_GT(first_seats[1], 50);
}

TEST(Cups, BadInputIsRefusedAndChangesNothing) {
  Match m = Match::create("cups", {}, 1);
  const Json before = m.state();
  for (const char* move : {"x", "R", "c0", "r0", "c5", "r04", "r-1", "P"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
    EXPECT_EQ(o.error->legal, (Tokens{"r1", "r2", "r3", "r4"}));
  }
  for (const char* move : {"", " r4", "r4 ", "r4  r3"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::bad_request) << "'" << move << "'";
  }
  const Outcome two_turns = m.play("r4 r3");
  ASSERT_FALSE(two_turns.ok());
  EXPECT_EQ(two_turns.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(two_turns.error->token, "r3");
  EXPECT_EQ(m.play(1, "r4").error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.special_action("concede", 0).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.claim(0).error->code, ErrorCode::no_claim_window);
  EXPECT_EQ(m.state(), before);
  ASSERT_TRUE(m.resign(0).ok());
  EXPECT_EQ(m.game().result()["end_reason"], "resign");
  EXPECT_EQ(m.game().result()["winner"], 1);
  EXPECT_EQ(m.play("r4").error->code, ErrorCode::game_over);
  EXPECT_EQ(m.resign(1).error->code, ErrorCode::game_over);
}

// Found by fuzz_engine: a move that was not UTF-8 came back inside the error (and, under the
// forfeit policy, inside the record), which then could not be written as JSON.
TEST(Cups, MoveThatIsNotUtf8IsRefusedAndErrorsStayWritable) {
  Match m = Match::create("cups", {{"illegal_move_policy", "forfeit"}}, 1);
  const Json before = m.state();
  for (const char* move : {"r4\xff", "r4 \xfe", "\xc0\xaf", "r\xed\xa0\x80"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::bad_request);
    EXPECT_NO_THROW((void)o.error->to_json().dump());
  }
  EXPECT_EQ(m.state(), before);
  EXPECT_NO_THROW((void)m.record().dump());
  const Outcome accented = m.play("r\u00e9");  // valid UTF-8 but no Cups token: as before
  ASSERT_FALSE(accented.ok());
  EXPECT_EQ(accented.error->code, ErrorCode::illegal_move);
}

TEST(Cups, RecordReplaysToTheSamePosition) {
  testing::expect_random_games_replay("cups", {{"first_player", "random"}, {"cups_per_side", 5}}, 50);
}

}  // namespace
}  // namespace mancala
