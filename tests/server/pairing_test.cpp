// Quick pairing through the real server (issue 47): seeks paired at once into a started room,
// incompatible seeks never, and the ways a seek ends (cancel, the last connection closing, a seat
// taken elsewhere); Njaka's fullest table first, a smaller one after the wait (on a fast clock);
// rated seeks far apart only once the range has widened, and never a player with one they muted.
#include <gtest/gtest.h>

#include <cmath>

#include "harness.hpp"

namespace mancala::testing {
namespace quick_pairing {  // a name of its own: server_test is a unity build

const Json kBlitz = {{"initial_s", 300}, {"increment_s", 3}};

Json seek(const std::string& game, const Json& clock = kBlitz, Json extra = Json::object()) {
  Json message = {{"type", "seek"}, {"game", game}, {"clock", clock}};
  for (const auto& [key, value] : extra.items()) message[key] = value;
  return message;
}

bool is_room(const Json& m) { return m.value("type", "") == "room"; }

// Takes the `seeks` messages in order until one whose open seeks `match` accepts: the ones
// before it are stale (changes within a second may come as one message, so a state between
// two changes may never be sent).
Json seeks_until(Client& watcher, const std::function<bool(const Json& seeks)>& match) {
  for (;;) {
    Json message = watcher.wait_for_type("seeks");
    if (match(message["seeks"])) return message;
  }
}

int waiting(const Json& seeks) {
  int total = 0;
  for (const auto& entry : seeks) total += entry.value("waiting", 0);
  return total;
}

std::string seek_id(Client& client, const Json& message) {
  const Json reply = client.request(message);
  EXPECT_EQ(reply.value("type", ""), "seeking") << reply.dump();
  return reply.value("seek", "");
}

TEST(QuickPairing, TwoCompatibleSeekersArePairedAtOnceIntoAStartedRoom) {
  ServerProcess server;
  Client ada(server.port()), bo(server.port());
  const Json ada_welcome = ada.hello("Ada");
  const Json bo_welcome = bo.hello("Bo");
  EXPECT_FALSE(seek_id(ada, seek("cups")).empty());
  seek_id(bo, seek("cups"));
  const Json for_ada = ada.wait_for(is_room);
  const Json for_bo = bo.wait_for(is_room);
  EXPECT_EQ(for_ada["room"]["id"], for_bo["room"]["id"]);
  EXPECT_FALSE(for_ada.contains("id")) << "unsolicited";
  const Json& room = for_ada["room"];
  EXPECT_EQ(room["status"], "playing");
  EXPECT_EQ(room["version"], 0);
  EXPECT_EQ(room["game"], "cups");
  EXPECT_EQ(room["time_control"], kBlitz);
  std::set<std::string> seated;
  for (const auto& s : room["seats"]) seated.insert(s.value("player_id", ""));
  EXPECT_EQ(seated, (std::set<std::string>{ada_welcome["player_id"], bo_welcome["player_id"]}));
  // Seated as a joiner is: a player of the game, who may resign it.
  const Json resigned = ada.request({{"type", "resign"}, {"room", room["id"]}});
  EXPECT_EQ(resigned.value("type", ""), "update") << resigned.dump();
  EXPECT_EQ(bo.wait_for([](const Json& m) { return m.value("type", "") == "update"; })["action"], "resign");
}

TEST(QuickPairing, IncompatibleSeeksAreNeverPaired) {
  ServerProcess server;
  Client watcher(server.port());
  watcher.hello("Watcher");
  EXPECT_EQ(watcher.request({{"type", "watch_seeks"}})["type"], "ok");
  seeks_until(watcher, [](const Json& seeks) { return seeks.empty(); });
  std::vector<std::unique_ptr<Client>> seekers;
  const std::vector<Json> seeks = {seek("cups"),
                                   seek("cups", Json{{"initial_s", 600}, {"increment_s", 5}}),
                                   seek("cups", Json{{"per_move_s", 86400}}),
                                   seek("cups", nullptr),
                                   seek("cups", kBlitz, {{"options", {{"cups_per_side", 6}}}}),
                                   seek("oanquan")};
  for (std::size_t i = 0; i < seeks.size(); ++i) {
    seekers.push_back(std::make_unique<Client>(server.port()));
    seekers.back()->hello("P" + std::to_string(i));
    seek_id(*seekers.back(), seeks[i]);
  }
  const Json listed = seeks_until(watcher, [&](const Json& s) { return waiting(s) == static_cast<int>(seeks.size()); });
  EXPECT_EQ(listed["seeks"].size(), seeks.size()) << listed.dump();
  EXPECT_EQ(listed["online"]["cups"], 5);
  EXPECT_EQ(listed["online"]["oanquan"], 1);
  // The options spelt out as their defaults are the same kind as none: this one pairs.
  Client same(server.port());
  same.hello("Same");
  seek_id(same, seek("cups", kBlitz, {{"options", {{"cups_per_side", 4}}}}));
  same.wait_for(is_room);
  seekers[0]->wait_for(is_room);
  EXPECT_TRUE(seekers[1]->nothing_matching(is_room, 1500ms));
  for (std::size_t i = 1; i < seekers.size(); ++i) EXPECT_TRUE(seekers[i]->nothing_matching(is_room, 10ms)) << i;
}

TEST(QuickPairing, RatedSeeksNeedAnAccountAndNeverMeetCasualOnes) {
  ServerProcess server;
  const HttpReply signed_up = http_call(server.port(), "POST", "/api/accounts", {{"name", "Rada"}, {"password", "a long enough pass phrase"}});
  ASSERT_EQ(signed_up.status, 201) << signed_up.text;
  Client rada(server.port(), Client::Options{"", "", cookie_of(signed_up.set_cookie)});
  rada.request({{"type", "hello"}});
  Client guest(server.port());
  guest.hello("Guest");
  const Json refused = guest.request(seek("cups", kBlitz, {{"rated", true}}));
  EXPECT_EQ(refused.value("code", ""), "not_allowed") << refused.dump();
  seek_id(rada, seek("cups", kBlitz, {{"rated", true}}));
  seek_id(guest, seek("cups"));
  EXPECT_TRUE(rada.nothing_matching(is_room, 1500ms)) << "rated and casual seeks are of different kinds";
  EXPECT_TRUE(guest.nothing_matching(is_room, 10ms));
}

TEST(QuickPairing, RefusalsSayWhy) {
  ServerProcess server;
  Client ada(server.port());
  ada.hello("Ada");
  EXPECT_EQ(ada.request(seek("chess"))["code"], "unknown_game");
  EXPECT_EQ(ada.request(seek("cups", kBlitz, {{"seats", {3}}}))["code"], "bad_option");
  EXPECT_EQ(ada.request(seek("njaka", kBlitz, {{"options", {{"advanced", true}}}, {"seats", {2, 3}}}))["code"], "bad_option")
      << "the advanced variant is for two only";
  EXPECT_EQ(ada.request({{"type", "cancel_seek"}, {"seek", "nope"}})["code"], "not_found");
  for (int i = 0; i < 3; ++i) seek_id(ada, seek("cups", Json{{"initial_s", 60 + i}}));
  EXPECT_EQ(ada.request(seek("cups"))["code"], "too_many_seeks");
}

TEST(QuickPairing, CancelTheLastConnectionClosingAndASeatTakenElsewhereEndASeek) {
  ServerProcess server;
  Client watcher(server.port());
  watcher.hello("Watcher");
  watcher.request({{"type", "watch_seeks"}});

  Client ada(server.port());
  ada.hello("Ada");
  const std::string id = seek_id(ada, seek("cups"));
  EXPECT_EQ(ada.request({{"type", "cancel_seek"}, {"seek", id}})["type"], "ok");
  EXPECT_EQ(ada.request({{"type", "cancel_seek"}, {"seek", id}})["code"], "not_found") << "ended already";

  // Two tabs: closing one keeps the seek (and the room goes to the other), closing the last ends it.
  Client bo(server.port()), bo_tab(server.port());
  const Json bo_welcome = bo.hello("Bo");
  bo_tab.request({{"type", "hello"}, {"token", bo_welcome["token"]}});
  seek_id(bo, seek("cups"));
  bo.drop();
  Client cy(server.port());
  cy.hello("Cy");
  seek_id(cy, seek("cups"));
  EXPECT_EQ(bo_tab.wait_for(is_room)["room"]["id"], cy.wait_for(is_room)["room"]["id"]) << "Bo's seek outlived his first tab";

  Client di(server.port());
  di.hello("Di");
  seek_id(di, seek("oanquan"));
  seeks_until(watcher, [](const Json& s) { return waiting(s) == 1 && s[0]["game"] == "oanquan"; });
  di.drop();
  seeks_until(watcher, [](const Json& s) { return s.empty(); });

  // A seat taken in a room of one's own ends the seek.
  const std::string njaka_seek = seek_id(ada, seek("njaka"));
  seeks_until(watcher, [](const Json& s) { return waiting(s) == 1 && s[0]["game"] == "njaka"; });
  EXPECT_EQ(ada.request({{"type", "create_room"}, {"game", "cups"}})["type"], "room");
  seeks_until(watcher, [](const Json& s) { return s.empty(); });
  EXPECT_EQ(ada.request({{"type", "cancel_seek"}, {"seek", njaka_seek}})["code"], "not_found");
}

// On a clock 20 times faster, Njaka's 15 s wait for a fourth player is 0.75 s.
TEST(QuickPairing, NjakaSeatsFourAtOnceThenThreeAfterTheWait) {
  ServerProcess server(":memory:", {"--clock-speed", "20"});
  std::vector<std::unique_ptr<Client>> players;
  const auto seeker = [&](const std::string& name) -> Client& {
    players.push_back(std::make_unique<Client>(server.port()));
    players.back()->hello(name);
    seek_id(*players.back(), seek("njaka", kBlitz, {{"seats", {3, 4}}}));
    return *players.back();
  };
  seeker("A");
  seeker("B");
  Client& c = seeker("C");
  EXPECT_TRUE(c.nothing_matching(is_room, 300ms)) << "three of four: a fourth may come";
  seeker("D");
  std::set<std::string> rooms;
  for (std::size_t i = 0; i < 4; ++i) {
    const Json room = players[i]->wait_for(is_room)["room"];
    EXPECT_EQ(room["seats"].size(), 4u);
    EXPECT_EQ(room["options"]["players"], 4);
    EXPECT_EQ(room["status"], "playing");
    rooms.insert(room["id"]);
  }
  EXPECT_EQ(rooms.size(), 1u) << "one table of four";

  const auto started = std::chrono::steady_clock::now();
  seeker("E");
  seeker("F");
  seeker("G");
  const Json room = players[4]->wait_for(is_room, 10s)["room"];
  EXPECT_GE(std::chrono::steady_clock::now() - started, 600ms) << "not before the wait for a fourth";
  EXPECT_EQ(room["seats"].size(), 3u);
  EXPECT_EQ(room["options"]["players"], 3);
  EXPECT_EQ(players[5]->wait_for(is_room)["room"]["id"], room["id"]);
  EXPECT_EQ(players[6]->wait_for(is_room)["room"]["id"], room["id"]);
}


// ---- accounts: rated seeks and mutes -----------------------------------------------------

const std::string kSeekerPassword = "tulip garden 42";

// A new account's connection (its upgrade carries the session cookie) and its player id.
struct Seeker {
  std::string player_id;
  std::string cookie;
  std::unique_ptr<Client> client;
};

Seeker signed_up_seeker(unsigned short port, const std::string& name) {
  const HttpReply reply = http_call(port, "POST", "/api/accounts", {{"name", name}, {"password", kSeekerPassword}});
  EXPECT_EQ(reply.status, 201) << reply.text;
  Seeker seeker{reply.body.value("player_id", ""), cookie_of(reply.set_cookie), nullptr};
  seeker.client = std::make_unique<Client>(port, Client::Options{"", "", seeker.cookie});
  seeker.client->request({{"type", "hello"}});
  return seeker;
}

std::set<std::string> seated_players(const Json& room) {
  std::set<std::string> ids;
  for (const auto& seat : room["seats"]) ids.insert(seat.value("player_id", ""));
  return ids;
}

// The `room` message a rated result sends once the new ratings are read: a seat rated anew.
Json rerated_room(Client& client, const std::string& room_id) {
  return client.wait_for([&](const Json& m) {
    if (!is_room(m) || m["room"].value("id", "") != room_id) return false;
    for (const auto& seat : m["room"]["seats"])
      if (seat.value("rating", 1500) != 1500) return true;
    return false;
  })["room"];
}

// Ada beats Bo in a rated game, so their ratings end far apart (one game moves a newcomer's
// rating by well over 100); their next rated seeks wait until the range has grown to the gap.
// On a clock 20 times faster, every 5 s step of the range is a quarter of a real second.
TEST(QuickPairing, RatedSeeksFarApartPairOnlyOnceTheRangeHasWidenedToTheirGap) {
  constexpr int kSpeed = 20;
  ServerProcess server(":memory:", {"--clock-speed", std::to_string(kSpeed)});
  Seeker ada = signed_up_seeker(server.port(), "Ada");
  Seeker bo = signed_up_seeker(server.port(), "Bo");
  const Json rated = seek("cups", kBlitz, {{"rated", true}});
  seek_id(*ada.client, rated);
  seek_id(*bo.client, rated);
  const std::string first = ada.client->wait_for(is_room)["room"]["id"];
  ASSERT_EQ(bo.client->wait_for(is_room)["room"]["id"], first) << "equal ratings pair at once";
  EXPECT_EQ(bo.client->request({{"type", "resign"}, {"room", first}})["type"], "update");
  const Json rerated = rerated_room(*ada.client, first);
  rerated_room(*bo.client, first);
  double gap = 0;
  for (const auto& seat : rerated["seats"]) gap = seat["player_id"] == ada.player_id ? gap + seat["rating"].get<double>()
                                                                                      : gap - seat["rating"].get<double>();
  ASSERT_GT(gap, 150) << rerated.dump();
  ASSERT_LT(gap, 500) << "within the widest range: they pair in the end";

  // The range first covers the gap after this many 5 s steps of the later seeker's wait.
  const int steps = static_cast<int>(std::ceil((gap - 100) / 50));
  const auto earliest = std::chrono::milliseconds(5000 * steps / kSpeed);
  seek_id(*ada.client, rated);
  const auto started = std::chrono::steady_clock::now();
  seek_id(*bo.client, rated);
  const Json room = ada.client->wait_for([&](const Json& m) { return is_room(m) && m["room"]["id"] != first; }, 20s)["room"];
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_GE(waited, earliest - 100ms) << "paired before the range reached their gap of " << gap;
  EXPECT_EQ(room["rated"], true);
  EXPECT_EQ(seated_players(room), (std::set<std::string>{ada.player_id, bo.player_id}));
  EXPECT_EQ(bo.client->wait_for([&](const Json& m) { return is_room(m) && m["room"]["id"] != first; })["room"]["id"],
            room["id"]);
}

// Ada muted Bo: their seeks wait side by side, and Cy, who comes next, gets Ada.
TEST(QuickPairing, PlayersWhereOneMutedTheOtherAreNeverPaired) {
  ServerProcess server;
  Seeker ada = signed_up_seeker(server.port(), "Ada");
  Seeker bo = signed_up_seeker(server.port(), "Bo");
  Seeker cy = signed_up_seeker(server.port(), "Cy");
  const HttpReply muted = http_call(server.port(), "PUT", "/api/account/mutes/" + bo.player_id, {{"name", "Bo"}},
                                    {{"Cookie", ada.cookie}});
  ASSERT_EQ(muted.status, 200) << muted.text;
  seek_id(*ada.client, seek("cups"));
  seek_id(*bo.client, seek("cups"));  // a pair that fits in every way but the mute
  seek_id(*cy.client, seek("cups"));
  const Json room = cy.client->wait_for(is_room)["room"];
  EXPECT_EQ(seated_players(room), (std::set<std::string>{ada.player_id, cy.player_id}));
  EXPECT_EQ(ada.client->wait_for(is_room)["room"]["id"], room["id"]);
  // A pairing of Ada and Bo would have happened on Bo's seek, before Cy's: any room is here by now.
  EXPECT_TRUE(bo.client->nothing_matching(is_room, 200ms)) << "Bo was paired although Ada muted him";
}

// Ada resigns two paired games before her first move (Bo's games are not counted: he never left
// one): her next seek is considered only 30 s after it is made (1.5 s on a clock 20 times
// faster). Cy and Di, who seek after her, are paired with each other first; Eve, who comes once
// the delay is over, is paired with Ada.
TEST(QuickPairing, APlayerWhoLeavesPairedGamesUnplayedIsPairedLaterThanOthers) {
  constexpr int kSpeed = 20;
  ServerProcess server(":memory:", {"--clock-speed", std::to_string(kSpeed)});
  Client ada(server.port()), bo(server.port());
  ada.hello("Ada");
  const std::string bo_id = bo.hello("Bo")["player_id"];
  for (int game = 0; game < 2; ++game) {
    seek_id(ada, seek("cups"));
    seek_id(bo, seek("cups"));
    const std::string room = ada.wait_for(is_room)["room"]["id"];
    bo.wait_for(is_room);
    EXPECT_EQ(ada.request({{"type", "resign"}, {"room", room}}).value("type", ""), "update");
  }
  // Counted once each game's end is stored; the log says so.
  const auto counted = [&] {
    const std::string log = server.log();
    std::size_t count = 0;
    for (auto at = log.find("\"paired_game_left_unplayed\""); at != std::string::npos;
         at = log.find("\"paired_game_left_unplayed\"", at + 1))
      ++count;
    return count;
  };
  wait_until([&] { return counted() >= 2; }, 10s, "both games counted");
  EXPECT_EQ(counted(), 2u) << server.log();
  EXPECT_EQ(server.log().find("\"player\":\"" + bo_id + "\""), std::string::npos) << "Bo left none";

  // The reply says how long she waits, so the page can tell her why.
  const Json delayed = ada.request(seek("cups"));
  const auto sought = std::chrono::steady_clock::now();
  EXPECT_EQ(delayed.value("type", ""), "seeking") << delayed.dump();
  EXPECT_EQ(delayed.value("delayed_s", 0), 30) << delayed.dump();
  Client cy(server.port()), di(server.port()), eve(server.port());
  cy.hello("Cy");
  di.hello("Di");
  eve.hello("Eve");
  EXPECT_FALSE(cy.request(seek("cups")).contains("delayed_s")) << "no wait for who left nothing unplayed";
  seek_id(di, seek("cups"));
  EXPECT_EQ(cy.wait_for(is_room)["room"]["id"], di.wait_for(is_room)["room"]["id"]) << "Cy and Di go first";
  seek_id(eve, seek("cups"));
  const Json room = ada.wait_for(is_room, 20s)["room"];
  EXPECT_GE(std::chrono::steady_clock::now() - sought, std::chrono::milliseconds(30000 / kSpeed))
      << "two games left unplayed: 30 s";
  EXPECT_EQ(eve.wait_for(is_room)["room"]["id"], room["id"]);
}

}  // namespace quick_pairing
}  // namespace mancala::testing
