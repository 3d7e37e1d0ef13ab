// Rematch: when every seat of a finished game asks, a new room starts with the same settings
// and every occupant moved on by one seat; and the ways asking can fail.
#include <gtest/gtest.h>

#include <algorithm>

#include "table.hpp"

namespace mancala::testing {
namespace {

bool is_type(const Json& m, const char* type) { return m.value("type", "") == type; }

// Ends the game at `table` by resignations, from seat 0 on, until it is over.
void end_by_resigning(Table& table) {
  for (std::size_t seat = 0; table.state["result"].is_null() && seat < table.clients.size(); ++seat) {
    const Json update = table.clients[seat]->request({{"type", "resign"}, {"room", table.room}});
    ASSERT_EQ(update["type"], "update") << update.dump();
    for (std::size_t other = 0; other < table.clients.size(); ++other)
      if (other != seat) wait_update(*table.clients[other], update["version"]);
    table.version = update["version"];
    table.state = update["state"];
  }
  ASSERT_FALSE(table.state["result"].is_null());
}

Json ask(Table& table, std::size_t seat) {
  return table.clients[seat]->request({{"type", "rematch"}, {"room", table.room}});
}

// The `rematch` broadcast every client of `table` gets next: the seats that asked.
void expect_asked(Table& table, const Json& seats) {
  for (auto& client : table.clients) {
    const Json note = client->wait_for([](const Json& m) { return is_type(m, "rematch"); });
    EXPECT_EQ(note["room"], table.room);
    EXPECT_EQ(note["seats"], seats);
  }
}

// Every seat asks; returns the new room as each client's `room` message shows it (by old seat).
std::vector<Json> rematch_all(Table& table) {
  Json asked = Json::array();
  for (std::size_t seat = 0; seat < table.clients.size(); ++seat) {
    EXPECT_EQ(ask(table, seat)["type"], "ok");
    asked.push_back(static_cast<int>(seat));
    expect_asked(table, asked);
  }
  std::vector<Json> rooms;
  for (auto& client : table.clients)
    rooms.push_back(client->wait_for([&](const Json& m) {
      return is_type(m, "room") && m["room"]["id"] != table.room;
    })["room"]);
  return rooms;
}

// Seat i of the old room sits at seat i+1 of the new one (the last at seat 0).
void expect_rotated(const Json& old_room, const Json& new_room) {
  const std::size_t seats = old_room["seats"].size();
  ASSERT_EQ(new_room["seats"].size(), seats);
  for (std::size_t seat = 0; seat < seats; ++seat) {
    const Json& before = old_room["seats"][seat];
    const Json& after = new_room["seats"][(seat + 1) % seats];
    EXPECT_EQ(after["player_id"], before["player_id"]) << "old seat " << seat;
    EXPECT_EQ(after["name"], before["name"]);
    EXPECT_EQ(after["bot"], before["bot"]);
  }
}

TEST(Rematch, TwoPlayersGetANewRoomWithTheSeatsRotated) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", {{"cups_per_side", 5}}, 2,
                           {{"clock", {{"initial_s", 180}, {"increment_s", 2}}}});
  const Json old_room = table.clients[0]->request({{"type", "join_room"}, {"room", table.room}})["room"];
  end_by_resigning(table);
  const std::vector<Json> rooms = rematch_all(table);
  const Json& fresh = rooms[0];
  EXPECT_EQ(rooms[1]["id"], fresh["id"]);
  EXPECT_EQ(fresh["status"], "playing");
  EXPECT_EQ(fresh["version"], 0);
  EXPECT_EQ(fresh["game"], "cups");
  EXPECT_EQ(fresh["options"], old_room["options"]);
  EXPECT_TRUE(fresh["private"].get<bool>());
  EXPECT_TRUE(fresh.contains("invite")) << "seated players of a private room see its invite";
  EXPECT_NE(fresh["invite"], old_room["invite"]);
  EXPECT_EQ(fresh["time_control"], old_room["time_control"]);
  const int to_move = fresh["state"]["to_move"];
  EXPECT_EQ(fresh["clock"]["running"], to_move) << "a new clock, running for the seat to move";
  EXPECT_EQ(fresh["clock"]["remaining_ms"][1 - to_move], 180000);
  expect_rotated(old_room, fresh);
  for (const Json& room : rooms)
    for (const Json& seat : room["seats"])
      EXPECT_TRUE(seat["connected"].get<bool>()) << "the first message of the rematch shows both players here";

  // The old room now names the rematch, and the new game is played from there.
  for (auto& client : table.clients) {
    const Json updated = client->wait_for([&](const Json& m) {
      return is_type(m, "room") && m["room"]["id"] == table.room && m["room"].contains("rematch");
    });
    EXPECT_EQ(updated["room"]["rematch"], fresh["id"]);
  }
  EXPECT_EQ(ask(table, 0)["code"], "not_allowed") << "the rematch exists already";
  Table next;
  next.room = fresh["id"];
  next.state = fresh["state"];
  next.clients.push_back(std::move(table.clients[1]));  // old seat 1 is new seat 0
  next.clients.push_back(std::move(table.clients[0]));
  Random rng(2);
  play_one(next, rng);
}

TEST(Rematch, ThreeNjakaPlayersRotate) {
  ServerProcess server;
  Table table = open_table(server.port(), "njaka", {{"players", 3}}, 3);
  const Json old_room = table.clients[0]->request({{"type", "join_room"}, {"room", table.room}})["room"];
  end_by_resigning(table);
  const std::vector<Json> rooms = rematch_all(table);
  for (const auto& room : rooms) EXPECT_EQ(room["id"], rooms[0]["id"]);
  EXPECT_EQ(rooms[0]["options"]["players"], 3);
  EXPECT_EQ(rooms[0]["status"], "playing");
  EXPECT_TRUE(rooms[0]["time_control"].is_null());
  expect_rotated(old_room, rooms[0]);
}

TEST(Rematch, AComputerPlayerAgreesAtOnce) {
  ServerProcess server;
  Client person(server.port());
  person.hello("Person");
  const Json created = person.request(
      {{"type", "create_room"}, {"game", "cups"}, {"bots", {{{"seat", 1}, {"level", 1}}}}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  const std::string room = created["room"]["id"];
  const Json resigned = person.request({{"type", "resign"}, {"room", room}});
  ASSERT_EQ(resigned["type"], "update") << resigned.dump();
  EXPECT_EQ(person.request({{"type", "rematch"}, {"room", room}})["type"], "ok");
  const Json note = person.wait_for([](const Json& m) { return is_type(m, "rematch"); });
  EXPECT_EQ(note["seats"], Json::array({0, 1})) << "the bot's seat asked with the person's";
  const Json fresh = person.wait_for([&](const Json& m) { return is_type(m, "room") && m["room"]["id"] != room; })["room"];
  EXPECT_EQ(fresh["status"], "playing");
  EXPECT_FALSE(fresh["private"].get<bool>());
  EXPECT_EQ(fresh["seats"][0]["bot"], 1) << "the computer player moved from seat 1 to seat 0";
  EXPECT_EQ(fresh["seats"][1]["player_id"], created["room"]["seats"][0]["player_id"]);
  // The lobby names the same host, though the person now sits in seat 1 behind the computer.
  const Json rooms = person.request({{"type", "list_rooms"}})["rooms"];
  const auto listed = std::find_if(rooms.begin(), rooms.end(), [&](const Json& r) { return r["id"] == fresh["id"]; });
  ASSERT_NE(listed, rooms.end()) << rooms.dump();
  EXPECT_EQ((*listed)["host"], "Person");
  // The bot plays its moves in the new room like any.
  if (fresh["state"]["to_move"] == 0) {
    const Json update = person.wait_for([&](const Json& m) { return is_type(m, "update") && m["room"] == fresh["id"]; });
    EXPECT_EQ(update["seat"], 0);
  }
}

TEST(Rematch, RefusedBeforeTheEndToSpectatorsAndAfterSomeoneLeft) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  const Json early = ask(table, 0);
  EXPECT_EQ(early["code"], "not_allowed") << early.dump();
  EXPECT_NE(early.value("message", "").find("not over"), std::string::npos) << early.dump();

  Client watcher(server.port());
  watcher.hello("Watcher");
  ASSERT_EQ(watcher.request({{"type", "join_room"}, {"invite", table.invite}, {"spectate", true}})["type"], "room");
  end_by_resigning(table);
  EXPECT_EQ(watcher.request({{"type", "rematch"}, {"room", table.room}})["code"], "not_a_player");

  ASSERT_EQ(table.clients[1]->request({{"type", "leave_room"}, {"room", table.room}})["type"], "ok");
  const Json late = ask(table, 0);
  EXPECT_EQ(late["code"], "not_allowed") << late.dump();
  EXPECT_NE(late.value("message", "").find("Seat 1"), std::string::npos) << "names who left: " << late.dump();
  EXPECT_EQ(table.clients[0]->request({{"type", "rematch"}, {"room", "nosuchroom"}})["code"], "not_found");
}

}  // namespace
}  // namespace mancala::testing
