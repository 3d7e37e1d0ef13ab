// Arenas through the real server (issue 48, protocol "Tournaments"): an account creates one over
// HTTP, guests join and withdraw before the start, at the start the free players are paired into
// rooms and told over their WebSocket, ended games score 2/1/0 with the doubling streak, a paused
// player is not paired until they join again; at the end nobody is paired, the game still being
// played counts when it ends and the arena is finished; a restart mid-arena keeps every score;
// watchers get the standings pushed at most once a second.
// Minutes are short (--test-tournament-minute-ms) so an arena runs in seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <iterator>
#include <set>

#include "harness.hpp"

namespace mancala::testing {
namespace arenas {  // a name of its own: server_test is a unity build

const Json kBlitz = {{"initial_s", 300}, {"increment_s", 3}};
const std::string kPassword = "tulip garden 42";

// "2026-01-01T10:00:00.250Z".
std::string utc_at(std::chrono::system_clock::time_point at) {
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis % 1000));
  return text;
}

// The same, `from_now` after now.
std::string utc_in(std::chrono::milliseconds from_now) { return utc_at(std::chrono::system_clock::now() + from_now); }

// The session cookie of a new account.
std::string account_cookie(unsigned short port, const std::string& name) {
  const HttpReply reply = http_call(port, "POST", "/api/accounts", {{"name", name}, {"password", kPassword}});
  EXPECT_EQ(reply.status, 201) << reply.text;
  return cookie_of(reply.set_cookie);
}

// An arena of `minutes` (short ones) of Cups starting `starts_in` from now; its id.
std::string create_arena(unsigned short port, const std::string& cookie, std::chrono::milliseconds starts_in,
                         int minutes) {
  const HttpReply reply = http_call(port, "POST", "/api/tournaments",
                                    {{"name", "Friday arena"}, {"game", "cups"}, {"clock", kBlitz},
                                     {"kind", "arena"}, {"starts_at", utc_in(starts_in)}, {"minutes", minutes}},
                                    {{"Cookie", cookie}});
  EXPECT_EQ(reply.status, 201) << reply.text;
  EXPECT_EQ(reply.body.value("status", ""), "upcoming") << reply.text;
  return reply.body.value("id", "");
}

// A guest on its own connection, with the token that joins tournaments for it.
struct Guest {
  Guest(unsigned short port, const std::string& name) : client(std::make_unique<Client>(port)) {
    const Json welcome = client->hello(name);
    id = welcome.value("player_id", "");
    token = welcome.value("token", "");
  }
  std::unique_ptr<Client> client;
  std::string id;
  std::string token;
};

HttpReply players_call(unsigned short port, const std::string& method, const std::string& tournament,
                       const Guest& guest) {
  return http_call(port, method, "/api/tournaments/" + tournament + "/players", Json(),
                   {{"Authorization", "Bearer " + guest.token}});
}

void join(unsigned short port, const std::string& tournament, const Guest& guest) {
  const HttpReply reply = players_call(port, "POST", tournament, guest);
  EXPECT_EQ(reply.status, 200) << reply.text;
}

Json tournament(unsigned short port, const std::string& id) {
  const HttpReply reply = http_call(port, "GET", "/api/tournaments/" + id);
  EXPECT_EQ(reply.status, 200) << reply.text;
  return reply.body;
}

// The standing of `player` in a GET body (null when not a player).
Json standing(const Json& body, const std::string& player) {
  for (const auto& entry : body["players"])
    if (entry.value("player_id", "") == player) return entry;
  return Json();
}

bool is_paired(const Json& m) { return m.value("type", "") == "room" && !m.contains("id"); }

// Both are told of the same new room, started; its id.
std::string paired_room(Guest& a, Guest& b) {
  const Json for_a = a.client->wait_for(is_paired, 20s);
  const Json for_b = b.client->wait_for(is_paired, 20s);
  EXPECT_EQ(for_a["room"]["id"], for_b["room"]["id"]);
  EXPECT_EQ(for_a["room"]["status"], "playing") << for_a.dump();
  EXPECT_EQ(for_a["room"]["time_control"], kBlitz);
  return for_a["room"].value("id", "");
}

void resign(Guest& loser, const std::string& room) {
  const Json update = loser.client->request({{"type", "resign"}, {"room", room}});
  ASSERT_EQ(update.value("type", ""), "update") << update.dump();
  EXPECT_FALSE(update["state"]["result"].is_null());
}

// Waits until the GET body shows `player` with `score` after `games` games.
Json wait_for_score(unsigned short port, const std::string& id, const Guest& player, int score, int games) {
  Json body;
  wait_until([&] {
    body = tournament(port, id);
    const Json entry = standing(body, player.id);
    return entry.is_object() && entry.value("score", -1.0) == score && entry.value("games", -1) == games;
  }, 10s, "a score of " + std::to_string(score) + " after " + std::to_string(games) + " games");
  return body;
}

TEST(Arenas, JoinLeaveStartPairScoreWithTheStreakAndPause) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  const std::string cookie = account_cookie(port, "Organiser");
  const std::string id = create_arena(port, cookie, 1500ms, 60);
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(http_call(port, "POST", "/api/tournaments", {{"name", "x"}}).status, 401) << "an account creates";
  Guest ada(port, "Ada"), bo(port, "Bo"), cy(port, "Cy");
  join(port, id, ada);
  join(port, id, bo);
  join(port, id, cy);
  EXPECT_EQ(tournament(port, id)["players"].size(), 3u);
  // Before the start, leaving withdraws: Cy is no longer a player.
  EXPECT_EQ(players_call(port, "DELETE", id, cy).status, 200);
  EXPECT_TRUE(standing(tournament(port, id), cy.id).is_null());
  EXPECT_EQ(players_call(port, "DELETE", id, cy).status, 404) << "not a player any more";

  // The start pairs the two players into a started room; each hears of it unasked.
  std::string room = paired_room(ada, bo);
  Json body = tournament(port, id);
  EXPECT_EQ(body["status"], "running");
  EXPECT_EQ(body["rooms"], Json::array({room}));
  EXPECT_TRUE(standing(body, ada.id)["playing"].get<bool>());

  // Ada wins three in a row: 2, 2, then 4 (after two wins each further win doubles).
  const int after_win[] = {2, 4, 8};
  for (int game = 1; game <= 3; ++game) {
    resign(bo, room);
    wait_for_score(port, id, ada, after_win[game - 1], game);
    room = paired_room(ada, bo);  // nobody else is free: the same two again
  }
  body = tournament(port, id);
  EXPECT_EQ(standing(body, ada.id)["rank"], 1);
  EXPECT_EQ(standing(body, ada.id)["streak"], 3);
  EXPECT_EQ(standing(body, bo.id)["score"], 0);
  EXPECT_EQ(standing(body, bo.id)["rank"], 2);

  // Bo pauses during the fourth game, wins it (2; Ada's streak ends) and is not paired again.
  EXPECT_EQ(players_call(port, "DELETE", id, bo).status, 200);
  EXPECT_TRUE(standing(tournament(port, id), bo.id)["paused"].get<bool>());
  resign(ada, room);
  body = wait_for_score(port, id, bo, 2, 4);
  EXPECT_EQ(standing(body, ada.id)["score"], 8);
  EXPECT_EQ(standing(body, ada.id)["streak"], 0);
  EXPECT_EQ(body["rooms"], Json::array());
  EXPECT_FALSE(standing(body, ada.id)["playing"].get<bool>());
  // Coming back pairs Bo at once with the free Ada.
  join(port, id, bo);
  const std::string fifth = paired_room(ada, bo);
  EXPECT_NE(fifth, room);
  EXPECT_FALSE(standing(tournament(port, id), bo.id)["paused"].get<bool>());
}

TEST(Arenas, AtTheEndNobodyIsPairedAndTheGameStillPlayedCountsWhenItEnds) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "2000"});
  const auto port = server.port();
  const std::string id = create_arena(port, account_cookie(port, "Organiser"), 1000ms, 1);
  Guest ada(port, "Ada"), bo(port, "Bo"), cy(port, "Cy");
  join(port, id, ada);
  join(port, id, bo);
  const std::string room = paired_room(ada, bo);
  // The end passes while their game is still being played: still running, nobody may join.
  const std::string ends_at = tournament(port, id)["ends_at"];
  wait_until([&] { return utc_in(-300ms) > ends_at; }, 10s, "the arena's end");  // a moment the server's timer fired
  EXPECT_EQ(tournament(port, id)["status"], "running");
  EXPECT_EQ(players_call(port, "POST", id, cy).status, 409) << "the arena has ended";
  resign(bo, room);
  Json body;
  wait_until([&] {
    body = tournament(port, id);
    return body["status"] == "finished";
  }, 10s, "the arena finished with its last game");
  EXPECT_EQ(standing(body, ada.id)["score"], 2) << "the game played past the end counts";
  EXPECT_EQ(standing(body, ada.id)["games"], 1);
  EXPECT_EQ(standing(body, ada.id)["rank"], 1);
  EXPECT_EQ(body["rooms"], Json::array());
  EXPECT_TRUE(ada.client->nothing_matching(is_paired, 300ms)) << "no pairing after the end";
  const HttpReply finished = http_call(port, "GET", "/api/tournaments?status=finished");
  ASSERT_EQ(finished.body["tournaments"].size(), 1u) << finished.text;
  EXPECT_EQ(finished.body["tournaments"][0]["id"], id);
}

TEST(Arenas, ARestartMidArenaLosesNoScoreAndPlayGoesOn) {
  TempDir dir;
  const std::string db = dir.file("arena.db");
  std::string id, room;
  std::string ada_token, bo_token, ada_id, bo_id;
  {
    ServerProcess server(db, {"--test-tournament-minute-ms", "1000"});
    const auto port = server.port();
    id = create_arena(port, account_cookie(port, "Organiser"), 1000ms, 60);
    Guest ada(port, "Ada"), bo(port, "Bo");
    ada_token = ada.token, bo_token = bo.token, ada_id = ada.id, bo_id = bo.id;
    join(port, id, ada);
    join(port, id, bo);
    resign(bo, paired_room(ada, bo));
    room = paired_room(ada, bo);
    // Stored, not only held: the row a restart reads.
    wait_until([&] {
      const auto rows = query_on(db, "SELECT CAST(score AS INTEGER) FROM tournament_players WHERE player_id = '" + ada_id + "'");
      return !rows.empty() && rows[0][0] == "2";
    }, 10s, "Ada's score stored");
    EXPECT_EQ(server.terminate(), 0);
  }
  ServerProcess server(db, {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  Json body = tournament(port, id);
  EXPECT_EQ(body["status"], "running");
  EXPECT_EQ(standing(body, ada_id)["score"], 2);
  EXPECT_EQ(standing(body, ada_id)["games"], 1);
  EXPECT_EQ(standing(body, bo_id)["games"], 1);
  EXPECT_EQ(body["rooms"], Json::array({room})) << "the game being played is still the arena's";
  // The players come back to their game; its end scores and pairs them again.
  Client ada(port), bo(port);
  ASSERT_EQ(ada.request({{"type", "hello"}, {"token", ada_token}})["type"], "welcome");
  ASSERT_EQ(bo.request({{"type", "hello"}, {"token", bo_token}})["type"], "welcome");
  const Json update = ada.request({{"type", "resign"}, {"room", room}});
  ASSERT_EQ(update.value("type", ""), "update") << update.dump();
  wait_until([&] {
    body = tournament(port, id);
    return standing(body, bo_id).value("score", 0) == 2;
  }, 10s, "Bo's win after the restart scored");
  EXPECT_EQ(standing(body, ada_id)["score"], 2);
  EXPECT_EQ(standing(body, ada_id)["games"], 2);
  const Json again = ada.wait_for(is_paired, 20s);
  EXPECT_EQ(again["room"]["status"], "playing");
}

// The game's end and its points are two writes: the server is killed between them (the points'
// write held back), and the restart scores the game from the stored game's result.
TEST(Arenas, AKillBetweenAGamesEndAndItsPointsLosesNoPoints) {
  TempDir dir;
  const std::string db = dir.file("arena.db");
  std::string id, ada_id, room;
  {
    ServerProcess server(db, {"--test-tournament-minute-ms", "1000", "--test-tournament-write-delay-ms", "3000"});
    const auto port = server.port();
    id = create_arena(port, account_cookie(port, "Organiser"), 1000ms, 60);
    Guest ada(port, "Ada"), bo(port, "Bo");
    ada_id = ada.id;
    join(port, id, ada);
    join(port, id, bo);
    room = paired_room(ada, bo);
    wait_until([&] {
      return !query_on(db, "SELECT 1 FROM tournament_pairings WHERE room_id = '" + room + "'").empty();
    }, 20s, "the pairing stored");
    resign(bo, room);  // answered once the game's end is stored
    server.kill_hard();
  }
  const auto points = "SELECT CAST(score AS INTEGER), games FROM tournament_players WHERE player_id = '" + ada_id + "'";
  ASSERT_EQ(query_on(db, points)[0][1], "0") << "the kill came after the points were stored: no test";
  ServerProcess server(db, {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  Json body;
  wait_until([&] {
    body = tournament(port, id);
    return standing(body, ada_id).value("games", 0) == 1;
  }, 10s, "Ada's win scored after the restart");
  EXPECT_EQ(standing(body, ada_id)["score"], 2);
  EXPECT_EQ(standing(body, ada_id)["rank"], 1);
  wait_until([&] { return query_on(db, points)[0][0] == "2"; }, 10s, "the replayed points stored");
  // Scored once: a second restart does not count the game again.
  EXPECT_EQ(server.terminate(), 0);
  ServerProcess again(db, {"--test-tournament-minute-ms", "1000"});
  EXPECT_EQ(standing(tournament(again.port(), id), ada_id)["score"], 2);
}

// Three Njaka players sit at one table of three (the seek pool's fullest table first), and score
// by place: 2 × (seats − place), 4/2/0.
TEST(Arenas, ThreeNjakaPlayersShareOneTableAndScoreByPlace) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  // Everyone exists before the arena does, and its start leaves three seconds for three joins:
  // a slow sign-up (a password hash) on a loaded machine once let it start with two.
  const std::string cookie = account_cookie(port, "Organiser");
  Guest ada(port, "Ada"), bo(port, "Bo"), cy(port, "Cy");
  const HttpReply created = http_call(port, "POST", "/api/tournaments",
                                      {{"name", "Njaka night"}, {"game", "njaka"}, {"clock", kBlitz}, {"kind", "arena"},
                                       {"starts_at", utc_in(3000ms)}, {"minutes", 60}},
                                      {{"Cookie", cookie}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body.value("id", "");
  for (const Guest* guest : {&ada, &bo, &cy}) join(port, id, *guest);
  ASSERT_EQ(tournament(port, id)["status"], "upcoming") << "all three joined before the start";
  const Json told = ada.client->wait_for(is_paired, 20s);
  const std::string room = told["room"].value("id", "");
  EXPECT_EQ(bo.client->wait_for(is_paired, 20s)["room"]["id"], room);
  EXPECT_EQ(cy.client->wait_for(is_paired, 20s)["room"]["id"], room) << "one table of three, not two and one";
  // The players hear of the room a moment before the arena lists it (the hub tells them, then it).
  wait_until([&] { return tournament(port, id)["rooms"] == Json::array({room}); }, 10s, "the arena lists its room");
  // Cy leaves first (third), then Bo (second): Ada is the last seat standing.
  EXPECT_EQ(cy.client->request({{"type", "resign"}, {"room", room}})["type"], "update");
  resign(bo, room);
  const Json body = wait_for_score(port, id, ada, 4, 1);
  EXPECT_EQ(standing(body, bo.id)["score"], 2);
  EXPECT_EQ(standing(body, cy.id)["score"], 0);
  EXPECT_EQ(standing(body, cy.id)["games"], 1);
  EXPECT_EQ(standing(body, bo.id)["rank"], 2);
}

// The ids of the next `count` rooms the guest is told of.
std::set<std::string> rooms_told(Guest& guest, int count) {
  std::set<std::string> rooms;
  for (int i = 0; i < count; ++i) rooms.insert(guest.client->wait_for(is_paired, 20s)["room"].value("id", ""));
  return rooms;
}

std::string shared_room(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::vector<std::string> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  EXPECT_EQ(both.size(), 1u) << "two players meet once";
  return both.empty() ? "" : both[0];
}

// A round robin of three on a day per move: at the start all three games at once, each pair
// once; a win 1; finished with its last game, ranked from the results.
TEST(RoundRobins, EveryPairMeetsOnceAllAtTheStartAndTheLastGameFinishesIt) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  const HttpReply created = http_call(port, "POST", "/api/tournaments",
                                      {{"name", "Winter round robin"}, {"game", "cups"}, {"kind", "round_robin"},
                                       {"starts_at", utc_in(1500ms)}},
                                      {{"Cookie", account_cookie(port, "Organiser")}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body.value("id", "");
  EXPECT_EQ(created.body["clock"], Json({{"per_move_s", 86400}})) << "a day per move unless told";
  Guest ada(port, "Ada"), bo(port, "Bo"), cy(port, "Cy"), late(port, "Late");
  join(port, id, ada);
  join(port, id, bo);
  join(port, id, cy);
  const auto at_ada = rooms_told(ada, 2), at_bo = rooms_told(bo, 2), at_cy = rooms_told(cy, 2);
  Json body = tournament(port, id);
  EXPECT_EQ(body["status"], "running");
  EXPECT_EQ(body["rooms"].size(), 3u) << body.dump();
  EXPECT_EQ(players_call(port, "POST", id, late).status, 409) << "no joining once it started";
  // Ada beats both; Cy beats Bo.
  resign(bo, shared_room(at_ada, at_bo));
  resign(cy, shared_room(at_ada, at_cy));
  body = wait_for_score(port, id, ada, 2, 2);
  EXPECT_EQ(body["status"], "running") << "a game is left";
  resign(bo, shared_room(at_bo, at_cy));
  wait_until([&] {
    body = tournament(port, id);
    return body["status"] == "finished";
  }, 10s, "the round robin finished with its last game");
  EXPECT_EQ(standing(body, ada.id)["rank"], 1);
  EXPECT_EQ(standing(body, cy.id)["score"], 1);
  EXPECT_EQ(standing(body, cy.id)["rank"], 2);
  EXPECT_EQ(standing(body, bo.id)["score"], 0);
  EXPECT_EQ(standing(body, bo.id)["games"], 2);
  EXPECT_FALSE(body.value("ends_at", "").empty());
  EXPECT_TRUE(ada.client->nothing_matching(is_paired, 300ms)) << "no game beyond the three";
}

bool is_tournament(const Json& m) { return m.value("type", "") == "tournament"; }

// Takes the pushed `tournament` messages in order until one that `match` accepts: changes within
// a second come as one message, so a state between two changes may never be sent.
Json tournament_until(Client& watcher, const std::function<bool(const Json&)>& match) {
  for (;;) {
    Json message = watcher.wait_for(is_tournament, 20s);
    if (match(message)) return message;
  }
}

TEST(Arenas, WatchersAreSentTheStandingsAtMostOnceASecond) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  const std::string id = create_arena(port, account_cookie(port, "Organiser"), 1500ms, 60);
  Client watcher(port);
  watcher.hello("Watcher");
  EXPECT_EQ(watcher.request({{"type", "watch_tournament"}, {"tournament", "nope"}})["code"], "not_found");
  EXPECT_EQ(watcher.request({{"type", "watch_tournament"}, {"tournament", id}})["type"], "ok");
  const Json first = watcher.wait_for(is_tournament);
  EXPECT_EQ(first["id"], id);
  EXPECT_EQ(first["status"], "upcoming");
  Guest ada(port, "Ada"), bo(port, "Bo");
  join(port, id, ada);
  join(port, id, bo);
  const std::string room = paired_room(ada, bo);
  tournament_until(watcher, [&](const Json& m) { return m["rooms"] == Json::array({room}); });
  const auto pushed = std::chrono::steady_clock::now();
  // The game ends at once, but the push of its points waits for a second since the last push.
  resign(bo, room);
  const Json scored = tournament_until(watcher, [&](const Json& m) { return standing(m, ada.id)["score"] == 2; });
  EXPECT_GE(std::chrono::steady_clock::now() - pushed, 800ms) << "two pushes within a second";
  EXPECT_EQ(scored["status"], "running");
  EXPECT_EQ(standing(scored, ada.id)["rank"], 1);
}

// A watcher who arrives while a push waits for its second gets their own copy, and the push still
// goes to the others (it was once dropped as "already sent", so their standings lagged).
TEST(Arenas, AWatcherArrivingWhileAPushWaitsDoesNotStopItForTheOthers) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  const std::string id = create_arena(port, account_cookie(port, "Organiser"), 1500ms, 60);
  Client watcher(port);
  watcher.hello("Watcher");
  ASSERT_EQ(watcher.request({{"type", "watch_tournament"}, {"tournament", id}})["type"], "ok");
  Guest ada(port, "Ada"), bo(port, "Bo");
  join(port, id, ada);
  join(port, id, bo);
  const std::string room = paired_room(ada, bo);
  tournament_until(watcher, [&](const Json& m) { return m["rooms"] == Json::array({room}); });
  resign(bo, room);
  // Scored (the push now waits for the rest of its second): a latecomer watches.
  wait_until([&] { return standing(tournament(port, id), ada.id).value("score", 0) == 2; }, 10s, "Ada's win scored");
  Client latecomer(port);
  latecomer.hello("Latecomer");
  ASSERT_EQ(latecomer.request({{"type", "watch_tournament"}, {"tournament", id}})["type"], "ok");
  EXPECT_EQ(standing(latecomer.wait_for(is_tournament), ada.id)["score"], 2);
  const Json scored = tournament_until(watcher, [&](const Json& m) { return standing(m, ada.id)["score"] == 2; });
  EXPECT_EQ(scored["status"], "running");
}

// ---- what a tournament leaves on the players' profiles ---------------------------------------

Json profile_of(unsigned short port, const std::string& player) {
  const HttpReply reply = http_call(port, "GET", "/api/players/" + player);
  EXPECT_EQ(reply.status, 200) << reply.text;
  return reply.body;
}

// An arena played to its end: the winner's profile lists it (name, game, kind, dates, its id for
// the link), the loser's does not.
TEST(Arenas, TheWinnersProfileListsTheArenaAndTheLosersDoesNot) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "2000"});
  const auto port = server.port();
  const std::string id = create_arena(port, account_cookie(port, "Organiser"), 1000ms, 1);
  Guest ada(port, "Ada"), bo(port, "Bo");
  join(port, id, ada);
  join(port, id, bo);
  EXPECT_EQ(profile_of(port, ada.id)["tournaments_won"], Json::array()) << "nothing won yet";
  const std::string room = paired_room(ada, bo);
  // Ended while the one game is played (else the end would pair them again), then Ada wins it.
  const std::string ends_at = tournament(port, id)["ends_at"];
  wait_until([&] { return utc_in(-300ms) > ends_at; }, 10s, "the arena's end");
  resign(bo, room);
  wait_until([&] { return tournament(port, id)["status"] == "finished"; }, 10s, "the arena finished");

  // The finished status is stored a moment after the live arena shows it.
  Json won;
  wait_until([&] {
    won = profile_of(port, ada.id)["tournaments_won"];
    return !won.empty();
  }, 10s, "the win on Ada's profile");
  ASSERT_EQ(won.size(), 1u) << won.dump();
  EXPECT_EQ(won[0]["id"], id);
  EXPECT_EQ(won[0]["name"], "Friday arena");
  EXPECT_EQ(won[0]["game"], "cups");
  EXPECT_EQ(won[0]["kind"], "arena");
  EXPECT_EQ(won[0]["rated"], false);
  EXPECT_EQ(won[0]["ends_at"], tournament(port, id)["ends_at"]);
  EXPECT_FALSE(won[0].value("starts_at", "").empty());
  EXPECT_EQ(profile_of(port, bo.id)["tournaments_won"], Json::array()) << "the loser won nothing";
}

// A rated arena's game moves both accounts' ratings as any rated game does: the winner up, the
// loser down by as much (two newcomers), one rated game each, the game in their rating history.
TEST(Arenas, ARatedArenasGameMovesBothRatings) {
  ServerProcess server(":memory:", {"--test-tournament-minute-ms", "1000"});
  const auto port = server.port();
  const std::string ada_cookie = account_cookie(port, "Ada");
  const std::string bo_cookie = account_cookie(port, "Bo");
  const HttpReply created = http_call(port, "POST", "/api/tournaments",
                                      {{"name", "Rated arena"}, {"game", "cups"}, {"clock", kBlitz}, {"kind", "arena"},
                                       {"rated", true}, {"starts_at", utc_in(1500ms)}, {"minutes", 60}},
                                      {{"Cookie", ada_cookie}});
  ASSERT_EQ(created.status, 201) << created.text;
  EXPECT_EQ(created.body["rated"], true);
  const std::string id = created.body.value("id", "");
  Guest guest(port, "Guest");
  EXPECT_EQ(players_call(port, "POST", id, guest).status, 403) << "a rated tournament is for accounts";
  // Each account's connection is logged in by its cookie, and joins with it.
  Client ada(port, Client::Options{"", "", ada_cookie}), bo(port, Client::Options{"", "", bo_cookie});
  const Json ada_welcome = ada.request({{"type", "hello"}});
  const Json bo_welcome = bo.request({{"type", "hello"}});
  ASSERT_EQ(ada_welcome["account"], true) << ada_welcome.dump();
  ASSERT_EQ(bo_welcome["account"], true) << bo_welcome.dump();
  const std::string ada_id = ada_welcome["player_id"], bo_id = bo_welcome["player_id"];
  for (const std::string* cookie : {&ada_cookie, &bo_cookie}) {
    const HttpReply joined = http_call(port, "POST", "/api/tournaments/" + id + "/players", Json(), {{"Cookie", *cookie}});
    EXPECT_EQ(joined.status, 200) << joined.text;
  }
  const Json told = ada.wait_for(is_paired, 20s);
  const std::string room = told["room"].value("id", "");
  EXPECT_EQ(bo.wait_for(is_paired, 20s)["room"]["id"], room);
  EXPECT_EQ(told["room"]["rated"], true) << told.dump();
  EXPECT_TRUE(profile_of(port, ada_id)["ratings"].empty()) << "no rated game yet";

  const Json update = bo.request({{"type", "resign"}, {"room", room}});
  ASSERT_EQ(update.value("type", ""), "update") << update.dump();
  Json winner, loser;
  wait_until([&] {
    winner = profile_of(port, ada_id);
    loser = profile_of(port, bo_id);
    return winner["ratings"].contains("cups") && loser["ratings"].contains("cups");
  }, 10s, "both ratings stored");
  const double up = winner["ratings"]["cups"]["rating"].get<double>() - 1500.0;
  const double down = 1500.0 - loser["ratings"]["cups"]["rating"].get<double>();
  EXPECT_GT(up, 0) << winner.dump();
  EXPECT_GT(down, 0) << loser.dump();
  EXPECT_NEAR(up, down, 1e-6) << "two newcomers move by the same amount";
  EXPECT_LT(winner["ratings"]["cups"]["deviation"].get<double>(), 350.0);
  EXPECT_EQ(winner["ratings"]["cups"]["games"], 1);
  EXPECT_EQ(loser["ratings"]["cups"]["games"], 1);
  ASSERT_EQ(winner["rating_history"]["cups"].size(), 1u);
  EXPECT_EQ(winner["rating_history"]["cups"][0]["game_id"], room);
  wait_until([&] { return standing(tournament(port, id), ada_id).value("score", 0) == 2; }, 10s, "the win scored");
}

// ---- the operator's schedule (--tournament-schedule) ------------------------------------------

// A schedule file in `dir` holding `entries`; its path.
std::string schedule_file(const TempDir& dir, const Json& entries) {
  const std::string path = dir.file("schedule.json");
  std::ofstream(path) << entries.dump(2);
  return path;
}

Json listed(unsigned short port, const std::string& status) {
  const HttpReply reply = http_call(port, "GET", "/api/tournaments?status=" + status);
  EXPECT_EQ(reply.status, 200) << reply.text;
  return reply.body["tournaments"];
}

// The first Monday 18:00 UTC from 2026-01-05 on (a Monday) that is not past.
std::string next_monday_evening() {
  auto start = std::chrono::sys_days{std::chrono::year{2026} / 1 / 5} + std::chrono::hours(18);
  while (start < std::chrono::system_clock::now()) start += std::chrono::days(7);
  return utc_at(start);
}

TEST(Schedules, EachEntrysNextStartIsRegisteredAheadAndARestartAddsNoSecond) {
  TempDir dir;
  const std::string db = dir.file("scheduled.db");
  const std::string schedule = schedule_file(dir, Json::array({
      {{"name", "Monday Cups"}, {"game", "cups"}, {"clock", kBlitz}, {"kind", "arena"}, {"minutes", 60},
       {"first", "2026-01-05T18:00:00Z"}, {"every", "week"}},
      {{"name", "Long gone"}, {"game", "cups"}, {"first", "2026-01-01T10:00:00Z"}}}));
  std::string id;
  {
    ServerProcess server(db, {"--tournament-schedule", schedule});
    const Json upcoming = listed(server.port(), "upcoming");
    ASSERT_EQ(upcoming.size(), 1u) << "a one-off whose start passed is not made: " << upcoming.dump();
    EXPECT_EQ(upcoming[0]["name"], "Monday Cups");
    EXPECT_EQ(upcoming[0]["starts_at"], next_monday_evening());
    EXPECT_EQ(upcoming[0]["clock"], kBlitz);
    id = upcoming[0].value("id", "");
    // Players may join ahead.
    Guest ada(server.port(), "Ada");
    join(server.port(), id, ada);
    EXPECT_EQ(server.terminate(), 0);
  }
  ServerProcess server(db, {"--tournament-schedule", schedule});
  const Json upcoming = listed(server.port(), "upcoming");
  ASSERT_EQ(upcoming.size(), 1u) << "the restart found it registered: " << upcoming.dump();
  EXPECT_EQ(upcoming[0]["id"], id);
  EXPECT_EQ(tournament(server.port(), id)["players"].size(), 1u);
}

TEST(Schedules, WhenAScheduledTournamentStartsItsNextStartIsRegistered) {
  TempDir dir;
  const auto first = std::chrono::system_clock::now() + 1500ms;
  const std::string schedule = schedule_file(dir, Json::array({
      {{"name", "Hourly Cups"}, {"game", "cups"}, {"clock", kBlitz}, {"minutes", 1}, {"first", utc_at(first)},
       {"every", "hour"}}}));
  ServerProcess server(":memory:", {"--tournament-schedule", schedule, "--test-tournament-minute-ms", "60000"});
  const auto port = server.port();
  ASSERT_EQ(listed(port, "upcoming").size(), 1u);
  Json upcoming;
  wait_until([&] {
    upcoming = listed(port, "upcoming");
    return listed(port, "running").size() == 1 && upcoming.size() == 1 &&
           upcoming[0]["starts_at"] == utc_at(first + std::chrono::hours(1));
  }, 20s, "the first one running and the next registered");
  EXPECT_EQ(upcoming[0]["name"], "Hourly Cups");
}

TEST(Schedules, TheExampleScheduleRegistersAWeeklyArenaPerGameAndAMonthlyRoundRobin) {
  ServerProcess server(":memory:", {"--tournament-schedule", std::string(MANCALA_SOURCE_DIR) + "/docker/tournaments.example.json"});
  const Json upcoming = listed(server.port(), "upcoming");
  std::set<std::string> games, kinds;
  for (const auto& t : upcoming) games.insert(t.value("game", "")), kinds.insert(t.value("kind", ""));
  EXPECT_EQ(upcoming.size(), 6u) << upcoming.dump();
  EXPECT_EQ(games, (std::set<std::string>{"cups", "coin_duel", "oanquan", "njaka", "duovallis"}));
  EXPECT_EQ(kinds, (std::set<std::string>{"arena", "round_robin"}));
}

TEST(Schedules, AScheduleTheServerCannotFollowStopsTheStartUpNamingTheEntry) {
  TempDir dir;
  const auto refusal = [](const std::string& path) {
    std::string err;
    EXPECT_NE(run_server_command({"--port", "0", "--db", ":memory:", "--tournament-schedule", path}, nullptr, &err), 0);
    return err;
  };
  const std::string chess = schedule_file(dir, Json::array({
      {{"name", "Weekly"}, {"game", "cups"}, {"first", "2026-01-05T18:00:00Z"}, {"every", "week"}},
      {{"name", "Chess night"}, {"game", "chess"}, {"first", "2026-01-05T18:00:00Z"}, {"every", "week"}}}));
  const std::string said = refusal(chess);
  EXPECT_NE(said.find("tournament schedule, entry 2 ('Chess night'): "), std::string::npos) << said;
  EXPECT_NE(said.find("chess"), std::string::npos) << said;
  EXPECT_NE(refusal(dir.file("missing.json")).find("cannot read the tournament schedule"), std::string::npos);
}

}  // namespace arenas
}  // namespace mancala::testing
