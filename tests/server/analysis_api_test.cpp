// Game analysis over HTTP (issue 32): who may ask, caching, positions that line up with the
// history's, a restart during an analysis, imported records, record texts, what-if searches
// and the rate limits. The server searches with a small budget (--analysis-playouts).
#include <gtest/gtest.h>

#include <thread>

#include "table.hpp"

namespace mancala::testing {
namespace {

const std::vector<std::string> kSmallBudget = {"--analysis-playouts", "60"};
const char* const kStillPlaying = "this game is still being played; it can be analysed when it ends";

std::vector<std::pair<std::string, std::string>> bearer(const std::string& token) {
  return {{"Authorization", "Bearer " + token}};
}

HttpReply get(unsigned short port, const std::string& target, const std::string& token = "") {
  return http_call(port, "GET", target, Json(), token.empty() ? decltype(bearer(token)){} : bearer(token));
}

HttpReply post(unsigned short port, const std::string& target, const std::string& token = "") {
  return http_call(port, "POST", target, Json(), token.empty() ? decltype(bearer(token)){} : bearer(token));
}

// Checks what every answer must keep to: positions in order from 0, never done early.
void expect_consistent(const Json& analysis) {
  ASSERT_EQ(analysis["positions"].size(), analysis["done"].get<std::size_t>());
  for (std::size_t k = 0; k < analysis["positions"].size(); ++k)
    EXPECT_EQ(analysis["positions"][k]["index"], k);
  if (analysis["state"] == "done") {
    EXPECT_EQ(analysis["done"], analysis["total"]);
    EXPECT_TRUE(analysis["accuracy"].is_array());
  } else {
    EXPECT_TRUE(analysis["accuracy"].is_null()) << "no accuracy before the end";
  }
}

// Polls the analysis until it is done, checking each answer on the way.
Json wait_done(unsigned short port, const std::string& target, const std::string& token = "") {
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    const HttpReply reply = get(port, target, token);
    EXPECT_EQ(reply.status, 200) << reply.text;
    expect_consistent(reply.body);
    if (reply.body["state"] != "queued" && reply.body["state"] != "running") return reply.body;
    std::this_thread::sleep_for(20ms);
  }
  ADD_FAILURE() << "the analysis did not finish in time";
  return Json();
}

struct FinishedGame {
  Table table;
  std::string token;  // seat 0's
};

FinishedGame finished_game(unsigned short port, std::uint64_t seed = 31) {
  FinishedGame out{open_table(port, "cups", Json::object(), 2), ""};
  play_to_end(out.table, seed);
  out.token = out.table.tokens[0];
  return out;
}

TEST(Analysis, OnlyThoseWhoMaySeeAFinishedGame) {
  ServerProcess server(":memory:", kSmallBudget);
  const FinishedGame game = finished_game(server.port());
  const std::string target = "/api/games/" + game.table.room + "/analysis";
  EXPECT_EQ(post(server.port(), target).status, 404) << "a private game of others";
  EXPECT_EQ(get(server.port(), target).status, 404);
  EXPECT_EQ(get(server.port(), "/api/games/nope/analysis").status, 404);

  // A public game in play: neither its players nor a spectator get analysis.
  Client ada(server.port());
  const std::string ada_token = ada.hello("Ada")["token"];
  Client bob(server.port());
  bob.hello("Bob");
  const std::string room = ada.request({{"type", "create_room"}, {"game", "cups"}})["room"]["id"];
  ASSERT_EQ(bob.request({{"type", "join_room"}, {"room", room}})["room"]["status"], "playing");
  for (const std::string& token : {ada_token, std::string()}) {
    const HttpReply refused = post(server.port(), "/api/games/" + room + "/analysis", token);
    EXPECT_EQ(refused.status, 409);
    EXPECT_EQ(refused.body["error"], kStillPlaying);
    EXPECT_EQ(get(server.port(), "/api/games/" + room + "/analysis", token).status, 409);
  }
  const HttpReply whatif = http_call(server.port(), "POST", "/api/whatif",
                                     Json{{"game_id", room}, {"at", 0}, {"moves", Json::array()}}, bearer(ada_token));
  EXPECT_EQ(whatif.status, 409) << "no what-if during play either";

  const HttpReply forged = http_call(server.port(), "POST", target, Json(),
                                     {{"Authorization", "Bearer " + game.token}, {"Origin", "https://evil.example"}});
  EXPECT_EQ(forged.status, 403) << forged.text;
}

TEST(Analysis, PositionsLineUpWithTheHistoryAndAreComputedOnce) {
  ServerProcess server(":memory:", kSmallBudget);
  const FinishedGame game = finished_game(server.port());
  const std::string target = "/api/games/" + game.table.room + "/analysis";
  EXPECT_EQ(get(server.port(), target, game.token).body["state"], "none");
  const HttpReply started = post(server.port(), target, game.token);
  ASSERT_TRUE(started.status == 202 || started.status == 200) << started.text;
  EXPECT_EQ(started.body["thresholds"], (Json{{"inaccuracy", 0.1}, {"mistake", 0.2}, {"blunder", 0.3}}));
  const Json done = wait_done(server.port(), target, game.token);
  ASSERT_EQ(done["state"], "done");

  const Json states = get(server.port(), "/api/games/" + game.table.room + "/positions", game.token).body["states"];
  const Json& positions = done["positions"];
  ASSERT_EQ(positions.size(), states.size()) << "one analysed position per state of the history";
  for (std::size_t k = 0; k < states.size(); ++k) {
    const Json& position = positions[k];
    EXPECT_EQ(position["to_move"], states[k]["phase"] == "play" ? states[k]["to_move"] : Json()) << k;
    EXPECT_EQ(position["eval"].size(), 2u);
    EXPECT_EQ(position["played"].is_null(), k + 1 == states.size()) << "every position but the last led on";
    if (position["mark"].is_string()) {
      EXPECT_GE(position["drop"].get<double>(), 0.1);
    }
  }
  EXPECT_TRUE(positions.back()["exact"]) << "the end is exact";
  ASSERT_EQ(done["accuracy"].size(), 2u);

  const HttpReply again = post(server.port(), target, game.token);
  EXPECT_EQ(again.status, 200) << "already done: at once";
  EXPECT_EQ(again.body, done) << "the same figures";
}

TEST(Analysis, ARestartDuringAnAnalysisResumesItWithoutRepeatingOrFinishingEarly) {
  TempDir dir;
  const std::string db = dir.file("analysis.db");
  const std::vector<std::string> slow = {"--analysis-playouts", "4000"};
  auto server = std::make_unique<ServerProcess>(db, slow);
  const FinishedGame game = finished_game(server->port());
  const std::string target = "/api/games/" + game.table.room + "/analysis";
  ASSERT_EQ(post(server->port(), target, game.token).status, 202);
  Json before;
  for (int i = 0; i < 3000 && (before.is_null() || before["done"] < 3); ++i) {
    before = get(server->port(), target, game.token).body;
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GE(before["done"], 3) << before.dump();
  ASSERT_EQ(before["state"], "running");
  server->kill_hard();

  server = std::make_unique<ServerProcess>(db, slow);
  const Json after_restart = get(server->port(), target, game.token).body;
  expect_consistent(after_restart);
  EXPECT_GE(after_restart["done"], before["done"]) << "nothing acknowledged is lost";
  const Json done = wait_done(server->port(), target, game.token);
  ASSERT_EQ(done["state"], "done");
  for (std::size_t k = 0; k + 1 < before["positions"].size(); ++k)  // the last one's mark waited for the next
    EXPECT_EQ(done["positions"][k], before["positions"][k]) << "position " << k << " is the one stored before";
  EXPECT_EQ(done["positions"].size(), done["total"].get<std::size_t>());
}

TEST(Records, ParseErrorsNameTheLineAndColumn) {
  ServerProcess server(":memory:", kSmallBudget);
  const HttpReply bad = http_text(server.port(), "POST", "/api/records", "[Game \"cups\"]\n\n1. S0 c9\n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_TRUE(bad.body["error"].get<std::string>().starts_with("line 3, column ")) << bad.text;
  const HttpReply unknown = http_text(server.port(), "POST", "/api/records", "[Game \"chess\"]\n");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_TRUE(unknown.body["error"].get<std::string>().starts_with("line 1, column ")) << unknown.text;
  // Bytes that are not UTF-8 are the text's fault too, not the server's (once a 500).
  const HttpReply not_utf8 = http_text(server.port(), "POST", "/api/records", "[Game \"cups\"]\n[Options \"\xff\"]\n");
  EXPECT_EQ(not_utf8.status, 400) << not_utf8.text;
  EXPECT_EQ(not_utf8.body["error"], "line 2, column 11: the text is not UTF-8 here (byte 0xFF); save the file as UTF-8 and try again");
}

TEST(Records, ADownloadedTextImportsToTheSameStatesAndAnalysesByItsKey) {
  ServerProcess server(":memory:", kSmallBudget);
  const FinishedGame game = finished_game(server.port());
  const HttpReply text = get(server.port(), "/api/games/" + game.table.room + "/record.txt", game.token);
  ASSERT_EQ(text.status, 200);
  EXPECT_EQ(text.content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(text.content_disposition, "attachment; filename=\"mancala-cups-" + game.table.room + ".txt\"");
  EXPECT_EQ(get(server.port(), "/api/games/" + game.table.room + "/record.txt").status, 404) << "same rights";

  const HttpReply imported = http_text(server.port(), "POST", "/api/records", text.text);
  ASSERT_EQ(imported.status, 200) << imported.text;
  Json states = get(server.port(), "/api/games/" + game.table.room + "/positions", game.token).body["states"];
  for (auto& state : states) state.erase("clock");  // the server's clock, not the game's
  EXPECT_EQ(imported.body["states"], states);
  EXPECT_EQ(imported.body["record"]["result"], game.table.state["result"]);
  EXPECT_EQ(imported.body["record"]["status"], "finished");
  EXPECT_EQ(imported.body["record"]["players"][1]["name"], "Seat 1") << "from the Seat tags";
  EXPECT_TRUE(imported.body["record"]["id"].is_null()) << "not a stored game";
  const std::string key = imported.body["key"];
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records", imported.body["text"]).body["key"], key)
      << "the canonical text is its own canonical text";

  const std::string target = "/api/records/" + key + "/analysis";
  EXPECT_EQ(get(server.port(), target).body["state"], "none");
  const std::string other(64, 'a');
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records/" + other + "/analysis", text.text).status, 400)
      << "the text must be the key's";
  const HttpReply started = http_text(server.port(), "POST", target, text.text);
  ASSERT_TRUE(started.status == 202 || started.status == 200) << started.text;
  const Json done = wait_done(server.port(), target);
  EXPECT_EQ(done["positions"].size(), states.size());

  // Once the game's own analysis is done, its text carries the marks.
  post(server.port(), "/api/games/" + game.table.room + "/analysis", game.token);
  const Json analysed = wait_done(server.port(), "/api/games/" + game.table.room + "/analysis", game.token);
  const std::string marked = get(server.port(), "/api/games/" + game.table.room + "/record.txt", game.token).text;
  for (const Json& position : analysed["positions"])
    if (position["mark"].is_string()) {
      EXPECT_NE(marked.find("best: " + position["best"].get<std::string>()), std::string::npos);
    }
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records", marked).body["states"], states) << "marks change no state";
}

TEST(WhatIf, LegalAndIllegalMovesAndNothingStored) {
  ServerProcess server(":memory:", kSmallBudget);
  const FinishedGame game = finished_game(server.port());
  const std::string record_target = "/api/games/" + game.table.room;
  const Json before = get(server.port(), record_target, game.token).body;
  const Json states = get(server.port(), record_target + "/positions", game.token).body["states"];
  const std::string first = states[2]["legal"][0];

  const HttpReply answer = http_call(server.port(), "POST", "/api/whatif",
                                     Json{{"game_id", game.table.room}, {"at", 2}, {"moves", {first}}},
                                     bearer(game.token));
  ASSERT_EQ(answer.status, 200) << answer.text;
  EXPECT_EQ(answer.body["state"]["to_move"], answer.body["analysis"]["to_move"]);
  EXPECT_EQ(answer.body["analysis"]["eval"].size(), 2u);
  EXPECT_TRUE(answer.body["analysis"]["best"].is_string());

  const HttpReply illegal = http_call(server.port(), "POST", "/api/whatif",
                                      Json{{"game_id", game.table.room}, {"at", 2}, {"moves", {first, "c9"}}},
                                      bearer(game.token));
  EXPECT_EQ(illegal.status, 400);
  EXPECT_TRUE(illegal.body["error"].get<std::string>().starts_with("move 2 ('c9'): ")) << illegal.text;
  EXPECT_EQ(http_call(server.port(), "POST", "/api/whatif", Json{{"game_id", game.table.room}, {"at", 9999}},
                      bearer(game.token)).status, 400);
  EXPECT_EQ(http_call(server.port(), "POST", "/api/whatif", Json{{"game_id", game.table.room}, {"at", 0}}).status,
            404) << "same rights as the game";

  const std::string text = get(server.port(), record_target + "/record.txt", game.token).text;
  const HttpReply from_text = http_call(server.port(), "POST", "/api/whatif",
                                        Json{{"record", text}, {"at", 2}, {"moves", {first}}});
  ASSERT_EQ(from_text.status, 200) << from_text.text;
  EXPECT_EQ(from_text.body, answer.body) << "the same position from the stored game and from its text";

  EXPECT_EQ(get(server.port(), record_target, game.token).body, before) << "the stored game is unchanged";
  EXPECT_EQ(get(server.port(), record_target + "/analysis", game.token).body["state"], "none");
}

TEST(Records, ImportsAreRateLimitedPerAddress) {
  ServerProcess server(":memory:", kSmallBudget);
  int status = 0;
  HttpReply last;
  for (int i = 0; i < 61 && status != 429; ++i) {
    last = http_text(server.port(), "POST", "/api/records", "[Game \"cups\"]\n");
    status = last.status;
  }
  EXPECT_EQ(status, 429);
  EXPECT_TRUE(last.body["error"].get<std::string>().starts_with("too many record imports; try again in ")) << last.text;
  EXPECT_FALSE(last.retry_after.empty());
}

}  // namespace
}  // namespace mancala::testing
