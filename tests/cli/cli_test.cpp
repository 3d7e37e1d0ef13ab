// `mancala` end to end: the real executable, its output parsed as JSON.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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
  const std::string in_path = ::testing::TempDir() + "mancala_cli_input.txt";
  std::ofstream(in_path) << input;
  const std::string command = std::string(MANCALA_CLI) + " " + args + " < " + in_path + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  CliRun result{0, {}, {}};
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) result.raw += buffer;
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::istringstream lines(result.raw);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] == '{') result.lines.push_back(Json::parse(line));
    else if (!line.empty() && line[0] == '[') result.lines.push_back(Json::parse(line));
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

}  // namespace
