// Coin Duel: every worked example of the rule book (cups-and-coin-duel.md §8.2-§8.4), the turn
// state machine of §5 (compound and step-by-step moves), the §9 invariants over seeded random
// games of each stage, and bad input through the generic layer.
#include <map>

#include "games/coin_duel.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::legal_tokens;
using testing::play;
using Tokens = std::vector<std::string>;
using Position = std::vector<int>;

// ---- positions written as in §8: only non-empty cups, items per cup -------------------------

// Stage 1: bean counts.
struct Beans {
  std::map<int, int> cups;
  int pot = 0;
  int res = 0;
};

Position beans(const Beans& south, const Beans& north) {
  Position out;
  for (const Beans* side : {&south, &north}) {
    for (int i = 1; i <= 10; ++i) out.push_back(side->cups.count(i) ? side->cups.at(i) : 0);
    out.push_back(side->pot);
    out.push_back(side->res);
  }
  return out;
}

// Stages 2-3: coin strings such as "NNQ" ("" = none).
struct Purse {
  std::map<int, std::string> cups;
  std::string pot;
  std::string res;
};

void put_coins(Position& out, const std::string& coins) {
  int count[4] = {0, 0, 0, 0};
  for (char c : coins) ++count[std::string_view("PNDQ").find(c)];
  out.insert(out.end(), count, count + 4);
}

Position coins(const Purse& south, const Purse& north) {
  Position out;
  for (const Purse* side : {&south, &north}) {
    for (int i = 1; i <= 10; ++i) put_coins(out, side->cups.count(i) ? side->cups.at(i) : "");
    put_coins(out, side->pot);
    put_coins(out, side->res);
  }
  return out;
}

// `many(1, 7, 8, 8)` = one penny, seven nickels, eight dimes, eight quarters.
std::string many(int p, int n, int d, int q) {
  return std::string(static_cast<std::size_t>(p), 'P') + std::string(static_cast<std::size_t>(n), 'N') +
         std::string(static_cast<std::size_t>(d), 'D') + std::string(static_cast<std::size_t>(q), 'Q');
}

Json with_stage(int stage, Json options = Json::object()) {
  options["stage"] = stage;
  return options;
}

CoinDuel duel(int stage, const Position& position, Seat to_move, Json options = Json::object(),
              int round = 1, std::span<const RoundRecord> earlier = {}) {
  return CoinDuel::from_position(with_stage(stage, std::move(options)), position, to_move, round,
                                 earlier);
}

Match match_of(int stage, const Position& position, Seat to_move, Json options = Json::object(),
               int round = 1) {
  options = with_stage(stage, std::move(options));
  return Match::from_game("coin_duel", options,
                          CoinDuel::from_position(options, position, to_move, round).clone());
}

Tokens reserve_and_cups(int reserve_max, std::vector<int> cups = {}) {
  Tokens out;
  for (int k = 1; k <= reserve_max; ++k) out.push_back("r" + std::to_string(k));
  for (int i : cups) out.push_back("c" + std::to_string(i));
  return out;
}

const Json* find_event(const Events& events, const std::string& kind) {
  for (const Json& e : events)
    if (e["event"] == kind) return &e;
  return nullptr;
}

// ---- the shared row mechanics ------------------------------------------------------------------

TEST(Rows, LapsEndInThePotAnEmptyOrAFilledCupOrRunOffTheRow) {
  const int row[11] = {0, 0, 3, 0, 0, 1, 0, 0, 0, 0, 0};  // [q], q = 1..10
  auto held = [&](int q) { return row[q]; };
  EXPECT_EQ(resolve_lap(10, 8, 3, kRight, held).end, LapEnd::pot);
  EXPECT_EQ(resolve_lap(10, 8, 4, kRight, held).end, LapEnd::overshoot);
  EXPECT_EQ(resolve_lap(10, 3, 3, kLeft, held).end, LapEnd::overrun);
  EXPECT_EQ(resolve_lap(10, 1, 1, kLeft, held).end, LapEnd::overrun) << "no L lap from cup 1";
  const Landing filled = resolve_lap(10, 0, 5, kRight, held);
  EXPECT_EQ(filled.end, LapEnd::filled);
  EXPECT_EQ(filled.cup, 5);
  EXPECT_EQ(resolve_lap(10, 5, 2, kLeft, held).end, LapEnd::empty);
  EXPECT_EQ(opposite(10, 3), 8);
}

// ---- §8.2 stage 1 ------------------------------------------------------------------------------

CoinDuel stage1_opening() { return duel(1, beans({{}, 0, 40}, {{}, 0, 40}), 0); }

TEST(CoinDuelStage1, CD1_1_OpeningFirstTurnLimitAndReserveRelayChain) {
  CoinDuel g = stage1_opening();
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4)) << "first turn: f = 0, Lmax = 4";
  ASSERT_TRUE(play(g, "r4"));
  EXPECT_EQ(g.position(), beans({{{1, 1}, {2, 1}, {3, 1}, {4, 1}}, 0, 36}, {{}, 0, 40}));
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4));
  ASSERT_TRUE(play(g, "r3"));
  EXPECT_EQ(g.position(), beans({{{1, 1}, {2, 1}, {3, 1}, {4, 1}}, 0, 36}, {{{1, 1}, {2, 1}, {3, 1}}, 0, 37}));
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(5)) << "f = 4 gives Lmax 5; no board play scores";
  Events events;
  ASSERT_TRUE(play(g, "r2", &events));
  EXPECT_EQ(g.position(),
            beans({{{1, 2}, {3, 2}, {5, 1}, {6, 1}}, 0, 34}, {{{1, 1}, {2, 1}, {3, 1}}, 0, 37}));
  EXPECT_EQ(g.to_move(), 1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["trace"], Json::parse(R"([
      {"from":0,"dir":"R","count":2,"end":2,"result":"filled"},
      {"from":2,"dir":"R","count":2,"end":4,"result":"filled"},
      {"from":4,"dir":"R","count":2,"end":6,"result":"empty"}])"));
  EXPECT_EQ(events[0]["move"], Json::parse(R"({"source":"reserve","count":2})")) << "no laps in stage 1";
  EXPECT_TRUE(events[0]["capture"].is_null());
  EXPECT_EQ(events[0]["tokens"], "r2");
}

CoinDuel after_cd1_1() {
  CoinDuel g = stage1_opening();
  play(g, "r4");
  play(g, "r3");
  play(g, "r2");
  return g;
}

TEST(CoinDuelStage1, CD1_2_BoardChainThatScoresByCapture) {
  CoinDuel g = after_cd1_1();
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4, {2}));
  Events events;
  ASSERT_TRUE(play(g, "c2", &events));
  EXPECT_EQ(g.position(),
            beans({{{1, 2}, {3, 2}, {5, 1}}, 0, 34}, {{{1, 1}, {4, 1}, {5, 1}}, 1, 37}));
  EXPECT_EQ(events[0]["capture"], (Json{{"cup", 6}, {"items", 1}}));
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(6, {1, 3, 5}));
}

TEST(CoinDuelStage1, CD1_3_ThreeLapsEndingInThePot) {
  CoinDuel g = duel(1, beans({{{5, 2}, {7, 1}, {9, 1}}, 0, 10}, {{}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(10, {5})) << "c7 and c9 do not score";
  Events events;
  ASSERT_TRUE(play(g, "c5", &events));
  EXPECT_EQ(g.position(), beans({{{6, 1}, {8, 1}, {10, 1}}, 1, 10}, {{}, 0, 10}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(events[0]["trace"], Json::parse(R"([
      {"from":5,"dir":"R","count":2,"end":7,"result":"filled"},
      {"from":7,"dir":"R","count":2,"end":9,"result":"filled"},
      {"from":9,"dir":"R","count":2,"end":"pot","result":"pot"}])"));
}

TEST(CoinDuelStage1, CD1_4_ACaptureCountsAsAScore) {
  CoinDuel g = duel(1, beans({{{6, 2}}, 0, 10}, {{{3, 4}}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(7, {6}));
  Events events;
  ASSERT_TRUE(play(g, "c6", &events));
  EXPECT_EQ(g.position(), beans({{{7, 1}, {8, 1}}, 4, 10}, {{}, 0, 10}));
  EXPECT_EQ(events[0]["capture"], (Json{{"cup", 3}, {"items", 4}}));
  EXPECT_EQ(g.to_move(), 1);
}

TEST(CoinDuelStage1, CD1_5_EndingInAnEmptyCupWithNothingToCaptureIsNotPermissible) {
  CoinDuel g = duel(1, beans({{{6, 2}}, 0, 10}, {{}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(7));
}

TEST(CoinDuelStage1, CD1_6_OvershootDirectlyAndInsideAChain) {
  CoinDuel g = duel(1, beans({{{5, 3}, {8, 3}}, 0, 0}, {{}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"c8"}));
  ASSERT_TRUE(play(g, "c8"));
  EXPECT_EQ(g.position(), beans({{{5, 3}, {9, 1}, {10, 1}}, 1, 0}, {{}, 0, 10}));
  EXPECT_EQ(g.to_move(), 1);
  // A cup of 4 at S8 overshoots at once (8 + 4 > 11).
  EXPECT_EQ(legal_tokens(duel(1, beans({{{8, 4}}, 0, 5}, {{}, 0, 10}), 0)), reserve_and_cups(5));
}

TEST(CoinDuelStage1, CD1_7_AReservePlayWhoseChainOvershoots) {
  CoinDuel g = duel(1, beans({{{1, 10}}, 0, 3}, {{}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"r2", "r3", "c1"}));
  ASSERT_TRUE(play(g, "r2"));
  EXPECT_EQ(g.position(), beans({{{1, 11}, {2, 1}}, 0, 1}, {{}, 0, 10}));
  EXPECT_EQ(g.to_move(), 1);
}

TEST(CoinDuelStage1, CD1_8_AReserveLimitAboveFourAndAReserveCapture) {
  CoinDuel g = duel(1, beans({{{7, 1}}, 0, 20}, {{{3, 2}}, 0, 10}), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(8, {7})) << "f = 7: Lmax 8, not 9";
  ASSERT_TRUE(play(g, "r8"));
  EXPECT_EQ(g.position(),
            beans({{{1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 2}, {8, 1}}, 2, 12},
                  {{}, 0, 10}));
  EXPECT_EQ(g.to_move(), 1);
}

TEST(CoinDuelStage1, CD1_9_TheGameEndsWhenThePlayerToMoveCannotMove) {
  CoinDuel g = duel(1, beans({{{2, 12}}, 40, 0}, {{{10, 1}}, 27, 0}), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"c10"}));
  Events events;
  ASSERT_TRUE(play(g, "c10", &events));
  EXPECT_EQ(g.position(), beans({{{2, 12}}, 40, 0}, {{}, 28, 0}));
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.to_move(), kNoSeat);
  EXPECT_TRUE(legal_tokens(g).empty());
  const Json result = g.result();
  EXPECT_EQ(result["end_reason"], "no_legal_move");
  EXPECT_EQ(result["stuck_player"], 0) << "no pass in Coin Duel";
  EXPECT_TRUE(result["offender"].is_null());
  EXPECT_EQ(result["pots"], Json::parse("[40, 28]"));
  EXPECT_EQ(result["pot_values"], Json::parse("[40, 28]"));
  EXPECT_EQ(result["scores"], Json::parse("[40, 0]"));
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["stage"], 1);
  EXPECT_EQ(g.scores(), Json::parse("[40, 0]"));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1]["event"], "game_end");
  EXPECT_EQ(events[1]["result"], result);
}

// ---- §8.3 stage 2 ------------------------------------------------------------------------------

Position cd2_1_start() {
  return coins({{{4, "DD"}, {9, "PQ"}}, "", "NQQQ"}, {{{5, "NQ"}}, "", "QQQ"});
}

TEST(CoinDuelStage2, CD2_1a_CoinOrderAndACaptureAsScore) {
  CoinDuel g = duel(2, cd2_1_start(), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4, {4, 9}));
  const std::string move = CoinDuel::compound_tokens(
      Json::parse(R"({"source":"cup","cup":4,"laps":[{"coins":["D","D"]}]})"), 2);
  EXPECT_EQ(move, "c4 D D");
  ASSERT_TRUE(play(g, "c4"));
  EXPECT_TRUE(g.mid_turn());
  EXPECT_EQ(g.position(), coins({{{9, "PQ"}}, "", "NQQQ"}, {{{5, "NQ"}}, "", "QQQ"}))
      << "clarification 2: the coins in hand are in no element";
  EXPECT_EQ(g.board()["turn"]["hand"], Json::parse("[0,0,2,0]"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"D"}));
  ASSERT_TRUE(play(g, "D"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"D"})) << "a single option is still a decision";
  Events events;
  ASSERT_TRUE(play(g, "D", &events));
  EXPECT_FALSE(g.mid_turn());
  EXPECT_EQ(g.position(), coins({{{5, "D"}, {6, "D"}, {9, "PQ"}}, "NQ", "NQQQ"}, {{}, "", "QQQ"}));
  EXPECT_EQ(g.board()["pot_values"], Json::parse("[30, 0]"));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(3));
  EXPECT_EQ(events[0]["capture"], Json::parse(R"({"cup":5,"items":[0,1,0,1]})"));
  EXPECT_EQ(events[0]["move"], Json::parse(R"({"source":"cup","cup":4,"laps":[{"coins":["D","D"]}]})"));
  EXPECT_EQ(events[0]["tokens"], move);
}

TEST(CoinDuelStage2, CD2_1b_ReservePlayThatRelays) {
  CoinDuel g = duel(2, cd2_1_start(), 0);
  const std::string move = CoinDuel::compound_tokens(Json::parse(R"(
      {"source":"reserve","count":4,"laps":[{"coins":["Q","Q","N","Q"]},{"coins":["Q","D","D"]}]})"), 2);
  EXPECT_EQ(move, "r4 Q Q N Q Q D D");
  ASSERT_TRUE(play(g, "r4"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"N", "Q"}));
  ASSERT_TRUE(play(g, "Q Q N"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"Q"})) << "only Q is left in the reserve";
  ASSERT_TRUE(play(g, "Q"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"D", "Q"})) << "S4 was DD: the hand is DDQ";
  ASSERT_TRUE(play(g, "Q"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"D"}));
  ASSERT_TRUE(play(g, "D"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"D"}));
  Events events;
  ASSERT_TRUE(play(g, "D", &events));
  EXPECT_EQ(g.position(),
            coins({{{1, "Q"}, {2, "Q"}, {3, "N"}, {5, "Q"}, {6, "D"}, {7, "D"}, {9, "PQ"}}, "", ""},
                  {{{5, "NQ"}}, "", "QQQ"}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_TRUE(events[0]["capture"].is_null()) << "a reserve turn need not score";
  EXPECT_EQ(events[0]["tokens"], move);
}

TEST(CoinDuelStage2, CD2_2_ValueNotCountDecides) {
  const CoinDuel g = duel(2, coins({{}, "PPPPPPPPPNNDDDQQQQQQ", ""}, {{}, "PDDDDQQQQQQQ", ""}), 0);
  ASSERT_EQ(g.phase(), Phase::over) << "South has no legal move";
  const Json result = g.result();
  EXPECT_EQ(result["pots"], Json::parse("[[9,2,3,6],[1,0,4,7]]"));
  EXPECT_EQ(result["pot_values"], Json::parse("[199, 216]"));
  EXPECT_EQ(result["scores"], Json::parse("[0, 216]"));
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["stuck_player"], 0);
}

// ---- §8.4 stage 3 ------------------------------------------------------------------------------

TEST(CoinDuelStage3, CD3_1_OpeningOfRoundOne) {
  Match m = Match::create("coin_duel", {{"stage", 3}}, 1);
  const std::string round1 = many(1, 10, 10, 10);
  EXPECT_EQ(m.game().position(), coins({{}, "", round1}, {{}, "", round1}));
  EXPECT_EQ(m.legal_tokens(), reserve_and_cups(4));
  const std::string first = CoinDuel::compound_tokens(Json::parse(
      R"({"source":"reserve","count":3,"laps":[{"dir":"R","coins":["N","D","P"]}]})"), 3);
  EXPECT_EQ(first, "r3 N D P") << "no direction token for a reserve turn's first lap";
  ASSERT_TRUE(m.play(first).ok());
  EXPECT_EQ(m.game().position(),
            coins({{{1, "N"}, {2, "D"}, {3, "P"}}, "", many(0, 9, 9, 10)}, {{}, "", round1}));
  EXPECT_EQ(m.legal_tokens(), reserve_and_cups(4));
  ASSERT_TRUE(m.play("r4 N N D Q").ok());
  EXPECT_EQ(m.game().position(),
            coins({{{1, "N"}, {2, "D"}, {3, "P"}}, "", many(0, 9, 9, 10)},
                  {{{1, "N"}, {2, "N"}, {3, "D"}, {4, "Q"}}, "", many(1, 8, 9, 9)}));
  EXPECT_EQ(m.legal_tokens(), reserve_and_cups(4, {1, 2, 3}));
  // Reserve(1): S1 is filled, the relay of 2 must go R; at S3 both directions finish.
  ASSERT_TRUE(m.play("r1").ok());
  EXPECT_EQ(m.legal_tokens(), (Tokens{"N", "D", "Q"})) << "South's penny is used up";
  ASSERT_TRUE(m.play("Q").ok());
  EXPECT_EQ(m.legal_tokens(), (Tokens{"R"})) << "L from S1 overruns";
  ASSERT_TRUE(m.play("R N Q").ok());
  EXPECT_EQ(m.legal_tokens(), (Tokens{"R", "L"}));
  EXPECT_EQ(m.pending(), "r1 Q R N Q");
}

Position cd3_2_start(const std::string& north_cup6 = "ND", const std::string& north_res = many(1, 7, 8, 8)) {
  return coins({{{3, "DQ"}, {5, "NN"}, {8, "NQ"}}, "", many(1, 7, 8, 8)},
               {{{4, "Q"}, {6, north_cup6}, {8, "N"}}, "", north_res});
}

TEST(CoinDuelStage3, CD3_2_ThreeLapChainWithADirectionChoiceAtEachLap) {
  CoinDuel g = duel(3, cd3_2_start(), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(9, {3, 5, 8}));
  const Json book_move = Json::parse(R"({"source":"cup","cup":3,"laps":[
      {"dir":"R","coins":["Q","D"]},{"dir":"R","coins":["N","D","N"]},{"dir":"R","coins":["N","N","Q"]}]})");
  EXPECT_EQ(CoinDuel::compound_tokens(book_move, 3), "c3 R Q D R N D N R N N Q");
  const std::pair<const char*, Tokens> steps[] = {
      {"c3", {"R", "L"}}, {"R", {"D", "Q"}}, {"Q", {"D"}},      {"D", {"R", "L"}},
      {"R", {"N", "D"}},  {"N", {"N", "D"}}, {"D", {"N"}},      {"N", {"R", "L"}},
      {"R", {"N", "Q"}},  {"N", {"N", "Q"}}, {"N", {"Q"}}};
  for (const auto& [token, then_legal] : steps) {
    ASSERT_TRUE(play(g, token));
    EXPECT_EQ(legal_tokens(g), then_legal) << "after " << token;
  }
  Events events;
  ASSERT_TRUE(play(g, "Q", &events));
  EXPECT_EQ(g.position(),
            coins({{{4, "Q"}, {6, "N"}, {7, "D"}, {9, "N"}, {10, "N"}}, "Q", many(1, 7, 8, 8)},
                  {{{4, "Q"}, {6, "ND"}, {8, "N"}}, "", many(1, 7, 8, 8)}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.round(), 1) << "no winning coin scored: the round goes on";
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0], Json::parse(R"({"event":"turn","player":0,"turn":1,"round":1,
      "move":{"source":"cup","cup":3,"laps":[{"dir":"R","coins":["Q","D"]},{"dir":"R","coins":["N","D","N"]},
              {"dir":"R","coins":["N","N","Q"]}]},
      "trace":[{"from":3,"dir":"R","count":2,"end":5,"result":"filled"},
               {"from":5,"dir":"R","count":3,"end":8,"result":"filled"},
               {"from":8,"dir":"R","count":3,"end":"pot","result":"pot"}],
      "capture":null,"tokens":"c3 R Q D R N D N R N N Q"})"));
}

TEST(CoinDuelStage3, CD3_2_CompoundAndStepByStepSubmissionAgree) {
  Match at_once = match_of(3, cd3_2_start(), 0);
  Match step_by_step = at_once;
  const Outcome whole = at_once.play("c3 R Q D R N D N R N N Q");
  ASSERT_TRUE(whole.ok());
  Outcome last;
  for (const char* token : {"c3", "R", "Q", "D", "R", "N", "D", "N", "R", "N", "N", "Q"}) {
    last = step_by_step.play(token);
    ASSERT_TRUE(last.ok()) << token;
  }
  EXPECT_EQ(step_by_step.state(), at_once.state());
  EXPECT_EQ(last.events, whole.events) << "the same turn record";
  // Split anywhere in the middle: still the same.
  Match halves = match_of(3, cd3_2_start(), 0);
  ASSERT_TRUE(halves.play("c3 R Q").ok());
  EXPECT_EQ(halves.state()["pending"], "c3 R Q");
  ASSERT_TRUE(halves.play("D R N D N R N N Q").ok());
  EXPECT_EQ(halves.state(), at_once.state());
}

TEST(CoinDuelStage3, CD3_3_CapturingTheOpponentsWinningCoin) {
  CoinDuel g = duel(3, cd3_2_start("PN", many(0, 7, 8, 8)), 0);
  Events events;
  ASSERT_TRUE(play(g, "c3 R Q D R N D N L Q N N", &events));
  EXPECT_EQ(g.position(),
            coins({{{4, "Q"}, {5, "N"}, {6, "NN"}, {7, "DQ"}}, "PN", many(1, 7, 8, 8)},
                  {{{4, "Q"}, {8, "N"}}, "", many(0, 7, 8, 8)}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.round(), 1) << "South's own penny is still in his reserve";
  EXPECT_EQ(g.rounds(), Json::array());
  EXPECT_EQ(g.board()["pot_values"], Json::parse("[15, 0]")) << "10 + 5";
  EXPECT_EQ(events[0]["capture"], Json::parse(R"({"cup":6,"items":[1,1,0,0]})"));
  EXPECT_EQ(events[0]["trace"][2], Json::parse(R"({"from":8,"dir":"L","count":3,"end":5,"result":"empty"})"));
}

Position cd3_4_start() {
  return coins({{{3, "NN"}, {5, "QQQQQQ"}}, "", ""}, {{}, "", "QQQ"});
}

TEST(CoinDuelStage3, CD3_4_DeadEndOverrunAndLookAhead) {
  CoinDuel g = duel(3, cd3_4_start(), 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"c3", "c5"}));
  CoinDuel five = g;
  ASSERT_TRUE(play(five, "c5"));
  EXPECT_EQ(legal_tokens(five), (Tokens{"R"})) << "6 coins left of cup 5 overrun";
  ASSERT_TRUE(play(g, "c3"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"L"})) << "R leads only into a dead end at S5";
  ASSERT_TRUE(play(g, "L"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"N"}));
  ASSERT_TRUE(play(g, "N"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"N"}));
  ASSERT_TRUE(play(g, "N"));
  EXPECT_EQ(g.position(), coins({{{1, "N"}, {2, "N"}, {5, "QQQQQQ"}}, "", ""}, {{}, "", "QQQ"}));
  EXPECT_EQ(g.to_move(), 1);
}

const char* const kCd3_4DeadEnd = R"({"source":"cup","cup":3,"laps":[{"dir":"R","coins":["N","N"]},
    {"dir":"R","coins":["N","Q","Q","Q","Q","Q","Q"]}]})";

TEST(CoinDuelStage3, CD3_4_DeadEndIsAnIllegalMoveUnderForfeit) {
  const Json forfeit = {{"illegal_move_policy", "forfeit"}};
  Match m = match_of(3, cd3_4_start(), 0, forfeit);
  const std::string move = CoinDuel::compound_tokens(Json::parse(kCd3_4DeadEnd), 3);
  const Outcome o = m.play(move);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.events.front()["event"], "illegal_move");
  const Json round = m.game().rounds()[0];
  EXPECT_EQ(round["end_reason"], "illegal_move");
  EXPECT_EQ(round["offender"], 0);
  EXPECT_EQ(round["scores"], Json::parse("[0, 20]")) << "0 in North's pot plus 2 x 10";
  EXPECT_EQ(m.game().round(), 2) << "the match goes on";
  EXPECT_EQ(m.game().to_move(), 1) << "round 2 starts with the other player";
  EXPECT_EQ(m.game().scores(), Json::parse("[0, 20]"));
}

TEST(CoinDuelStage3, CD3_4_DeadEndIsRefusedUnderReject) {
  Match m = match_of(3, cd3_4_start(), 0);
  const Json before = m.state();
  const Outcome o = m.play(CoinDuel::compound_tokens(Json::parse(kCd3_4DeadEnd), 3));
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(o.error->token, "R");
  EXPECT_EQ(o.error->legal, (Tokens{"L"}));
  EXPECT_EQ(m.state(), before);
  EXPECT_EQ(m.game().to_move(), 0);
}

Position cd3_5_start() {
  return coins({{{9, "PQ"}}, "DQQ", "QQQQQ"}, {{{2, "DD"}}, "PNQQQ", "QQQQQ"});
}

TEST(CoinDuelStage3, CD3_5a_ScoringOnesOwnWinningCoinEndsTheRound) {
  CoinDuel g = duel(3, cd3_5_start(), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(5, {9}));
  ASSERT_TRUE(play(g, "c9"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"R", "L"}));
  EXPECT_EQ(CoinDuel::compound_tokens(
                Json::parse(R"({"source":"cup","cup":9,"laps":[{"dir":"R","coins":["Q","P"]}]})"), 3),
            "c9 R Q P");
  Events events;
  ASSERT_TRUE(play(g, "R Q P", &events));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0]["event"], "turn");
  const Json record = Json::parse(R"({"round":1,"winning_coin":"P","winning_value":10,"starter":0,
      "end_reason":"both_winning_coins_scored","offender":null,"stuck_player":null,
      "pots":[[1,0,1,2],[1,1,0,3]],"pot_values":[70,90],"winning_coins_gained":[1,1],
      "scores":[0,90],"turns":1})");
  Json event = {{"event", "round_end"}};
  event.update(record);
  EXPECT_EQ(events[1], event);
  EXPECT_EQ(events[2], Json::parse(R"({"event":"round_start","round":2,"starter":1})"));
  EXPECT_EQ(g.rounds(), Json::array({record}));
  EXPECT_EQ(g.scores(), Json::parse("[0, 90]"));
}

TEST(CoinDuelStage3, CD3_5b_OrderMattersOnlyOnePennyInAPot) {
  CoinDuel g = duel(3, cd3_5_start(), 0);
  ASSERT_TRUE(play(g, "c9 R P Q"));
  EXPECT_EQ(g.position(), coins({{{10, "P"}}, "DQQQ", "QQQQQ"}, {{{2, "DD"}}, "PNQQQ", "QQQQQ"}));
  EXPECT_EQ(g.round(), 1);
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.board()["pot_values"], Json::parse("[85, 90]"));
}

TEST(CoinDuelStage3, CD3_6_OnePlayerGainsBothWinningCoinsByCapture) {
  CoinDuel g = duel(3, coins({{{7, "NN"}}, "PQ", "QQQQQ"}, {{{2, "PD"}}, "QQQ", "QQQQQ"}), 0);
  ASSERT_TRUE(play(g, "c7"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"R", "L"}));
  Events events;
  ASSERT_TRUE(play(g, "R N N", &events));
  EXPECT_EQ(events[0]["capture"], Json::parse(R"({"cup":2,"items":[1,0,1,0]})"));
  const Json round = g.rounds()[0];
  EXPECT_EQ(round["end_reason"], "both_winning_coins_scored");
  EXPECT_EQ(round["pots"], Json::parse("[[2,0,1,1],[0,0,0,3]]"));
  EXPECT_EQ(round["pot_values"], Json::parse("[55, 75]"));
  EXPECT_EQ(round["winning_coins_gained"], Json::parse("[2, 0]"));
  EXPECT_EQ(round["scores"], Json::parse("[55, 0]"));
}

Position cd3_7_start() { return coins({{}, "PPDQ", "PPPP"}, {{}, "PPNQ", "PPPP"}); }

TEST(CoinDuelStage3, CD3_7_ConcessionCountsEachWinningCoinOnce) {
  Match m = match_of(3, cd3_7_start(), 0, {}, 2);
  const Outcome o = m.special_action("concede", 0);
  ASSERT_TRUE(o.ok());
  const Json round = m.game().rounds()[1];
  EXPECT_EQ(round["round"], 2);
  EXPECT_EQ(round["winning_coin"], "N");
  EXPECT_EQ(round["winning_value"], 50);
  EXPECT_EQ(round["end_reason"], "concession");
  EXPECT_EQ(round["offender"], 0);
  EXPECT_EQ(round["scores"], Json::parse("[0, 127]")) << "27 + 2 x 50, not 177 (D-NODOUBLE)";
  EXPECT_EQ(m.game().rounds()[0]["end_reason"], "not_played");
  EXPECT_EQ(m.game().round(), 3);
  EXPECT_EQ(o.events[0], (Json{{"event", "concede"}, {"player", 0}}));
  EXPECT_NE(find_event(o.events, "round_end"), nullptr);
  EXPECT_EQ(m.record()["turns"][0], (Json{{"event", "concede"}, {"player", 0}}));
}

TEST(CoinDuelStage3, CD3_7_EitherPlayerMayConcede) {
  Match m = match_of(3, cd3_7_start(), 0, {}, 2);
  ASSERT_TRUE(m.special_action("concede", 1).ok());
  EXPECT_EQ(m.game().rounds()[1]["scores"], Json::parse("[137, 0]")) << "P + P + D + Q + 100";
}

TEST(CoinDuelStage3, CD3_7_IllegalMoveUnderForfeitScoresLikeAConcession) {
  Match m = match_of(3, cd3_7_start(), 0, {{"illegal_move_policy", "forfeit"}}, 2);
  ASSERT_TRUE(m.play("c1").ok());
  const Json round = m.game().rounds()[1];
  EXPECT_EQ(round["end_reason"], "illegal_move");
  EXPECT_EQ(round["scores"], Json::parse("[0, 127]"));
}

TEST(CoinDuelStage3, CD3_8_NoLegalMoveEndsTheRoundAndAWinningCoinIsNeededToScore) {
  CoinDuel g = duel(3, coins({{{5, "QQQQQQQ"}}, "PD", ""}, {{{1, "D"}}, "QQ", "QQ"}), 1);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(2, {1}));
  ASSERT_TRUE(play(g, "c1"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"R"}));
  Events events;
  ASSERT_TRUE(play(g, "R D", &events));
  EXPECT_TRUE(events[0]["capture"].is_null());
  const Json round = g.rounds()[0];
  EXPECT_EQ(round["end_reason"], "no_legal_move");
  EXPECT_EQ(round["stuck_player"], 0);
  EXPECT_EQ(round["pot_values"], Json::parse("[20, 50]"));
  EXPECT_EQ(round["scores"], Json::parse("[20, 0]"));
  EXPECT_EQ(round["turns"], 1);
}

Position cd3_9_start() { return coins({{{3, "D"}}, "", "PNNQQQQ"}, {{}, "", "QQQQ"}); }

TEST(CoinDuelStage3, CD3_9a_AReservePlayThatRelaysWithADirectionChoice) {
  CoinDuel g = duel(3, cd3_9_start(), 0);
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4, {3}));
  const std::string move = CoinDuel::compound_tokens(Json::parse(R"({"source":"reserve","count":3,"laps":[
      {"dir":"R","coins":["Q","N","P"]},{"dir":"L","coins":["P","D"]},{"dir":"R","coins":["Q","D"]}]})"), 3);
  EXPECT_EQ(move, "r3 Q N P L P D R Q D");
  ASSERT_TRUE(play(g, "r3"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"P", "N", "Q"})) << "no direction for a reserve lap";
  ASSERT_TRUE(play(g, "Q N P"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"R", "L"}));
  ASSERT_TRUE(play(g, "L P D"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"R"})) << "from S1, L overruns";
  Events events;
  ASSERT_TRUE(play(g, "R Q D", &events));
  EXPECT_EQ(g.position(), coins({{{2, "PNQ"}, {3, "D"}}, "", "NQQQ"}, {{}, "", "QQQQ"}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(events[0]["tokens"], move);
  EXPECT_EQ(events[0]["move"]["laps"][0]["dir"], "R");
}

TEST(CoinDuelStage3, CD3_9b_TheOtherDirection) {
  CoinDuel g = duel(3, cd3_9_start(), 0);
  ASSERT_TRUE(play(g, "r3 Q N P R P D"));
  EXPECT_EQ(g.position(), coins({{{1, "Q"}, {2, "N"}, {4, "P"}, {5, "D"}}, "", "NQQQ"}, {{}, "", "QQQQ"}));
}

TEST(CoinDuelStage3, TheBoardShowsTheHalfPlayedTurn) {
  CoinDuel g = duel(3, cd3_2_start(), 0);
  EXPECT_TRUE(g.board()["turn"].is_null());
  ASSERT_TRUE(play(g, "c3"));
  EXPECT_EQ(g.board()["turn"], Json::parse(R"({"player":0,"source":"c3","lap":0,"from":3,"dir":null,
      "count":2,"sown":0,"next":null,"hand":[0,0,1,1],"awaiting":"dir"})"));
  ASSERT_TRUE(play(g, "R Q D R N D N R"));
  EXPECT_EQ(g.board()["turn"], Json::parse(R"({"player":0,"source":"c3","lap":2,"from":8,"dir":"R",
      "count":3,"sown":0,"next":9,"hand":[0,2,0,1],"awaiting":"coin"})"));
  ASSERT_TRUE(play(g, "N N"));
  EXPECT_EQ(g.board()["turn"]["next"], "pot");
  EXPECT_EQ(g.position(), coins({{{4, "Q"}, {6, "N"}, {7, "D"}, {9, "N"}, {10, "N"}}, "", many(1, 7, 8, 8)},
                                {{{4, "Q"}, {6, "ND"}, {8, "N"}}, "", many(1, 7, 8, 8)}))
      << "the quarter still in hand is in no element";
  // A reserve lap takes its coins from the reserve as they are chosen.
  CoinDuel r = duel(3, cd3_9_start(), 0);
  ASSERT_TRUE(play(r, "r3 Q"));
  EXPECT_EQ(r.position(), coins({{{1, "Q"}, {3, "D"}}, "", "PNNQQQ"}, {{}, "", "QQQQ"}));
  EXPECT_TRUE(r.board()["turn"]["hand"].is_null());
  EXPECT_EQ(r.board()["turn"]["next"], 2);
}

TEST(CoinDuelStage3, CD3_10_ALeftwardBoardPlayWithoutAScoreIsLegalInStage3Only) {
  const Position start = coins({{{6, "DQ"}}, "", "QQQ"}, {{}, "", "QQQ"});
  CoinDuel g = duel(3, start, 0);
  ASSERT_TRUE(play(g, CoinDuel::compound_tokens(Json::parse(
                          R"({"source":"cup","cup":6,"laps":[{"dir":"L","coins":["D","Q"]}]})"), 3)));
  EXPECT_EQ(g.position(), coins({{{4, "Q"}, {5, "D"}}, "", "QQQ"}, {{}, "", "QQQ"}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(duel(2, start, 0)), reserve_and_cups(3));
  EXPECT_EQ(legal_tokens(duel(1, beans({{{6, 2}}, 0, 3}, {{}, 0, 3}), 0)), reserve_and_cups(3));
}

TEST(CoinDuelStage3, CD3_11_RoundChangeOver) {
  CoinDuel g = duel(3, cd3_5_start(), 0);
  ASSERT_TRUE(play(g, "c9 R Q P"));
  EXPECT_EQ(g.round(), 2);
  EXPECT_EQ(g.to_move(), 1) << "round_starter alternate";
  const std::string round2 = many(10, 1, 10, 10);
  EXPECT_EQ(g.position(), coins({{}, "", round2}, {{}, "", round2}));
  EXPECT_EQ(legal_tokens(g), reserve_and_cups(4));
  EXPECT_EQ(g.board()["winning_coin"], "N");

  CoinDuel same = duel(3, cd3_5_start(), 0, {{"round_starter", "same"}});
  ASSERT_TRUE(play(same, "c9 R Q P"));
  EXPECT_EQ(same.to_move(), 0);
}

TEST(CoinDuelStage3, CD3_11_MatchResult) {
  CoinDuel one = duel(3, cd3_5_start(), 0);  // [0, 90]
  ASSERT_TRUE(play(one, "c9 R Q P"));
  Match two = match_of(3, cd3_7_start(), 0, {}, 2);  // [0, 127]
  ASSERT_TRUE(two.special_action("concede", 0).ok());
  // Round 3: South's pot holds North's dime, QQQQ, six N and ten P; his own dime arrives.
  const std::array<RoundRecord, 2> first_two = {
      one.state().rounds[0], dynamic_cast<const CoinDuel&>(two.game()).state().rounds[1]};
  CoinDuel three = duel(3, coins({{{10, "D"}}, "D" + many(10, 6, 0, 4), "PP"}, {{}, "", "PP"}), 0, {},
                        3, first_two);
  ASSERT_TRUE(play(three, "c10 R D"));
  EXPECT_EQ(three.rounds()[2]["scores"], Json::parse("[340, 0]"));
  EXPECT_EQ(three.rounds()[2]["pot_values"], Json::parse("[340, 0]"));
  // Round 4 ends with no quarter in any pot: nobody scores.
  const std::array<RoundRecord, 3> first_three = {first_two[0], first_two[1], three.state().rounds[2]};
  CoinDuel four = duel(3, coins({{{5, "DDDDDDD"}}, "", ""}, {{{1, "D"}}, "", ""}), 1, {}, 4, first_three);
  Events events;
  ASSERT_TRUE(play(four, "c1 R D", &events));
  ASSERT_EQ(four.phase(), Phase::over);
  const Json result = four.result();
  EXPECT_EQ(result["rounds"][3]["end_reason"], "no_legal_move");
  EXPECT_EQ(result["rounds"][3]["scores"], Json::parse("[0, 0]"));
  EXPECT_EQ(result["totals"], Json::parse("[340, 217]"));
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["end_reason"], "completed");
  EXPECT_TRUE(result["offender"].is_null());
  EXPECT_EQ(result["rounds"].size(), 4u);
  EXPECT_EQ(four.scores(), Json::parse("[340, 217]"));
  EXPECT_EQ(events.back()["event"], "game_end");
  EXPECT_EQ(events.back()["result"], result);
}

// ---- safeguards, resignation -------------------------------------------------------------------

// One coin each, nothing else: the players can only push their coins about.
Position shuffling() { return coins({{{5, "N"}}, "", ""}, {{{3, "N"}}, "", ""}); }

TEST(CoinDuelStage3, ThirdOccurrenceOfAPositionEndsTheRound) {
  CoinDuel g = duel(3, shuffling(), 0);
  const char* cycle[] = {"c5 R N", "c3 R N", "c6 L N", "c4 L N"};
  for (int lap = 0; lap < 2; ++lap)
    for (const char* move : cycle) {
      ASSERT_EQ(g.round(), 1);
      ASSERT_TRUE(play(g, move));
    }
  const Json round = g.rounds()[0];
  EXPECT_EQ(round["end_reason"], "repetition") << "the opening position came a third time";
  EXPECT_EQ(round["turns"], 8);
  EXPECT_EQ(round["scores"], Json::parse("[0, 0]"));
  EXPECT_EQ(g.round(), 2);
}

TEST(CoinDuelStage3, TurnLimitEndsTheRound) {
  // Big reserves of quarters: no winning coin is in play, every turn can come from the reserve,
  // and a shrinking reserve never lets a position come back.
  CoinDuel g = duel(3, coins({{}, "", many(0, 0, 0, 60)}, {{}, "", many(0, 0, 0, 60)}), 0,
                    {{"max_turns_per_round", 100}});
  DecisionList list;
  while (g.round() == 1) {
    g.legal(list);
    ASSERT_FALSE(list.empty());
    g.apply(list[0], nullptr);
  }
  const Json round = g.rounds()[0];
  EXPECT_EQ(round["end_reason"], "turn_limit");
  EXPECT_EQ(round["turns"], 100);
  EXPECT_EQ(round["scores"], Json::parse("[0, 0]")) << "no winning coin, no score";
  EXPECT_EQ(g.round(), 2);
}

TEST(CoinDuelStage3, ResigningScoresTheRoundAsAConcessionAndLosesTheMatch) {
  Match m = match_of(3, cd3_5_start(), 0);
  ASSERT_TRUE(m.play("c9 R Q P").ok());  // round 1: [0, 90]
  ASSERT_TRUE(m.play("r2").ok());        // North, mid-turn: dropped by the resignation
  const Outcome o = m.resign(1);
  ASSERT_TRUE(o.ok());
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "resign");
  EXPECT_EQ(result["offender"], 1);
  EXPECT_EQ(result["winner"], 0) << "whatever the totals say";
  ASSERT_EQ(result["rounds"].size(), 4u);
  EXPECT_EQ(result["rounds"][1]["end_reason"], "resign");
  EXPECT_EQ(result["rounds"][1]["scores"], Json::parse("[100, 0]"));
  EXPECT_EQ(result["rounds"][1]["starter"], 1);
  EXPECT_EQ(result["rounds"][2]["end_reason"], "not_played");
  EXPECT_EQ(result["rounds"][2]["starter"], 0);
  EXPECT_EQ(result["rounds"][3]["scores"], Json::parse("[0, 0]"));
  EXPECT_EQ(result["totals"], Json::parse("[100, 90]"));
  EXPECT_EQ(m.state()["pending"], "");
  EXPECT_EQ(m.play("r1").error->code, ErrorCode::game_over);
}

TEST(CoinDuelStage12, ResignationAndForfeitLoseTheGame) {
  Match m = match_of(2, cd2_1_start(), 0);
  ASSERT_TRUE(m.play("c4 D D").ok());
  ASSERT_TRUE(m.resign(0).ok());
  Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "resign");
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["scores"], Json::parse("[0, 0]")) << "North's pot is empty";

  Match f = match_of(1, beans({{{6, 2}}, 3, 10}, {{}, 5, 10}), 0, {{"illegal_move_policy", "forfeit"}});
  ASSERT_TRUE(f.play("c6").ok());
  result = f.game().result();
  EXPECT_EQ(result["end_reason"], "illegal_move");
  EXPECT_EQ(result["offender"], 0);
  EXPECT_EQ(result["scores"], Json::parse("[0, 5]"));
  EXPECT_EQ(f.special_action("concede", 0).error->code, ErrorCode::game_over);
}

// ---- bad input ---------------------------------------------------------------------------------

void expect_refused(Match& m, const std::string& move, const std::string& token, const Tokens& legal) {
  const Json before = m.state();
  const Outcome o = m.play(move);
  ASSERT_FALSE(o.ok()) << move;
  EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
  EXPECT_EQ(o.error->token, token) << move;
  EXPECT_EQ(o.error->legal, legal) << move;
  EXPECT_FALSE(o.error->message.empty());
  EXPECT_EQ(m.state(), before) << move;
}

TEST(CoinDuelBadInput, ACoinThePlayerDoesNotHold) {
  Match m = match_of(3, cd3_2_start(), 0);
  ASSERT_TRUE(m.play("c3 R").ok());
  expect_refused(m, "N", "N", {"D", "Q"});
  expect_refused(m, "Q D D", "D", {"R", "L"});
  Match reserve = match_of(2, cd2_1_start(), 0);
  expect_refused(reserve, "r2 P", "P", {"N", "Q"});
}

TEST(CoinDuelBadInput, ADirectionWhereNoneIsAsked) {
  Match m = match_of(2, cd2_1_start(), 0);
  expect_refused(m, "c4 R", "R", {"D"});
  Match three = match_of(3, cd3_9_start(), 0);
  expect_refused(three, "r3 R", "R", {"P", "N", "Q"});
  expect_refused(three, "R", "R", reserve_and_cups(4, {3}));
  Match one = Match::create("coin_duel", {{"stage", 1}}, 1);
  expect_refused(one, "L", "L", reserve_and_cups(4));
}

TEST(CoinDuelBadInput, AReserveCountOverTheLimit) {
  Match m = Match::create("coin_duel", {{"stage", 3}}, 1);
  expect_refused(m, "r5", "r5", reserve_and_cups(4));
  Match eight = match_of(1, beans({{{7, 1}}, 0, 20}, {{{3, 2}}, 0, 10}), 0);
  expect_refused(eight, "r9", "r9", reserve_and_cups(8, {7}));
}

TEST(CoinDuelBadInput, TokensAfterTheTurnEnded) {
  Match m = match_of(3, cd3_4_start(), 0);
  expect_refused(m, "c3 L N N N", "N", {"r1", "r2", "r3"});
  Match one = Match::create("coin_duel", {{"stage", 1}}, 1);
  expect_refused(one, "r4 r3", "r3", reserve_and_cups(4));
}

TEST(CoinDuelBadInput, MalformedTokensAreRefusedWithoutPenaltyEvenUnderForfeit) {
  Match m = match_of(3, cd3_2_start(), 0, {{"illegal_move_policy", "forfeit"}});
  ASSERT_TRUE(m.play("c3").ok());
  const Json before = m.state();
  for (const char* move : {"c11", "x", "r0", "PQ", "p", "r", "RL", "c3x"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
    EXPECT_EQ(m.state(), before) << move;
  }
  EXPECT_EQ(m.play("").error->code, ErrorCode::bad_request);
  EXPECT_EQ(m.play(1, "R").error->code, ErrorCode::not_your_turn);
}

TEST(CoinDuelBadInput, ARuleViolationMidTurnUnderForfeitDropsTheHalfPlayedTurn) {
  Match m = match_of(3, cd3_2_start(), 0, {{"illegal_move_policy", "forfeit"}});
  ASSERT_TRUE(m.play("c3 R Q").ok());
  ASSERT_TRUE(m.play("Q").ok()) << "Q is not in hand: a rule violation, penalised";
  const Json round = m.game().rounds()[0];
  EXPECT_EQ(round["end_reason"], "illegal_move");
  EXPECT_EQ(round["pots"], Json::parse("[[0,0,0,0],[0,0,0,0]]"));
  EXPECT_EQ(round["scores"], Json::parse("[0, 20]"));
  EXPECT_EQ(m.state()["pending"], "");
  EXPECT_FALSE(m.game().mid_turn());
}

TEST(CoinDuelBadInput, ConcedeOnlyInStage3AndOptionsAreValidated) {
  Match two = Match::create("coin_duel", {{"stage", 2}}, 1);
  EXPECT_EQ(two.special_action("concede", 0).error->code, ErrorCode::not_allowed);
  auto verdict = [](const Json& options) {
    try {
      Match::create("coin_duel", options, 1);
    } catch (const EngineError& e) {
      return std::string(to_string(e.code()));
    }
    return std::string("accepted");
  };
  EXPECT_EQ(verdict({{"stage", 4}}), "bad_option");
  EXPECT_EQ(verdict({{"stage", "3"}}), "bad_option");
  EXPECT_EQ(verdict({{"max_turns_per_round", 99}}), "bad_option");
  EXPECT_EQ(verdict({{"round_starter", "random"}}), "bad_option");
  EXPECT_EQ(verdict({{"cups_per_side", 10}}), "bad_option");
  EXPECT_EQ(verdict({{"stage", 1}, {"round_starter", "same"}, {"max_turns_per_round", 100}}), "accepted")
      << "options that do not apply are accepted (clarification 8)";
  EXPECT_EQ(verdict(Json::parse(R"({"stage":3})")), "accepted") << "as typed on the command line";
  const Match defaults = Match::create("coin_duel", {}, 1);
  EXPECT_EQ(defaults.options(), Json::parse(R"({"stage":3,"first_player":0,"round_starter":"alternate",
      "illegal_move_policy":"reject","max_turns_per_round":1000})"));
  EXPECT_EQ(Match::create("coin_duel", {{"first_player", 1}}, 1).game().to_move(), 1);
}

TEST(CoinDuelBadInput, CompoundMovesWithTheWrongShape) {
  for (const char* move :
       {R"({"source":"cup"})", R"({"source":"hand","cup":3})", R"({"source":"cup","cup":3,"laps":[{"coins":["Q"]}]})",
        R"({"source":"reserve","count":2,"laps":[{"dir":"L","coins":["Q","Q"]}]})",
        R"({"source":"cup","cup":3,"laps":[{"dir":"R","coins":["X"]}]})"}) {
    EXPECT_THROW(CoinDuel::compound_tokens(Json::parse(move), 3), EngineError) << move;
  }
  EXPECT_THROW(CoinDuel::compound_tokens(Json::parse(R"({"source":"cup","cup":3,"laps":[]})"), 1),
               EngineError);
  EXPECT_EQ(CoinDuel::compound_tokens(Json::parse(R"({"source":"cup","cup":3})"), 1), "c3");
}

// ---- §9 invariants over seeded random games ----------------------------------------------------

// §3.4 written out literally (counts only, recursion, no shortcuts), to hold the engine's faster
// look-ahead to the book.
namespace book {

using Row = std::array<int, 12>;  // [q] for cups q = 1..10
enum Kind { POT, EMPTY, FILLED, OVERSHOOT, OVERRUN };
struct Sown {
  Kind kind;
  int j;
  Row b;
};

Sown sow_counts(const Row& a, int i, int c, int d) {
  const int j = i + d * c;
  if (d == +1 && j > 11) return {OVERSHOOT, 0, a};
  if (d == -1 && j < 1) return {OVERRUN, 0, a};
  Row b = a;
  for (int t = 1; t <= c; ++t)
    if (i + d * t <= 10) b[static_cast<std::size_t>(i + d * t)] += 1;
  if (j == 11) return {POT, j, b};
  if (b[static_cast<std::size_t>(j)] == 1) return {EMPTY, j, b};
  return {FILLED, j, b};
}

std::vector<int> dirs(int stage, int lap_no, bool reserve_turn) {
  if (stage != 3 || (lap_no == 0 && reserve_turn)) return {+1};
  return {+1, -1};
}

bool lap_ok(const Row& a, int i, int c, int d, int lap_no, bool reserve_turn, const Row& opp, int stage) {
  const Sown r = sow_counts(a, i, c, d);
  if (r.kind == OVERSHOOT || r.kind == OVERRUN) return false;
  if (r.kind == POT) return true;
  if (r.kind == EMPTY) return stage == 3 || reserve_turn || opp[static_cast<std::size_t>(11 - r.j)] > 0;
  if (lap_no + 1 >= 1000) return false;
  Row b = r.b;
  const int h = b[static_cast<std::size_t>(r.j)];
  b[static_cast<std::size_t>(r.j)] = 0;
  for (int d2 : dirs(stage, lap_no + 1, reserve_turn))
    if (lap_ok(b, r.j, h, d2, lap_no + 1, reserve_turn, opp, stage)) return true;
  return false;
}

Row counts(const std::array<Coins, 10>& cups) {
  Row out{};
  for (std::size_t i = 0; i < 10; ++i) out[i + 1] = cups[i].total();
  return out;
}

Tokens legal(const CoinDuelState& s) {
  const auto p = static_cast<std::size_t>(s.to_move);
  const Row a = counts(s.cups[p]);
  const Row o = counts(s.cups[1 - p]);
  Tokens out;
  if (s.step == TurnStep::dir) {
    for (int d : {+1, -1})
      if (lap_ok(a, s.lap_from, s.lap_count, d, s.lap, s.from_reserve, o, s.stage))
        out.push_back(d == +1 ? "R" : "L");
    return out;
  }
  int f = 0;
  for (int q = 1; q <= 10; ++q)
    if (a[static_cast<std::size_t>(q)] > 0) f = q;
  const int lmax = std::min({10, s.reserve[p].total(), std::max(4, f + 1)});
  for (int k = 1; k <= lmax; ++k)
    if (lap_ok(a, 0, k, +1, 0, true, o, s.stage)) out.push_back("r" + std::to_string(k));
  for (int i = 1; i <= 10; ++i) {
    if (a[static_cast<std::size_t>(i)] == 0) continue;
    Row b = a;
    b[static_cast<std::size_t>(i)] = 0;
    for (int d : dirs(s.stage, 0, false))
      if (lap_ok(b, i, a[static_cast<std::size_t>(i)], d, 0, false, o, s.stage)) {
        out.push_back("c" + std::to_string(i));
        break;
      }
  }
  return out;
}

}  // namespace book

// Items of each denomination anywhere: cups, pots, reserves and the hand.
std::array<int, 4> material(const CoinDuel& g) {
  const CoinDuelState& s = g.state();
  std::array<int, 4> total{};
  auto add = [&](const Coins& c) {
    for (std::size_t x = 0; x < 4; ++x) total[x] += c.count[x];
  };
  for (std::size_t p = 0; p < 2; ++p) {
    for (const Coins& cup : s.cups[p]) add(cup);
    add(s.pot[p]);
    add(s.reserve[p]);
  }
  add(s.hand);
  return total;
}

std::array<int, 4> expected_material(int stage, int round) {
  if (stage == 1) return {80, 0, 0, 0};
  std::array<int, 4> total = {20, 20, 20, 20};
  if (stage == 3) total[static_cast<std::size_t>(round - 1)] = 2;
  return total;
}

// True when some sequence of legal decisions finishes the current turn (coins never matter).
bool completable(const CoinDuel& g) {
  if (!g.mid_turn()) return true;
  DecisionList list;
  g.legal(list);
  if (list.empty()) return false;
  const bool choosing_dir = g.state().step == TurnStep::dir;
  for (int i = 0; i < (choosing_dir ? list.size() : 1); ++i) {
    CoinDuel next = g;
    next.apply(list[i], nullptr);
    if (completable(next)) return true;
  }
  return false;
}

void check_random_games(int stage, int games, int max_turns = 1000) {
  for (int n = 0; n < games; ++n) {
    const auto seed = static_cast<std::uint64_t>(stage * 100000 + n);
    const Json options = with_stage(stage, {{"max_turns_per_round", max_turns}});
    CoinDuel g(GameSetup{resolve_options(coin_duel_type().options, options), static_cast<Seat>(n % 2)});
    Random rng(seed);
    DecisionList list;
    int decisions = 0;
    int round = g.round();
    while (g.phase() == Phase::play) {
      const CoinDuel before = g;
      g.legal(list);
      ASSERT_FALSE(list.empty()) << "a player to move always has a decision (stage " << stage << ")";
      if (g.state().step != TurnStep::coin) {
        ASSERT_EQ(legal_tokens(g), book::legal(g.state())) << "§3.4, stage " << stage;
      }
      if (!g.mid_turn() && decisions % 7 == 0) {
        for (Decision d : list) {  // every offered source can be finished
          CoinDuel next = g;
          next.apply(d, nullptr);
          ASSERT_TRUE(completable(next)) << g.token(d);
        }
      }
      g.apply(list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))], nullptr);
      ++decisions;
      ASSERT_LT(decisions, 200000) << "the game must end";
      if (g.phase() == Phase::over) break;
      if (g.round() != round) {  // a new round starts from its own opening
        ASSERT_EQ(g.round(), round + 1);
        round = g.round();
        ASSERT_EQ(g.state().rounds_done, round - 1);
        continue;
      }
      ASSERT_EQ(material(g), expected_material(stage, round)) << "items are conserved";
      const CoinDuelState& a = before.state();
      const CoinDuelState& b = g.state();
      for (std::size_t p = 0; p < 2; ++p)
        for (std::size_t x = 0; x < 4; ++x) {
          ASSERT_LE(b.reserve[p].count[x], a.reserve[p].count[x]) << "reserves never grow";
          ASSERT_GE(b.pot[p].count[x], a.pot[p].count[x]) << "pots never shrink";
        }
      // Only the capture at a turn's end touches the opponent's row, emptying one cup.
      const auto mover = static_cast<std::size_t>(a.to_move);
      int changed = 0;
      for (std::size_t i = 0; i < 10; ++i)
        if (!(b.cups[1 - mover][i] == a.cups[1 - mover][i])) {
          ++changed;
          ASSERT_EQ(b.cups[1 - mover][i].total(), 0);
        }
      ASSERT_LE(changed, 1);
      if (stage == 3) {
        ASSERT_LE(b.round_turns, max_turns);
      }
    }
    ASSERT_EQ(g.phase(), Phase::over);
    const Json result = g.result();
    if (stage != 3) {
      EXPECT_LE(g.state().turns, 160) << "D12-4";
      EXPECT_EQ(result["end_reason"], "no_legal_move");
      continue;
    }
    ASSERT_EQ(result["rounds"].size(), 4u);
    std::array<int, 2> totals{};
    for (const Json& r : result["rounds"]) {
      totals[0] += r["scores"][0].get<int>();
      totals[1] += r["scores"][1].get<int>();
      EXPECT_NE(r["end_reason"], "not_played");
    }
    EXPECT_EQ(result["totals"], Json(totals)) << "round records sum to the match totals";
    EXPECT_EQ(result["end_reason"], "completed");
  }
}

TEST(CoinDuelInvariants, Stage1RandomGames) { check_random_games(1, 3000); }
TEST(CoinDuelInvariants, Stage2RandomGames) { check_random_games(2, 2000); }
TEST(CoinDuelInvariants, Stage3RandomMatches) { check_random_games(3, 1000); }
TEST(CoinDuelInvariants, Stage3RandomMatchesWithShortRounds) { check_random_games(3, 500, 100); }

// Each random turn submitted at once and token by token through Match: same states, same records.
TEST(CoinDuelInvariants, CompoundAndStepByStepAgreeInRandomGames) {
  for (int stage = 2; stage <= 3; ++stage)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      Match whole = Match::create("coin_duel", {{"stage", stage}}, seed);
      Match steps = whole;
      const auto play_turn = [&](Match& m, Random& rng) {
        std::string move;
        Events step_events;
        do {  // one turn, token by token
          const auto legal = steps.legal_tokens();
          const std::string token = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
          const Outcome o = steps.play(token);
          ASSERT_TRUE(o.ok()) << token;
          step_events.insert(step_events.end(), o.events.begin(), o.events.end());
          move += (move.empty() ? "" : " ") + token;
        } while (steps.game().mid_turn());
        const Outcome o = m.play(move);
        ASSERT_TRUE(o.ok()) << move;
        ASSERT_EQ(o.events, step_events) << move;
        ASSERT_EQ(m.state(), steps.state()) << move;
        const Json* record = find_event(o.events, "turn");
        ASSERT_NE(record, nullptr);
        EXPECT_EQ((*record)["tokens"], move);
        EXPECT_EQ(CoinDuel::compound_tokens((*record)["move"], stage), move)
            << "the stored compound form replays";
      };
      ASSERT_NO_FATAL_FAILURE(
          testing::play_randomly(whole, seed, {.step = play_turn, .max_steps = 150}));
      testing::expect_record_replays(whole);
    }
}

TEST(CoinDuelInvariants, AWholeMatchThroughMatchEndsAfterFourRounds) {
  Match m = Match::create("coin_duel", Json::parse(R"({"stage":3})"), 7);
  int round_ends = 0;
  const auto step = [&](Match& match, Random& rng) {
    const auto legal = match.legal_tokens();
    const auto n = static_cast<std::uint32_t>(legal.size());
    // Round 3 is conceded by North in the middle of some turn.
    const bool concede = match.game().round() == 3 && match.game().mid_turn() && rng.below(4) == 0;
    const Outcome o = concede ? match.special_action("concede", 1) : match.play(legal[rng.below(n)]);
    ASSERT_TRUE(o.ok());
    for (const Json& e : o.events) round_ends += e["event"] == "round_end";
  };
  ASSERT_NO_FATAL_FAILURE(testing::play_randomly(m, 7, {.step = step}));
  EXPECT_EQ(round_ends, 4);
  EXPECT_EQ(m.state()["rounds"].size(), 4u);
  EXPECT_EQ(m.state()["rounds"][2]["end_reason"], "concession");
  EXPECT_EQ(m.state()["round"], 4);
  EXPECT_EQ(m.state()["scores"], m.game().result()["totals"]);
  testing::expect_record_replays(m);
}

}  // namespace
}  // namespace mancala
