// `mancala` end to end: the real executable, its output parsed as JSON.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using Json = nlohmann::json;

struct CliRun {
  int status;
  std::vector<Json> lines;
  std::string raw;
};

// Runs `mancala <args>` with `input` on standard input.
CliRun run(const std::string& args, const std::string& input = "") {
  // One file per test process: CTest runs the tests of this file side by side.
  const std::string in_path = ::testing::TempDir() + "mancala_cli_input_" + std::to_string(getpid()) + ".txt";
  std::ofstream(in_path) << input;
  const std::string command = std::string(MANCALA_CLI) + " " + args + " < " + in_path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  CliRun result{0, {}, {}};
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) result.raw += buffer;
  const int status = pclose(pipe);
  std::remove(in_path.c_str());
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream lines(result.raw);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && (line[0] == '{' || line[0] == '[') && Json::accept(line))  // not a text record's [Tag "…"]
      result.lines.push_back(Json::parse(line));
  return result;
}

TEST(Cli, ReplayPlaysCupsByTheBook) {
  // CUPS-1 from the command line, then a refused move, then a resignation.
  const CliRun r = run("replay cups", "r4\nr3\nc4\nc2\nresign 0\nr1\n");
  ASSERT_EQ(r.lines.size(), 7u) << r.raw;
  EXPECT_EQ(r.status, 1) << "a failed line makes the exit status 1";
  const Json& opening = r.lines[0];
  EXPECT_EQ(opening["ok"], true);
  EXPECT_EQ(opening["position"], Json::parse("[0,0,0,0,0,40,0,0,0,0,0,40]"));
  EXPECT_EQ(opening["to_move"], 0);
  EXPECT_EQ(opening["phase"], "play");
  EXPECT_EQ(opening["round"], 1);
  EXPECT_EQ(opening["legal"], Json::parse(R"(["r1","r2","r3","r4"])"));
  EXPECT_TRUE(opening["result"].is_null());
  EXPECT_EQ(r.lines[3]["position"], Json::parse("[1,0,1,0,1,36,1,1,1,0,1,37]"));
  EXPECT_EQ(r.lines[3]["to_move"], 1);
  EXPECT_EQ(r.lines[4]["ok"], false);
  EXPECT_EQ(r.lines[4]["error"]["code"], "illegal_move");
  EXPECT_EQ(r.lines[4]["error"]["legal"], Json::parse(R"(["r1","r2","r3","r4"])"));
  EXPECT_EQ(r.lines[5]["phase"], "over");
  EXPECT_TRUE(r.lines[5]["to_move"].is_null());
  EXPECT_EQ(r.lines[5]["result"]["end_reason"], "resign");
  EXPECT_EQ(r.lines[5]["result"]["winner"], 1);
  EXPECT_EQ(r.lines[6]["error"]["code"], "game_over");
}

TEST(Cli, ReplayKeepsTheFirstLineShape) {
  const CliRun r = run("replay cups --options '{\"cups_per_side\":3}' --seed 5", "");
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.status, 0);
  std::vector<std::string> keys;
  for (const auto& [key, value] : r.lines[0].items()) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"legal", "ok", "phase", "position", "result", "round",
                                            "to_move"}));
}

TEST(Cli, BadUsageExitsTwoWithOneLine) {
  for (const char* args : {"replay chess", "replay cups --options '{\"pits\":1}'", "frobnicate",
                           "replay cups --options '{oops'", "bench --seconds x"}) {
    const CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.raw.begin(), r.raw.end(), '\n'), 1) << args << ": " << r.raw;
  }
  EXPECT_EQ(run("--help").status, 0);
}

TEST(Cli, GamesListsEveryGameWithItsOptions) {
  const CliRun r = run("games");
  ASSERT_EQ(r.lines.size(), 1u);
  const Json& games = r.lines[0];
  ASSERT_TRUE(games.is_array());
  EXPECT_EQ(games[0]["id"], "cups");
  EXPECT_EQ(games[0]["options"]["cups_per_side"]["default"], 4);
  EXPECT_EQ(games[0]["options"]["cups_per_side"]["min"], 3);
  EXPECT_EQ(games[0]["options"]["cups_per_side"]["max"], 10);
}

TEST(Cli, RandomPrintsRecordsThatEndTheGame) {
  const CliRun r = run("random cups --games 3 --seed 9");
  ASSERT_EQ(r.lines.size(), 3u);
  for (const Json& record : r.lines) {
    EXPECT_EQ(record["game"], "cups");
    EXPECT_FALSE(record["turns"].empty());
    EXPECT_EQ(record["result"]["end_reason"], "no_moves");
  }
  EXPECT_EQ(run("random cups --games 3 --seed 9").raw, r.raw) << "seeded runs repeat";
}

TEST(Cli, BenchPrintsFiguresAndTheKernelRatio) {
  const CliRun r = run("bench cups --seconds 0.2");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  EXPECT_GT(r.lines[0]["decisions_per_second"].get<double>(), 0);
  EXPECT_GT(r.lines[0]["ratio_engine_to_kernel"].get<double>(), 0);
}

// The fixed-work signature (Stockfish's bench node count): a change to any game's rules or to
// the search moves it, and then this number is updated in the same commit, saying why. A
// change that should touch neither (a refactor, a speed-up) must leave it.
TEST(Cli, BenchSignatureIsPinned) {
  const CliRun r = run("bench --signature");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.lines[0]["signature"].get<std::uint64_t>(), 10786145837533824176ULL) << r.raw;
  EXPECT_EQ(r.lines[0]["positions"], 96) << "12 choices in each of the 8 variants";
  EXPECT_GT(r.lines[0]["playouts_per_second"].get<double>(), 0);
  EXPECT_EQ(run("bench cups --signature").status, 2) << "the signature plays every game";
}

TEST(Cli, BotChoosesAFullTurnForThePlayerToMove) {
  // Coin Duel stage 3: one choice is a source, directions and coins; replayed, it ends the turn.
  const CliRun r = run("bot coin_duel --level 3 --seed 4", "");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  EXPECT_EQ(r.status, 0);
  const Json& choice = r.lines[0];
  EXPECT_EQ(choice["level"], 3);
  EXPECT_GT(choice["playouts"].get<long long>(), 0);
  EXPECT_GE(choice["think_ms"].get<double>(), 0);
  const CliRun replay = run("replay coin_duel", choice["tokens"].get<std::string>() + "\n");
  ASSERT_EQ(replay.lines.size(), 2u) << replay.raw;
  EXPECT_EQ(replay.lines[1]["ok"], true) << replay.raw;
  EXPECT_EQ(replay.lines[1]["to_move"], 1) << "the choice finished South's turn";
  const CliRun again = run("bot coin_duel --level 3 --seed 4", "");
  ASSERT_EQ(again.lines.size(), 1u);
  EXPECT_EQ(again.lines[0]["tokens"], choice["tokens"]) << "seeded choices repeat";
  EXPECT_EQ(again.lines[0]["playouts"], choice["playouts"]);
}

TEST(Cli, BotReadsTheMovesSoFar) {
  const CliRun r = run("bot cups --level 2", "r4\nr3\n");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  const std::string tokens = r.lines[0]["tokens"];
  const CliRun replay = run("replay cups", "r4\nr3\n" + tokens + "\n");
  EXPECT_EQ(replay.status, 0) << tokens << " is legal for South";
  const CliRun illegal = run("bot cups --level 2", "c9\n");
  EXPECT_EQ(illegal.status, 1);
  EXPECT_EQ(illegal.lines.back()["ok"], false);
  const CliRun over = run("bot cups --level 1", "resign 0\n");
  EXPECT_EQ(over.status, 1);
  EXPECT_EQ(over.lines.back()["error"]["code"], "game_over");
}

TEST(Cli, ArenaReportsScoreRateAndThinkTimes) {
  const CliRun r = run("arena cups --a 2 --b 1 --games 6 --seed 3");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  const Json& line = r.lines[0];
  EXPECT_EQ(line["games"], 6);
  EXPECT_EQ(line["wins"].get<int>() + line["losses"].get<int>() + line["draws"].get<int>(), 6);
  const double rate = line["score_rate"];
  EXPECT_GE(rate, line["interval95"][0].get<double>());
  EXPECT_LE(rate, line["interval95"][1].get<double>());
  EXPECT_TRUE(line["think_ms"].contains("a"));
  EXPECT_TRUE(line["think_ms"].contains("b"));
  const CliRun again = run("arena cups --a 2 --b 1 --games 6 --seed 3");
  ASSERT_EQ(again.lines.size(), 1u);
  for (const char* key : {"wins", "losses", "draws", "score_rate", "interval95"})
    EXPECT_EQ(again.lines[0][key], line[key]) << key << ": seeded arenas repeat";
  // Njaka of three: A in one seat, B in the two others; plain UCT on a clock.
  const CliRun njaka = run("arena njaka --a 3 --b uct --options '{\"players\":3}' --games 2 --think-ms 5");
  ASSERT_EQ(njaka.lines.size(), 1u) << njaka.raw;
  EXPECT_EQ(njaka.lines[0]["b"], "uct");
  // Simulations a move of each side, to compare their speed at equal time (none for levels 1-2).
  EXPECT_GT(njaka.lines[0]["playouts"]["a"].get<double>(), 0);
  EXPECT_GT(njaka.lines[0]["playouts"]["b"].get<double>(), 0);
  EXPECT_EQ(line["playouts"]["a"].get<double>(), 0);
}

TEST(Cli, ArenaGivesSideBItsOwnTime) {
  // A plays level 3's budget of 150 playouts a move, without a clock; B the same search on 50 ms
  // a move, which runs far more simulations than that.
  const CliRun r = run("arena cups --a 3 --b 3 --games 2 --seed 5 --think-ms-b 50");
  ASSERT_EQ(r.lines.size(), 1u) << r.raw;
  const Json& playouts = r.lines[0]["playouts"];
  EXPECT_LE(playouts["a"].get<double>(), 150) << r.raw;
  EXPECT_GT(playouts["b"].get<double>(), 150) << r.raw;
}

TEST(Cli, BotAndArenaRefuseBadUsage) {
  for (const char* args : {"bot cups", "bot cups --level 6", "bot cups --level x", "bot chess --level 1",
                           "arena cups --a 1", "arena cups --a 0 --b 1", "arena cups --a 1 --b 2 --games 0",
                           "bot cups --level 3 --think-ms 0", "bot --level 3", "arena chess --a 1 --b 2",
                           "arena cups --a 1 --b 2 --think-ms-b 0"}) {
    const CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.raw.begin(), r.raw.end(), '\n'), 1) << args << ": " << r.raw;
  }
}

TEST(Cli, RecordTextAndRecordJsonRoundTripRandomGames) {
  for (const char* game : {"cups", "njaka --options '{\"players\":3}'", "oanquan"}) {
    const CliRun random = run(std::string("random ") + game + " --seed 3");
    ASSERT_EQ(random.lines.size(), 1u) << random.raw;
    const CliRun text = run("record-text", random.raw);
    EXPECT_EQ(text.status, 0) << text.raw;
    EXPECT_TRUE(text.raw.starts_with("[Game \"")) << text.raw;
    EXPECT_NE(text.raw.find("\n\n1. S"), std::string::npos) << "tags, a blank line, then move 1: " << text.raw;
    const CliRun back = run("record-json", text.raw);
    EXPECT_EQ(back.status, 0) << back.raw;
    ASSERT_EQ(back.lines.size(), 1u) << back.raw;
    EXPECT_EQ(back.lines[0], random.lines[0]) << "the same record, result included";
  }
}

TEST(Cli, RecordJsonNamesTheLineAndColumnOfABadText) {
  const CliRun r = run("record-json", "[Game \"cups\"]\n1. r9\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.raw, "mancala: illegal_move: line 2, column 4: `r9` is not a legal move for seat 0: legal are r1 r2 r3 r4\n");
  const CliRun not_utf8 = run("record-json", "[Game \"cups\"]\n[Options \"\xff\"]\n");
  EXPECT_EQ(not_utf8.status, 1);
  EXPECT_EQ(not_utf8.raw, "mancala: bad_request: line 2, column 11: the text is not UTF-8 here (byte 0xFF); save the file as UTF-8 and try again\n");
  const CliRun not_json = run("record-text", "[Game \"cups\"]\n");
  EXPECT_EQ(not_json.status, 1);
  EXPECT_EQ(std::count(not_json.raw.begin(), not_json.raw.end(), '\n'), 1) << not_json.raw;
  EXPECT_TRUE(not_json.raw.starts_with("mancala: standard input is not a JSON game record")) << not_json.raw;
  const CliRun bad_move = run("record-text", R"({"game":"cups","turns":[{"seat":0,"tokens":"c1"}]})");
  EXPECT_EQ(bad_move.status, 1);
  EXPECT_NE(bad_move.raw.find("does not replay"), std::string::npos) << bad_move.raw;
}

TEST(Cli, RecordCommandsTakeNoArgumentsAndAreInTheHelp) {
  for (const char* args : {"record-text cups", "record-json --seed 1"}) {
    const CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.raw.begin(), r.raw.end(), '\n'), 1) << args << ": " << r.raw;
  }
  const CliRun help = run("--help");
  EXPECT_NE(help.raw.find("mancala record-text"), std::string::npos);
  EXPECT_NE(help.raw.find("mancala record-json"), std::string::npos);
}

// cli.md's line for each position: exactly these fields, in order of the plies.
void expect_analysis_line(const Json& line, std::size_t ply, std::size_t seats) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : line.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"best", "eval", "exact", "mark", "played", "ply", "to_move"}));
  EXPECT_EQ(line["ply"], ply);
  ASSERT_EQ(line["eval"].size(), seats) << line;
  double sum = 0;
  for (const Json& share : line["eval"]) sum += share.get<double>();
  EXPECT_NEAR(sum, 1.0, 1e-9) << line;
  EXPECT_TRUE(line["exact"].is_boolean());
  EXPECT_TRUE(line["mark"].is_null() || line["mark"] == "inaccuracy" || line["mark"] == "mistake" ||
              line["mark"] == "blunder")
      << line;
}

TEST(Cli, AnalysePrintsOneLinePerPositionReached) {
  const CliRun r = run("analyse cups --seed 4", "r4\nr3\nc4\nresign 1\n");
  EXPECT_EQ(r.status, 0) << r.raw;
  EXPECT_EQ(r.raw.rfind(R"({"ply":0,"to_move":0,"eval":[)", 0), 0u) << "the spec's order of fields: " << r.raw;
  ASSERT_EQ(r.lines.size(), 5u) << r.raw;
  for (std::size_t k = 0; k < r.lines.size(); ++k) expect_analysis_line(r.lines[k], k, 2);
  EXPECT_EQ(r.lines[0]["to_move"], 0);
  EXPECT_EQ(r.lines[0]["played"], "r4");
  EXPECT_EQ(r.lines[2]["played"], "c4");
  EXPECT_EQ(r.lines[3]["played"], "resign 1");
  EXPECT_TRUE(r.lines[3]["mark"].is_null()) << "resigning is not a move to mark";
  EXPECT_TRUE(r.lines[0]["best"].is_string());
  // After the resignation nobody moves: the outcome, exact, no best move, nothing played.
  const Json& end = r.lines[4];
  EXPECT_TRUE(end["to_move"].is_null());
  EXPECT_TRUE(end["best"].is_null());
  EXPECT_TRUE(end["played"].is_null());
  EXPECT_EQ(end["eval"], Json::parse("[1.0,0.0]"));
  EXPECT_EQ(end["exact"], true);
}

TEST(Cli, AnalyseRepeatsForASeedAndShowsWholeTurns) {
  const CliRun first = run("analyse oanquan --seed 2", "3 cw\n");
  const CliRun second = run("analyse oanquan --seed 2", "3 cw\n");
  EXPECT_EQ(first.status, 0) << first.raw;
  ASSERT_EQ(first.lines.size(), 2u) << first.raw;
  EXPECT_EQ(first.raw, second.raw);
  // An O An Quan turn is a square and a direction: the best move names both.
  const std::string best = first.lines[1]["best"];
  EXPECT_EQ(std::count(best.begin(), best.end(), ' '), 1) << best;
}

TEST(Cli, AnalyseRefusesGamesThatDoNotReplayAndBadUsage) {
  const CliRun illegal = run("analyse cups", "r4\nc9\n");
  EXPECT_EQ(illegal.status, 1);
  EXPECT_TRUE(illegal.lines.empty()) << illegal.raw;
  EXPECT_NE(illegal.raw.find("input line 2 'c9'"), std::string::npos) << illegal.raw;
  EXPECT_EQ(std::count(illegal.raw.begin(), illegal.raw.end(), '\n'), 1) << illegal.raw;
  for (const char* args : {"analyse", "analyse chess", "analyse cups --think-ms 0",
                           R"(analyse cups --options '{"cups_per_side":99}')", "analyse cups --depth 3"}) {
    const CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.raw;
    EXPECT_EQ(std::count(r.raw.begin(), r.raw.end(), '\n'), 1) << args << ": " << r.raw;
  }
}

}  // namespace
