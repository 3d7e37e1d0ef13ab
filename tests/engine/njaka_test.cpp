// Njaka's Mancala Game: the rule book's worked examples (o-an-quan-njaka-duovallis.md §9.2),
// its invariants (§10) over seeded random matches, resignation with 3-4 players
// (clarification 15), and bad input through the generic layer.
#include <numeric>

#include "games/njaka.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::legal_tokens;
using testing::play;
using Tokens = std::vector<std::string>;
using Position = std::vector<int>;

// NJ-2's round-one ownership tables.
const Position kTwo = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};
const Position kThree = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
const Position kFour = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
const Position kAlternate = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
const Position kAllFours(12, 4);

// The position vector of notation.md: holes, owners, sets.
Position pos(Position board, const Position& owners, const Position& sets) {
  board.insert(board.end(), owners.begin(), owners.end());
  board.insert(board.end(), sets.begin(), sets.end());
  return board;
}

Njaka at(const Json& options, const Position& board, const Position& owners, const Position& sets,
         Seat mover) {
  return Njaka::from_position(options, pos(board, owners, sets), mover);
}

// The same position behind the generic layer (which needs a fixed first player to restore).
Match match_at(Json options, const Position& board, const Position& owners, const Position& sets,
               Seat mover) {
  options["first_player"] = mover;
  return Match::from_game("njaka", options, at(options, board, owners, sets, mover).clone());
}

const Json* find_event(const Events& events, const std::string& kind) {
  for (const Json& e : events)
    if (e["event"] == kind) return &e;
  return nullptr;
}

Json laps_summary(const Json& turn) {
  Json out = Json::array();
  for (const Json& lap : turn["laps"]) out.push_back({lap["from"], lap["count"], lap["end"]});
  return out;
}

// ---- NJK-1 ------------------------------------------------------------------------------------

void expect_njk_1(int players, const Position& owners) {
  Njaka g = at({{"players", players}}, kAllFours, owners, Position(players, 0), 0);
  EXPECT_EQ(g.position(), pos(kAllFours, owners, Position(players, 0)));
  Events events;
  ASSERT_TRUE(play(g, "0", &events));
  EXPECT_EQ(g.position(), pos({2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6}, owners, Position(players, 0)));
  EXPECT_EQ(g.to_move(), 1);
  ASSERT_EQ(events.size(), 1u);
  const Json& turn = events[0];
  EXPECT_EQ(turn["end"], "empty");
  EXPECT_EQ(turn["captures"], Json::array());
  EXPECT_EQ(laps_summary(turn),
            Json::parse("[[0,4,4],[4,5,9],[9,5,2],[2,6,8],[8,6,2]]"));
  EXPECT_EQ(turn["laps"][2]["holes"], Json::parse("[10,11,0,1,2]"));
}

TEST(Njaka, NJK_1_OpeningFiveLapsNoCapture_TwoPlayers) {
  expect_njk_1(2, kTwo);
  // By symmetry every opening move gives a rotation of the same board.
  const Position expected = {2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6};
  for (std::size_t h = 0; h < 6; ++h) {
    Njaka g = at({}, kAllFours, kTwo, {0, 0}, 0);
    ASSERT_TRUE(play(g, std::to_string(h)));
    Position rotated(12);
    for (std::size_t i = 0; i < 12; ++i) rotated[(i + h) % 12] = expected[i];
    EXPECT_EQ(g.position(), pos(rotated, kTwo, {0, 0})) << "hole " << h;
  }
}

TEST(Njaka, NJK_1_OpeningFiveLapsNoCapture_ThreePlayers) { expect_njk_1(3, kThree); }
TEST(Njaka, NJK_1_OpeningFiveLapsNoCapture_FourPlayers) { expect_njk_1(4, kFour); }

TEST(Njaka, NJK_1_OpeningThroughTheGenericLayer) {
  Match m = Match::create("njaka", {{"first_player", 0}}, 7);
  EXPECT_EQ(m.game().position(), pos(kAllFours, kTwo, {0, 0}));
  EXPECT_EQ(m.legal_tokens(), (Tokens{"0", "1", "2", "3", "4", "5"}));
  ASSERT_TRUE(m.play("0").ok());
  EXPECT_EQ(m.game().position(), pos({2, 7, 1, 6, 1, 6, 6, 6, 0, 1, 6, 6}, kTwo, {0, 0}));
  EXPECT_EQ(m.legal_tokens(), (Tokens{"6", "7", "9", "10", "11"}));
}

// ---- NJK-2, NJK-3 -----------------------------------------------------------------------------

const Position kNjk2Board = {3, 0, 5, 1, 3, 2, 3, 3, 4, 0, 6, 2};

TEST(Njaka, NJK_2_FourForTheOwnerThenFourForTheMover) {
  Njaka g = at({}, kNjk2Board, kTwo, {2, 2}, 0);
  Events events;
  ASSERT_TRUE(play(g, "4", &events));
  EXPECT_EQ(g.position(), pos({3, 0, 5, 1, 0, 3, 0, 0, 4, 0, 6, 2}, kTwo, {3, 3}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(events[0]["end"], "capture");
  EXPECT_EQ(events[0]["captures"],
            Json::parse(R"([{"hole":6,"to":1,"kind":"sowing"},{"hole":7,"to":0,"kind":"last"}])"));
  EXPECT_TRUE(events[0]["conquest"].is_null());
}

TEST(Njaka, NJK_3_SameMoveInTheAdvancedVariantConquersHole7) {
  const Json options = {{"advanced", true}};
  Njaka g = at(options, kNjk2Board, kAlternate, {2, 2}, 0);
  Events events;
  ASSERT_TRUE(play(g, "4", &events));
  EXPECT_EQ(g.position(), pos({3, 0, 5, 1, 0, 3, 0, 0, 4, 0, 6, 2},
                              {0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1}, {4, 2}));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(events[0]["captures"],
            Json::parse(R"([{"hole":6,"to":0,"kind":"sowing"},{"hole":7,"to":0,"kind":"last"}])"));
  EXPECT_EQ(events[0]["conquest"], Json::parse(R"({"hole":7,"from":1,"to":0})"));
  EXPECT_EQ(legal_tokens(g), (Tokens{"3", "5", "11"})) << "hole 7 is no longer seat 1's";
}

// ---- NJK-4 ------------------------------------------------------------------------------------

TEST(Njaka, NJK_4_APass) {
  const Position board = {0, 3, 0, 1, 2, 2, 0, 0, 0, 0, 0, 0};
  Match m = match_at({}, board, kTwo, {5, 5}, 1);
  EXPECT_EQ(m.game().to_move(), 0) << "seat 1 owns only empty holes and passes at once";
  EXPECT_EQ(m.legal_tokens(), (Tokens{"1", "3", "4", "5"}));
  EXPECT_EQ(m.play(1, "6").error->code, ErrorCode::not_your_turn);
  const Outcome o = m.play("5");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(m.game().position(), pos({0, 3, 0, 1, 2, 0, 1, 1, 0, 0, 0, 0}, kTwo, {5, 5}));
  EXPECT_EQ(m.game().to_move(), 1);
  EXPECT_EQ(m.legal_tokens(), (Tokens{"6", "7"}));
  EXPECT_EQ(o.events[0]["end"], "empty");
}

TEST(Njaka, NJK_4_PassIsAnEventOfTheMoveThatCausedIt) {
  // Seat 0's last counter makes a four in seat 1's only filled hole: seat 1 is left with
  // nothing and passes as part of seat 0's move.
  Match m = match_at({}, {2, 2, 2, 2, 0, 1, 3, 0, 0, 0, 0, 0}, kTwo, {5, 4}, 0);
  const Outcome o = m.play("5");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.events[0]["end"], "capture");
  EXPECT_EQ(o.events[1], (Json{{"event", "pass"}, {"player", 1}}));
  EXPECT_EQ(m.game().position(), pos({2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0}, kTwo, {6, 4}));
  EXPECT_EQ(m.game().to_move(), 0);
  EXPECT_EQ(m.record()["turns"].back(), (Json{{"event", "pass"}, {"player", 1}}));
}

// ---- NJK-5 ------------------------------------------------------------------------------------

const Position kNjk5Board = {0, 0, 2, 3, 0, 0, 1, 0, 2, 0, 0, 0};
const Position kNjk5Plex = {0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0};

TEST(Njaka, NJK_5_ThePlexMomentClaimedByTheOpponent) {
  Match m = match_at({}, kNjk5Board, kTwo, {5, 5}, 0);
  const Outcome o = m.play("2");
  ASSERT_TRUE(o.ok());
  ASSERT_EQ(o.events.size(), 2u);
  EXPECT_EQ(o.events[0]["end"], "plex");
  EXPECT_EQ(o.events[0]["laps"][0]["holes"], Json::array({3}));
  EXPECT_EQ(o.events[1], (Json{{"event", "plex_open"}, {"mover", 0}}));
  EXPECT_EQ(m.game().phase(), Phase::claim);
  EXPECT_EQ(m.game().to_move(), kNoSeat);
  EXPECT_EQ(m.legal_tokens(), Tokens{});
  EXPECT_EQ(m.game().position(), pos(Position(12, 0), kTwo, {6, 5}))
      << "the last four are in no element of the vector";
  EXPECT_EQ(m.game().board()["holes"], Json(kNjk5Plex)) << "the readable board shows them";
  EXPECT_EQ(m.game().board()["plex"], Json::parse(R"({"mover":0,"on_board":3,"in_hand":1})"));
  const Json state = m.state();
  EXPECT_TRUE(state["to_move"].is_null());
  EXPECT_EQ(state["phase"], "plex");

  const Outcome claimed = m.claim(1);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed.events[0],
            (Json{{"event", "plex_result"}, {"winner", 1}, {"fallback", false}}));
  const Json* round_end = find_event(claimed.events, "round_end");
  ASSERT_NE(round_end, nullptr);
  EXPECT_EQ((*round_end)["sets"], Json::array({6, 6}));
  EXPECT_EQ((*round_end)["end_reason"], "plex");
  EXPECT_EQ((*round_end)["plex"], Json::parse(R"({"winner":1,"fallback":false})"));
  EXPECT_TRUE((*round_end)["match_winner"].is_null());
  EXPECT_EQ((*round_end)["next_owner"], Json(kTwo));
  EXPECT_EQ(find_event(claimed.events, "game_end"), nullptr);
  // Round 2: six holes each (the opening layout), started by seat 1.
  EXPECT_EQ(m.game().round(), 2);
  EXPECT_EQ(m.game().phase(), Phase::play);
  EXPECT_EQ(m.game().to_move(), 1);
  EXPECT_EQ(m.game().position(), pos(kAllFours, kTwo, {0, 0}));
  EXPECT_EQ(m.game().rounds().size(), 1u);
}

TEST(Njaka, NJK_5_NobodyClaimsAndTheMoverWinsTheMatch) {
  Match m = match_at({}, kNjk5Board, kTwo, {5, 5}, 0);
  ASSERT_TRUE(m.play("2").ok());
  const Outcome o = m.close_claim_window();
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.events[0], (Json{{"event", "plex_result"}, {"winner", 0}, {"fallback", true}}));
  EXPECT_EQ(o.events.back()["event"], "game_end");
  EXPECT_EQ(m.game().phase(), Phase::over);
  EXPECT_EQ(m.game().position(), pos(Position(12, 0), kTwo, {7, 5}));
  const Json result = m.game().result();
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["end_reason"], "target");
  EXPECT_EQ(result["ranking"], Json::parse("[[0],[1]]"));
  EXPECT_EQ(result["rounds"][0]["match_winner"], 0);
  EXPECT_EQ(result["rounds"][0]["plex"], Json::parse(R"({"winner":0,"fallback":true})"));
  EXPECT_EQ(m.close_claim_window().error->code, ErrorCode::no_claim_window);
}

TEST(Njaka, NJK_5_PlexModeMoverResolvesAtOnce) {
  const Json options = {{"plex_mode", "mover"}};
  Match m = match_at(options, kNjk5Board, kTwo, {5, 5}, 0);
  const Outcome o = m.play("2");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(find_event(o.events, "plex_open"), nullptr) << "no window opens";
  EXPECT_EQ(find_event(o.events, "plex_result"), nullptr) << "a record would replay it as a claim";
  const Json* award = find_event(o.events, "plex_auto");
  ASSERT_NE(award, nullptr);
  EXPECT_EQ(*award, (Json{{"event", "plex_auto"}, {"winner", 0}}));
  EXPECT_EQ(m.game().phase(), Phase::over);
  EXPECT_EQ(m.game().result()["rounds"][0]["plex"],
            Json::parse(R"({"winner":0,"fallback":false,"mode":"mover"})"));
  EXPECT_EQ(m.game().result()["winner"], 0);
}

// ---- NJK-6, NJK-7 -----------------------------------------------------------------------------

TEST(Njaka, NJK_6_ThreePlayers) {
  Njaka g = at({{"players", 3}}, {3, 4, 6, 1, 4, 2, 5, 1, 2, 3, 2, 3}, kThree, {1, 1, 1}, 1);
  Events events;
  ASSERT_TRUE(play(g, "6", &events));
  EXPECT_EQ(g.position(), pos({3, 4, 6, 1, 4, 2, 0, 2, 3, 0, 3, 0}, kThree, {1, 2, 2}));
  EXPECT_EQ(g.to_move(), 2);
  EXPECT_EQ(events[0]["end"], "capture") << "the last counter's four ends the turn";
  EXPECT_EQ(events[0]["captures"],
            Json::parse(R"([{"hole":9,"to":2,"kind":"sowing"},{"hole":11,"to":1,"kind":"last"}])"));
  EXPECT_EQ(events[0]["round"], 1);
  EXPECT_EQ(events[0]["move"], Json::parse(R"({"pit":6})"));
}

TEST(Njaka, NJK_7_FourPlayersClockwise) {
  const Json options = {{"players", 4}, {"direction", "cw"}};
  Njaka g = at(options, {2, 1, 3, 0, 2, 5, 1, 3, 0, 2, 1, 4}, kFour, {2, 1, 2, 1}, 0);
  Events events;
  ASSERT_TRUE(play(g, "1", &events));
  EXPECT_EQ(g.position(), pos({0, 1, 0, 1, 0, 6, 0, 0, 1, 0, 2, 5}, kFour, {3, 1, 3, 1}));
  EXPECT_EQ(g.to_move(), 3) << "clockwise turn order: 0 -> 3";
  EXPECT_EQ(events[0]["end"], "empty");
  EXPECT_EQ(laps_summary(events[0]), Json::parse("[[1,1,0],[0,3,9],[9,3,6],[6,2,4],[4,3,1]]"));
  EXPECT_EQ(events[0]["captures"],
            Json::parse(R"([{"hole":7,"to":2,"kind":"sowing"},
                            {"hole":2,"to":0,"kind":"sowing"}])"));
}

// ---- NJK-8 ------------------------------------------------------------------------------------

const Position kNjk8Board = {1, 0, 1, 0, 2, 1, 0, 2, 1, 2, 0, 2};
const Position kNjk8A = {1, 0, 1, 0, 2, 1, 0, 2, 1, 0, 1, 3};

TEST(Njaka, NJK_8_AnEndlessMoveCutByTheLoopGuard) {
  Njaka g = at({}, kNjk8Board, kTwo, {5, 4}, 1);
  Njaka quiet = g;
  Events events;
  ASSERT_TRUE(play(g, "9", &events));
  EXPECT_EQ(g.position(), pos(kNjk8A, kTwo, {5, 4}));
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(events[0]["end"], "loop_guard");
  EXPECT_EQ(events[0]["laps"].size(), 61u);
  EXPECT_EQ(events[0]["laps"][0]["holes"], Json::array({10, 11}));
  EXPECT_EQ(events[0]["laps"][60]["end"], 11);
  EXPECT_EQ(events[0]["captures"], Json::array());
  // Without an event sink the engine sows unguarded first and replays the long turn with the
  // guard: the outcome must be the same.
  ASSERT_TRUE(play(quiet, "9"));
  EXPECT_EQ(quiet.position(), g.position());
  EXPECT_EQ(quiet.to_move(), 0);
  EXPECT_EQ(quiet.state().quiet_turns, 1);
}

// ---- NJK-9 ------------------------------------------------------------------------------------

TEST(Njaka, NJK_9_AStalledRound) {
  const Json options = {{"advanced", true}};
  const Position owners = {0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
  const Position a = {0, 1, 0, 1, 0, 1, 0, 1, 0, 2, 1, 1};
  const Position b = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 2, 0};
  Match m = match_at(options, a, owners, {6, 4}, 0);
  EXPECT_EQ(m.legal_tokens(), Tokens{"9"});
  ASSERT_TRUE(m.play("9").ok());
  EXPECT_EQ(m.game().position(), pos(b, owners, {6, 4}));
  EXPECT_EQ(m.legal_tokens(), Tokens{"10"});
  ASSERT_TRUE(m.play("10").ok());
  EXPECT_EQ(m.game().position(), pos(a, owners, {6, 4}));
  EXPECT_EQ(m.game().to_move(), 0);
  ASSERT_TRUE(m.play("9").ok());
  const Outcome o = m.play("10");  // (A, seat 0 to move) for the third time
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(m.game().phase(), Phase::over);
  const Json* round_end = find_event(o.events, "round_end");
  ASSERT_NE(round_end, nullptr);
  EXPECT_EQ((*round_end)["end_reason"], "stalled");
  EXPECT_EQ((*round_end)["stall_award"], Json::parse(R"({"by_owner":[0,1],"dealt":[1,0]})"));
  EXPECT_EQ((*round_end)["sets"], Json::array({7, 5}));
  EXPECT_TRUE((*round_end)["plex"].is_null());
  EXPECT_EQ((*round_end)["turns"], 4);
  const Json result = m.game().result();
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["end_reason"], "target");
  EXPECT_EQ(m.game().position(), pos(Position(12, 0), owners, {7, 5}));
}

// ---- NJK-10 -----------------------------------------------------------------------------------

// A Plex moment (eleven sets out, the last four on the board) resolved for `claimant`: the
// round ends with `sets` + 1 for the claimant.
Njaka plex_moment(const Json& options, const Position& owners, const Position& sets, Seat mover) {
  return at(options, {1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}, owners, sets, mover);
}

Njaka after_plex(const Json& options, const Position& owners, const Position& sets, Seat mover,
                 Seat claimant, Events* events = nullptr) {
  Njaka g = plex_moment(options, owners, sets, mover);
  EXPECT_EQ(g.phase(), Phase::claim);
  g.resolve_claim(claimant, events);
  return g;
}

TEST(Njaka, NJK_10_TwoPlayers) {
  // [7,5]: T = 2 wins.
  Njaka won = after_plex({}, kTwo, {6, 5}, 0, 0);
  EXPECT_EQ(won.phase(), Phase::over);
  EXPECT_EQ(won.result()["winner"], 0);
  // [7,5], T = 3: next round, seat 0 owns 0-6, seat 1 owns 7-11, started by seat 1.
  Njaka next = after_plex({{"target", 3}}, kTwo, {6, 5}, 0, 0);
  EXPECT_EQ(next.phase(), Phase::play);
  EXPECT_EQ(next.round(), 2);
  EXPECT_EQ(next.to_move(), 1);
  EXPECT_EQ(next.position(), pos(kAllFours, {0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, {0, 0}));
  // [8,4] wins for T = 3 and 4, not for T = 5; [9,3] wins for T = 5.
  for (int target : {3, 4}) {
    Njaka g = after_plex({{"target", target}}, kTwo, {7, 4}, 0, 0);
    EXPECT_EQ(g.phase(), Phase::over) << target;
    EXPECT_EQ(g.result()["winner"], 0);
  }
  Njaka short_of_five = after_plex({{"target", 5}}, kTwo, {7, 4}, 0, 0);
  EXPECT_EQ(short_of_five.phase(), Phase::play);
  EXPECT_EQ(short_of_five.position(),
            pos(kAllFours, {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, {0, 0}));
  Njaka five = after_plex({{"target", 5}}, kTwo, {8, 3}, 1, 0);
  EXPECT_EQ(five.phase(), Phase::over);
  EXPECT_EQ(five.result()["winner"], 0);
}

TEST(Njaka, NJK_10_ConstructedPlexMomentUnderPlexModeMoverResolvesAtOnce) {
  Njaka g = plex_moment({{"plex_mode", "mover"}}, kTwo, {6, 5}, 0);
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.result()["winner"], 0);
  EXPECT_EQ(g.result()["rounds"][0]["plex"],
            Json::parse(R"({"winner":0,"fallback":false,"mode":"mover"})"));
}

TEST(Njaka, NJK_10_ThreePlayers) {
  Events events;
  Njaka g = after_plex({{"players", 3}}, kThree, {5, 4, 2}, 1, 2, &events);
  EXPECT_EQ(g.phase(), Phase::play);
  EXPECT_EQ(g.position(), pos(kAllFours, {0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2}, {0, 0, 0}));
  EXPECT_EQ(g.to_move(), 2) << "round 1 was started by seat 1";
  const Json record = g.rounds().at(0);
  EXPECT_EQ(record["sets"], Json::array({5, 4, 3}));
  EXPECT_EQ(record["seats_active"], Json::array({0, 1, 2}));
  EXPECT_EQ(record["holes"], Json::parse("[[0,1,2,3],[4,5,6,7],[8,9,10,11]]"));
  EXPECT_EQ(record["eliminated"], Json::array());
  EXPECT_EQ(record["next_owner"], Json::parse("[0,0,0,0,0,1,1,1,1,2,2,2]"));
}

TEST(Njaka, NJK_10_FourPlayersWithAnElimination) {
  Njaka g = after_plex({{"players", 4}}, kFour, {0, 5, 4, 2}, 3, 3);
  EXPECT_EQ(g.phase(), Phase::play);
  EXPECT_EQ(g.position(), pos(kAllFours, {1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3}, {0, 0, 0, 0}));
  EXPECT_EQ(g.board()["seats"], Json::parse(R"(["eliminated","active","active","active"])"));
  EXPECT_EQ(g.to_move(), 1) << "after seat 3 comes seat 0, who is out, so seat 1";
  EXPECT_EQ(g.rounds().at(0)["eliminated"], Json::array({0}));
  // Turn order skips the eliminated seat: 3 -> 1.
  Njaka h = g;
  DecisionList list;
  for (int turn = 0; turn < 12 && h.phase() == Phase::play && h.round() == 2; ++turn) {
    h.legal(list);
    h.apply(list[0], nullptr);
    if (h.phase() == Phase::play && h.round() == 2) {
      EXPECT_NE(h.to_move(), 0);
    }
  }
  // [7,2,2,1]: T = 2 -> seat 0 wins; T = 3 -> next round.
  Njaka won = after_plex({{"players", 4}}, kFour, {7, 2, 2, 0}, 0, 3);
  EXPECT_EQ(won.phase(), Phase::over);
  EXPECT_EQ(won.result()["winner"], 0);
  EXPECT_EQ(won.result()["ranking"], Json::parse("[[0],[1,2],[3]]"));
  Njaka next = after_plex({{"players", 4}, {"target", 3}}, kFour, {7, 2, 2, 0}, 0, 3);
  EXPECT_EQ(next.phase(), Phase::play);
  EXPECT_EQ(next.position(), pos(kAllFours, {0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 3}, {0, 0, 0, 0}));
}

TEST(Njaka, NJK_10_AdvancedVariant) {
  const Json options = {{"advanced", true}, {"target", 3}};
  Njaka g = after_plex(options, kAlternate, {7, 4}, 0, 1);
  EXPECT_EQ(g.position(), pos(kAllFours, {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0}, {0, 0}));
  Njaka h = after_plex(options, kAlternate, {4, 7}, 0, 0);
  EXPECT_EQ(h.position(), pos(kAllFours, {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1}, {0, 0}));
}

TEST(Njaka, NJK_10_MaxRoundsSharedWinAndTargetFirst) {
  // Equal leaders after the last allowed round share the win.
  Njaka tie = after_plex({{"max_rounds", 1}}, kTwo, {6, 5}, 0, 1);
  EXPECT_EQ(tie.phase(), Phase::over);
  EXPECT_EQ(tie.result()["end_reason"], "max_rounds");
  EXPECT_TRUE(tie.result()["winner"].is_null());
  EXPECT_EQ(tie.result()["ranking"], Json::parse("[[0,1]]"));
  // A single leader wins.
  Njaka lead = after_plex({{"max_rounds", 1}, {"players", 3}}, kThree, {5, 4, 2}, 0, 0);
  EXPECT_EQ(lead.result()["end_reason"], "max_rounds");
  EXPECT_EQ(lead.result()["winner"], 0);
  EXPECT_EQ(lead.result()["ranking"], Json::parse("[[0],[1],[2]]"));
  // Clarification 12: reaching the target in the last allowed round is a target win.
  Njaka target = after_plex({{"max_rounds", 1}}, kTwo, {6, 5}, 0, 0);
  EXPECT_EQ(target.result()["end_reason"], "target");
  // max_rounds 2: the first round ends normally.
  Njaka more = after_plex({{"max_rounds", 2}}, kTwo, {6, 5}, 0, 1);
  EXPECT_EQ(more.phase(), Phase::play);
}

// ---- resignation and forfeits (§5.5, clarification 15) ---------------------------------------

TEST(Njaka, TwoPlayerResignationLosesTheMatchAtOnce) {
  Match m = Match::create("njaka", {{"first_player", 0}}, 1);
  ASSERT_TRUE(m.play("0").ok());
  const Outcome o = m.resign(0);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.events.front(), (Json{{"event", "resign"}, {"player", 0}}));
  EXPECT_NE(find_event(o.events, "round_end"), nullptr);
  EXPECT_EQ(o.events.back()["event"], "game_end");
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "resign");
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["offender"], 0);
  EXPECT_EQ(result["ranking"], Json::parse("[[1],[0]]"));
  EXPECT_EQ(result["rounds"][0]["end_reason"], "resign");
  EXPECT_EQ(m.play("6").error->code, ErrorCode::game_over);
  EXPECT_EQ(m.resign(1).error->code, ErrorCode::game_over);
}

TEST(Njaka, ThreePlayerResignerPassesAndKeepsMidLapFoursUntilTheRoundEnds) {
  const Json options = {{"players", 3}};
  Match m = match_at(options, {0, 0, 0, 0, 3, 0, 1, 0, 0, 0, 2, 6}, kThree, {3, 3, 3}, 1);
  const Outcome resigned = m.resign(1);
  ASSERT_TRUE(resigned.ok());
  ASSERT_EQ(resigned.events.size(), 2u);
  EXPECT_EQ(resigned.events[1], (Json{{"event", "pass"}, {"player", 1}}))
      << "his turn: he passes at once";
  EXPECT_EQ(m.game().phase(), Phase::play);
  EXPECT_EQ(m.game().to_move(), 2);
  EXPECT_EQ(m.game().board()["seats"], Json::parse(R"(["active","resigned","active"])"));
  EXPECT_EQ(m.resign(1).error->code, ErrorCode::not_allowed) << "he has already left";

  // Seat 2 sows 11 round to hole 5; hole 4 (seat 1's) reaches four mid-lap: his set.
  const Outcome sown = m.play("11");
  ASSERT_TRUE(sown.ok());
  EXPECT_EQ(sown.events[0]["captures"], Json::parse(R"([{"hole":4,"to":1,"kind":"sowing"}])"));
  EXPECT_EQ(m.game().position(),
            pos({1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 2, 0}, kThree, {3, 4, 3}));
  EXPECT_EQ(m.game().to_move(), 0);
  // Seat 0 moves; seat 1 owns counters yet passes automatically.
  const Outcome next = m.play("3");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next.events.back(), (Json{{"event", "pass"}, {"player", 1}}));
  EXPECT_EQ(m.game().to_move(), 2);
}

TEST(Njaka, ThreePlayerResignerMayNotClaimPlexAndHisSetsAreDealtAtTheRoundEnd) {
  const Json options = {{"players", 3}};
  Match m = match_at(options, kNjk5Board, kThree, {4, 3, 3}, 0);
  ASSERT_TRUE(m.resign(1).ok());
  EXPECT_EQ(m.game().to_move(), 0);
  ASSERT_TRUE(m.play("2").ok());
  ASSERT_EQ(m.game().phase(), Phase::claim);
  EXPECT_EQ(m.game().scores(), Json::array({5, 3, 3}));
  const Json before = m.state();
  const Outcome refused = m.claim(1);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.state(), before);

  const Outcome claimed = m.claim(2);
  ASSERT_TRUE(claimed.ok());
  // [5,3,4]; seat 1's three sets go to 2, 0, 2 (turn order after him) -> [6,0,6]; T = 2: nobody
  // wins; seat 1 is out; round 2: seat 0 owns 0-5, seat 2 owns 6-11, started by seat 2.
  const Json record = m.game().rounds().at(0);
  EXPECT_EQ(record["resigned"], Json::parse(R"([{"seat":1,"dealt":[1,0,2]}])"));
  EXPECT_EQ(record["sets"], Json::array({6, 0, 6}));
  EXPECT_EQ(record["eliminated"], Json::array({1}));
  EXPECT_EQ(m.game().position(), pos(kAllFours, {0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 2}, {0, 0, 0}));
  EXPECT_EQ(m.game().to_move(), 2);
  EXPECT_EQ(m.game().board()["seats"], Json::parse(R"(["active","eliminated","active"])"));
  EXPECT_EQ(m.resign(1).error->code, ErrorCode::not_allowed);

  // Seat 2 leaves too: seat 0 is the last seat standing.
  const Outcome last = m.resign(2);
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last.events.back()["event"], "game_end");
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "last_seat_standing");
  EXPECT_EQ(result["winner"], 0);
  EXPECT_EQ(result["ranking"], Json::parse("[[0],[2],[1]]"));
  EXPECT_EQ(result["rounds"].size(), 2u);
  EXPECT_EQ(result["rounds"][1]["end_reason"], "resign");
}

TEST(Njaka, FourPlayerRankingPutsEarlierDeparturesLower) {
  Match m = Match::create("njaka", {{"players", 4}, {"first_player", 0}}, 1);
  ASSERT_TRUE(m.resign(2).ok());
  ASSERT_TRUE(m.resign(0).ok());
  EXPECT_EQ(m.game().to_move(), 1) << "seat 0 resigned on his turn and passed";
  ASSERT_TRUE(m.resign(3).ok());
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "last_seat_standing");
  EXPECT_EQ(result["ranking"], Json::parse("[[1],[3],[0],[2]]"));
}

TEST(Njaka, ForfeitPolicyTreatsAnIllegalMoveAsResigning) {
  const Json two = {{"illegal_move_policy", "forfeit"}, {"first_player", 0}};
  Match m = Match::create("njaka", two, 1);
  const Outcome o = m.play("7");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o.events.front()["event"], "illegal_move");
  EXPECT_EQ(m.game().result()["end_reason"], "illegal_move");
  EXPECT_EQ(m.game().result()["winner"], 1);
  EXPECT_EQ(m.game().result()["offender"], 0);

  const Json three = {{"illegal_move_policy", "forfeit"}, {"first_player", 0}, {"players", 3}};
  Match n = Match::create("njaka", three, 1);
  ASSERT_TRUE(n.play("7").ok());
  EXPECT_EQ(n.game().phase(), Phase::play);
  EXPECT_EQ(n.game().to_move(), 1);
  EXPECT_EQ(n.game().board()["seats"], Json::parse(R"(["resigned","active","active"])"));
  // A token outside the domain is a protocol error without penalty.
  const Json before = n.state();
  EXPECT_EQ(n.play("12").error->code, ErrorCode::illegal_move);
  EXPECT_EQ(n.state(), before);
}

// ---- bad input and options -----------------------------------------------------------------

TEST(Njaka, BadInputIsRefusedAndChangesNothing) {
  Match m = match_at({}, {0, 3, 0, 1, 2, 2, 1, 1, 0, 0, 0, 2}, kTwo, {5, 4}, 0);
  const Json before = m.state();
  const Tokens legal = {"1", "3", "4", "5"};
  const Outcome other_seat = m.play("6");
  ASSERT_FALSE(other_seat.ok());
  EXPECT_EQ(other_seat.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(other_seat.error->token, "6");
  EXPECT_EQ(other_seat.error->legal, legal);
  const Outcome empty = m.play("0");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error->code, ErrorCode::illegal_move);
  EXPECT_EQ(empty.error->legal, legal);
  for (const char* move : {"12", "07", "-1", "x", "1a", "+1", "100"}) {
    const Outcome o = m.play(move);
    ASSERT_FALSE(o.ok()) << move;
    EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
  }
  for (const char* move : {"", " 1", "1 ", "1  3"}) {
    EXPECT_EQ(m.play(move).error->code, ErrorCode::bad_request) << "'" << move << "'";
  }
  EXPECT_EQ(m.play("1 3").error->code, ErrorCode::illegal_move) << "one turn per move";
  EXPECT_EQ(m.play(1, "6").error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.claim(0).error->code, ErrorCode::no_claim_window);
  EXPECT_EQ(m.close_claim_window().error->code, ErrorCode::no_claim_window);
  EXPECT_EQ(m.special_action("concede", 0).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.resign(2).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.state(), before);
}

TEST(Njaka, NoMovesDuringThePlexWindowAndOnlySeatsInTheMatchMayClaim) {
  // Three seats; seat 2 owns nothing and has no set: it is out of the match.
  const Json options = {{"players", 3}};
  Match m = match_at(options, {0, 0, 2, 3, 0, 0, 1, 0, 2, 0, 0, 0},
                     {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}, {5, 5, 0}, 0);
  EXPECT_EQ(m.game().board()["seats"], Json::parse(R"(["active","active","eliminated"])"));
  ASSERT_TRUE(m.play("2").ok());
  ASSERT_EQ(m.game().phase(), Phase::claim);
  const Json before = m.state();
  EXPECT_EQ(m.play("6").error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.play(0, "3").error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.claim(2).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.claim(3).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.claim(-1).error->code, ErrorCode::not_allowed);
  EXPECT_EQ(m.state(), before);
  ASSERT_TRUE(m.claim(0).ok()) << "the mover may claim too";
  EXPECT_EQ(m.game().result()["winner"], 0);
  EXPECT_EQ(m.game().result()["ranking"], Json::parse("[[0],[1],[2]]"));
}

TEST(Njaka, ResolvingPlexOutsideTheWindowThrows) {
  Njaka g = at({}, kAllFours, kTwo, {0, 0}, 0);
  try {
    g.resolve_claim(0, nullptr);
    FAIL() << "resolved a Plex outside phase plex";
  } catch (const EngineError& e) {
    EXPECT_EQ(e.code(), ErrorCode::no_claim_window);
  }
}

TEST(Njaka, OptionsAreValidatedWithClearErrors) {
  auto outcome = [](const Json& options) {
    try {
      Match::create("njaka", options, 1);
    } catch (const EngineError& e) {
      return std::string(to_string(e.code())) + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(outcome({{"players", 3}, {"advanced", true}}),
            "bad_option: option 'advanced' needs 'players' to be 2, but it is 3");
  EXPECT_EQ(outcome({{"players", 2}, {"advanced", true}}), "accepted");
  EXPECT_EQ(outcome({{"players", 5}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"first_player", 2}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"first_player", 3}, {"players", 4}}), "accepted");
  EXPECT_EQ(outcome({{"first_player", 4}, {"players", 4}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"direction", "left"}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"target", 6}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"plex_window_ms", 999}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"stall_limit", 49}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"max_rounds", 101}}).substr(0, 10), "bad_option");
  EXPECT_EQ(outcome({{"plex_mode", "mover"}, {"plex_window_ms", 30000}}), "accepted");
  EXPECT_EQ(outcome({{"cups_per_side", 4}}).substr(0, 10), "bad_option");
  EXPECT_EQ(find_game_type("njaka").max_players, 4);
  EXPECT_EQ(Match::create("njaka", {{"first_player", 3}, {"players", 4}}, 1).game().to_move(), 3);
}

TEST(Njaka, FirstPlayerIsDrawnFromTheSeedForEverySeat) {
  std::array<int, 4> firsts{};
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Match m = Match::create("njaka", {{"players", 4}}, seed);
    const int seat = m.draws()["first_player"].get<int>();
    EXPECT_EQ(m.game().to_move(), seat);
    ++firsts[static_cast<std::size_t>(seat)];
  }
  for (int count : firsts) EXPECT_GT(count, 60);
  Match m = Match::create("njaka", {{"players", 3}}, 5);
  EXPECT_EQ(m.game().position(), pos(kAllFours, kThree, {0, 0, 0}));
}

// ---- §10 invariants over seeded random matches ------------------------------------------------

// Sows like §3.4 on a bare board with no guard at all; true when the turn is still going after
// `limit` drops (an endless move).
bool endless(std::array<int, 12> board, int hole, int step, long limit) {
  int hand = board[static_cast<std::size_t>(hole)];
  board[static_cast<std::size_t>(hole)] = 0;
  int pos = hole;
  for (long drops = 0; drops < limit;) {
    while (hand > 0) {
      pos = (pos + step + 12) % 12;
      auto& count = board[static_cast<std::size_t>(pos)];
      --hand;
      ++drops;
      if (++count == 4) {
        count = 0;
        if (hand == 0) return false;
      }
    }
    if (board[static_cast<std::size_t>(pos)] == 1) return false;
    hand = board[static_cast<std::size_t>(pos)];
    board[static_cast<std::size_t>(pos)] = 0;
  }
  return true;
}

struct Tally {
  long decisions = 0;
  int matches = 0;
  int loop_guards = 0;
  int plex_rounds = 0;
  int stalled_rounds = 0;
  int stalled_at_limit = 0;
  int conquests = 0;
  int eliminations = 0;
};

void check_position(const NjakaState& s) {
  int on_board = 0;
  for (auto count : s.board) {
    ASSERT_GE(count, 0);
    on_board += count;
  }
  int sets = 0;
  for (Seat q = 0; q < s.players; ++q) sets += s.sets[q];
  ASSERT_EQ(sets, s.total_sets);
  if (s.phase == Phase::claim) {
    ASSERT_EQ(s.total_sets, 11);
    ASSERT_EQ(on_board + s.plex_hand, 4) << "in phase plex the last four are board + hand";
  } else if (s.phase == Phase::play) {
    ASSERT_LE(s.total_sets, 11);
    ASSERT_EQ(on_board + 4 * s.total_sets, 48) << "48 counters accounted for";
    ASSERT_NE(s.status[s.to_move], NjakaSeatStatus::eliminated);
  }
  for (auto owner : s.owner) {
    ASSERT_GE(owner, 0);
    ASSERT_LT(owner, s.players);
    if (s.phase != Phase::over) {  // after the match the owners stay as the last round had them
      ASSERT_NE(s.status[owner], NjakaSeatStatus::eliminated) << "holes belong to seats in play";
    }
  }
}

// One turn (play phase) checked against the state before it, within the same round.
void check_turn(const NjakaState& before, const NjakaState& after, Seat mover) {
  for (int h = 0; h < 12; ++h) {
    if (after.board[h] == 4) {
      ASSERT_EQ(before.board[h], 4) << "a drop never leaves exactly four";
    }
    if (after.owner[h] != before.owner[h]) {
      ASSERT_TRUE(before.advanced) << "basic ownership never changes inside a round";
      ASSERT_EQ(after.owner[h], mover);
      ASSERT_EQ(after.board[h], 0);
    }
  }
  ASSERT_GE(after.total_sets, before.total_sets);
}

void check_round_start(const NjakaRound& record, const NjakaState& s) {
  ASSERT_EQ(s.board, NjakaBoard({4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}));
  int total = 0;
  for (Seat q = 0; q < s.players; ++q) {
    const int sets = record.sets[q];
    total += sets;
    const auto owned = std::count(s.owner.begin(), s.owner.end(), q);
    if (s.status[q] == NjakaSeatStatus::active) {
      ASSERT_EQ(owned, sets) << "one hole per set";
    } else {
      ASSERT_EQ(owned, 0);
    }
    ASSERT_EQ(s.sets[q], 0);
  }
  ASSERT_EQ(total, 12) << "a round ends with all twelve sets given";
  ASSERT_TRUE(record.has_next);
  ASSERT_EQ(record.next_owner, s.owner);
}

void check_round_record(const NjakaRound& record, int stall_limit, Tally& tally) {
  int previous = 0;
  for (int i = 0; i < record.capture_count; ++i) {
    const int turn = record.captures[static_cast<std::size_t>(i)].turn;
    ASSERT_LE(turn - previous, stall_limit) << "no stretch of stall_limit quiet turns";
    previous = turn;
  }
  if (record.end == NjakaRoundEnd::stalled) {
    ++tally.stalled_rounds;
    const int quiet = record.turns - previous;
    ASSERT_LE(quiet, stall_limit);
    tally.stalled_at_limit += quiet == stall_limit;
    ASSERT_EQ(record.plex_winner, kNoSeat);
  } else if (record.end == NjakaRoundEnd::plex) {
    ++tally.plex_rounds;
    ASSERT_EQ(record.capture_count, 11);
    ASSERT_NE(record.plex_winner, kNoSeat);
  }
  for (bool out : record.eliminated) tally.eliminations += out;
}

// Plays one match of random decisions, Plex windows resolved at random (a random seat in the
// match or the fallback). A second copy plays the same decisions with events (and therefore
// with the loop guard from the first pickup) and must stay identical.
void random_match(const Json& options, std::uint64_t seed, bool with_events, Tally& tally) {
  const Json resolved = resolve_options(njaka_type().options, options);
  Random rng(seed);
  const int players = resolved["players"].get<int>();
  Njaka g(GameSetup{resolved, static_cast<Seat>(rng.below(static_cast<std::uint32_t>(players)))});
  Njaka shadow = g;
  DecisionList list;
  Events events;
  const int stall_limit = resolved["stall_limit"].get<int>();
  for (long steps = 0; g.phase() != Phase::over; ++steps) {
    ASSERT_LT(steps, 1'000'000) << "every match ends";
    const NjakaState before = g.state();
    const int round = g.round();
    if (g.phase() == Phase::claim) {
      const Position vector = g.position();
      ASSERT_TRUE(std::all_of(vector.begin(), vector.begin() + 12, [](int c) { return c == 0; }))
          << "the last four are in no element of the position vector";
      std::vector<Seat> in;
      for (Seat q = 0; q < players; ++q)
        if (before.status[q] == NjakaSeatStatus::active) in.push_back(q);
      const auto pick = rng.below(static_cast<std::uint32_t>(in.size() + 1));
      const std::optional<Seat> claimant =
          pick == in.size() ? std::nullopt : std::optional<Seat>(in[pick]);
      g.resolve_claim(claimant, nullptr);
      if (with_events) shadow.resolve_claim(claimant, nullptr);
    } else {
      g.legal(list);
      ASSERT_FALSE(list.empty()) << "a seat to move always has a move";
      for (Decision d : list) ASSERT_EQ(before.owner[d], before.to_move);
      const Decision d = list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))];
      g.apply(d, nullptr);
      ++tally.decisions;
      if (with_events) {
        events.clear();
        shadow.apply(d, &events);
        const Json& turn = events.front();
        ASSERT_EQ(turn["event"], "turn");
        if (turn["conquest"].is_object()) ++tally.conquests;
        if (turn["end"] == "loop_guard") {
          ++tally.loop_guards;
          std::array<int, 12> board{};
          for (int h = 0; h < 12; ++h) board[static_cast<std::size_t>(h)] = before.board[h];
          ASSERT_TRUE(endless(board, d, before.clockwise ? -1 : 1, 1'000'000))
              << "the loop guard fired on a move that ends by itself";
        }
      }
      if (g.round() == round && g.phase() != Phase::over) {
        check_turn(before, g.state(), before.to_move);
      }
    }
    if (with_events) {
      ASSERT_EQ(shadow.position(), g.position());
      ASSERT_EQ(shadow.to_move(), g.to_move());
      ASSERT_EQ(shadow.phase(), g.phase());
      ASSERT_EQ(shadow.state().quiet_turns, g.state().quiet_turns);
    }
    check_position(g.state());
    if (g.round() != round) {
      ASSERT_EQ(g.round(), round + 1);
      const NjakaRound& record = g.finished_rounds().back();
      check_round_record(record, stall_limit, tally);
      check_round_start(record, g.state());
    }
  }
  ++tally.matches;
  const Json result = g.result();
  ASSERT_FALSE(result.is_null());
  std::vector<int> ranked;
  for (const Json& group : result["ranking"])
    for (const Json& seat : group) ranked.push_back(seat.get<int>());
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> seats(static_cast<std::size_t>(players));
  std::iota(seats.begin(), seats.end(), 0);
  ASSERT_EQ(ranked, seats) << "every seat is ranked once";
  ASSERT_EQ(result["rounds"].size(), g.finished_rounds().size());
  check_round_record(g.finished_rounds().back(), stall_limit, tally);
  const Json last = result["rounds"].back();
  if (result["end_reason"] == "target") {
    const int winner = result["winner"].get<int>();
    ASSERT_GE(2 * last["sets"][static_cast<std::size_t>(winner)].get<int>(),
              12 + resolved["target"].get<int>());
    ASSERT_EQ(result["ranking"][0], Json::array({winner}));
  }
}

void random_matches(const Json& options, int matches, Tally& tally) {
  for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(matches); ++seed) {
    random_match(options, seed * 7919, seed % 4 == 0, tally);
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "options " << options.dump() << " seed " << seed;
      return;
    }
  }
}

TEST(Njaka, InvariantsHoldInRandomMatches_TwoPlayers) {
  Tally tally;
  random_matches({{"players", 2}}, 3000, tally);
  random_matches({{"players", 2}, {"direction", "cw"}, {"target", 5}}, 500, tally);
  EXPECT_GT(tally.plex_rounds, 3000);
  EXPECT_GT(tally.loop_guards, 0) << "seeded: some endless moves occur";
}

TEST(Njaka, InvariantsHoldInRandomMatches_ThreePlayers) {
  Tally tally;
  random_matches({{"players", 3}}, 1500, tally);
  random_matches({{"players", 3}, {"direction", "cw"}, {"max_rounds", 3}}, 300, tally);
  EXPECT_GT(tally.eliminations, 0);
}

TEST(Njaka, InvariantsHoldInRandomMatches_FourPlayers) {
  Tally tally;
  random_matches({{"players", 4}}, 1000, tally);
  random_matches({{"players", 4}, {"direction", "cw"}, {"target", 3}}, 300, tally);
  EXPECT_GT(tally.eliminations, 0);
}

TEST(Njaka, InvariantsHoldInRandomMatches_Advanced) {
  Tally tally;
  random_matches({{"advanced", true}}, 3000, tally);
  EXPECT_GT(tally.conquests, 0);
  EXPECT_GT(tally.stalled_rounds, 0) << "the advanced variant has forced cycles (NJK-9)";
}

TEST(Njaka, StallLimitEndsRoundsAfterExactlyThatManyQuietTurns) {
  Tally tally;
  random_matches({{"players", 2}, {"stall_limit", 50}}, 1500, tally);
  random_matches({{"players", 4}, {"stall_limit", 50}}, 300, tally);
  EXPECT_GT(tally.stalled_at_limit, 0);
}

// Matches through the generic layer with Plex claims, time-outs and resignations: the game
// record replays to the same state.
TEST(Njaka, RecordsReplayToTheSameState) {
  for (int players = 2; players <= 4; ++players) {
    int plex_moments = 0;
    const auto step = [&](Match& m, Random& rng) {
      if (m.game().phase() == Phase::claim) {
        ++plex_moments;
        const auto pick = rng.below(static_cast<std::uint32_t>(players + 1));
        if (pick == static_cast<std::uint32_t>(players)) {
          ASSERT_TRUE(m.close_claim_window().ok());
        } else if (!m.claim(static_cast<Seat>(pick)).ok()) {
          ASSERT_EQ(m.claim(static_cast<Seat>(pick)).error->code, ErrorCode::not_allowed);
        }
      } else if (players > 2 && rng.below(400) == 0) {
        m.resign(static_cast<Seat>(rng.below(static_cast<std::uint32_t>(players))));
      } else {
        testing::play_random_token(m, rng);
      }
    };
    const auto check = [&](const Match& m) {
      EXPECT_GT(plex_moments + static_cast<int>(m.game().rounds().size()), 0);
      plex_moments = 0;
    };
    testing::expect_random_games_replay("njaka", {{"players", players}}, 30, {.step = step}, check);
  }
  // plex_mode mover records replay too (no claims in them).
  Match m = Match::create("njaka", {{"players", 4}, {"plex_mode", "mover"}}, 3);
  ASSERT_NO_FATAL_FAILURE(testing::play_randomly(m, 3));
  testing::expect_record_replays(m);
}

TEST(Njaka, RoundOneLayoutIsTheEqualSplitOfNJ15) {
  // NJ-2's table agrees with NJ-15 applied to equal sets: after a round in which everyone got
  // the same number of sets, the layout is the opening one again (checked through a Plex moment).
  Njaka two = after_plex({}, kTwo, {6, 5}, 0, 1);
  EXPECT_EQ(two.position(), pos(kAllFours, kTwo, {0, 0}));
  Njaka three = after_plex({{"players", 3}}, kThree, {4, 4, 3}, 0, 2);
  EXPECT_EQ(three.position(), pos(kAllFours, kThree, {0, 0, 0}));
  Njaka four = after_plex({{"players", 4}}, kFour, {3, 3, 3, 2}, 0, 3);
  EXPECT_EQ(four.position(), pos(kAllFours, kFour, {0, 0, 0, 0}));
  Njaka advanced = after_plex({{"advanced", true}}, kAlternate, {6, 5}, 0, 1);
  EXPECT_EQ(advanced.position(), pos(kAllFours, kAlternate, {0, 0}));
}

}  // namespace
}  // namespace mancala
