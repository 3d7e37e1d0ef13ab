// Game analysis over HTTP (issue 32): who may ask, caching, positions that line up with the
// history's, a restart during an analysis, imported records, record texts, what-if searches,
// the rate limits and the bounded queues (issue 46). The server searches with a small budget
// (--analysis-playouts).
#include <gtest/gtest.h>

#include <set>
#include <thread>

#include "mancala/action_line.hpp"
#include "mancala/match.hpp"
#include "mancala/record_text.hpp"
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

// A four-seat Njaka game played at random by the engine for at most `moves` decisions, as text:
// a long record of a few bytes a move, as issue 46's attacker sent. With seed 80 the game ends
// after 2,601 entries (28.8 KB), with seed 170 after 4,485 (50.4 KB).
const mancala::Json kLongNjaka{{"players", 4}, {"target", 5}, {"stall_limit", 2000}};
constexpr std::uint64_t kLongGame = 80;
constexpr std::uint64_t kTooLongGame = 170;

std::string njaka_record(std::size_t moves, std::uint64_t seed = kLongGame) {
  Match match = Match::create("njaka", kLongNjaka, seed);
  Random rng(seed);
  for (std::size_t played = 0; !match.over() && played < moves; ++played) {
    if (match.claim_window()) {
      match.close_claim_window();
      continue;
    }
    const auto legal = match.legal_tokens();
    match.play(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
  }
  return record_to_text(match.record());
}

// Every state of an imported record, a page at a time from its /positions, each page's answer
// within what issue 46 allows (ten times the request plus 64 KiB).
Json all_positions(unsigned short port, const std::string& key, const std::string& text) {
  Json states = Json::array();
  for (Json next = 0; !next.is_null();) {
    const HttpReply page = http_text(port, "POST", "/api/records/" + key + "/positions?from=" + next.dump(), text);
    EXPECT_EQ(page.status, 200) << page.text;
    if (page.status != 200) break;
    EXPECT_LE(page.text.size(), 10 * text.size() + 64 * 1024);
    EXPECT_EQ(page.body["from"], next);
    for (const Json& state : page.body["states"]) states.push_back(state);
    next = page.body["next"];
  }
  return states;
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
  Json analysis;
  wait_until(
      [&] {
        const HttpReply reply = get(port, target, token);
        EXPECT_EQ(reply.status, 200) << reply.text;
        expect_consistent(reply.body);
        analysis = reply.body;
        return analysis["state"] != "queued" && analysis["state"] != "running";
      },
      60s, "the analysis to finish", 20ms);
  return analysis;
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
    EXPECT_EQ(refused.body["error"]["message"], kStillPlaying);
    EXPECT_EQ(refused.body["error"]["code"], "still_playing");
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
  wait_until(
      [&] {
        before = get(server->port(), target, game.token).body;
        return before["done"] >= 3;
      },
      30s, "three positions of the analysis done");
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
  EXPECT_TRUE(bad.body["error"]["message"].get<std::string>().starts_with("line 3, column ")) << bad.text;
  EXPECT_EQ(bad.body["error"]["code"], "bad_record");
  const HttpReply unknown = http_text(server.port(), "POST", "/api/records", "[Game \"chess\"]\n");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_TRUE(unknown.body["error"]["message"].get<std::string>().starts_with("line 1, column ")) << unknown.text;
  // Bytes that are not UTF-8 are the text's fault too, not the server's (once a 500).
  const HttpReply not_utf8 = http_text(server.port(), "POST", "/api/records", "[Game \"cups\"]\n[Options \"\xff\"]\n");
  EXPECT_EQ(not_utf8.status, 400) << not_utf8.text;
  EXPECT_EQ(not_utf8.body["error"]["message"], "line 2, column 11: the text is not UTF-8 here (byte 0xFF); save the file as UTF-8 and try again");
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
  EXPECT_FALSE(imported.body.contains("states")) << "positions come from /positions";
  EXPECT_EQ(imported.body["positions"], states.size());
  EXPECT_EQ(all_positions(server.port(), imported.body["key"], text.text), states);
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
  const HttpReply reimported = http_text(server.port(), "POST", "/api/records", marked);
  EXPECT_EQ(all_positions(server.port(), reimported.body["key"], marked), states) << "marks change no state";
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
  EXPECT_TRUE(illegal.body["error"]["message"].get<std::string>().starts_with("move 2 ('c9'): ")) << illegal.text;
  EXPECT_EQ(illegal.body["error"]["code"], "illegal_move");
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
  EXPECT_TRUE(last.body["error"]["message"].get<std::string>().starts_with("too many record imports; try again in ")) << last.text;
  EXPECT_EQ(last.body["error"]["code"], "rate_limited");
  EXPECT_FALSE(last.retry_after.empty());
}

// Issue 46, 2: a wrong key is counted before its text is read, so that a long record sent again
// and again costs the asker his limit, not the server a replay each time.
TEST(Records, WrongKeyAnalysesAreCountedBeforeTheTextIsRead) {
  ServerProcess server(":memory:", kSmallBudget);
  const std::string text = njaka_record(100'000);
  const std::string wrong(64, 'b');
  std::vector<int> statuses;
  for (int i = 0; i < 12; ++i)
    statuses.push_back(http_text(server.port(), "POST", "/api/records/" + wrong + "/analysis", text).status);
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 400), 10) << "the limit: 10 record analyses";
  EXPECT_EQ(statuses[10], 429);
  EXPECT_EQ(statuses[11], 429);
  // Refused before reading: even a text that is no record at all is 429 now, not 400.
  const HttpReply refused = http_text(server.port(), "POST", "/api/records/" + wrong + "/analysis", "not a record");
  EXPECT_EQ(refused.status, 429) << refused.text;
  EXPECT_FALSE(refused.retry_after.empty());
}

// Issue 46, 3: an import answers the record, not every state (22.7 KB answered 35 MB), and its
// states come in pages that stay as small.
TEST(Records, AnImportAnswersItsRecordAndItsPositionsComeInPages) {
  ServerProcess server(":memory:", kSmallBudget);
  const std::string text = njaka_record(100'000);
  ASSERT_GT(text.size(), 22'000u);
  const HttpReply imported = http_text(server.port(), "POST", "/api/records", text);
  ASSERT_EQ(imported.status, 200) << imported.text.substr(0, 300);
  EXPECT_LE(imported.text.size(), 10 * text.size() + 64 * 1024) << "an answer within ten times its request + 64 KiB";
  EXPECT_FALSE(imported.body.contains("states"));
  const std::string key = imported.body["key"];
  const std::string canonical = imported.body["text"];

  // The engine's own states of the record, to hold the pages against.
  const mancala::Json record = mancala::Json::parse(imported.body["record"].dump());
  std::vector<mancala::Json> engine_states;
  Match replay = record_opening(record);
  engine_states.push_back(replay.state());
  replay_record_actions(replay, record, [&](const Match& after, const std::string&) {
    engine_states.push_back(after.state());
  });
  ASSERT_EQ(imported.body["positions"], engine_states.size());
  const auto expected_at = [&](std::size_t index) { return Json::parse(engine_states.at(index).dump()); };
  const std::size_t total = engine_states.size();

  // A page from the start, one from the middle, the last one: each as long as its answer may be.
  for (const std::size_t from : {std::size_t{0}, total / 2, total - 1}) {
    const HttpReply page =
        http_text(server.port(), "POST", "/api/records/" + key + "/positions?from=" + std::to_string(from), canonical);
    ASSERT_EQ(page.status, 200) << page.text.substr(0, 300);
    EXPECT_LE(page.text.size(), 10 * canonical.size() + 64 * 1024);
    EXPECT_EQ(page.body["total"], total);
    const Json& states = page.body["states"];
    ASSERT_GE(states.size(), 1u);
    for (std::size_t k = 0; k < states.size(); ++k) EXPECT_EQ(states[k], expected_at(from + k)) << from + k;
    EXPECT_EQ(page.body["next"], from + states.size() < total ? Json(from + states.size()) : Json());
  }
  const HttpReply small = http_text(server.port(), "POST", "/api/records/" + key + "/positions?from=3&count=2", text);
  ASSERT_EQ(small.status, 200) << small.text.substr(0, 300);
  EXPECT_EQ(small.body["states"], (Json{expected_at(3), expected_at(4)})) << "the text as sent, not only the canonical one";
  EXPECT_EQ(small.body["next"], 5);
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records/" + key + "/positions?count=51", text).status, 400);
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records/" + key + "/positions?from=" + std::to_string(total), text)
                .status,
            400);
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records/" + std::string(64, 'c') + "/positions", text).status, 400)
      << "the text must be the key's";
}

// A record has a length: its bytes (the body's limit) and its moves.
TEST(Records, ARecordLongerThanTheLimitIsRefusedAndSaysWhy) {
  ServerProcess server(":memory:", kSmallBudget);
  const std::string text = njaka_record(100'000, kTooLongGame);
  ASSERT_LT(text.size(), 64u * 1024) << "long in moves, not in bytes";
  const HttpReply refused = http_text(server.port(), "POST", "/api/records", text);
  EXPECT_EQ(refused.status, 413) << refused.text.substr(0, 300);
  EXPECT_NE(refused.body["error"]["message"].get<std::string>().find("a record may have at most 4000"), std::string::npos)
      << refused.text;
  const HttpReply huge = http_text(server.port(), "POST", "/api/records", text + std::string(70 * 1024, ' '));
  EXPECT_EQ(huge.status, 413);
}

// Issue 46, 4: analyses are bounded: in positions, per player and address, and in all; the
// one who asked may cancel his, nobody else. No worker runs, so nothing finishes on its own.
TEST(Analysis, TheQueueIsBoundedAndWhoAskedMayCancel) {
  // Each game's players come from an address of their own (through a trusted proxy), so that
  // only the global limit is in the way.
  ServerProcess server(":memory:", {"--analysis-playouts", "60", "--analysis-threads", "0", "--analysis-queue", "3",
                                    "--trusted-proxy", "127.0.0.1"});
  std::vector<FinishedGame> games;
  for (std::uint64_t seed : {31, 32, 33, 34}) games.push_back(finished_game(server.port(), seed));
  const auto target = [&](std::size_t k) { return "/api/games/" + games[k].table.room + "/analysis"; };
  const auto ask = [&](const std::string& method, std::size_t k, std::size_t seat = 0) {
    return http_call(server.port(), method, target(k), Json(),
                     {{"Authorization", "Bearer " + games[k].table.tokens[seat]},
                      {"X-Forwarded-For", "203.0.113." + std::to_string(k + 1)}});
  };

  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(ask("POST", k).status, 202) << k;
  const HttpReply full = ask("POST", 3);
  EXPECT_EQ(full.status, 503) << full.text;
  EXPECT_EQ(full.body["error"]["message"], "the analysis queue is full (3 analyses); try again when one has finished");
  EXPECT_EQ(full.body["error"]["code"], "queue_full");
  EXPECT_FALSE(full.retry_after.empty());

  // Only who asked, or a player of the game, may cancel: here the other seat of game 0.
  const HttpReply foreign = http_call(server.port(), "DELETE", target(0), Json(), bearer(games[1].token));
  EXPECT_EQ(foreign.status, 404) << "a private game of others does not exist for him";
  const HttpReply other_seat = ask("DELETE", 0, 1);
  EXPECT_EQ(other_seat.status, 200) << other_seat.text;
  EXPECT_EQ(other_seat.body["state"], "none");
  EXPECT_EQ(ask("DELETE", 0).status, 404) << "nothing left to cancel";

  // The place is free again.
  EXPECT_EQ(ask("POST", 3).status, 202);
  EXPECT_EQ(ask("GET", 3).body["state"], "queued");
}

TEST(Analysis, ThePerAskerLimitAndCancellingARecordsAnalysis) {
  ServerProcess server(":memory:", {"--analysis-playouts", "60", "--analysis-threads", "0"});
  std::vector<std::string> keys;
  std::vector<std::string> texts;
  for (std::size_t moves : {20, 24, 28}) {
    texts.push_back(njaka_record(moves, moves));
    keys.push_back(http_text(server.port(), "POST", "/api/records", texts.back()).body["key"]);
  }
  const auto target = [&](std::size_t k) { return "/api/records/" + keys[k] + "/analysis"; };
  EXPECT_EQ(http_text(server.port(), "POST", target(0), texts[0]).status, 202);
  EXPECT_EQ(http_text(server.port(), "POST", target(1), texts[1]).status, 202);
  const HttpReply busy = http_text(server.port(), "POST", target(2), texts[2]);
  EXPECT_EQ(busy.status, 429) << busy.text;
  EXPECT_EQ(busy.body["error"]["message"], "you already have 2 analyses queued or running; wait for one to finish, or cancel one");
  EXPECT_EQ(busy.body["error"]["code"], "too_many_analyses");

  // Another player (a bearer token) did not ask for it, so he may not cancel it.
  Client eve(server.port());
  const std::string eve_token = eve.hello("Eve")["token"];
  const HttpReply refused = http_call(server.port(), "DELETE", target(0), Json(), bearer(eve_token));
  EXPECT_EQ(refused.status, 403) << refused.text;
  EXPECT_EQ(refused.body["error"]["message"], "only who asked for this analysis, or a player of the game, may cancel it");
  const HttpReply cancelled = http_call(server.port(), "DELETE", target(0));
  EXPECT_EQ(cancelled.status, 200) << cancelled.text;
  EXPECT_EQ(get(server.port(), target(0)).body["state"], "none");
  EXPECT_EQ(http_text(server.port(), "POST", target(2), texts[2]).status, 202) << "a place of his is free again";
}

TEST(Analysis, AGameOrRecordOfTooManyPositionsIsNotAnalysed) {
  ServerProcess server(":memory:", kSmallBudget);
  const std::string text = njaka_record(400);
  const HttpReply imported = http_text(server.port(), "POST", "/api/records", text);
  ASSERT_EQ(imported.status, 200);
  ASSERT_GT(imported.body["positions"].get<int>(), 300);
  const HttpReply refused = http_text(server.port(), "POST", "/api/records/" + imported.body["key"].get<std::string>() + "/analysis", text);
  EXPECT_EQ(refused.status, 400) << refused.text;
  EXPECT_EQ(refused.body["error"]["message"], "this game is too long to analyse: analyses are for games of at most 300 positions");
  EXPECT_EQ(refused.body["error"]["code"], "too_long");
}

// Analyses a restart left keep to the limits: one longer than they allow (from before them) fails
// instead of resuming.
TEST(Analysis, AnAnalysisResumedAfterARestartKeepsToTheLimits) {
  TempDir dir;
  const std::string db = dir.file("analysis.db");
  const std::string key(64, 'd');
  { ServerProcess server(db, kSmallBudget); }
  execute_on(db, "INSERT INTO analyses (id, game_id, record_text, total, state, created) VALUES ('" + key +
                     "', NULL, '" + njaka_record(400) + "', 401, 'running', '2026-12-01T00:00:00.000Z')");
  ServerProcess server(db, kSmallBudget);
  Json status = Json::object();
  wait_until(
      [&] {
        status = get(server.port(), "/api/records/" + key + "/analysis").body;
        return status.value("state", "") == "failed";
      },
      10s, "the resumed analysis to fail");
  EXPECT_EQ(status["state"], "failed") << status.dump();
  EXPECT_EQ(status["done"], 0) << "not one position searched";
}

// Issue 46: a stored game's /positions answers a page even when nobody asked for one (it once
// answered every state, megabytes for a long Njaka game): from 0, at most 50, and where the
// next page starts; following `next` gives every state.
TEST(History, PositionsWithoutAQueryAreTheFirstPage) {
  ServerProcess server(":memory:", kSmallBudget);
  Table table = open_table(server.port(), "njaka", Json{{"players", 4}}, 4);
  play_to_end(table, 5);
  ASSERT_GT(table.states.size(), 50u) << "a game longer than a page";
  const std::string target = "/api/games/" + table.room + "/positions";
  const HttpReply first = get(server.port(), target, table.tokens[0]);
  ASSERT_EQ(first.status, 200) << first.text.substr(0, 300);
  EXPECT_EQ(first.body["from"], 0);
  EXPECT_EQ(first.body["total"], table.states.size());
  EXPECT_EQ(first.body["id"], table.room);
  const std::size_t given = first.body["states"].size();
  EXPECT_GE(given, 1u);
  EXPECT_LE(given, 50u);
  EXPECT_LE(first.text.size(), 64u * 1024) << "within what an answer to a GET may be";
  EXPECT_EQ(first.body["next"], given);
  Json states = first.body["states"];
  for (Json next = first.body["next"]; !next.is_null();) {
    const HttpReply page = get(server.port(), target + "?from=" + next.dump(), table.tokens[0]);
    ASSERT_EQ(page.status, 200) << page.text.substr(0, 300);
    for (const Json& state : page.body["states"]) states.push_back(state);
    next = page.body["next"];
  }
  ASSERT_EQ(states.size(), table.states.size());
  for (std::size_t v = 0; v < states.size(); ++v) EXPECT_EQ(states[v], table.states[v]) << "version " << v;
}

// Issue 46: records are read and replayed on a worker of their own with a bounded queue. Beyond
// it (here one waiting) an import is refused at once, 503 with Retry-After; the queue drains.
TEST(Records, AFullReplayQueueIsSaidSoWithRetryAfter) {
  ServerProcess server(":memory:", {"--analysis-playouts", "60", "--replay-queue", "1"});
  const std::string text = njaka_record(100'000);  // 2,601 entries: long enough to keep the worker busy
  constexpr int kImports = 12;  // one replayed, one waiting, the others beyond the queue
  std::vector<HttpReply> replies(kImports);
  std::vector<std::thread> imports;
  for (int i = 0; i < kImports; ++i)
    imports.emplace_back([&, i] { replies[i] = http_text(server.port(), "POST", "/api/records", text); });
  for (auto& thread : imports) thread.join();
  int ok = 0, busy = 0;
  for (const HttpReply& reply : replies) {
    ok += reply.status == 200;
    if (reply.status != 503) continue;
    ++busy;
    EXPECT_EQ(reply.retry_after, "2");
    EXPECT_EQ(reply.body["error"]["message"], "the server is reading as many game records as it can; try again in a few seconds");
    EXPECT_EQ(reply.body["error"]["code"], "busy");
  }
  EXPECT_GT(busy, 0) << "more imports at once than one worker and a queue of one hold";
  EXPECT_GT(ok, 0);
  EXPECT_EQ(ok + busy, kImports) << "each import is either read or refused as busy";
  EXPECT_EQ(http_text(server.port(), "POST", "/api/records", text).status, 200) << "the queue drained";
}

// Issue 46, 4: the global cap (--analysis-queue) holds for analyses a restart left: of three
// stored ones, two resume and the third waits in the database until one of them ends, then
// runs; a new one is refused meanwhile. Polled: an analysis that has a position has started,
// and one that is done stays done, so "started in a first pass minus done in a later one"
// never counts more than were running at once.
TEST(Analysis, AnalysesResumedAfterARestartKeepToTheGlobalCap) {
  TempDir dir;
  const std::string db = dir.file("analysis.db");
  const std::vector<std::string> proxy = {"--trusted-proxy", "127.0.0.1"};
  const auto from = [](std::size_t k) {
    return std::vector<std::pair<std::string, std::string>>{{"X-Forwarded-For", "203.0.113." + std::to_string(k + 1)}};
  };
  std::vector<std::string> texts, targets;
  for (std::size_t moves : {20, 24, 28, 32}) texts.push_back(njaka_record(moves, moves));
  {  // three analyses asked for, from three addresses, and none worked on before the stop
    std::vector<std::string> flags = {"--analysis-threads", "0", "--analysis-queue", "8"};
    flags.insert(flags.end(), proxy.begin(), proxy.end());
    ServerProcess before(db, flags);
    for (std::size_t k = 0; k < texts.size(); ++k) {
      const HttpReply imported = http_text(before.port(), "POST", "/api/records", texts[k], from(k));
      ASSERT_EQ(imported.status, 200) << imported.text;
      targets.push_back("/api/records/" + imported.body["key"].get<std::string>() + "/analysis");
      if (k < 3) {
        ASSERT_EQ(http_text(before.port(), "POST", targets[k], texts[k], from(k)).status, 202) << k;
      }
    }
  }

  // --bot-priority normal: under SCHED_IDLE the worker gets no CPU while anything else on the
  // machine wants it (the other tests of a CI run), and the wait below would then measure that.
  std::vector<std::string> flags = {"--analysis-threads", "1", "--analysis-queue", "2", "--analysis-playouts", "1000",
                                    "--bot-priority", "normal"};
  flags.insert(flags.end(), proxy.begin(), proxy.end());
  ServerProcess server(db, flags);
  const HttpReply full = http_text(server.port(), "POST", targets[3], texts[3], from(3));
  EXPECT_EQ(full.status, 503) << "the two resumed analyses fill the queue: " << full.text;
  EXPECT_EQ(full.body["error"]["message"], "the analysis queue is full (2 analyses); try again when one has finished");
  EXPECT_FALSE(full.retry_after.empty());

  const auto states = [&] {
    std::vector<Json> out;
    for (std::size_t k = 0; k < 3; ++k) out.push_back(get(server.port(), targets[k]).body);
    return out;
  };
  std::size_t most_at_once = 0;
  std::set<std::size_t> finished;
  bool failed = false;
  wait_until(
      [&] {
        const std::vector<Json> first = states();
        const std::vector<Json> second = states();
        std::size_t started = 0;
        finished.clear();
        for (std::size_t k = 0; k < 3; ++k) {
          failed = failed || second[k]["state"] == "failed";
          EXPECT_NE(second[k]["state"], "failed") << second[k].dump();
          started += first[k]["done"] > 0;
          if (second[k]["state"] == "done") finished.insert(k);
        }
        most_at_once = std::max(most_at_once, started - std::min(started, finished.size()));
        return failed || finished.size() == 3;
      },
      100s, "the three analyses to finish");  // about 80 s under `stress -c 2` beside two builds
  ASSERT_FALSE(failed);
  EXPECT_EQ(finished.size(), 3u) << "the one that waited ran once a place was free";
  EXPECT_LE(most_at_once, 2u) << "no more analyses ran at once than --analysis-queue allows";
  EXPECT_EQ(http_text(server.port(), "POST", targets[3], texts[3], from(3)).status, 202) << "places are free again";
}

}  // namespace
}  // namespace mancala::testing
