// Room chat against a real server (issue 33): the players' and the spectators' channels, the
// limits, the history, an operator's silence, the creator's switch and reports.
#include <gtest/gtest.h>

#include "harness.hpp"

namespace mancala::testing {
namespace {

bool is_chat(const Json& message) { return message.value("type", "") == "chat"; }

struct ChatRoom {
  ServerProcess& server;
  Client ada;
  Client bob;
  Client watcher;
  std::string room;
  std::string ada_token;
  std::string ada_id;
  std::string bob_token;

  explicit ChatRoom(ServerProcess& s) : server(s), ada(s.port()), bob(s.port()), watcher(s.port()) {
    const Json welcome = ada.hello("Ada");
    ada_token = welcome["token"];
    ada_id = welcome["player_id"];
    bob_token = bob.hello("Bob")["token"];
    watcher.hello("Wes");
    room = ada.request({{"type", "create_room"}, {"game", "cups"}})["room"]["id"];
    EXPECT_EQ(bob.request({{"type", "join_room"}, {"room", room}})["room"]["status"], "playing");
    EXPECT_EQ(watcher.request({{"type", "join_room"}, {"room", room}, {"spectate", true}})["type"], "room");
    ada.wait_for_type("room");  // Bob's arrival, Wes's
    ada.wait_for_type("room");
  }
  Json say(Client& who, const std::string& text) {
    return who.request({{"type", "chat"}, {"room", room}, {"text", text}});
  }
};

TEST(Chat, PlayersAndSpectatorsHaveTheirOwnChannels) {
  ServerProcess server;
  ChatRoom table(server);
  EXPECT_EQ(table.say(table.ada, "  Good luck ")["type"], "ok");
  const Json heard = table.bob.wait_for(is_chat);
  EXPECT_EQ(heard["channel"], "players");
  EXPECT_EQ(heard["name"], "Ada");
  EXPECT_EQ(heard["player_id"], table.ada_id);
  EXPECT_EQ(heard["text"], "Good luck") << "trimmed";
  EXPECT_EQ(heard["room"], table.room);
  EXPECT_FALSE(heard.value("at", "").empty());
  EXPECT_EQ(table.ada.wait_for(is_chat)["text"], "Good luck") << "the sender gets the line too";
  EXPECT_EQ(table.watcher.wait_for(is_chat)["text"], "Good luck") << "spectators read the players";

  EXPECT_EQ(table.say(table.watcher, "Ada will win")["type"], "ok");
  EXPECT_EQ(table.watcher.wait_for(is_chat)["channel"], "spectators");
  EXPECT_TRUE(table.ada.sync_barrier(table.room, 0, is_chat)) << "players do not read spectators during play";

  // After the game the players read the spectators too.
  ASSERT_EQ(table.bob.request({{"type", "resign"}, {"room", table.room}})["type"], "update");
  EXPECT_EQ(table.say(table.watcher, "Well played")["type"], "ok");
  EXPECT_EQ(table.ada.wait_for(is_chat)["text"], "Well played");

  // A reload brings the recent lines with the room; the history keeps them.
  Client again(server.port());
  again.request({{"type", "hello"}, {"token", table.ada_token}});
  const Json joined = again.request({{"type", "join_room"}, {"room", table.room}});
  ASSERT_EQ(joined["type"], "room") << joined.dump();
  ASSERT_EQ(joined["room"]["chat"].size(), 2u) << "Good luck and Well played, not the line said during play";
  EXPECT_EQ(joined["room"]["chat"][0]["text"], "Good luck");
  EXPECT_EQ(joined["room"]["chat"][1]["text"], "Well played");

  std::string body;
  ASSERT_EQ(http_get(server.port(), "/api/games/" + table.room, &body), 200);
  EXPECT_EQ(Json::parse(body)["chat"].size(), 3u) << "an outsider reads every line";
  ASSERT_EQ(http_get(server.port(), "/api/games/" + table.room, &body, table.ada_token), 200);
  const Json seen = Json::parse(body)["chat"];
  ASSERT_EQ(seen.size(), 2u) << "a player reads what he could read live";
  EXPECT_EQ(seen[1]["text"], "Well played");
}

TEST(Chat, LimitsAndBadTextAreRefusedWithReasons) {
  ServerProcess server;
  ChatRoom table(server);
  EXPECT_EQ(table.say(table.ada, "")["code"], "bad_request");
  EXPECT_EQ(table.say(table.ada, "   ")["code"], "bad_request");
  EXPECT_EQ(table.say(table.ada, std::string(281, 'a'))["code"], "bad_request");
  EXPECT_EQ(table.say(table.ada, std::string(280, 'a'))["type"], "ok");
  const Json twice = table.say(table.ada, std::string(280, 'a'));
  EXPECT_EQ(twice["code"], "rate_limited");
  EXPECT_NE(twice.value("message", "").find("just said"), std::string::npos) << twice.dump();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(table.say(table.ada, "line " + std::to_string(i))["type"], "ok");
  const Json sixth = table.say(table.ada, "one too many");
  EXPECT_EQ(sixth["code"], "rate_limited") << "5 lines in 10 s";
  EXPECT_NE(sixth.value("message", "").find("10 s"), std::string::npos);
  EXPECT_EQ(table.say(table.bob, "I may still talk")["type"], "ok") << "the limit is per player";
  Client outsider(server.port());
  outsider.hello("Olga");
  EXPECT_EQ(outsider.request({{"type", "chat"}, {"room", table.room}, {"text", "hi"}})["code"], "not_found")
      << "join the room to chat in it";
}

// Issue 46: a line cannot reorder or hide what it says, and each line shows whether its author
// is an account, live and in the history.
TEST(Chat, TextThatReordersOrHidesItselfIsRefusedAndALineSaysWhetherItsAuthorIsAnAccount) {
  ServerProcess server;
  ChatRoom table(server);
  for (const std::string text : {"gg \u202Eysae", "a\u2066b\u2069", "hid\u200Bden", "gg\U000E0069\U000E0067"}) {
    const Json refused = table.say(table.ada, text);
    EXPECT_EQ(refused["code"], "bad_request") << text;
    EXPECT_NE(refused.value("message", "").find("messages may not contain"), std::string::npos) << refused.dump();
  }
  EXPECT_EQ(table.say(table.ada, "gg \u2764\uFE0F")["type"], "ok") << "an emoji's variation selector is fine";
  const Json heard = table.bob.wait_for(is_chat);
  EXPECT_EQ(heard["text"], "gg \u2764\uFE0F");
  EXPECT_EQ(heard["account"], false) << "Ada is a guest";
  const std::string scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F";
  EXPECT_EQ(table.say(table.ada, "go " + scotland)["type"], "ok") << "a subdivision flag's tags are fine";
  EXPECT_EQ(table.bob.wait_for(is_chat)["text"], "go " + scotland);

  const HttpReply signed_up = http_call(server.port(), "POST", "/api/accounts", {{"name", "Cy"}, {"password", "tulip garden 42"}});
  ASSERT_EQ(signed_up.status, 201) << signed_up.body.dump();
  Client cy(server.port(), Client::Options{"", "", cookie_of(signed_up.set_cookie)});
  ASSERT_EQ(cy.request({{"type", "hello"}})["type"], "welcome");
  ASSERT_EQ(cy.request({{"type", "join_room"}, {"room", table.room}, {"spectate", true}})["type"], "room");
  EXPECT_EQ(table.say(cy, "nice opening")["type"], "ok");
  const Json cy_heard = table.watcher.wait_for([](const Json& m) { return is_chat(m) && m["text"] == "nice opening"; });
  EXPECT_EQ(cy_heard["account"], true) << cy_heard.dump();

  std::string body;
  ASSERT_EQ(http_get(server.port(), "/api/games/" + table.room, &body), 200);
  const Json history = Json::parse(body)["chat"];
  ASSERT_EQ(history.size(), 3u) << history.dump();
  EXPECT_EQ(history[0]["account"], false);
  EXPECT_EQ(history[1]["text"], "go " + scotland) << "kept as it was said";
  EXPECT_EQ(history[2]["account"], true);
}

TEST(Chat, TheCreatorTurnsSpectatorsOffAndReportsAreKept) {
  ServerProcess server;
  ChatRoom table(server);
  EXPECT_EQ(table.bob.request({{"type", "spectator_chat"}, {"room", table.room}, {"on", false}})["code"], "not_allowed");
  EXPECT_EQ(table.ada.request({{"type", "spectator_chat"}, {"room", table.room}, {"on", false}})["type"], "ok");
  // The watcher may first have the count of its own arrival (coalesced): the switch comes after.
  EXPECT_EQ(table.watcher.wait_for([](const Json& m) {
    return m.value("type", "") == "room" && m["room"]["spectator_chat"] == false;
  })["room"]["id"], table.room);
  EXPECT_EQ(table.say(table.watcher, "hello?")["code"], "not_allowed");
  EXPECT_EQ(table.say(table.bob, "rude words")["type"], "ok");
  const Json line = table.ada.wait_for(is_chat);
  EXPECT_EQ(table.ada.request({{"type", "report_chat"}, {"room", table.room}, {"player_id", line["player_id"]}, {"at", line["at"]}})["type"],
            "ok");
  EXPECT_EQ(table.ada.request({{"type", "report_chat"}, {"room", table.room}, {"player_id", line["player_id"]}, {"at", "never"}})["code"],
            "not_found");
  EXPECT_NE(server.log().find("chat_reported"), std::string::npos);
}

// Issue 46: the same line reported again by the same reporter is answered ok, and kept once.
TEST(Chat, ALineReportedTwiceByOneReporterIsKeptOnce) {
  TempDir dir;
  const std::string db = dir.file("reports.db");
  ServerProcess server(db);
  ChatRoom table(server);
  EXPECT_EQ(table.say(table.bob, "rude words")["type"], "ok");
  const Json line = table.ada.wait_for(is_chat);
  const Json report{{"type", "report_chat"}, {"room", table.room}, {"player_id", line["player_id"]}, {"at", line["at"]}};
  for (int i = 0; i < 3; ++i) EXPECT_EQ(table.ada.request(report)["type"], "ok") << i;
  EXPECT_EQ(table.watcher.request(report)["type"], "ok");
  const auto rows = query_on(db, "SELECT reporter_id, COUNT(*) FROM chat_reports GROUP BY reporter_id ORDER BY reporter_id");
  ASSERT_EQ(rows.size(), 2u) << "one row per reporter";
  EXPECT_EQ(rows[0][1], "1");
  EXPECT_EQ(rows[1][1], "1");
}

TEST(Chat, AnOperatorSilencesAPlayerEverywhere) {
  TempDir dir;
  const std::string db = dir.file("chat.db");
  ServerProcess server(db);
  ChatRoom table(server);
  std::string out;
  EXPECT_NE(run_server_command({"--db", db, "--silence", table.ada_id}), 0) << "--silence needs --for";
  ASSERT_EQ(run_server_command({"--db", db, "--silence", table.ada_id, "--for", "24h"}, &out), 0) << out;
  EXPECT_NE(out.find("silenced until"), std::string::npos) << out;
  const Json refused = table.say(table.ada, "let me speak");
  EXPECT_EQ(refused["code"], "silenced") << refused.dump();
  EXPECT_NE(refused.value("message", "").find("until"), std::string::npos);
  EXPECT_EQ(table.say(table.bob, "not me")["type"], "ok");
  ASSERT_EQ(run_server_command({"--db", db, "--unsilence", table.ada_id}, &out), 0) << out;
  EXPECT_EQ(table.say(table.ada, "thank you")["type"], "ok");
  EXPECT_NE(run_server_command({"--db", db, "--silence", "nobody-at-all", "--for", "1h"}), 0);
}

TEST(Chat, AKillInTheMiddleOfAConversationLosesNoAcknowledgedLine) {
  TempDir dir;
  const std::string db = dir.file("chat.db");
  auto server = std::make_unique<ServerProcess>(db);
  ChatRoom table(*server);
  const std::string room = table.room;
  const std::string ada_token = table.ada_token;
  ASSERT_EQ(table.say(table.ada, "Good luck")["type"], "ok");
  ASSERT_EQ(table.say(table.watcher, "a spectator's guess")["type"], "ok");
  ASSERT_EQ(table.say(table.bob, "Thanks, you too")["type"], "ok");
  server->kill_hard();  // every line above was acknowledged, so it is on disk
  server = std::make_unique<ServerProcess>(db);

  Client again(server->port());
  again.request({{"type", "hello"}, {"token", ada_token}});
  const Json joined = again.request({{"type", "join_room"}, {"room", room}});
  ASSERT_EQ(joined["type"], "room") << joined.dump();
  const Json& chat = joined["room"]["chat"];
  ASSERT_EQ(chat.size(), 2u) << "the players' lines come back with the room, the spectator's stays hidden: " << chat.dump();
  EXPECT_EQ(chat[0]["text"], "Good luck");
  EXPECT_EQ(chat[1]["text"], "Thanks, you too");
  std::string body;
  ASSERT_EQ(http_get(server->port(), "/api/games/" + room, &body), 200);
  EXPECT_EQ(Json::parse(body)["chat"].size(), 3u) << "the history has all three";
}

}  // namespace
}  // namespace mancala::testing
