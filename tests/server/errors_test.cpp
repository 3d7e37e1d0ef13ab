// Authority and bad input: one test each. Every test also checks that the server keeps
// serving another client afterwards.
#include <gtest/gtest.h>

#include "table.hpp"

namespace mancala::testing {
namespace {

class BadInput : public ::testing::Test {
 protected:
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);

  Client& mover() { return *table.clients[table.state["to_move"].get<std::size_t>()]; }
  Client& waiter() { return *table.clients[1 - table.state["to_move"].get<std::size_t>()]; }
  Json move(Client& client, std::int64_t version, const std::string& tokens) {
    return client.request({{"type", "move"}, {"room", table.room}, {"expected_version", version}, {"tokens", tokens}});
  }
  // The game still goes on: the player to move moves and both see it.
  void expect_game_goes_on() {
    Random rng(99);
    const auto before = table.version;
    play_one(table, rng);
    EXPECT_EQ(table.version, before + 1);
  }
};

TEST_F(BadInput, MoveOutOfTurn) {
  const std::string token = table.state["legal"][0];
  const Json reply = move(waiter(), 0, token);
  EXPECT_EQ(reply["type"], "error");
  EXPECT_EQ(reply["code"], "not_your_turn");
  expect_game_goes_on();
}

TEST_F(BadInput, IllegalToken) {
  Json reply = move(mover(), 0, "c99");
  EXPECT_EQ(reply["code"], "illegal_move");
  EXPECT_EQ(reply["token"], "c99");
  EXPECT_EQ(reply["legal"], table.state["legal"]);
  reply = move(mover(), 0, "c1  c2");
  EXPECT_EQ(reply["code"], "bad_request") << "tokens are separated by single spaces";
  expect_game_goes_on();
}

TEST_F(BadInput, StaleVersion) {
  Json reply = move(mover(), 3, table.state["legal"][0]);
  EXPECT_EQ(reply["code"], "stale_version");
  EXPECT_EQ(reply["version"], 0);
  Random rng(5);
  const Json first = play_one(table, rng);
  // The same move again with its old version is answered with the stored update, to the
  // sender only; any other move with an old version is stale.
  Client& first_mover = *table.clients[first["seat"].get<std::size_t>()];
  reply = move(first_mover, 0, first["tokens"]);
  EXPECT_EQ(reply["type"], "update");
  EXPECT_EQ(reply["version"], 1);
  EXPECT_EQ(reply["state"], table.states[1]);
  Client& other = *table.clients[1 - first["seat"].get<std::size_t>()];
  EXPECT_TRUE(other.sync_barrier(table.room, 1, [](const Json& m) { return m.value("type", "") == "update"; }));
  reply = move(mover(), 0, table.state["legal"][0]);
  EXPECT_EQ(reply["code"], "stale_version");
  EXPECT_EQ(reply["version"], 1);
  expect_game_goes_on();
}

TEST_F(BadInput, SpectatorMoving) {
  Client spectator(server.port());
  spectator.hello("Watcher");
  const Json joined = spectator.request({{"type", "join_room"}, {"invite", table.invite}, {"spectate", true}});
  ASSERT_EQ(joined["type"], "room");
  EXPECT_FALSE(joined["room"].contains("invite")) << "spectators do not see the invite";
  EXPECT_EQ(joined["room"]["spectators"], 1);
  const Json reply = move(spectator, 0, table.state["legal"][0]);
  EXPECT_EQ(reply["code"], "not_a_player");
  EXPECT_EQ(spectator.request({{"type", "resign"}, {"room", table.room}})["code"], "not_a_player");
  expect_game_goes_on();
  EXPECT_EQ(wait_update(spectator, 1)["version"], 1) << "spectators see updates";
}

TEST_F(BadInput, MalformedJson) {
  Client client(server.port());
  client.send_text("{\"type\": \"hello\", ");
  Json reply = client.wait_for_type("error");
  EXPECT_EQ(reply["code"], "bad_request");
  EXPECT_FALSE(reply.contains("id"));
  client.send_text("[1, 2]");
  EXPECT_EQ(client.wait_for_type("error")["code"], "bad_request");
  EXPECT_EQ(client.hello("Still here")["type"], "welcome") << "the connection stays usable";
  expect_game_goes_on();
}

TEST_F(BadInput, UnknownType) {
  Json reply = table.clients[0]->request({{"type", "teleport"}});
  EXPECT_EQ(reply["code"], "unknown_type");
  table.clients[0]->send({{"id", "no-type"}});
  reply = table.clients[0]->wait_for([](const Json& m) { return m.value("id", "") == "no-type"; });
  EXPECT_EQ(reply["code"], "unknown_type");
  expect_game_goes_on();
}

TEST_F(BadInput, MissingFields) {
  Json reply = mover().request({{"type", "move"}, {"room", table.room}, {"tokens", "c1"}});
  EXPECT_EQ(reply["code"], "bad_request");
  EXPECT_NE(reply["message"].get<std::string>().find("expected_version"), std::string::npos);
  reply = mover().request({{"type", "move"}, {"room", table.room}, {"expected_version", "0"}, {"tokens", "c1"}});
  EXPECT_EQ(reply["code"], "bad_request") << "a mistyped field";
  mover().send({{"type", "sync"}, {"id", std::string(65, 'x')}, {"room", table.room}, {"since", 0}});
  reply = mover().wait_for_type("error");
  EXPECT_EQ(reply["code"], "bad_request") << "an id over 64 bytes";
  EXPECT_FALSE(reply.contains("id"));
  expect_game_goes_on();
}

TEST_F(BadInput, OversizedFrameClosesWith1009) {
  Client client(server.port());
  client.hello("Big");
  client.send_text("{\"type\":\"list_rooms\",\"pad\":\"" + std::string(9000, 'x') + "\"}");
  int code = 0;
  EXPECT_TRUE(client.wait_closed(5s, &code));
  EXPECT_EQ(code, 1009);
  expect_game_goes_on();
}

TEST_F(BadInput, WrongInvite) {
  Client client(server.port());
  client.hello("Gatecrasher");
  Json reply = client.request({{"type", "join_room"}, {"invite", "not-the-invite"}});
  EXPECT_EQ(reply["code"], "forbidden");
  reply = client.request({{"type", "join_room"}, {"room", table.room}});
  EXPECT_EQ(reply["code"], "forbidden") << "a private room by id without its invite";
  reply = client.request({{"type", "sync"}, {"room", table.room}, {"since", 0}});
  EXPECT_EQ(reply["code"], "not_found") << "a private room does not exist for outsiders";
  expect_game_goes_on();
}

TEST_F(BadInput, BadToken) {
  Client client(server.port());
  const Json reply = client.request({{"type", "hello"}, {"token", "no-such-token"}});
  EXPECT_EQ(reply["code"], "bad_token");
  EXPECT_EQ(client.hello("Fresh")["type"], "welcome") << "a failed hello can be retried";
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", "Again"}})["code"], "bad_request")
      << "a second hello";
  expect_game_goes_on();
}

TEST_F(BadInput, MessageBeforeHello) {
  Client client(server.port());
  const Json reply = client.request({{"type", "list_rooms"}});
  EXPECT_EQ(reply["code"], "hello_required");
  EXPECT_EQ(client.request({{"type", "hello"}, {"name", "  "}})["code"], "bad_name");
  EXPECT_EQ(client.hello("Late")["type"], "welcome");
  EXPECT_EQ(client.request({{"type", "list_rooms"}})["type"], "rooms");
  expect_game_goes_on();
}

TEST_F(BadInput, DisallowedOrigin) {
  try {
    Client evil(server.port(), {.origin = "http://evil.example", .host = ""});
    FAIL() << "the upgrade was accepted";
  } catch (const UpgradeRefused& refused) {
    EXPECT_EQ(refused.status, 403);
  }
  // The server's own origin is fine.
  Client own(server.port(), {.origin = "http://127.0.0.1:" + std::to_string(server.port()), .host = ""});
  EXPECT_EQ(own.hello("Own")["type"], "welcome");
  expect_game_goes_on();
}

TEST(Origins, AllowOriginFlagAddsAnOrigin) {
  ServerProcess server(":memory:", {"--allow-origin", "https://mancala.example"});
  Client allowed(server.port(), {.origin = "https://mancala.example", .host = ""});
  EXPECT_EQ(allowed.hello("Friend")["type"], "welcome");
  EXPECT_THROW(Client(server.port(), {.origin = "https://other.example", .host = ""}), UpgradeRefused);
}

TEST(RateLimit, FloodPastTheRateLimitClosesWith1008) {
  ServerProcess server(":memory:", {"--rate-limit", "20"});  // the protocol's limit (the last flag wins)
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  Client flooder(server.port());
  flooder.hello("Flood");
  for (int i = 0; i < 200; ++i) {
    try {
      flooder.send({{"type", "list_rooms"}, {"id", i}});
    } catch (const std::runtime_error&) {
      break;  // closed under us
    }
  }
  int limited = 0;
  try {
    while (true) {
      const Json reply = flooder.wait_for([](const Json&) { return true; }, 5s);
      if (reply.value("code", "") == "rate_limited") ++limited;
    }
  } catch (const std::runtime_error&) {
  }
  int code = 0;
  EXPECT_TRUE(flooder.wait_closed(5s, &code));
  EXPECT_EQ(code, 1008);
  EXPECT_EQ(limited, 40) << "closed after 40 refusals in a row";
  Random rng(1);
  play_one(table, rng);  // the others are served as before
  EXPECT_EQ(table.version, 1);
}

TEST_F(BadInput, GameActionsTheGameDoesNotHave) {
  EXPECT_EQ(mover().request({{"type", "concede"}, {"room", table.room}})["code"], "not_allowed");
  EXPECT_EQ(mover().request({{"type", "claim_abandon"}, {"room", table.room}})["code"], "not_abandoned");
  EXPECT_EQ(waiter().request({{"type", "claim_abandon"}, {"room", table.room}})["code"], "not_abandoned")
      << "the player to move is connected";
  EXPECT_EQ(mover().request({{"type", "move"}, {"room", "nope"}, {"expected_version", 0}, {"tokens", "c1"}})["code"],
            "not_found");
  expect_game_goes_on();
}

TEST(Rooms, WaitingRoomsAndTheLobby) {
  ServerProcess server;
  Client ada(server.port()), bob(server.port()), watcher(server.port());
  ada.hello("Ada");
  bob.hello("Bob");
  watcher.hello("Watcher");
  EXPECT_EQ(watcher.request({{"type", "watch_lobby"}})["type"], "ok");
  const Json created = ada.request({{"type", "create_room"}, {"game", "cups"}, {"grace_seconds", 60}});
  ASSERT_EQ(created["type"], "room");
  const std::string room = created["room"]["id"];
  EXPECT_EQ(created["room"]["status"], "waiting");
  EXPECT_TRUE(created["room"]["state"].is_null());
  EXPECT_FALSE(created["room"].contains("invite"));
  const Json lobby = watcher.wait_for([&](const Json& m) {
    return m.value("type", "") == "rooms" && !m.contains("id") && m["rooms"].size() == 1;
  });
  EXPECT_EQ(lobby["rooms"][0]["id"], room);
  EXPECT_EQ(bob.request({{"type", "list_rooms"}})["rooms"][0]["id"], room);
  EXPECT_EQ(bob.request({{"type", "join_room"}, {"room", room}, {"seat", 0}})["code"], "seat_taken");
  EXPECT_EQ(bob.request({{"type", "join_room"}, {"room", room}, {"seat", 2}})["code"], "bad_request");
  EXPECT_EQ(bob.request({{"type", "create_room"}, {"game", "chess"}})["code"], "unknown_game");
  EXPECT_EQ(bob.request({{"type", "create_room"}, {"game", "cups"}, {"options", {{"cups_per_side", 99}}}})["code"],
            "bad_option");
  EXPECT_EQ(bob.request({{"type", "create_room"}, {"game", "cups"}, {"grace_seconds", 5}})["code"], "bad_option");
  // Joining again is harmless; Bob's join fills the last seat and starts the game.
  EXPECT_EQ(ada.request({{"type", "join_room"}, {"room", room}})["room"]["seats"][0]["name"], "Ada")
      << "joining again is harmless";
  const Json joined = bob.request({{"type", "join_room"}, {"room", room}});
  EXPECT_EQ(joined["room"]["status"], "playing");
  EXPECT_EQ(joined["room"]["version"], 0);
  EXPECT_EQ(joined["room"]["seats"][1]["name"], "Bob");
  const Json started = ada.wait_for([](const Json& m) {
    return m.value("type", "") == "room" && m["room"]["status"] == "playing";
  });
  EXPECT_EQ(started["room"]["state"], joined["room"]["state"]);
  EXPECT_EQ(ada.request({{"type", "leave_room"}, {"room", room}})["type"], "ok");
  const Json presence = bob.wait_for_type("presence");
  EXPECT_EQ(presence["seat"], 0);
  EXPECT_FALSE(presence["connected"].get<bool>());
  EXPECT_TRUE(presence.contains("grace_until"));
  // Whoever looks at the room later learns the same deadline from the room message.
  const Json later = bob.request({{"type", "join_room"}, {"room", room}});
  EXPECT_EQ(later["room"]["seats"][0]["grace_until"], presence["grace_until"]);
  EXPECT_FALSE(later["room"]["seats"][1].contains("grace_until")) << "Bob is here";
}

}  // namespace
}  // namespace mancala::testing
