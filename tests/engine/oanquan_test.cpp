// O An Quan: the rule book's worked examples (o-an-quan-njaka-duovallis.md §9.1), its invariants
// (§10) over seeded random matches, the match rules of §2.5-§2.7 and clarifications 10-13, and
// bad input through the generic layer.
#include <algorithm>

#include "games/oanquan.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::legal_tokens;
using testing::play;
using Tokens = std::vector<std::string>;
using Position = std::vector<int>;
using Row = std::array<int, 5>;
using Pair = std::array<int, 2>;

// An end space in the book's notation: `W=3*` is {3, L}, `E=0` is {0}.
struct End {
  int small = 0;
  bool large = false;
};
constexpr bool L = true;
// Owners of squares 1-5, 7-11 (2 = half).
using Owners = std::array<int, 10>;
constexpr Owners kOwnRows = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};

// The position vector of notation.md from the book's `W=.. S=[..] E=.. N=[..] st=[..] q=[..]`.
Position oaq(End w, Row south, End e, Row north, Pair st = {0, 0}, Pair q = {0, 0},
             Owners owner = kOwnRows) {
  Position v = {w.small};
  v.insert(v.end(), south.begin(), south.end());
  v.push_back(e.small);
  v.insert(v.end(), north.begin(), north.end());
  v.insert(v.end(), {w.large ? 1 : 0, e.large ? 1 : 0, st[0], st[1], q[0], q[1]});
  v.insert(v.end(), owner.begin(), owner.end());
  return v;
}

const Position kStart = oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5});

OanQuan load(const Position& position, Seat to_move, const Json& options = Json::object(),
             int round = 1) {
  return OanQuan::from_position(options, position, to_move, round);
}

// Plays one turn and returns its turn record.
Json turn(Game& game, const std::string& move) {
  Events events;
  EXPECT_TRUE(play(game, move, &events));
  for (const Json& e : events)
    if (e["event"] == "turn") return e;
  ADD_FAILURE() << "no turn record";
  return Json();
}

Json lap(int from, int count, int end, const char* dir) {
  return Json{{"from", from}, {"count", count}, {"end", end}, {"dir", dir}};
}
Json cap(int space, int small, bool large = false) {
  return Json{{"space", space}, {"small", small}, {"large", large}};
}

// --- §9.1 worked examples ---------------------------------------------------------------------

TEST(OanQuan, OAQ_1_OpeningRelayAcrossAnEndSpaceSingleCapture) {
  Match m = Match::create("oanquan", {}, 1);
  EXPECT_EQ(m.game().position(), kStart);
  EXPECT_EQ(m.legal_tokens(), (Tokens{"1", "2", "3", "4", "5"}));
  const Outcome o = m.play("1 ccw");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(m.game().position(),
            oaq({1, L}, {0, 0, 6, 6, 6}, {1, L}, {0, 6, 6, 6, 6}, {6, 0}, {0, 0}));
  EXPECT_EQ(m.game().to_move(), 1);
  ASSERT_EQ(o.events.size(), 1u);
  const Json& t = o.events[0];
  EXPECT_EQ(t["move"], (Json{{"pit", 1}, {"dir", "ccw"}}));
  EXPECT_EQ(t["laps"], Json::array({lap(1, 5, 6, "ccw"), lap(7, 5, 0, "ccw")}));
  EXPECT_EQ(t["end"], "capture");
  EXPECT_EQ(t["captures"], Json::array({cap(2, 6)}));
  EXPECT_TRUE(t["refill"].is_null());
  EXPECT_EQ(t["round"], 1);
  EXPECT_EQ(t["turn"], 1);
}

TEST(OanQuan, OAQ_2_OpeningCapturesAnEndSpaceWithItsLargeStone) {
  OanQuan g = load(kStart, 0);
  const Json t = turn(g, "1 cw");
  EXPECT_EQ(g.position(), oaq({0}, {0, 6, 6, 6, 6}, {1, L}, {0, 6, 6, 6, 6}, {1, 0}, {1, 0}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["laps"], Json::array({lap(1, 5, 8, "cw"), lap(7, 5, 2, "cw")}));
  EXPECT_EQ(t["captures"], Json::array({cap(0, 1, true)}));
}

TEST(OanQuan, OAQ_3_NineLapsEndedByAnEndSpace) {
  OanQuan g = load(oaq({0, L}, {1, 1, 3, 2, 0}, {2, L}, {3, 0, 1, 2, 3}, {17, 15}), 0);
  const Json t = turn(g, "2 ccw");
  EXPECT_EQ(g.position(), oaq({2, L}, {3, 0, 1, 0, 3}, {4, L}, {1, 0, 3, 0, 1}, {17, 15}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["end"], "end_space_next");
  EXPECT_EQ(t["captures"], Json::array());
  const Json expected_laps = Json::array(
      {lap(2, 1, 3, "ccw"), lap(4, 2, 6, "ccw"), lap(7, 3, 10, "ccw"), lap(11, 3, 2, "ccw"),
       lap(3, 4, 7, "ccw"), lap(8, 1, 9, "ccw"), lap(10, 3, 1, "ccw"), lap(2, 1, 3, "ccw"),
       lap(4, 1, 5, "ccw")});
  EXPECT_EQ(t["laps"], expected_laps);
}

const Position kOaq4 = oaq({2, L}, {2, 0, 1, 0, 0}, {0, L}, {0, 3, 0, 2, 4}, {20, 16});

TEST(OanQuan, OAQ_4_CaptureChainStartingWithALargeStone) {
  OanQuan g = load(kOaq4, 0);
  const Json t = turn(g, "3 ccw");
  EXPECT_EQ(g.position(), oaq({2, L}, {2, 0, 0, 1, 0}, {0}, {0, 0, 0, 0, 4}, {25, 16}, {1, 0}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["captures"], Json::array({cap(6, 0, true), cap(8, 3), cap(10, 2)}));
}

TEST(OanQuan, OAQ_4_WithoutChainCapturesOnlyTheFirstCaptureIsMade) {
  OanQuan g = load(kOaq4, 0, {{"chain_captures", false}});
  const Json t = turn(g, "3 ccw");
  EXPECT_EQ(g.position(), oaq({2, L}, {2, 0, 0, 1, 0}, {0}, {0, 3, 0, 2, 4}, {20, 16}, {1, 0}));
  EXPECT_EQ(t["captures"], Json::array({cap(6, 0, true)}));
}

TEST(OanQuan, OAQ_5_AChainStopsAtAnEmptyEndSpace) {
  OanQuan g = load(oaq({0, L}, {1, 1, 0, 0, 2}, {0}, {3, 0, 2, 1, 1}, {24, 15}, {0, 1}), 0);
  const Json t = turn(g, "2 ccw");
  EXPECT_EQ(g.position(), oaq({0, L}, {1, 0, 1, 0, 0}, {0}, {3, 0, 2, 1, 1}, {26, 15}, {0, 1}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["captures"], Json::array({cap(5, 2)}));
}

TEST(OanQuan, OAQ_6_ClockwiseChain) {
  OanQuan g = load(oaq({3, L}, {2, 0, 1, 4, 0}, {2, L}, {1, 0, 3, 0, 2}, {20, 12}), 0);
  const Json t = turn(g, "1 cw");
  EXPECT_EQ(g.position(), oaq({4, L}, {0, 0, 1, 4, 0}, {2, L}, {0, 0, 0, 0, 3}, {24, 12}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["captures"], Json::array({cap(9, 3), cap(7, 1)}));
}

const Row kOaq7South = {3, 0, 2, 4, 1};

TEST(OanQuan, OAQ_7_RefillAtTheStartOfATurn) {
  OanQuan g = load(oaq({1, L}, kOaq7South, {2, L}, {0, 0, 0, 0, 0}, {30, 7}), 1);
  EXPECT_EQ(g.position(), oaq({1, L}, kOaq7South, {2, L}, {1, 1, 1, 1, 1}, {30, 2}));
  EXPECT_EQ(legal_tokens(g), (Tokens{"7", "8", "9", "10", "11"}));
  ASSERT_TRUE(play(g, "9"));
  EXPECT_TRUE(g.mid_turn());
  EXPECT_EQ(legal_tokens(g), (Tokens{"ccw", "cw"}));
  Events events;
  ASSERT_TRUE(play(g, "cw", &events));
  EXPECT_EQ(g.position(), oaq({1, L}, {4, 1, 0, 5, 0}, {3, L}, {0, 2, 0, 1, 1}, {30, 2}));
  EXPECT_EQ(g.to_move(), 0);
  const Json& t = events.at(0);
  EXPECT_EQ(t["refill"], (Json{{"squares", {7, 8, 9, 10, 11}}, {"from_store", 5}}));
  EXPECT_EQ(t["laps"], Json::array({lap(9, 1, 8, "cw"), lap(7, 1, 6, "cw"), lap(5, 1, 4, "cw"),
                                    lap(3, 2, 1, "cw")}));
  EXPECT_EQ(t["end"], "end_space_next");
}

TEST(OanQuan, OAQ_7_RefillIsAnEventOfTheMoveBeforeIt) {
  // South moves first without touching North's empty row: North's refill follows at once.
  OanQuan g = load(oaq({1, L}, kOaq7South, {2, L}, {0, 0, 0, 0, 0}, {30, 7}), 0);
  Events events;
  ASSERT_TRUE(play(g, "4 cw", &events));  // 3, 2, 1, W; next 11 and 10 are empty
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["end"], "two_empty");
  EXPECT_EQ(events[1], (Json{{"event", "refill"}, {"player", 1}, {"squares", {7, 8, 9, 10, 11}},
                             {"from_store", 5}}));
  EXPECT_EQ(g.position(), oaq({2, L}, {4, 1, 3, 0, 1}, {2, L}, {1, 1, 1, 1, 1}, {30, 2}));
  EXPECT_EQ(g.to_move(), 1);
}

TEST(OanQuan, OAQ_8a_RefillShortfallIsAPass) {
  const Position shortfall = oaq({1, L}, kOaq7South, {2, L}, {0, 0, 0, 0, 0}, {34, 3});
  OanQuan g = load(shortfall, 1);
  EXPECT_EQ(g.to_move(), 0) << "North cannot refill with 3 counters and passes";
  EXPECT_EQ(g.phase(), Phase::play);
  EXPECT_EQ(g.position(), shortfall);
  EXPECT_EQ(g.state().passes_in_a_row, 1);
  // The same pass reported as an event of South's move before it.
  OanQuan h = load(shortfall, 0);
  Events events;
  ASSERT_TRUE(play(h, "4 cw", &events));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1], (Json{{"event", "pass"}, {"player", 1}}));
  EXPECT_EQ(h.to_move(), 0);
  EXPECT_EQ(h.round(), 1);
}

TEST(OanQuan, OAQ_8b_DoublePassEndsTheRound) {
  OanQuan g = load(oaq({25, L}, {0, 0, 0, 0, 0}, {18, L}, {0, 0, 0, 0, 0}, {3, 4}), 0);
  const Json rounds = g.rounds();
  ASSERT_EQ(rounds.size(), 1u);
  const Json& r = rounds[0];
  EXPECT_EQ(r["end_reason"], "no_moves");
  EXPECT_EQ(r["turns"], 2) << "both passes are turns";
  EXPECT_EQ(r["leftover"]["end_spaces"], Json::array({25, 18}));
  EXPECT_EQ(r["small"], Json::array({28, 22}));
  EXPECT_EQ(r["large"], Json::array({0, 0}));
  EXPECT_EQ(r["points"], Json::array({28, 22}));
  EXPECT_EQ(r["round_winner"], 0);
  EXPECT_EQ(r["next"]["seller"], 1);
  EXPECT_EQ(r["next"]["deficit"], 3);
  EXPECT_EQ(r["next"]["sold_full"], 0);
  EXPECT_EQ(r["next"]["half"], true);
  EXPECT_EQ(r["next"]["ownership"]["11"], "half");
  EXPECT_EQ(r["next"]["ownership"]["10"], 1);
  EXPECT_EQ(r["next"]["half_fill"], (Json{{"11", {3, 2}}}));
  // Round 2: every square 5 again, the large stones back, 11 half-owned, North starts.
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.position(), oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5}, {0, 0}, {0, 0},
                              {0, 0, 0, 0, 0, 1, 1, 1, 1, 2}));
}

const Position kOaq9 = oaq({0}, {0, 2, 1, 0, 0}, {3, L}, {0, 2, 0, 1, 4}, {20, 17}, {1, 0});
const Owners kHalf11 = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2};
const Position kRound2Half11 = oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5}, {0, 0},
                                   {0, 0}, kHalf11);

TEST(OanQuan, OAQ_9_TheLastLargeStoneFallsScoringAndSelling) {
  OanQuan g = load(kOaq9, 0);
  Events events;
  ASSERT_TRUE(play(g, "3 ccw", &events));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["captures"], Json::array({cap(6, 3, true), cap(8, 2), cap(10, 1)}));
  // The round record of §6.1 (the book's 41 turns belong to a whole round; this one is 1 turn).
  const Json record = Json::parse(R"({ "round": 1, "starter": 0,
    "end_reason": "both_large_captured", "turns": 1,
    "ownership": {"1":0,"2":0,"3":0,"4":0,"5":0,"7":1,"8":1,"9":1,"10":1,"11":1},
    "leftover": { "rows": [3, 4], "half_split": [], "end_spaces": [0, 0] },
    "small": [29, 21], "large": [2, 0], "points": [49, 21], "round_winner": 0,
    "next": { "seller": 1, "deficit": 4, "sold_full": 0, "half": true,
              "ownership": {"1":0,"2":0,"3":0,"4":0,"5":0,"7":1,"8":1,"9":1,"10":1,"11":"half"},
              "half_fill": {"11": [4, 1]} } })");
  Json expected_event = {{"event", "round_end"}};
  expected_event.update(record);
  EXPECT_EQ(events[1], expected_event);
  EXPECT_EQ(g.rounds(), Json::array({record}));
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(g.to_move(), 1) << "alternate: North starts round 2";
  EXPECT_EQ(g.position(), kRound2Half11);
  EXPECT_EQ(legal_tokens(g), (Tokens{"7", "8", "9", "10", "11"}));
}

TEST(OanQuan, OAQ_10a_BothPlayersMayPlayAHalfOwnedSquare) {
  OanQuan g = load(kOaq9, 0, {{"round_starter", "same"}});
  ASSERT_TRUE(play(g, "3 ccw"));
  ASSERT_EQ(g.round(), 2);
  ASSERT_EQ(g.to_move(), 0) << "same: South starts round 2 too";
  EXPECT_EQ(g.position(), kRound2Half11);
  EXPECT_EQ(legal_tokens(g), (Tokens{"1", "2", "3", "4", "5", "11"}));
  const Json t = turn(g, "11 cw");
  EXPECT_EQ(g.position(), oaq({1, L}, {6, 6, 6, 6, 0}, {1, L}, {6, 6, 6, 0, 0}, {6, 0}, {0, 0},
                              kHalf11));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(t["captures"], Json::array({cap(10, 6)}));
  EXPECT_EQ(t["round"], 2);
}

TEST(OanQuan, OAQ_10b_HalfSquareSplitAtRoundEnd) {
  OanQuan g = load(oaq({0}, {0, 0, 1, 0, 0}, {1, L}, {3, 0, 0, 2, 5}, {20, 18}, {0, 1}, kHalf11),
                   0, {}, 2);
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(legal_tokens(g), (Tokens{"3", "11"}));
  ASSERT_TRUE(play(g, "3"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"ccw", "cw"}));
  ASSERT_TRUE(play(g, "ccw"));
  const Json r = g.rounds().at(0);
  EXPECT_EQ(r["round"], 2);
  EXPECT_EQ(r["ownership"]["11"], "half");
  EXPECT_EQ(r["leftover"], Json::parse(R"({"rows": [1, 5],
      "half_split": [{"square": 11, "counters": 5, "split": [2, 3]}], "end_spaces": [0, 0]})"));
  EXPECT_EQ(r["small"], Json::array({24, 26}));
  EXPECT_EQ(r["large"], Json::array({1, 1}));
  EXPECT_EQ(r["points"], Json::array({34, 36}));
  EXPECT_EQ(r["round_winner"], 1);
  EXPECT_EQ(r["next"]["seller"], 0);
  EXPECT_EQ(r["next"]["deficit"], 1);
  EXPECT_EQ(r["next"]["half_fill"], (Json{{"5", {4, 1}}}));
  EXPECT_EQ(g.round(), 3);
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.position(), oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5}, {0, 0}, {0, 0},
                              {0, 0, 0, 0, 2, 1, 1, 1, 1, 1}));
  EXPECT_EQ(legal_tokens(g), (Tokens{"5", "7", "8", "9", "10", "11"}));
}

TEST(OanQuan, OAQ_11_SaleArithmetic) {
  const OanQuanSale a = plan_sale({10, 40});
  EXPECT_EQ(a.seller, 0);
  EXPECT_EQ(a.deficit, 15);
  EXPECT_EQ(a.sold_full, 3);
  EXPECT_FALSE(a.half);
  const OanQuanSale b = plan_sale({9, 41});
  EXPECT_EQ(b.deficit, 16);
  EXPECT_EQ(b.sold_full, 3);
  EXPECT_TRUE(b.half);
  EXPECT_EQ(b.half_square, 2);
  EXPECT_EQ(b.half_fill, (Pair{4, 1}));
  const OanQuanSale north = plan_sale({41, 9});
  EXPECT_EQ(north.seller, 1);
  EXPECT_EQ(north.half_square, 8) << "North keeps 7 and sells from its right";
  EXPECT_EQ(north.owner[7], 1);
  EXPECT_EQ(north.owner[9], 0);
  EXPECT_EQ(north.owner[11], 0);
  const OanQuanSale even = plan_sale({25, 25});
  EXPECT_EQ(even.seller, kNoSeat);
  EXPECT_EQ(even.sold_full, 0);
  EXPECT_FALSE(even.half);
}

// South captures the last large stone (E) and ends round 1 with `small` counters.
Position last_stone_for(int south_small) {
  return oaq({0}, {0, 0, 1, 0, 0}, {0, L}, {0, 0, 0, 0, 0}, {south_small - 1, 50 - south_small},
             {0, 1});
}

TEST(OanQuan, OAQ_11_ThreeSquaresSoldEndTheMatch) {
  for (const int south : {10, 9}) {
    OanQuan g = load(last_stone_for(south), 0);
    Events events;
    ASSERT_TRUE(play(g, "3 ccw", &events));
    EXPECT_EQ(g.phase(), Phase::over);
    EXPECT_EQ(g.to_move(), kNoSeat);
    EXPECT_EQ(events.back()["event"], "game_end");
    const Json result = g.result();
    EXPECT_EQ(result["winner"], 1);
    EXPECT_EQ(result["end_reason"], "sold_squares");
    EXPECT_EQ(result["offender"], nullptr);
    EXPECT_EQ(result["final_small"], Json::array({south, 50 - south}));
    EXPECT_EQ(result["sold_full"], 3);
    EXPECT_EQ(result["half"], south == 9);
    EXPECT_EQ(result["rounds"].size(), 1u);
    EXPECT_TRUE(result["rounds"][0]["next"].is_null());
    // Clarification 13: swept board, counters in the stores, no large stone left to flag.
    EXPECT_EQ(g.position(), oaq({0}, {0, 0, 0, 0, 0}, {0}, {0, 0, 0, 0, 0}, {south, 50 - south},
                                {1, 1}));
  }
}

TEST(OanQuan, OAQ_11_WithFourSquaresToEndTheMatchGoesOn) {
  OanQuan g = load(last_stone_for(10), 0, {{"sold_squares_to_end", 4}});
  ASSERT_TRUE(play(g, "3 ccw"));
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(g.position(), oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5}, {0, 0}, {0, 0},
                              {0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(legal_tokens(g), (Tokens{"3", "4", "5", "7", "8", "9", "10", "11"}))
      << "North to move (alternate) owns the three sold squares";
  OanQuan h = load(last_stone_for(9), 0, {{"sold_squares_to_end", 4}});
  ASSERT_TRUE(play(h, "3 ccw"));
  EXPECT_EQ(h.position(), oaq({0, L}, {5, 5, 5, 5, 5}, {0, L}, {5, 5, 5, 5, 5}, {0, 0}, {0, 0},
                              {0, 2, 1, 1, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(h.rounds()[0]["next"]["half_fill"], (Json{{"2", {4, 1}}}));
}

// --- match rules ------------------------------------------------------------------------------

TEST(OanQuan, SingleRoundIsWonOnPoints) {
  OanQuan g = load(kOaq9, 0, {{"match_mode", "single"}});
  ASSERT_TRUE(play(g, "3 ccw"));
  EXPECT_EQ(g.phase(), Phase::over);
  const Json result = g.result();
  EXPECT_EQ(result["end_reason"], "single_round");
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["final_small"], Json::array({29, 21}));
  EXPECT_TRUE(result["rounds"][0]["next"].is_null());
  // Points decide, not small counters: 24 + 10 = 34 against 26 + 10 = 36.
  OanQuan h = load(oaq({0}, {0, 0, 1, 0, 0}, {1, L}, {3, 0, 0, 2, 5}, {20, 18}, {0, 1}, kHalf11),
                   0, {{"match_mode", "single"}});
  ASSERT_TRUE(play(h, "3 ccw"));
  EXPECT_EQ(h.result()["winner"], 1);
}

// A two-turn shuffle: South moves one counter 4 -> 5 -> 4, North one counter 7 -> 8 -> 7.
const Position kShuffle = oaq({0, L}, {0, 0, 0, 1, 0}, {0, L}, {1, 0, 0, 0, 0}, {24, 24});
const char* const kShuffleMoves[] = {"4 ccw", "7 ccw", "5 cw", "8 cw"};

TEST(OanQuan, ThirdRepetitionStallsTheRound) {
  OanQuan g = load(kShuffle, 0);
  for (int cycle = 0; cycle < 2; ++cycle)
    for (const char* move : kShuffleMoves) {
      ASSERT_EQ(g.round(), 1);
      ASSERT_TRUE(play(g, move));
    }
  // The opening position is now occurring for the third time: the round is over.
  const Json r = g.rounds().at(0);
  EXPECT_EQ(r["end_reason"], "stalled");
  EXPECT_EQ(r["turns"], 8);
  EXPECT_EQ(r["small"], Json::array({25, 25}));
  EXPECT_EQ(r["large"], Json::array({0, 0})) << "large stones on the board score for nobody";
  EXPECT_EQ(r["round_winner"], nullptr);
  EXPECT_EQ(r["next"]["seller"], nullptr);
  EXPECT_EQ(r["next"]["half_fill"], Json::object());
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(g.position(), kStart);
  EXPECT_EQ(g.to_move(), 1);
}

// North has nothing and cannot refill (4 < 5), so every North turn is a pass. South's three
// counters wander (a sequence found by search) without capturing; counters pile up in the end
// spaces, so no position occurs three times and only the stall limit can end the round.
const Position kWander = oaq({0, L}, {1, 1, 0, 1, 0}, {0}, {0, 0, 0, 0, 0}, {43, 4}, {0, 1});
const char* const kWanderMoves[] = {
    "1 cw",  "2 ccw", "3 ccw", "4 ccw", "5 ccw", "1 ccw", "2 cw",  "1 cw", "4 ccw",
    "5 ccw", "1 ccw", "2 cw",  "1 cw",  "4 ccw", "5 ccw", "1 ccw", "2 cw", "1 cw",
    "4 ccw", "5 ccw", "1 ccw", "2 cw",  "1 cw",  "4 ccw", "5 ccw", "1 ccw"};

TEST(OanQuan, StallLimitCountsTurnsWithoutCaptureIncludingPasses) {
  OanQuan g = load(kWander, 0, {{"stall_limit", 50}});
  for (int i = 0; i < 25; ++i) {
    Events events;
    ASSERT_TRUE(play(g, kWanderMoves[i], &events));
    ASSERT_EQ(events.at(0)["captures"], Json::array());
    if (i < 24) {
      ASSERT_EQ(events.at(1), (Json{{"event", "pass"}, {"player", 1}}));
      ASSERT_EQ(g.state().quiet_turns, 2 * (i + 1)) << "a move and a pass, neither capturing";
      ASSERT_EQ(g.to_move(), 0);
    }
  }
  // 25 South moves and 25 North passes: the 51st turn does not start.
  ASSERT_EQ(g.rounds().size(), 1u);
  EXPECT_EQ(g.rounds()[0]["end_reason"], "stalled");
  EXPECT_EQ(g.rounds()[0]["turns"], 50);
  // One more turn allowed: the round stalls at the start of North's next turn, before the pass.
  OanQuan h = load(kWander, 0, {{"stall_limit", 51}});
  for (const char* move : kWanderMoves) ASSERT_TRUE(play(h, move)) << move;
  ASSERT_EQ(h.rounds().size(), 1u);
  EXPECT_EQ(h.rounds()[0]["end_reason"], "stalled");
  EXPECT_EQ(h.rounds()[0]["turns"], 51);
}

TEST(OanQuan, MaxRoundsDecidesBySmallCountersAfterTheLastRound) {
  OanQuan g = load(kOaq9, 0, {{"max_rounds", 1}});
  ASSERT_TRUE(play(g, "3 ccw"));
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.result()["end_reason"], "max_rounds");
  EXPECT_EQ(g.result()["winner"], 0);
  EXPECT_EQ(g.result()["sold_full"], 0);
  EXPECT_EQ(g.result()["half"], true);
  // Clarification 12: a sale that ends the match wins over max_rounds ...
  OanQuan h = load(last_stone_for(10), 0, {{"max_rounds", 1}});
  ASSERT_TRUE(play(h, "3 ccw"));
  EXPECT_EQ(h.result()["end_reason"], "sold_squares");
  EXPECT_EQ(h.result()["winner"], 1);
  // ... and equal leaders draw.
  OanQuan d = load(kShuffle, 0, {{"max_rounds", 1}});
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(play(d, kShuffleMoves[i % 4]));
  EXPECT_EQ(d.phase(), Phase::over);
  EXPECT_EQ(d.result()["end_reason"], "max_rounds");
  EXPECT_EQ(d.result()["winner"], nullptr);
  // max_rounds 2 lets the match reach round 2.
  OanQuan two = load(kOaq9, 0, {{"max_rounds", 2}});
  ASSERT_TRUE(play(two, "3 ccw"));
  EXPECT_EQ(two.phase(), Phase::play);
  EXPECT_EQ(two.round(), 2);
}

TEST(OanQuan, ResignationLosesTheMatchWithoutSweepOrRoundRecord) {
  Match m = Match::from_game("oanquan", {}, load(kOaq9, 0).clone());
  ASSERT_TRUE(m.play("3 ccw").ok());  // round 1 ends, round 2 under way
  ASSERT_TRUE(m.play("7 ccw").ok());
  const Position before = m.game().position();
  ASSERT_TRUE(m.play("2").ok());  // half a turn, dropped by the resignation
  const Outcome o = m.resign(0);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(m.game().position(), before);
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "resign");
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["offender"], 0);
  EXPECT_EQ(result["rounds"].size(), 1u) << "the unfinished round writes no record";
  EXPECT_EQ(result["sold_full"], nullptr);
  EXPECT_EQ(o.events.back()["event"], "game_end");
}

TEST(OanQuan, ForfeitPolicyLosesTheMatchButOutOfDomainTokensDoNot) {
  const Json options = {{"illegal_move_policy", "forfeit"}};
  Match m = Match::create("oanquan", options, 1);
  for (const char* move : {"6", "0", "12", "x", "03", "CCW", "6 ccw"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
    EXPECT_EQ(m.game().phase(), Phase::play) << move;
  }
  const Outcome o = m.play("7 ccw");  // North's square: a rule violation
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(m.game().phase(), Phase::over);
  EXPECT_EQ(m.game().result()["end_reason"], "illegal_move");
  EXPECT_EQ(m.game().result()["offender"], 0);
  EXPECT_EQ(m.game().result()["winner"], 1);
}

TEST(OanQuan, BadInputIsRefusedAndChangesNothing) {
  Match m = Match::create("oanquan", {}, 1);
  ASSERT_TRUE(m.play("1 ccw").ok());  // OAQ-1: squares 1, 2 and 7 are empty now; North to move
  const Json before = m.state();
  const auto refused = [&](const char* move, const char* token) {
    const Outcome o = m.play(move);
    EXPECT_FALSE(o.ok()) << move;
    if (o.ok()) return;
    EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
    EXPECT_EQ(o.error->token, token) << move;
    EXPECT_EQ(m.state(), before) << move;
  };
  refused("3 ccw", "3");      // a square of the other player
  refused("7 ccw", "7");      // an empty square
  refused("ccw", "ccw");      // a direction without a square
  refused("8 8", "8");        // a square twice
  refused("8 ccw cw", "cw");  // past the end of the turn
  refused("8 ccw 9", "9");
  refused("6", "6");          // out of domain
  refused("12", "12");
  refused("x", "x");
  const Outcome not_yours = m.play(0, "3 ccw");
  ASSERT_FALSE(not_yours.ok());
  EXPECT_EQ(not_yours.error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.play("8  ccw").error->code, ErrorCode::bad_request);
  EXPECT_EQ(m.special_action("concede", 1).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.state(), before);
  // A half-played turn: the square alone, then the direction.
  ASSERT_TRUE(m.play("8").ok());
  EXPECT_EQ(m.pending(), "8");
  EXPECT_EQ(m.legal_tokens(), (Tokens{"ccw", "cw"}));
  EXPECT_EQ(m.state()["board"]["selected"], 8);
  const Json half = m.state();
  const Outcome twice = m.play("8");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error->legal, (Tokens{"ccw", "cw"}));
  EXPECT_EQ(m.state(), half);
  ASSERT_TRUE(m.play("cw").ok());
  EXPECT_EQ(m.pending(), "");
  EXPECT_EQ(m.game().to_move(), 0);
}

TEST(OanQuan, OptionsAreValidated) {
  const auto error_of = [](const Json& options) -> std::string {
    try {
      Match::create("oanquan", options, 1);
    } catch (const EngineError& e) {
      return std::string(to_string(e.code()));
    }
    return "accepted";
  };
  EXPECT_EQ(error_of({{"max_rounds", 101}}), "bad_option");
  EXPECT_EQ(error_of({{"max_rounds", -1}}), "bad_option");
  EXPECT_EQ(error_of({{"stall_limit", 49}}), "bad_option");
  EXPECT_EQ(error_of({{"stall_limit", 2001}}), "bad_option");
  EXPECT_EQ(error_of({{"sold_squares_to_end", 5}}), "bad_option");
  EXPECT_EQ(error_of({{"chain_captures", 1}}), "bad_option");
  EXPECT_EQ(error_of({{"first_player", 2}}), "bad_option");
  EXPECT_EQ(error_of({{"match_mode", "single"}, {"max_rounds", 100}, {"stall_limit", 50},
                      {"round_starter", "same"}, {"first_player", "random"},
                      {"chain_captures", false}, {"sold_squares_to_end", 4}}),
            "accepted");
  const Match m = Match::create("oanquan", {{"first_player", 1}}, 1);
  EXPECT_EQ(m.game().to_move(), 1);
  EXPECT_EQ(m.options()["stall_limit"], 200);
  EXPECT_EQ(m.options().size(), 8u);
}

TEST(OanQuan, ConstructedPositionsAreChecked) {
  const auto error_of = [](Position p) -> std::string {
    try {
      OanQuan::from_position({}, p, 0);
    } catch (const EngineError& e) {
      return e.what();
    }
    return "accepted";
  };
  Position p = kStart;
  p[1] = 6;
  EXPECT_NE(error_of(p).find("not 50"), std::string::npos);
  p = kStart;
  p[12] = 0;
  EXPECT_NE(error_of(p).find("two large stones"), std::string::npos);
  p = kStart;
  p[18] = p[19] = 2;
  EXPECT_NE(error_of(p).find("half"), std::string::npos);
  p.pop_back();
  EXPECT_NE(error_of(p).find("28 numbers"), std::string::npos);
  EXPECT_EQ(error_of(kStart), "accepted");
}

TEST(OanQuan, ViewsDescribeTheBoard) {
  const OanQuan g = load(kOaq9, 0);
  const Json board = g.board();
  EXPECT_EQ(board["squares"]["3"], 1);
  EXPECT_EQ(board["end_spaces"]["6"], (Json{{"small", 3}, {"large", true}}));
  EXPECT_EQ(board["end_spaces"]["0"], (Json{{"small", 0}, {"large", false}}));
  EXPECT_EQ(board["stores"], Json::array({20, 17}));
  EXPECT_EQ(board["large_captured"], Json::array({1, 0}));
  EXPECT_EQ(board["ownership"]["11"], 1);
  EXPECT_EQ(g.scores(), (Json{{"stores", {20, 17}}, {"large", {1, 0}}, {"points", {30, 17}}}));
  EXPECT_EQ(g.rounds(), Json::array());
  EXPECT_TRUE(g.result().is_null());
  const OanQuan half = load(kRound2Half11, 0, {}, 2);
  EXPECT_EQ(half.board()["ownership"]["11"], "half");
  EXPECT_EQ(half.round(), 2);
}

// --- §10 invariants over random matches ---------------------------------------------------------

struct Totals {
  int small = 0;
  int large = 0;
};
Totals totals(const OanQuanMaterial& m) {
  Totals t;
  for (int v : m.small) t.small += v;
  t.small += m.store[0] + m.store[1];
  t.large = m.large[0] + m.large[1] + m.quan[0] + m.quan[1];
  return t;
}

// Ownership as §2.6 builds it: one row entirely its owner's; the other row holds its owner's
// squares from the left, then at most one half square, then the buyer's squares.
void expect_well_formed_ownership(const std::array<std::uint8_t, 12>& owner) {
  static constexpr int kRows[2][5] = {{1, 2, 3, 4, 5}, {7, 8, 9, 10, 11}};
  int halves = 0;
  int foreign_rows = 0;
  for (Seat row = 0; row < 2; ++row) {
    int stage = 0;  // 0: the row owner's, 1: the half square, 2: the buyer's
    bool foreign = false;
    for (int s : kRows[row]) {
      const int o = owner[s];
      const int at = o == row ? 0 : (o == kHalf ? 1 : 2);
      ASSERT_GE(at, stage) << "ownership out of order in row " << row;
      if (at == 1) {
        ASSERT_NE(stage, 1) << "two half squares in a row";
        ++halves;
      }
      foreign = foreign || at > 0;
      stage = at;
    }
    foreign_rows += foreign;
  }
  ASSERT_LE(halves, 1);
  ASSERT_LE(foreign_rows, 1) << "only the seller's row holds squares of the other player";
}

// Round records: counts add up (§2.5, §10), and the next round is filled from exactly C (§2.6).
void expect_consistent_round(const Json& r) {
  const int small0 = r["small"][0].get<int>();
  const int small1 = r["small"][1].get<int>();
  const int large = r["large"][0].get<int>() + r["large"][1].get<int>();
  ASSERT_EQ(small0 + small1, 50);
  ASSERT_EQ(r["points"][0].get<int>() + r["points"][1].get<int>(), 50 + 10 * large);
  ASSERT_LE(large, 2);
  if (r["end_reason"] == "both_large_captured") {
    ASSERT_EQ(large, 2);
  }
  const Json& next = r["next"];
  if (next.is_null()) return;
  Pair filled{};
  for (const auto& [square, owner] : next["ownership"].items())
    if (owner.is_number()) filled[owner.get<int>()] += 5;
  for (const auto& [square, fill] : next["half_fill"].items()) {
    ASSERT_EQ(next["ownership"][square], "half");
    filled[0] += fill[0].get<int>();
    filled[1] += fill[1].get<int>();
  }
  ASSERT_EQ(filled, (Pair{small0, small1})) << r.dump();
}

struct Tally {
  int matches = 0;
  int rounds = 0;
  int half_rounds = 0;
  int sold_rounds = 0;
  int stalled = 0;
  int no_moves = 0;
};

void random_matches(const Json& options, std::uint64_t first_seed, int count, Tally& tally) {
  const Json resolved = resolve_options(oanquan_type().options, options);
  for (std::uint64_t seed = first_seed; seed < first_seed + static_cast<std::uint64_t>(count);
       ++seed) {
    OanQuan g(GameSetup{resolved, static_cast<Seat>(seed % 2)});
    int round = g.round();
    auto owner = g.state().m.owner;
    const int decisions = testing::random_playout(g, seed, [&](const Game&) {
      const OanQuanMaterial& m = g.state().m;
      const Totals t = totals(m);
      ASSERT_EQ(t.small, 50) << "seed " << seed;
      ASSERT_EQ(t.large, 2) << "seed " << seed;
      if (g.phase() == Phase::over) return;
      ASSERT_LT(m.quan[0] + m.quan[1], 2) << "a round in play has a large stone left";
      ASSERT_LT(g.state().quiet_turns, g.state().stall_limit);
      if (g.round() != round) {  // a new round: five counters everywhere, ownership rebuilt
        round = g.round();
        owner = m.owner;
        expect_well_formed_ownership(owner);
        for (int s : {1, 2, 3, 4, 5, 7, 8, 9, 10, 11}) ASSERT_EQ(m.small[s], 5);
        ASSERT_EQ(m.small[0] + m.small[6] + m.store[0] + m.store[1] + m.quan[0] + m.quan[1], 0);
        ASSERT_EQ(m.large[0] + m.large[1], 2);
      } else {
        ASSERT_EQ(m.owner, owner) << "ownership never changes inside a round";
      }
    }, 200'000);
    ASSERT_EQ(g.phase(), Phase::over) << "seed " << seed << " did not end in " << decisions;
    const Json result = g.result();
    for (const Json& r : result["rounds"]) {
      expect_consistent_round(r);
      ++tally.rounds;
      if (r["next"].is_object() && r["next"]["half"] == true) ++tally.half_rounds;
      if (r["next"].is_object() && r["next"]["sold_full"].get<int>() > 0) ++tally.sold_rounds;
      tally.stalled += r["end_reason"] == "stalled";
      tally.no_moves += r["end_reason"] == "no_moves";
    }
    if (options.value("match_mode", "match") == "match") {
      ASSERT_EQ(result["end_reason"], "sold_squares");
      ASSERT_GE(result["sold_full"].get<int>(), options.value("sold_squares_to_end", 3));
      const Json& small = result["final_small"];
      ASSERT_EQ(result["winner"].get<int>(), small[0].get<int>() < small[1].get<int>() ? 1 : 0);
    } else {
      ASSERT_EQ(result["rounds"].size(), 1u);
    }
    // Clarification 13: the swept board after the match.
    for (int v : g.state().m.small) ASSERT_EQ(v, 0);
    ++tally.matches;
  }
}

TEST(OanQuan, InvariantsHoldInRandomMatchesForEveryOptionMix) {
  for (const bool chain : {true, false})
    for (const int sold : {3, 4}) {
      Tally tally;
      random_matches({{"chain_captures", chain}, {"sold_squares_to_end", sold}},
                     chain ? 1000 : 9000 + static_cast<std::uint64_t>(sold), 1500, tally);
      if (HasFatalFailure()) return;
      EXPECT_EQ(tally.matches, 1500);
      EXPECT_GT(tally.rounds, tally.matches) << "matches run over several rounds";
      EXPECT_GT(tally.half_rounds, 0);
      EXPECT_GT(tally.sold_rounds, 0);
    }
}

TEST(OanQuan, RandomRoundsAlsoEndStalledOrByPassesAndSingleRoundsEnd) {
  Tally tally;
  random_matches({{"stall_limit", 50}}, 50'000, 600, tally);
  random_matches({{"match_mode", "single"}, {"chain_captures", false}}, 60'000, 600, tally);
  EXPECT_GT(tally.stalled, 0);
}

// Turn records over random matches: laps start at the chosen square, captures chain over
// single empty squares, and the loop guard never fires (§2: relays cannot revisit a position
// without dropping into an end space, which never empties during a turn).
TEST(OanQuan, TurnRecordsDescribeEveryTurn) {
  int turns = 0;
  int chains = 0;
  const auto play_turn = [&](Match& m, Random& rng) {
    const auto legal = m.legal_tokens();
    ASSERT_FALSE(legal.empty());
    const std::string square = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    const std::string move = square + (rng.below(2) ? " cw" : " ccw");
    const Outcome o = m.play(move);
    ASSERT_TRUE(o.ok()) << move;
    for (const Json& e : o.events) {
      if (e["event"] != "turn") continue;
      ++turns;
      const int step = e["move"]["dir"] == "ccw" ? 1 : 11;
      ASSERT_EQ(e["laps"][0]["from"], e["move"]["pit"]);
      ASSERT_NE(e["end"], "loop_guard");
      const Json& captures = e["captures"];
      ASSERT_EQ(captures.empty(), e["end"] != "capture");
      for (std::size_t i = 1; i < captures.size(); ++i) {
        const int gap = (captures[i - 1]["space"].get<int>() + step) % 12;
        ASSERT_NE(gap % 6, 0) << "a chain's gap is a square";
        ASSERT_EQ(captures[i]["space"].get<int>(), (gap + step) % 12);
        ++chains;
      }
      const Json& last_lap = e["laps"].back();
      if (!captures.empty()) {
        const int first = captures[0]["space"].get<int>();
        ASSERT_EQ((last_lap["end"].get<int>() + 2 * step) % 12, first);
      }
    }
  };
  testing::expect_random_games_replay("oanquan", {{"first_player", "random"}}, 150,
                                      {.step = play_turn});
  EXPECT_GT(turns, 1000);
  EXPECT_GT(chains, 10);
}

// A full match through the command line's path: Match, text moves, a record that replays. The
// seed is chosen so the match has several rounds with squares sold outright and half-owned.
TEST(OanQuan, FullMatchWithSoldAndHalfSquaresReplaysFromItsRecord) {
  for (std::uint64_t seed = 1;; ++seed) {
    ASSERT_LT(seed, 500u) << "no random match sold whole and half squares";
    Match m = Match::create("oanquan", {}, seed);
    ASSERT_NO_FATAL_FAILURE(testing::play_randomly(m, seed));
    const Json rounds = m.game().rounds();
    bool sold = false;
    bool half = false;
    for (std::size_t i = 0; i + 1 < rounds.size(); ++i) {
      sold = sold || rounds[i]["next"]["sold_full"].get<int>() > 0;
      half = half || rounds[i]["next"]["half"].get<bool>();
    }
    if (!sold || !half) continue;
    const Json record = m.record();
    int round_ends = 0;
    for (const Json& entry : record["turns"]) round_ends += entry.value("event", "") == "round_end";
    EXPECT_EQ(round_ends, static_cast<int>(rounds.size()));
    EXPECT_EQ(record["turns"].back()["event"], "game_end");
    testing::expect_record_replays(m);
    EXPECT_EQ(m.state()["result"]["end_reason"], "sold_squares");
    return;
  }
}

}  // namespace
}  // namespace mancala
