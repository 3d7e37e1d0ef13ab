// Duovallis: the rule book's worked examples (o-an-quan-njaka-duovallis.md §9.3), its invariants
// (§10) over seeded random games, the safeguards (C5, C6), and bad input through the generic layer.
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "games/duovallis.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::legal_tokens;
using testing::play;
using Tokens = std::vector<std::string>;
using Position = std::vector<int>;
using Board = DuovallisState::Board;

constexpr int kHoles = 24;

// A position vector from the book's notation: "h:xWyB" for each non-empty hole (zeros dropped),
// "a-b:..." for a run of holes, separated by spaces; then the carries of White and Black.
Position pos(const std::string& text, int carry_white = 0, int carry_black = 0) {
  Position out(2 * kHoles + 2, 0);
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const auto colon = item.find(':');
    const std::string holes = item.substr(0, colon);
    const auto dash = holes.find('-');
    const int first = std::stoi(holes.substr(0, dash));
    const int last = dash == std::string::npos ? first : std::stoi(holes.substr(dash + 1));
    int white = 0, black = 0;
    std::size_t at = colon + 1;
    while (at < item.size()) {
      std::size_t used = 0;
      const int count = std::stoi(item.substr(at), &used);
      const char colour = item[at + used];
      (colour == 'W' ? white : black) = count;
      at += used + 1;
    }
    for (int h = first; h <= last; ++h) {
      out[static_cast<std::size_t>(h)] = white;
      out[static_cast<std::size_t>(kHoles + h)] = black;
    }
  }
  out[2 * kHoles] = carry_white;
  out[2 * kHoles + 1] = carry_black;
  return out;
}

const char* const kStart = "0-5:4W 7-10:4B 13-16:4W 18-23:4B";

Duovallis opening() { return Duovallis(GameSetup{resolve_options(duovallis_type().options, {}), 0}); }

Duovallis constructed(const std::string& text, Seat to_move, int carry_white = 0,
                      int carry_black = 0, const Json& options = Json::object()) {
  return Duovallis::from_position(options, pos(text, carry_white, carry_black), to_move);
}

int balance(const DuovallisState& s) {  // DV-8: always 80
  int total = s.carry[0] + s.carry[1] + 2 * (s.exchanges[0] + s.exchanges[1]);
  for (const auto& colour : s.stones)
    for (int stones : colour) total += stones;
  return total;
}

const Json& turn_event(const Events& events) {
  for (const Json& e : events)
    if (e["event"] == "turn") return e;
  static const Json none;
  ADD_FAILURE() << "no turn event";
  return none;
}

Json lap(int from, int foreign, int own, int end, std::vector<int> holes) {
  return Json{{"from", from}, {"foreign", foreign}, {"own", own}, {"end", end}, {"holes", holes}};
}

// ---- §4.2: the layout --------------------------------------------------------------------------

TEST(Duovallis, LayoutIsSection4_2) {
  const std::set<int> white = {0, 1, 2, 3, 4, 5, 13, 14, 15, 16};
  const std::set<int> black = {7, 8, 9, 10, 18, 19, 20, 21, 22, 23};
  const std::set<int> back = {0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23};
  for (int h = 0; h < kHoles; ++h) {
    const HoleRole role = duovallis_role(h);
    if (white.count(h))
      EXPECT_EQ(role, back.count(h) ? HoleRole::white_back : HoleRole::white_front) << h;
    else if (black.count(h))
      EXPECT_EQ(role, back.count(h) ? HoleRole::black_back : HoleRole::black_front) << h;
    else
      EXPECT_EQ(role, HoleRole::neutral) << h;
  }
  const std::vector<std::vector<int>> circuits = {
      {0, 1, 2, 3, 4, 5, 11, 17, 16, 15, 14, 13, 12, 6},
      {23, 22, 21, 20, 19, 18, 12, 6, 7, 8, 9, 10, 11, 17}};
  for (Seat p = 0; p < 2; ++p) {
    const auto& c = circuits[static_cast<std::size_t>(p)];
    for (std::size_t i = 0; i < c.size(); ++i)
      EXPECT_EQ(duovallis_next(p, c[i]), c[(i + 1) % c.size()]) << "seat " << p << " hole " << c[i];
    for (int h : (p == 0 ? black : white)) EXPECT_EQ(duovallis_next(p, h), -1) << "opponent hole " << h;
  }
  const std::map<int, int> pairs = {{1, 7},   {2, 8},   {3, 9},   {4, 10},  {13, 19},
                                    {14, 20}, {15, 21}, {16, 22}};
  for (int h = 0; h < kHoles; ++h) {
    int expected = -1;
    for (const auto& [a, b] : pairs)
      if (h == a) expected = b;
      else if (h == b) expected = a;
    EXPECT_EQ(duovallis_corresponding(h), expected) << h;
  }
}

TEST(Duovallis, OpeningPositionAndOptions) {
  Match m = Match::create("duovallis", {}, 1);
  EXPECT_EQ(m.game().position(), pos(kStart));
  EXPECT_EQ(m.game().to_move(), 0) << "White starts (DV-6)";
  EXPECT_EQ(m.legal_tokens(), (Tokens{"0", "1", "2", "3", "4", "5"}));
  EXPECT_EQ(m.options(), (Json{{"stall_limit", 200}, {"illegal_move_policy", "reject"}}));
  EXPECT_EQ(m.game().round(), 1);
  auto code_of = [](const Json& options) {
    try {
      Match::create("duovallis", options, 1);
    } catch (const EngineError& e) {
      return std::string(to_string(e.code())) + ": " + e.what();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(code_of({{"first_player", 1}}).rfind("bad_option: unknown option 'first_player'", 0), 0u)
      << "White always starts (clarification 8)";
  EXPECT_EQ(code_of({{"stall_limit", 49}}),
            "bad_option: option 'stall_limit' is 49; it must be an integer from 50 to 2000");
  EXPECT_EQ(code_of({{"stall_limit", 2001}}).substr(0, 10), "bad_option");
  EXPECT_EQ(code_of({{"stall_limit", 50}, {"illegal_move_policy", "forfeit"}}), "accepted");
  EXPECT_EQ(code_of({{"stall_limit", 2000}}), "accepted");
}

// ---- §9.3: the worked examples ---------------------------------------------------------------

TEST(Duovallis, DUO_1_OpeningThreeLapsCaptureExchangeCarry) {
  Duovallis g = opening();
  Events events;
  ASSERT_TRUE(play(g, "1", &events));
  EXPECT_EQ(g.position(), pos("0:5W 1:2W 2:5W 3:5W 4:5W 6:1W 8-10:4B 11:1W 12:1W 13:5W 15:5W "
                              "16:5W 17:1W 18-23:4B",
                              1, 0));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"18", "19", "20", "21", "22", "23"}));
  EXPECT_EQ(g.state().exchanges, (std::array<std::int16_t, 2>{1, 0}));
  EXPECT_EQ(balance(g.state()), 80) << "77 on board + 1 carried + 2 x 1";
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0],
            (Json{{"event", "turn"},
                  {"game", "duovallis"},
                  {"ply", 1},
                  {"player", 0},
                  {"move", {{"pit", 1}}},
                  {"laps", {lap(1, 0, 4, 5, {2, 3, 4, 5}), lap(5, 0, 5, 14, {11, 17, 16, 15, 14}),
                            lap(14, 0, 5, 1, {13, 12, 6, 0, 1})}},
                  {"end", "capture"},
                  {"capture",
                   {{"into", 1}, {"from", 7}, {"own_returned", 0}, {"foreign", 4},
                    {"exchanged", 1}, {"carry_after", 1}}}}));
}

TEST(Duovallis, DUO_2_CaptureWithoutExchangeCarriesStones) {
  Duovallis g = opening();
  ASSERT_TRUE(play(g, "1"));
  Events events;
  ASSERT_TRUE(play(g, "19", &events));
  EXPECT_EQ(g.position(), pos("0:5W 2:5W 3:5W 4:5W 6:1W1B 7:1B 8-10:4B 11:1W 12:1W1B 13:5W 15:5W "
                              "16:5W 17:1W 18:5B 20-23:4B",
                              1, 2));
  EXPECT_EQ(g.to_move(), 0);
  EXPECT_EQ(balance(g.state()), 80) << "75 + 3 + 2";
  const Json& turn = turn_event(events);
  EXPECT_EQ(turn["laps"], Json::array({lap(19, 0, 4, 7, {18, 12, 6, 7})}));
  EXPECT_EQ(turn["capture"], (Json{{"into", 7}, {"from", 1}, {"own_returned", 0}, {"foreign", 2},
                                   {"exchanged", 0}, {"carry_after", 2}}));
}

TEST(Duovallis, DUO_3_ForeignFirstLapFromNeutralHoleForeignMajorityStops) {
  Duovallis g = constructed("1:1W 2:1W 3:2W1B 5:1W 7:2B 9:1W1B 10:3B 11:1W2B 12:1B 13:2W 14:2B "
                            "15:1W 18:3B 19:1B 20:2B 21:1W2B 23:4B",
                            0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"3"}));
  Events events;
  ASSERT_TRUE(play(g, "3", &events));
  EXPECT_EQ(g.position(), pos("1:1W 2:1W 4:1B 5:2W 7:2B 9:1W1B 10:3B 12:1B 13:2W 14:1W2B 15:2W "
                              "16:1B 17:1B 18:3B 19:1B 20:2B 21:1W2B 23:4B"));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(legal_tokens(g), (Tokens{"18", "20", "21", "23"}));
  const Json& turn = turn_event(events);
  EXPECT_EQ(turn["laps"], Json::array({lap(3, 1, 2, 11, {4, 5, 11}), lap(11, 2, 2, 14, {17, 16, 15, 14})}));
  EXPECT_EQ(turn["end"], "foreign_majority");
  EXPECT_TRUE(turn["capture"].is_null());
}

TEST(Duovallis, DUO_4_FrontRowBecauseBackRowHasNoneExchangeUsesCarry) {
  Duovallis g = constructed("0:1W 2:1W2B 3:1B 4:1W 7:2B 8:1W1B 9:3B 14:2W1B 15:1W1B 16:1W 18:3B "
                            "19:1W4B 20:2B 21:1B 22:2B 23:2W2B",
                            0, 2, 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"14", "15"}));
  Events events;
  ASSERT_TRUE(play(g, "15", &events));
  EXPECT_EQ(g.position(), pos("0:1W 2:1W2B 3:1B 4:1W 7:2B 8:1W1B 9:3B 13:4W 14:2W2B 16:1W 18:3B "
                              "20:2B 21:1B 22:2B 23:2W2B"));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(g.state().exchanges, (std::array<std::int16_t, 2>{2, 0}));
  const Json& turn = turn_event(events);
  EXPECT_EQ(turn["laps"], Json::array({lap(15, 1, 1, 13, {14, 13})}));
  EXPECT_EQ(turn["capture"], (Json{{"into", 13}, {"from", 19}, {"own_returned", 1}, {"foreign", 4},
                                   {"exchanged", 2}, {"carry_after", 0}}));
}

const char* const kDuo5 =
    "0:1W 3:1W 6:1W1B 7:1B 8:1W 10:1B 13:1W 16:2W 18:1B 20:2B 21:2W1B 22:1B";

TEST(Duovallis, DUO_5_PlayerToMoveWithoutLegalMoveLoses) {
  Duovallis g = constructed(kDuo5, 0);
  EXPECT_EQ(legal_tokens(g), (Tokens{"16"}));
  Events events;
  ASSERT_TRUE(play(g, "16", &events));
  EXPECT_EQ(g.position(), pos("0:1W 3:1W 6:1W1B 7:1B 8:1W 10:1B 13:1W 14:1W 15:1W 18:1B 21:2W1B "
                              "22:1B",
                              2, 0));
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.to_move(), kNoSeat);
  EXPECT_TRUE(legal_tokens(g).empty());
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0]["capture"], (Json{{"into", 14}, {"from", 20}, {"own_returned", 0},
                                        {"foreign", 2}, {"exchanged", 0}, {"carry_after", 2}}));
  EXPECT_EQ(events[1]["event"], "game_end");
  const Json expected = {
      {"game", "duovallis"},
      {"options", {{"stall_limit", 200}, {"illegal_move_policy", "reject"}}},
      {"winner", 0},
      {"loser", 1},
      {"end_reason", "no_legal_move"},
      {"plies", 1},
      {"carry", {2, 0}},
      {"exchanges", {0, 0}},
      {"stones_on_board", {{"white", 9}, {"black", 6}}},
      {"final_board",
       {{"w", {1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 2, 0, 0}},
        {"b", {0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0}}}}};
  EXPECT_EQ(g.result(), expected);
  EXPECT_EQ(events[1]["result"], expected);
}

TEST(Duovallis, DUO_6_EmptyOwnHoleFacingNeutralHoleCapturesNothing) {
  Duovallis g = opening();
  Events events;
  ASSERT_TRUE(play(g, "0", &events));
  EXPECT_EQ(g.position(), pos("0:1W 1:5W 2:5W 3:5W 5:5W 6:1W 11:1W 12:1W 13:5W 14:5W 16:5W 17:1W "
                              "7-10:4B 18-23:4B"));
  EXPECT_EQ(g.to_move(), 1);
  const Json& turn = turn_event(events);
  EXPECT_EQ(turn["laps"], Json::array({lap(0, 0, 4, 4, {1, 2, 3, 4}),
                                       lap(4, 0, 5, 15, {5, 11, 17, 16, 15}),
                                       lap(15, 0, 5, 0, {14, 13, 12, 6, 0})}));
  EXPECT_EQ(turn["end"], "empty_own");
  EXPECT_TRUE(turn["capture"].is_null());
}

TEST(Duovallis, DUO_7_LastStoneIntoEmptyNeutralHole) {
  Duovallis g = opening();
  Events events;
  ASSERT_TRUE(play(g, "2", &events));
  EXPECT_EQ(g.position(), pos("0:4W 1:4W 3-5:5W 11:1W 13-16:4W 7-10:4B 18-23:4B"));
  EXPECT_EQ(g.to_move(), 1);
  EXPECT_EQ(turn_event(events)["end"], "empty_neutral");
  EXPECT_TRUE(turn_event(events)["capture"].is_null());
}

// ---- Further rules ---------------------------------------------------------------------------

TEST(Duovallis, VD_ORIGIN_FourteenStonesReachTheEmptiedOrigin) {
  // 14 stones from hole 0 go once round White's circuit; the last lands in the emptied origin,
  // which has no corresponding hole, so the turn ends there.
  Duovallis g = constructed("0:14W 7:2B 18:2B", 0);
  Events events;
  ASSERT_TRUE(play(g, "0", &events));
  EXPECT_EQ(g.position(), pos("0-6:1W 11-17:1W 7:2B 18:2B"));
  EXPECT_EQ(turn_event(events)["end"], "empty_own");
}

TEST(Duovallis, CaptureReturnsOwnStonesAndEmptyTargetCapturesNothing) {
  // Black's 3 stones from 22 end in empty 19; its counterpart 13 holds 2 White + 1 Black.
  Duovallis g = constructed("13:2W1B 22:3B 0:2W", 1);
  Events events;
  ASSERT_TRUE(play(g, "22", &events));
  EXPECT_EQ(g.position(), pos("0:2W 19:2B 20:1B 21:1B", 0, 2));
  EXPECT_EQ(turn_event(events)["capture"],
            (Json{{"into", 19}, {"from", 13}, {"own_returned", 1}, {"foreign", 2}, {"exchanged", 0},
                  {"carry_after", 2}}));
  // VD-CAPEMPTY: White's 2 stones from 2 end in empty hole 4, whose counterpart 10 is empty.
  Duovallis h = constructed("2:2W 22:2B", 0);
  events.clear();
  ASSERT_TRUE(play(h, "2", &events));
  EXPECT_EQ(h.position(), pos("3:1W 4:1W 22:2B"));
  EXPECT_EQ(turn_event(events)["end"], "empty_own");
  EXPECT_TRUE(turn_event(events)["capture"].is_null());
}

TEST(Duovallis, BoardAndScoresAreReadable) {
  Duovallis g = opening();
  play(g, "1");
  const Json board = g.board();
  ASSERT_EQ(board["white"].size(), 24u);
  ASSERT_EQ(board["black"].size(), 24u);
  EXPECT_EQ(board["white"][1], 2);
  EXPECT_EQ(board["black"][1], 0);
  EXPECT_EQ(board["carry"], Json::array({1, 0}));
  EXPECT_EQ(board["exchanges"], Json::array({1, 0}));
  EXPECT_FALSE(board.contains("holes")) << "the fixed layout is served once, not with every board";
  EXPECT_EQ(g.scores(), (Json{{"stones_on_board", {{"white", 41}, {"black", 36}}},
                              {"carry", {1, 0}},
                              {"exchanges", {1, 0}}}));
}

// The layout of §4.2 as /api/game-types serves it: where each hole lies, whose it is, and the
// circuits the client animates sowing along.
TEST(Duovallis, LayoutIsServedOnceWithTheGameType) {
  const Duovallis g = opening();
  const Json layout = json_tree([&](JsonWriter& out) { g.write_layout(out); });
  EXPECT_EQ(layout["rows"], 4);
  EXPECT_EQ(layout["columns"], 6);
  ASSERT_EQ(layout["holes"].size(), 24u);
  EXPECT_EQ(layout["holes"][1], (Json{{"hole", 1}, {"row", 0}, {"col", 1}, {"owner", 0}, {"kind", "back"}}));
  EXPECT_EQ(layout["holes"][6]["owner"], "neutral");
  EXPECT_EQ(layout["holes"][6]["kind"], "neutral");
  EXPECT_EQ(layout["holes"][8]["owner"], 1);
  EXPECT_EQ(layout["holes"][8]["kind"], "front");
  EXPECT_EQ(layout["holes"][13]["kind"], "front");
  EXPECT_EQ(layout["holes"][23]["kind"], "back");
  ASSERT_EQ(layout["circuits"].size(), 2u);
  for (Seat p = 0; p < 2; ++p) {
    const Json& circuit = layout["circuits"][static_cast<std::size_t>(p)];
    ASSERT_EQ(circuit.size(), 14u);
    for (std::size_t i = 0; i < circuit.size(); ++i)
      EXPECT_EQ(duovallis_next(p, circuit[i].get<int>()), circuit[(i + 1) % circuit.size()].get<int>());
  }
  const Json none = json_tree([](JsonWriter& out) {
    Match::create("cups", Json::object(), 1).game().write_layout(out);
  });
  EXPECT_TRUE(none.is_null()) << "games whose board says it all have no layout";
}

TEST(Duovallis, TokensAreHoleNumbers) {
  const Duovallis g = opening();
  for (int h = 0; h < kHoles; ++h) {
    EXPECT_EQ(g.parse_token(std::to_string(h)), static_cast<Decision>(h));
    EXPECT_EQ(g.token(static_cast<Decision>(h)), std::to_string(h));
  }
  for (const char* bad : {"24", "-1", "x", "01", "+1", "1x", "", " 1", "100000000000"})
    EXPECT_FALSE(g.parse_token(bad).has_value()) << bad;
}

// ---- Safeguards ------------------------------------------------------------------------------

// The boards at every pickup of a turn and the board after its last drop, rebuilt from the lap
// records alone, so the events are checked as a reader (the web client) would use them.
struct Replayed {
  Board board{};
  std::vector<std::pair<Board, int>> pickups;
  int end = -1;
};

Replayed replay_laps(const Board& start, Seat p, const Json& turn) {
  Replayed r{start, {}, turn["move"]["pit"].get<int>()};
  const Seat q = 1 - p;
  for (std::size_t i = 0; i < turn["laps"].size(); ++i) {
    const Json& l = turn["laps"][i];
    const int from = l["from"];
    const int foreign = l["foreign"], own = l["own"];
    EXPECT_EQ(from, r.end) << "each lap starts where the last one ended";
    if (i > 0) r.pickups.emplace_back(r.board, from);
    EXPECT_EQ(r.board[q][from], foreign);
    EXPECT_EQ(r.board[p][from], own);
    EXPECT_GE(own, 1) << "DV-7: foreign stones go first, so the last stone is the mover's colour";
    r.board[q][from] = r.board[p][from] = 0;
    EXPECT_EQ(l["holes"].size(), static_cast<std::size_t>(foreign + own));
    int hole = from;
    for (int k = 0; k < foreign + own; ++k) {
      const int next = l["holes"][static_cast<std::size_t>(k)];
      EXPECT_EQ(next, duovallis_next(p, hole)) << "sowing follows the mover's circuit";
      hole = next;
      ++r.board[k < foreign ? q : p][hole];
    }
    EXPECT_EQ(l["end"], hole);
    r.end = hole;
  }
  return r;
}

TEST(Duovallis, C5_LoopGuardEndsAnEndlessMoveAtTheFirstRepeatedPickup) {
  // Found by random search over sparse constructed positions: White's move 3 would cycle forever.
  const Position start = {0, 0, 0, 1, 0, 2, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0,
                          1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0,
                          0, 0};
  Duovallis g = Duovallis::from_position({}, start, 0);
  const Board before = g.state().stones;
  Events events;
  ASSERT_TRUE(play(g, "3", &events));
  const Json& turn = turn_event(events);
  EXPECT_EQ(turn["end"], "loop_guard");
  EXPECT_TRUE(turn["capture"].is_null());
  EXPECT_GT(turn["laps"].size(), 64u) << "long enough to exercise the guarded re-sowing";
  const Replayed r = replay_laps(before, 0, turn);
  EXPECT_EQ(g.state().stones, r.board) << "the position stays as after the last drop";
  const std::pair<Board, int> last{r.board, r.end};
  EXPECT_EQ(std::count(r.pickups.begin(), r.pickups.end(), last), 1) << "the pair was seen before";
  for (std::size_t i = 0; i < r.pickups.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      ASSERT_NE(r.pickups[i], r.pickups[j]) << "no earlier pickup repeated";
  EXPECT_EQ(g.state().since_capture, 1);
  EXPECT_EQ(g.state().to_move, 1);
  EXPECT_EQ(g.result()["end_reason"], "no_legal_move") << "play passed on; Black is then stuck";
  EXPECT_EQ(g.result()["loser"], 1);
}

// Plays the moves one ply at a time, checking that the game is still on before each.
void play_plies(Duovallis& g, const std::string& moves, Events* events) {
  std::istringstream words(moves);
  std::string word;
  while (words >> word) {
    ASSERT_EQ(g.phase(), Phase::play) << "before ply " << g.state().plies + 1;
    ASSERT_TRUE(play(g, word, events));
  }
}

TEST(Duovallis, C6_StallLimitDrawsAfterThatManyPliesWithoutCapture) {
  // Found by random search: 50 plies without a capture and without a threefold repetition.
  const Position start = {0, 0, 0, 0, 2, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                          0, 0};
  const std::string moves =
      "4 7 5 8 16 9 15 10 14 23 13 22 0 21 1 20 2 19 3 18 4 7 5 8 16 9 15 10 14 23 13 22 0 21 1 20 "
      "2 19 3 18 4 7 5 8 16 9 15 10 14 23";
  for (const int limit : {50, 51}) {
    Duovallis g = Duovallis::from_position({{"stall_limit", limit}}, start, 0);
    Events events;
    play_plies(g, moves, &events);
    EXPECT_EQ(g.state().plies, 50);
    for (const Json& e : events) {
      if (e["event"] == "turn") {
        EXPECT_TRUE(e["capture"].is_null());
      }
    }
    if (limit == 50) {
      EXPECT_EQ(g.phase(), Phase::over);
      const Json result = g.result();
      EXPECT_EQ(result["end_reason"], "stalled");
      EXPECT_TRUE(result["winner"].is_null());
      EXPECT_TRUE(result["loser"].is_null());
      EXPECT_EQ(events.back()["event"], "game_end");
    } else {
      EXPECT_EQ(g.phase(), Phase::play) << "one ply short of a limit of 51";
    }
  }
}

TEST(Duovallis, C6_ThirdOccurrenceOfAPositionIsADraw) {
  // Found by random search: the position (board, carries, mover) at the start of ply 42 is the
  // third occurrence of one seen at the start of plies 2 and 22.
  const Position start = {0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0,
                          0, 0};
  const std::string moves =
      "5 18 16 7 15 8 14 9 13 10 0 23 1 22 2 21 3 20 4 19 5 18 16 7 15 8 14 9 13 10 0 23 1 22 2 21 "
      "3 20 4 19 5";
  Duovallis g = Duovallis::from_position({}, start, 0);
  std::map<std::pair<Position, Seat>, int> seen;  // the test's own count of turn-start positions
  ++seen[{g.position(), g.to_move()}];
  std::istringstream words(moves);
  std::string word;
  int plies = 0;
  Events events;
  while (words >> word) {
    ASSERT_EQ(g.phase(), Phase::play) << "ply " << plies;
    ASSERT_TRUE(play(g, word, &events));
    ++plies;
    const int count = ++seen[{g.position(), g.state().to_move}];
    if (g.phase() == Phase::play) ASSERT_LT(count, 3) << "ply " << plies;
    else EXPECT_EQ(count, 3);
  }
  EXPECT_EQ(plies, 41);
  EXPECT_EQ(g.phase(), Phase::over);
  EXPECT_EQ(g.result()["end_reason"], "repetition");
  EXPECT_TRUE(g.result()["winner"].is_null());
  EXPECT_EQ(events.back()["result"]["end_reason"], "repetition");
}

// ---- §10 invariants over seeded random games ---------------------------------------------------

bool playable(const DuovallisState& s, Seat p, int h) {
  const HoleRole role = duovallis_role(h);
  const bool mine = p == 0 ? (role == HoleRole::white_back || role == HoleRole::white_front)
                           : (role == HoleRole::black_back || role == HoleRole::black_front);
  const int all = s.stones[0][h] + s.stones[1][h];
  return mine && all >= 2 && 2 * s.stones[p][h] >= all;
}

bool back_row(int h) {
  return duovallis_role(h) == HoleRole::white_back || duovallis_role(h) == HoleRole::black_back;
}

Seat owner_of(int h) {
  switch (duovallis_role(h)) {
    case HoleRole::white_back:
    case HoleRole::white_front: return 0;
    case HoleRole::black_back:
    case HoleRole::black_front: return 1;
    case HoleRole::neutral: break;
  }
  return kNoSeat;
}

// The legal list of §4.4, computed here independently of the engine.
Tokens expected_legal(const DuovallisState& s, Seat p) {
  Tokens back, front;
  for (int h = 0; h < kHoles; ++h)
    if (playable(s, p, h)) (back_row(h) ? back : front).push_back(std::to_string(h));
  return back.empty() ? front : back;
}

TEST(Duovallis, InvariantsHoldInThousandsOfRandomGames) {
  std::map<std::string, int> reasons;
  int wins[2] = {0, 0};
  int captures = 0, exchanges = 0, longest = 0;
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    Duovallis g = opening();
    Random rng(seed);
    while (g.phase() == Phase::play) {
      const DuovallisState before = g.state();
      const Seat p = before.to_move;
      const Seat q = 1 - p;
      const Tokens legal = legal_tokens(g);
      ASSERT_EQ(legal, expected_legal(before, p)) << "back row first, then front row, ascending";
      ASSERT_FALSE(legal.empty()) << "a player without a move has already lost";
      const std::string move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      ASSERT_NE(duovallis_role(std::stoi(move)), HoleRole::neutral);
      Events events;
      ASSERT_TRUE(play(g, move, &events));
      const DuovallisState& after = g.state();
      const Json& turn = turn_event(events);

      ASSERT_EQ(balance(after), 80) << "DV-8";
      for (Seat s = 0; s < 2; ++s) ASSERT_LE(after.carry[s], 2);
      ASSERT_EQ(after.carry[q], before.carry[q]) << "only the mover's carry changes";

      int emptied = 0;  // the opponent's holes never gain a stone; at most one is emptied
      for (int h = 0; h < kHoles; ++h) {
        if (owner_of(h) != q) continue;
        for (Seat c = 0; c < 2; ++c) ASSERT_LE(after.stones[c][h], before.stones[c][h]);
        if (after.stones[0][h] + after.stones[1][h] != before.stones[0][h] + before.stones[1][h]) {
          ASSERT_EQ(after.stones[0][h] + after.stones[1][h], 0);
          ++emptied;
        }
      }
      ASSERT_LE(emptied, 1);

      // The lap records rebuild the board; a capture record finishes it.
      Replayed r = replay_laps(before.stones, p, turn);
      if (!turn["capture"].is_null()) {
        const Json& c = turn["capture"];
        const int into = c["into"], from = c["from"];
        ASSERT_EQ(into, r.end);
        ASSERT_EQ(from, duovallis_corresponding(into));
        ASSERT_EQ(r.board[p][into] + r.board[q][into], 1) << "a capture needs an empty own hole";
        ASSERT_EQ(c["own_returned"], r.board[p][from]);
        ASSERT_EQ(c["foreign"], r.board[q][from]);
        ASSERT_EQ(c["exchanged"], (before.carry[p] + r.board[q][from]) / 3);
        ASSERT_EQ(c["carry_after"], after.carry[p]);
        r.board[p][into] = static_cast<std::uint8_t>(r.board[p][into] + r.board[p][from] +
                                                     c["exchanged"].get<int>());
        r.board[p][from] = r.board[q][from] = 0;
        ++captures;
        exchanges += c["exchanged"].get<int>();
        ASSERT_EQ(after.since_capture, 0);
      } else {
        ASSERT_EQ(after.since_capture, before.since_capture + 1);
      }
      ASSERT_EQ(after.stones, r.board) << "seed " << seed << " ply " << after.plies;
      ASSERT_LT(after.plies, 5000) << "every game ends";
    }
    const DuovallisState& end = g.state();
    const Json result = g.result();
    ++reasons[result["end_reason"].get<std::string>()];
    longest = std::max(longest, end.plies);
    if (result["end_reason"] == "no_legal_move") {
      // The game ends at the start of a turn, and the player to move is the loser.
      EXPECT_EQ(result["loser"], end.to_move);
      EXPECT_EQ(result["winner"], 1 - end.to_move);
      EXPECT_TRUE(expected_legal(end, end.to_move).empty());
      ++wins[1 - end.to_move];
    } else {
      EXPECT_TRUE(result["winner"].is_null());
    }
  }
  EXPECT_EQ(reasons["no_legal_move"], 3000) << "random games end by a loss, as the book found";
  EXPECT_GT(wins[0], 900);
  EXPECT_GT(wins[1], 900);
  EXPECT_GT(captures, 3000);
  EXPECT_GT(exchanges, 1000);
  EXPECT_LT(longest, 400);
}

TEST(Duovallis, InvariantsHoldFromSparseConstructedPositions) {
  // Few stones of both colours scattered anywhere: foreign stones in own holes from the start,
  // laps through neutral holes, foreign majorities.
  std::set<std::string> ends;
  for (std::uint64_t seed = 1; seed <= 5000; ++seed) {
    Random rng(seed);
    Position start(50, 0);
    const int stones = 4 + static_cast<int>(seed % 11);
    for (int i = 0; i < stones; ++i) {
      ++start[rng.below(24)];
      ++start[24 + rng.below(24)];
    }
    Duovallis g = Duovallis::from_position({{"stall_limit", 50}}, start, 0);
    const int total = balance(g.state());
    while (g.phase() == Phase::play) {
      const DuovallisState before = g.state();
      const Tokens legal = legal_tokens(g);
      ASSERT_EQ(legal, expected_legal(before, before.to_move));
      Events events;
      ASSERT_TRUE(play(g, legal[rng.below(static_cast<std::uint32_t>(legal.size()))], &events));
      const Json& turn = turn_event(events);
      ends.insert(turn["end"].get<std::string>());
      const Replayed r = replay_laps(before.stones, before.to_move, turn);
      if (turn["end"] == "loop_guard") {
        ASSERT_EQ(std::count(r.pickups.begin(), r.pickups.end(), std::make_pair(r.board, r.end)), 1);
      }
      ASSERT_EQ(balance(g.state()), total);
      ASSERT_LT(g.state().plies, 5000);
    }
  }
  for (const char* end : {"capture", "empty_own", "empty_neutral", "foreign_majority"})
    EXPECT_TRUE(ends.count(end)) << end;
}

// ---- Bad input through the generic layer -------------------------------------------------------

void expect_refused(Match& m, const std::string& move, const Tokens& legal) {
  const Json before = m.state();
  const Outcome o = m.play(move);
  ASSERT_FALSE(o.ok()) << move;
  EXPECT_EQ(o.error->code, ErrorCode::illegal_move) << move;
  EXPECT_EQ(o.error->token, move);
  EXPECT_EQ(o.error->legal, legal) << move;
  EXPECT_NE(o.error->message.find("'" + move + "'"), std::string::npos) << o.error->message;
  EXPECT_TRUE(o.events.empty());
  EXPECT_EQ(m.state(), before) << move;
}

TEST(Duovallis, BadInputIsRefusedAndChangesNothing) {
  Match m = Match::create("duovallis", {}, 1);
  const Tokens back_row = {"0", "1", "2", "3", "4", "5"};
  expect_refused(m, "6", back_row);   // a neutral hole
  expect_refused(m, "11", back_row);  // a neutral hole
  expect_refused(m, "18", back_row);  // the opponent's hole
  expect_refused(m, "7", back_row);   // the opponent's front row
  expect_refused(m, "13", back_row);  // own front row while the back row has a move
  for (const char* token : {"24", "-1", "x", "01"}) expect_refused(m, token, back_row);
  const Json before = m.state();
  const Outcome two_turns = m.play("1 18");  // clarification 1: one turn per move
  ASSERT_FALSE(two_turns.ok());
  EXPECT_EQ(two_turns.error->token, "18");
  EXPECT_EQ(m.state(), before);
  EXPECT_EQ(m.play(1, "18").error->code, ErrorCode::not_your_turn);
  EXPECT_EQ(m.play(" 1").error->code, ErrorCode::bad_request);
  EXPECT_EQ(m.special_action("concede", 0).error->code, ErrorCode::not_allowed);

  Match single = Match::from_game("duovallis", {}, constructed(kDuo5, 0).clone());
  expect_refused(single, "0", {"16"});  // a hole with one stone
  expect_refused(single, "3", {"16"});
  ASSERT_TRUE(single.play("16").ok());
  EXPECT_TRUE(single.over());
  EXPECT_EQ(single.play("18").error->code, ErrorCode::game_over);
}

TEST(Duovallis, ForfeitPolicyLosesOnARuleViolationButNotOnABadToken) {
  const Json options = {{"illegal_move_policy", "forfeit"}};
  Match m = Match::create("duovallis", options, 1);
  const Outcome garbled = m.play("24");
  ASSERT_FALSE(garbled.ok()) << "a token outside 0..23 is refused without penalty";
  EXPECT_EQ(m.game().phase(), Phase::play);
  const Outcome neutral = m.play("6");
  ASSERT_TRUE(neutral.ok());
  const Json result = m.game().result();
  EXPECT_EQ(result["end_reason"], "illegal_move");
  EXPECT_EQ(result["loser"], 0);
  EXPECT_EQ(result["winner"], 1);
  EXPECT_EQ(result["plies"], 0);
  EXPECT_EQ(neutral.events.front()["event"], "illegal_move");
  EXPECT_EQ(neutral.events.back()["event"], "game_end");
}

TEST(Duovallis, ResignLosesAtOnce) {
  Match m = Match::create("duovallis", {}, 1);
  ASSERT_TRUE(m.play("1").ok());
  ASSERT_TRUE(m.resign(0).ok()) << "either seat may resign, not only the one to move";
  EXPECT_EQ(m.game().result()["end_reason"], "resign");
  EXPECT_EQ(m.game().result()["winner"], 1);
  EXPECT_EQ(m.game().result()["plies"], 1);
  EXPECT_EQ(m.resign(1).error->code, ErrorCode::game_over);
}

TEST(Duovallis, RecordReplaysToTheSamePosition) {
  testing::expect_random_games_replay("duovallis", {}, 50);
}

}  // namespace
}  // namespace mancala
