// Game records as text (docs/records.md): every golden record round-trips through the text, hand
// written texts import with their comments, marks and assumed draws, and bad texts fail with the
// line, column and what was expected.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mancala/match.hpp"
#include "mancala/record_text.hpp"

namespace mancala {
namespace {

std::vector<Json> golden_lines() {
  std::vector<Json> out;
  for (const char* game : {"cups", "coin_duel", "oanquan", "njaka", "duovallis"}) {
    std::ifstream in(std::string(MANCALA_GOLDEN_DIR) + "/" + game + ".jsonl");
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(Json::parse(line));
  }
  return out;
}

// The first `count` legal moves of a new game, always the first legal token.
Match opening_moves(const char* game, const char* options, int count) {
  Match match = Match::create(game, Json::parse(options), 1);
  for (int i = 0; i < count; ++i) EXPECT_TRUE(match.play(match.legal_tokens().front()).ok());
  return match;
}

// The error a text fails with; fails the test when it imports.
RecordTextError import_error(const std::string& text) {
  try {
    record_from_text(text);
  } catch (const RecordTextError& e) {
    return e;
  }
  ADD_FAILURE() << "imported without an error:\n" << text;
  return RecordTextError(ErrorCode::bad_request, 0, 0, "");
}

TEST(RecordText, EveryGoldenRecordRoundTripsToTheSameRecordAndStates) {
  const auto lines = golden_lines();
  ASSERT_EQ(lines.size(), 51u);
  for (const Json& golden : lines) {
    const Json& record = golden["record"];
    const std::string text = record_to_text(record);
    const Json back = record_from_text(text);
    SCOPED_TRACE(text);
    EXPECT_EQ(back["game"], record["game"]);
    EXPECT_EQ(back["options"], record["options"]);
    EXPECT_EQ(back["draws"], record["draws"]);
    EXPECT_EQ(back["turns"], record["turns"]);
    EXPECT_EQ(back.value("result", Json()), golden["final_state"]["result"]) << "a result only once the game is over";
    EXPECT_EQ(Match::from_record(back).state(), golden["final_state"]);
    EXPECT_EQ(record_to_text(back), text) << "the text of an imported record is the text it came from";
  }
}

TEST(RecordText, ExportWritesTagsNumberedMovesAndForcedEvents) {
  Match match = Match::create("cups", Json::parse(R"({"cups_per_side":3})"), 1);
  for (const char* move : {"r3", "r2", "c3"}) ASSERT_TRUE(match.play(move).ok());
  ASSERT_TRUE(match.resign(1).ok());
  Json record = match.record();
  record["players"] = Json::parse(R"([{"seat":0,"name":"Ana \"the sower\""},{"seat":1,"name":"Bo"}])");
  record["started"] = "2026-11-20T18:04:11.250Z";
  EXPECT_EQ(record_to_text(record),
            "[Game \"cups\"]\n"
            "[Options \"cups_per_side=3\"]\n"
            "[Seat0 \"Ana \\\"the sower\\\"\"]\n"
            "[Seat1 \"Bo\"]\n"
            "[Date \"2026-11-20\"]\n"
            "[Result \"S0 wins (resign)\"]\n"
            "\n"
            "1. S0 r3 2. S1 r2 3. S0 c3 4. S1 resign <game_end>\n");
}

TEST(RecordText, NotesAddMarksAndCommentsToTheNumberedActions) {
  Json record = opening_moves("cups", "{}", 3).record();
  record["turns"][0]["comment"] = "the usual start";
  const std::string text = record_to_text(record, {{2, {MoveMark::mistake, "r1 keeps the reserve"}},
                                                   {3, {MoveMark::blunder, ""}}});
  EXPECT_NE(text.find("1. S0 r1 {the usual start} 2. S1 r1 ? {r1 keeps the reserve} 3. S0 r1 ??"),
            std::string::npos)
      << text;
  const Json back = record_from_text(text);
  EXPECT_EQ(back["turns"][0]["comment"], "the usual start");
  EXPECT_EQ(back["turns"][1]["mark"], "mistake");
  EXPECT_EQ(back["turns"][1]["comment"], "r1 keeps the reserve");
  EXPECT_EQ(back["turns"][2]["mark"], "blunder");
  EXPECT_FALSE(back["turns"][2].contains("comment"));
}

TEST(RecordText, TheTimeOfEachActionRoundTrips) {
  Match match = opening_moves("cups", "{}", 2);
  ASSERT_TRUE(match.resign(0).ok());
  Json record = match.record();
  record["turns"][0]["at"] = "2026-11-20T18:04:11.250Z";
  record["turns"][2]["at"] = "2026-11-20T18:05:02.003Z";  // the resignation
  const std::string text = record_to_text(record);
  EXPECT_NE(text.find("1. S0 r1 @2026-11-20T18:04:11.250Z 2. S1 r1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("3. S0 resign @2026-11-20T18:05:02.003Z"), std::string::npos) << text;
  EXPECT_EQ(record_from_text(text)["turns"], record["turns"]);
}

TEST(RecordText, ConcedeAndTimeoutAreNumberedActionsWithTheirSeat) {
  Match conceded = opening_moves("coin_duel", R"({"stage":3})", 2);
  ASSERT_TRUE(conceded.special_action("concede", 1).ok());
  Match timed_out = opening_moves("oanquan", "{}", 2);
  ASSERT_TRUE(timed_out.timeout(1).ok());
  for (const Match* match : {&conceded, &timed_out}) {
    const std::string text = record_to_text(match->record());
    EXPECT_NE(text.find(match == &conceded ? "3. S1 concede" : "3. S1 timeout"), std::string::npos) << text;
    const Json back = record_from_text(text);
    EXPECT_EQ(back["turns"], match->record()["turns"]);
    EXPECT_EQ(Match::from_record(back).state(), match->state());
  }
}

TEST(RecordText, PlexClaimsAndTimeoutsRoundTrip) {
  bool claimed = false, timed_out = false;
  for (const Json& golden : golden_lines()) {
    if (golden["record"]["game"] != "njaka") continue;
    const std::string text = record_to_text(golden["record"]);
    claimed = claimed || text.find(" plex ") != std::string::npos || text.find(" plex\n") != std::string::npos;
    timed_out = timed_out || text.find(". plex_timeout") != std::string::npos;
  }
  EXPECT_TRUE(claimed) << "the golden Njaka games claim Plex!";
  EXPECT_TRUE(timed_out) << "and let some windows run out";
}

TEST(RecordText, AHandWrittenGameImportsWithItsCommentsAndMarks) {
  const Json record = record_from_text(
      "[Game \"cups\"]\n"
      "[Seat0 \"Ana\"]  [Seat1 \"Bo\"]\n"
      "[Date \"2026-11-20\"]\n"
      "{played at the club}\n"
      "1. r4 {the book move} 2. r3?! 3. c4 ?? {gives away the cup}\n"
      "4. r1 5. S0 resign < game_end >\n");
  EXPECT_EQ(record["options"], Json::parse(R"({"cups_per_side":4,"first_player":0,"illegal_move_policy":"reject"})"))
      << "the defaults are filled in";
  EXPECT_EQ(record["draws"], Json::object());
  EXPECT_EQ(record["players"], Json::parse(R"([{"seat":0,"name":"Ana"},{"seat":1,"name":"Bo"}])"));
  EXPECT_EQ(record["date"], "2026-11-20");
  EXPECT_EQ(record["comment"], "played at the club");
  EXPECT_EQ(record["turns"][0], Json::parse(R"({"seat":0,"tokens":"r4","comment":"the book move"})"));
  EXPECT_EQ(record["turns"][1], Json::parse(R"({"seat":1,"tokens":"r3","mark":"inaccuracy"})"));
  EXPECT_EQ(record["turns"][2], Json::parse(R"({"seat":0,"tokens":"c4","mark":"blunder","comment":"gives away the cup"})"));
  EXPECT_EQ(record["turns"][4], Json::parse(R"({"event":"resign","player":0})"));
  EXPECT_EQ(record["result"]["winner"], 1);
  EXPECT_EQ(record["result"]["end_reason"], "resign");
}

TEST(RecordText, AMissingFirstPlayerDrawIsTheFirstMovesSeatOrSeatZero) {
  // Njaka draws its first player. Without a FirstPlayer tag the first move's seat says who it was…
  EXPECT_EQ(record_from_text("[Game \"njaka\"]\n1. S1 7 2. 5\n")["draws"], Json::parse(R"({"first_player":1})"));
  // …and a text that names no seat assumes seat 0.
  const Json assumed = record_from_text("[Game \"njaka\"]\n1. 0 2. 6\n");
  EXPECT_EQ(assumed["draws"], Json::parse(R"({"first_player":0})"));
  EXPECT_EQ(assumed["turns"][1]["seat"], 1);
  EXPECT_EQ(record_from_text("[Game \"njaka\"]\n[FirstPlayer \"S1\"]\n1. 7\n")["turns"][0]["seat"], 1);
  // A text with no move at all (found by fuzz_record: the look past the first move went past the end).
  EXPECT_EQ(record_from_text("[Game \"njaka\"] ")["draws"], Json::parse(R"({"first_player":0})"));
}

TEST(RecordText, AnUnfinishedGameImportsWithoutAResult) {
  const Json record = record_from_text("[Game \"oanquan\"]\n[Result \"*\"]\n1. 2 cw 2. 7\n");
  EXPECT_FALSE(record.contains("result"));
  EXPECT_EQ(Match::from_record(record).pending(), "7") << "the second move stopped in the middle of the turn";
}

struct BadText {
  const char* name;
  const char* text;
  ErrorCode code;
  int line;
  int column;
  const char* message;
};

TEST(RecordText, BadTextsNameTheLineColumnAndWhatWasExpected) {
  const BadText cases[] = {
      {"unknown game", "[Game \"chess\"]\n1. e4\n", ErrorCode::unknown_game, 1, 8,
       "unknown game 'chess' (games: cups, coin_duel, oanquan, njaka, duovallis)"},
      {"option out of range", "[Game \"cups\"]\n[Options \"cups_per_side=12\"]\n", ErrorCode::bad_option, 2, 11,
       "option 'cups_per_side' is 12; it must be an integer from 3 to 10"},
      {"unknown option", "[Game \"cups\"]\n[Options \"pits=4\"]\n", ErrorCode::bad_option, 2, 11,
       "unknown option 'pits' (this game has: cups_per_side, first_player, illegal_move_policy)"},
      {"option without a value", "[Game \"cups\"]\n[Options \"cups_per_side\"]\n", ErrorCode::bad_request, 2, 11,
       "expected name=value in Options, found `cups_per_side`"},
      {"illegal move", "[Game \"cups\"]\n1. r4\n2. r3 3. c4\n4. r9\n", ErrorCode::illegal_move, 4, 4,
       "`r9` is not a legal move for seat 1: legal are r1 r2 r3 r4"},
      {"not a token", "[Game \"cups\"]\n1. x1\n", ErrorCode::illegal_move, 2, 4,
       "`x1` is not a legal move for seat 0: legal are r1 r2 r3 r4"},
      {"wrong seat", "[Game \"cups\"]\n1. S1 r4\n", ErrorCode::not_your_turn, 2, 1,
       "move 1 does not play: seat 0 is to move, not seat 1"},
      {"unclosed comment", "[Game \"cups\"]\n1. r4 {a long\nthought\n", ErrorCode::bad_request, 2, 7,
       "the comment opened here is never closed: expected `}`"},
      {"move number with no move", "[Game \"cups\"]\n1. r4 2.", ErrorCode::bad_request, 2, 7,
       "expected the tokens of move 2, found the end of the text"},
      {"unclosed tag", "[Game \"cups\"\n1. r4\n", ErrorCode::bad_request, 2, 1, "expected `]` to close tag Game, found `1`"},
      {"unknown tag", "[Game \"cups\"]\n[Event \"club\"]\n", ErrorCode::bad_request, 2, 9,
       "unknown tag `Event`: the tags are Game, Options, Seat0 to Seat3, Date, FirstPlayer and Result"},
      {"no game tag", "1. r4\n", ErrorCode::bad_request, 1, 1,
       "expected a [Game \"…\"] tag naming the game (cups, coin_duel, oanquan, njaka, duovallis)"},
      {"a time after a mark", "[Game \"cups\"]\n1. r4 ?! @2026-11-20\n", ErrorCode::bad_request, 2, 10,
       "expected move number 2 (as in `2. r1`), found `@2026-11-20`"},
      {"skipped number", "[Game \"cups\"]\n1. r4 3. r3\n", ErrorCode::bad_request, 2, 7, "expected move number 2, found 3."},
      {"tokens without a number", "[Game \"cups\"]\nr4\n", ErrorCode::bad_request, 2, 1,
       "expected move number 1 (as in `1. r1`), found `r4`"},
      {"forced event that did not happen", "[Game \"cups\"]\n1. r4 <pass S1>\n", ErrorCode::bad_request, 2, 7,
       "`<pass S1>` does not happen here: after move 1 the engine records no forced event"},
      {"wrong result", "[Game \"cups\"]\n[Result \"S1 wins (resign)\"]\n1. r4 2. S1 resign\n", ErrorCode::bad_request, 2, 10,
       "the Result tag says \"S1 wins (resign)\" but the moves give \"S0 wins (resign)\""},
      {"a chess mark", "[Game \"cups\"]\n1. r4!\n", ErrorCode::bad_request, 2, 6,
       "`!` is not a mark: marks are ?! (inaccuracy), ? (mistake) and ?? (blunder)"},
      {"resign without a seat", "[Game \"cups\"]\n1. r4 2. resign\n", ErrorCode::bad_request, 2, 10,
       "`resign` needs the seat that did it, as in `2. S0 resign`"},
      {"first player out of range", "[Game \"njaka\"]\n{three seats}\n1. S2 7\n", ErrorCode::bad_request, 3, 4,
       "this game's seats are S0 to S1, not S2"},
      {"FirstPlayer out of range", "[Game \"njaka\"]\n[FirstPlayer \"S4\"]\n", ErrorCode::bad_request, 2, 15,
       "FirstPlayer is a seat from S0 to S1, not `S4`"},
      {"a tag that is not UTF-8", "[Game \"cups\"]\n[Options \"\xff\"]\n", ErrorCode::bad_request, 2, 11,
       "the text is not UTF-8 here (byte 0xFF); save the file as UTF-8 and try again"},
      {"a comment that is not UTF-8", "[Game \"cups\"]\n1. r4 {caf\xc3\n}\n", ErrorCode::bad_request, 2, 11,
       "the text is not UTF-8 here (byte 0xC3); save the file as UTF-8 and try again"},
      {"a first byte that is not UTF-8", "\x80[Game \"cups\"]\n", ErrorCode::bad_request, 1, 1,
       "the text is not UTF-8 here (byte 0x80); save the file as UTF-8 and try again"},
      {"a character of several bytes where a tag should close", "[Game \"njaka\"\xc3\x95]\n", ErrorCode::bad_request,
       1, 14, "expected `]` to close tag Game, found `\xc3\x95`"},
      {"a tag value escaping its line's end", "[Game \"cups\"]\n[Seat0 \"Ana\\\n\"]\n", ErrorCode::bad_request, 2, 13,
       "expected `\"` to close the value of tag Seat0, found `\n`"},
      {"draw of a fixed first player", "[Game \"cups\"]\n[FirstPlayer \"S1\"]\n", ErrorCode::bad_request, 2, 15,
       "FirstPlayer is the draw of option first_player=random, and this game's first player is set by option first_player=0"},
  };
  for (const BadText& c : cases) {
    SCOPED_TRACE(c.name);
    const RecordTextError error = import_error(c.text);
    EXPECT_EQ(error.code(), c.code);
    EXPECT_EQ(error.line(), c.line);
    EXPECT_EQ(error.column(), c.column);
    EXPECT_EQ(std::string(error.what()),
              "line " + std::to_string(c.line) + ", column " + std::to_string(c.column) + ": " + c.message);
  }
}

}  // namespace
}  // namespace mancala
