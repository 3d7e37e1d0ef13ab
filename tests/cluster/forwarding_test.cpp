// Several mancala-server processes on one PostgreSQL database, with clients spread over them
// (label `cluster`; issue 19, stages B and C): room messages for a room another process owns
// are forwarded to it over LISTEN/NOTIFY and its frames come back; the lobby lists and pushes
// every process's rooms; a room whose owner is SIGKILLed goes on for clients of other processes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <thread>

#include "table.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

const std::vector<std::string> kShortLease = {"--lease-ms", "600"};

// A private Cups room owned by the process on `owner_port`, where seat i plays through a client
// on `seat_ports[i]`: seat 0 creates the room on the owner and then, when its port is another,
// comes back there with its token (a reconnection through another process); seat 1 joins by
// invite on its port. Returns once both see the game at version 0.
Table open_spread_table(unsigned short owner_port, const std::vector<unsigned short>& seat_ports) {
  Table table;
  auto creator = std::make_unique<Client>(owner_port);
  table.tokens.push_back(creator->hello("Seat 0").at("token"));
  const Json created = creator->request({{"type", "create_room"}, {"game", "cups"}, {"private", true}});
  if (created.value("type", "") != "room") throw std::runtime_error("create_room failed: " + created.dump());
  table.room = created["room"]["id"];
  table.invite = created["room"]["invite"];
  table.clients.push_back(std::move(creator));
  table.clients.push_back(std::make_unique<Client>(seat_ports[1]));
  table.tokens.push_back(table.clients[1]->hello("Seat 1").at("token"));
  const Json joined = table.clients[1]->request({{"type", "join_room"}, {"invite", table.invite}});
  if (joined.value("type", "") != "room" || joined["room"]["status"] != "playing")
    throw std::runtime_error("join_room by invite through another process failed: " + joined.dump());
  table.state = joined["room"]["state"];
  table.states.push_back(table.state);
  if (seat_ports[0] != owner_port) {
    table.clients[0] = std::make_unique<Client>(seat_ports[0]);
    const Json welcome = table.clients[0]->request({{"type", "hello"}, {"token", table.tokens[0]}});
    if (welcome.value("type", "") != "welcome") throw std::runtime_error("hello failed: " + welcome.dump());
  }
  const Json room = table.clients[0]->wait_for(
      [](const Json& m) { return m.value("type", "") == "room" && m["room"]["status"] == "playing"; });
  if (room["room"]["version"] != 0 || room["room"]["state"] != table.state)
    throw std::runtime_error("seat 0 was sent another room: " + room.dump());
  return table;
}

// The lobby entry of `room` in a `rooms` message (null when it is not listed).
Json entry_of(const Json& rooms, const std::string& room) {
  for (const auto& entry : rooms["rooms"])
    if (entry["id"] == room) return entry;
  return Json();
}

// Asks `client` for the lobby until `room` is listed with `status`, or `limit` passes; the entry.
Json wait_listed(Client& client, const std::string& room, const std::string& status, std::chrono::milliseconds limit) {
  Json entry;
  eventually(  // asks again: the entry is on its way over the bus
      [&] {
        entry = entry_of(client.request({{"type", "list_rooms"}}), room);
        return !entry.is_null() && entry["status"] == status;
      },
      limit, 50ms);
  return entry;
}

// One player on the process that owns the room, the other on another: the second's moves and
// their acknowledgements, and every update for him, cross the bus; the game is played to its end.
TEST(Forwarding, TwoClientsOnDifferentProcessesPlayAWholeGame) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db);
  ServerProcess other(db);
  Table table = open_spread_table(owner.port(), {owner.port(), other.port()});
  const int updates = play_to_end(table, 7);
  EXPECT_GT(updates, 5);
  EXPECT_FALSE(table.state["result"].is_null()) << "the game ended";
  EXPECT_EQ(stored_moves(other.port(), table).size(), static_cast<std::size_t>(table.version))
      << "every update the clients saw is in the history (a Cups game has moves only)";
  const Json synced = table.clients[1]->request({{"type", "sync"}, {"room", table.room}, {"since", 0}});
  EXPECT_EQ(synced["type"], "updates") << "sync goes to the owner too: " << synced.dump();
  EXPECT_EQ(synced["updates"].size(), static_cast<std::size_t>(table.version));
  EXPECT_GT(synced.dump().size(), 7900u) << "long enough to come back through a bus_spill row";
}

// The joiner by invite and by room id talks to a process that does not hold the room.
TEST(Forwarding, JoinByInviteAndByRoomIdThroughAnotherProcess) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db);
  ServerProcess other(db);
  Client host(owner.port());
  host.hello("Host");
  const Json created = host.request({{"type", "create_room"}, {"game", "cups"}, {"private", true}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  Client by_invite(other.port());
  by_invite.hello("Invited");
  const Json joined = by_invite.request({{"type", "join_room"}, {"invite", created["room"]["invite"]}});
  ASSERT_EQ(joined["type"], "room") << joined.dump();
  EXPECT_EQ(joined["room"]["id"], created["room"]["id"]);
  EXPECT_EQ(joined["room"]["seats"][1]["name"], "Invited");
  Client stranger(other.port());
  stranger.hello("Stranger");
  const Json refused = stranger.request({{"type", "join_room"}, {"invite", "no-such-invite"}});
  EXPECT_EQ(refused["code"], "forbidden") << refused.dump();
  const Json by_id = stranger.request({{"type", "join_room"}, {"room", created["room"]["id"]}, {"spectate", true}});
  EXPECT_EQ(by_id["code"], "forbidden") << "the owner's room judged it: private, joined by invite only: " << by_id.dump();
  const Json unknown = stranger.request({{"type", "join_room"}, {"room", "nosuchroom"}});
  EXPECT_EQ(unknown["code"], "not_found") << unknown.dump();
  // The game started for the host on the owner, with the invited player in seat 1.
  const Json seen = host.wait_for([](const Json& m) { return m.value("type", "") == "room" && m["room"]["status"] == "playing"; });
  EXPECT_EQ(seen["room"]["seats"][1]["name"], "Invited");
}

// A log-out on one process ends the session's connections on every process: a device that
// connected through another process is closed at once, and its hello there is refused after.
TEST(Forwarding, ALogOutClosesTheSessionsConnectionsOnEveryProcess) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess here(db);
  ServerProcess there(db);
  const HttpReply signed_up = http_call(here.port(), "POST", "/api/accounts", {{"name", "Ada"}, {"password", "tulip garden 42"}});
  ASSERT_EQ(signed_up.status, 201) << signed_up.body.dump();
  const std::string cookie = cookie_of(signed_up.set_cookie);
  Client elsewhere(there.port(), Client::Options{"", "", cookie});
  const Json welcome = elsewhere.request({{"type", "hello"}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();

  const HttpReply out = http_call(here.port(), "DELETE", "/api/session", Json(), {{"Cookie", cookie}});
  ASSERT_EQ(out.status, 200) << out.body.dump();
  EXPECT_TRUE(elsewhere.wait_closed(5s)) << "the session's connection on the other process is closed";
  Client again(there.port(), Client::Options{"", "", cookie});
  EXPECT_EQ(again.request({{"type", "hello"}})["code"], "bad_token");
}

// An account changed on one process is read again by the others that knew the player: a guest's
// token stops working there once he claimed an account here, and a rated result played here
// shows its new rating in a room there.
TEST(Forwarding, AnAccountChangedOnOneProcessIsReadAgainByTheOthers) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess here(db);
  ServerProcess there(db);
  Client guest(here.port());
  const std::string token = guest.hello("Ada").at("token");
  const auto hello_there = [&](const Json& hello, const std::string& cookie = "") {
    Client client(there.port(), Client::Options{"", "", cookie});
    return client.request(hello);
  };
  ASSERT_EQ(hello_there({{"type", "hello"}, {"token", token}})["type"], "welcome") << "the other process knows Ada now";
  Client guest_there(there.port());
  ASSERT_EQ(guest_there.request({{"type", "hello"}, {"token", token}})["type"], "welcome");

  const HttpReply claimed = http_call(here.port(), "POST", "/api/accounts", {{"name", "Ada"}, {"password", "tulip garden 42"}},
                                      {{"Authorization", "Bearer " + token}});
  ASSERT_EQ(claimed.status, 201) << claimed.body.dump();
  EXPECT_TRUE(eventually([&] { return hello_there({{"type", "hello"}, {"token", token}}).value("code", "") == "bad_token"; }))
      << "the guest's token stops working on the other process too";
  EXPECT_TRUE(guest.wait_closed(5s)) << "the connection that said hello with the token is ended";
  EXPECT_TRUE(guest_there.wait_closed(5s)) << "there too";

  const std::string ada = cookie_of(claimed.set_cookie);
  const HttpReply bob_signed_up = http_call(here.port(), "POST", "/api/accounts", {{"name", "Bob"}, {"password", "tulip garden 42"}});
  ASSERT_EQ(bob_signed_up.status, 201);
  Client ada_there(there.port(), Client::Options{"", "", ada});
  ASSERT_EQ(ada_there.request({{"type", "hello"}})["type"], "welcome");
  Client ada_here(here.port(), Client::Options{"", "", ada});
  ada_here.request({{"type", "hello"}});
  Client bob_here(here.port(), Client::Options{"", "", cookie_of(bob_signed_up.set_cookie)});
  bob_here.request({{"type", "hello"}});
  const Json rated = ada_here.request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
  ASSERT_EQ(rated["type"], "room") << rated.dump();
  ASSERT_EQ(bob_here.request({{"type", "join_room"}, {"room", rated["room"]["id"]}})["room"]["status"], "playing");
  ASSERT_EQ(bob_here.request({{"type", "resign"}, {"room", rated["room"]["id"]}})["type"], "update");
  int stored = 0;
  ASSERT_TRUE(eventually([&] {
    const HttpReply profile = http_call(here.port(), "GET", "/api/players/ada");
    if (!profile.body["ratings"].contains("cups")) return false;
    stored = static_cast<int>(std::lround(profile.body["ratings"]["cups"]["rating"].get<double>()));
    return true;
  }));
  ASSERT_GT(stored, 1500) << "Ada won";
  Json shown;
  EXPECT_TRUE(eventually([&] {
    const Json room = ada_there.request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
    shown = room["room"]["seats"][0]["rating"];
    ada_there.request({{"type", "leave_room"}, {"room", room["room"]["id"]}});
    return shown == stored;
  })) << "a room on the other process shows Ada's new rating, not " << shown;
}

// Issue 46 (items 9 and 11): an account that plays through another process is an account in the
// owner's room (its flag and its ratings cross the bus with each request), and no guest on any
// process can take a name that passes for an account made on another one after it started.
TEST(Forwarding, AnAccountIsOneInAnotherProcesssRoomAndItsNameIsReservedOnEveryProcess) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess here(db);
  ServerProcess there(db);
  ServerProcess third(db);
  const auto sign_up = [&](const std::string& name) {
    const HttpReply reply = http_call(here.port(), "POST", "/api/accounts", {{"name", name}, {"password", "tulip garden 42"}});
    EXPECT_EQ(reply.status, 201) << reply.body.dump();
    return cookie_of(reply.set_cookie);
  };
  const std::string carol = sign_up("carol");
  const std::string bob = sign_up("Bob");
  Client guest(there.port());
  EXPECT_EQ(guest.request({{"type", "hello"}, {"name", "c\u0430rol"}})["message"],
            "'c\u0430rol' looks like the account 'carol': pick another name")
      << "an account made on another process, after this one started";

  const auto connect = [](ServerProcess& process, const std::string& cookie) {
    auto client = std::make_unique<Client>(process.port(), Client::Options{"", "", cookie});
    EXPECT_EQ(client->request({{"type", "hello"}})["type"], "welcome");
    return client;
  };
  const auto carol_there = connect(there, carol);
  const auto bob_here = connect(here, bob);
  // A rated game in a room of `there`, Bob playing through `here`: a rated room seats accounts only.
  const Json created = carol_there->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  const Json joined = bob_here->request({{"type", "join_room"}, {"room", created["room"]["id"]}});
  ASSERT_EQ(joined["type"], "room") << "Bob is an account in the owner's room: " << joined.dump();
  EXPECT_EQ(joined["room"]["seats"][1]["account"], true);
  ASSERT_EQ(bob_here->request({{"type", "resign"}, {"room", created["room"]["id"]}})["type"], "update");
  Json shown;
  ASSERT_TRUE(eventually([&] {  // Carol won; her process reads her new rating
    const Json room = carol_there->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
    shown = room["room"]["seats"][0];
    carol_there->request({{"type", "leave_room"}, {"room", room["room"]["id"]}});
    return shown.value("rating", 0) > 1500;
  })) << shown.dump();

  // A process that never met Carol learns her rating from her request alone.
  const auto bob_third = connect(third, bob);
  const Json other = bob_third->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
  ASSERT_EQ(other["type"], "room") << other.dump();
  const Json seated = carol_there->request({{"type", "join_room"}, {"room", other["room"]["id"]}});
  ASSERT_EQ(seated["type"], "room") << seated.dump();
  EXPECT_EQ(seated["room"]["seats"][1]["account"], true);
  EXPECT_EQ(seated["room"]["seats"][1]["rating"], shown["rating"]) << seated.dump();
}

// No lookup of another process's room, invite or player runs on a network thread: with one
// network thread and every lookup made slow (--test-read-delay-ms), a join by an invite made on
// another process and a hello with a token made there wait on a reader, while a game on this
// process plays on; then both are answered.
TEST(Forwarding, LookupsForOtherProcessesHoldUpNoNetworkThread) {
  constexpr int kDelayMs = 4000;
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db);
  ServerProcess slow(db, {"--threads", "1", "--test-read-delay-ms", std::to_string(kDelayMs)});
  Client host(owner.port());
  const std::string host_token = host.hello("Host").at("token");
  const Json created = host.request({{"type", "create_room"}, {"game", "cups"}, {"private", true}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  Table local = open_table(slow.port(), "cups", Json::object(), 2);
  Random rng(17);

  Client joiner(slow.port());
  joiner.hello("Joiner");
  Client returning(slow.port());
  const auto asked = std::chrono::steady_clock::now();
  joiner.send({{"type", "join_room"}, {"invite", created["room"]["invite"]}, {"id", 7001}});
  returning.send({{"type", "hello"}, {"token", host_token}, {"id", 7002}});
  for (int i = 0; i < 3; ++i) play_one(local, rng);
  // A forwarded join's answer comes back over the bus after its lookup, so the order of the
  // answers cannot tell; the time can: a lookup on the one network thread holds every move
  // for the whole delay.
  EXPECT_LT(std::chrono::steady_clock::now() - asked, std::chrono::milliseconds(kDelayMs))
      << "three moves waited for a lookup: it held up the network thread";
  const auto answered = [](const Json& m) { return m.contains("id") && (m["id"] == 7001 || m["id"] == 7002); };

  const Json joined = joiner.wait_for(answered, std::chrono::milliseconds(4 * kDelayMs));
  EXPECT_EQ(joined.value("type", ""), "room") << joined.dump();
  const Json welcome = returning.wait_for(answered, std::chrono::milliseconds(4 * kDelayMs));
  EXPECT_EQ(welcome.value("type", ""), "welcome") << welcome.dump();
}

// The lobby of every process: a public room of process 1 is listed by process 2 exactly as
// process 1 lists it, watchers on process 2 hear of its changes, a process started later lists
// it too, and a player on process 2 joins it by its id.
TEST(Lobby, EveryProcessListsAndPushesTheRoomsOfTheOthers) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess first(db);
  ServerProcess second(db);
  Client watcher(second.port());
  watcher.hello("Watcher");
  EXPECT_EQ(watcher.request({{"type", "watch_lobby"}})["type"], "ok");
  Client host(first.port());
  host.hello("Host");
  const Json created = host.request({{"type", "create_room"}, {"game", "cups"}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  const std::string room = created["room"]["id"];

  const Json pushed = watcher.wait_for([&](const Json& m) { return m.value("type", "") == "rooms" && !entry_of(m, room).is_null(); });
  const Json on_first = entry_of(host.request({{"type", "list_rooms"}}), room);
  EXPECT_EQ(entry_of(pushed, room), on_first) << "the watcher on process 2 sees the entry process 1 lists";
  EXPECT_EQ(entry_of(watcher.request({{"type", "list_rooms"}}), room), on_first);

  ServerProcess third(db);  // started after the room: it asks the others for their entries
  Client late(third.port());
  late.hello("Late");
  EXPECT_EQ(wait_listed(late, room, "waiting", 10s), on_first);

  Client joiner(second.port());
  joiner.hello("Joiner");
  const Json joined = joiner.request({{"type", "join_room"}, {"room", room}});
  ASSERT_EQ(joined["type"], "room") << joined.dump();
  EXPECT_EQ(joined["room"]["status"], "playing");
  const Json playing = watcher.wait_for([&](const Json& m) {
    return m.value("type", "") == "rooms" && entry_of(m, room).value("status", "") == "playing";
  });
  EXPECT_EQ(entry_of(playing, room)["seats"][1]["name"], "Joiner") << "watch_lobby pushed the change";
  EXPECT_EQ(wait_listed(late, room, "playing", 10s)["seats"][1]["name"], "Joiner");
}

// The owner is SIGKILLed mid-game while both players sit on other processes (one on each of
// the two survivors; seat 0 created the room on the owner and came back on a survivor).
// Whichever survivor takes the room, both players keep their connections, are sent the room
// again at the exact version, and play on; every acknowledged move is kept.
TEST(Forwarding, TheGameGoesOnForClientsOfOtherProcessesWhenTheOwnerIsKilled) {
  const std::string db = TempPostgres::shared().create_database();
  auto owner = std::make_unique<ServerProcess>(db, kShortLease);
  ServerProcess second(db, kShortLease);
  ServerProcess third(db, kShortLease);
  Table table = open_spread_table(owner->port(), {second.port(), third.port()});
  std::vector<std::string> played;
  Random rng(11);
  for (int i = 0; i < 6; ++i) played.push_back(play_one(table, rng)["tokens"]);
  ASSERT_TRUE(table.state["result"].is_null()) << "the game must still be on";

  owner->kill_hard();
  for (std::size_t seat = 0; seat < table.clients.size(); ++seat) {
    Json room;
    try {
      room = table.clients[seat]->wait_for(
          [&](const Json& m) { return m.value("type", "") == "room" && m["room"]["id"] == table.room; }, 10s);
    } catch (const std::exception& e) {
      FAIL() << "seat " << seat << " was not sent the room after the take-over: " << e.what()
             << "\nsecond:\n" << second.log() << "\nthird:\n" << third.log();
    }
    EXPECT_EQ(room["room"]["version"], table.version) << "seat " << seat << " is sent the room at the exact version";
    EXPECT_EQ(room["room"]["state"], table.state);
  }
  for (int i = 0; i < 200 && table.state["result"].is_null(); ++i) played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_FALSE(table.state["result"].is_null()) << "played to the end";
  EXPECT_EQ(stored_moves(second.port(), table), played) << "every acknowledged move is in the history";
}

// The process a player is connected to dies: the owner drops his proxy once that process's
// lease has run out, so the others see him gone (his grace time starts) as for a local client.
TEST(Forwarding, APlayerWhoseProcessDiesIsSeenToLeave) {
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db, kShortLease);
  auto other = std::make_unique<ServerProcess>(db, kShortLease);
  Table table = open_spread_table(owner.port(), {owner.port(), other->port()});
  other->kill_hard();
  const Json gone = table.clients[0]->wait_for(
      [](const Json& m) { return m.value("type", "") == "presence" && m["seat"] == 1 && m["connected"] == false; }, 10s);
  EXPECT_TRUE(gone.contains("grace_until")) << gone.dump();
}

}  // namespace
}  // namespace mancala::testing
