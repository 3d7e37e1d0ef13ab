// Computer players in rooms: whole games against bots in every game, add_bot, the checks on
// bot seats, Plex! races against a bot, a restart with a bot to move, the history and metrics.
// The person plays random legal tokens; bots play at levels 1-2 where whole games are played,
// so that the suite stays quick.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "mancala/registry.hpp"
#include "table.hpp"

namespace mancala::testing {
namespace {

// What the person does when a Plex! window opens.
enum class PersonPlex { waits, claims_at_once, alternates };

// One person against computer players, as that person's client sees it.
struct BotGame {
  std::unique_ptr<Client> person;
  std::string token;
  std::string room;
  int seat = 0;
  std::int64_t version = 0;
  Json state;
  int bot_moves = 0;
  int races_won_by_person = 0;
  int races_won_by_bots = 0;
};

Json create_with_bots(Client& client, const std::string& game, const Json& options, const Json& bots,
                      int seat = 0) {
  return client.request({{"type", "create_room"}, {"game", game}, {"options", options}, {"seat", seat}, {"bots", bots}});
}

// Creates a room where the person sits at `seat` and bots fill every other seat; the game
// starts at once.
BotGame open_bot_game(unsigned short port, const std::string& game, const Json& options, const Json& bots,
                      int seat = 0) {
  BotGame out;
  out.person = std::make_unique<Client>(port);
  out.token = out.person->hello("Person").at("token");
  out.seat = seat;
  const Json created = create_with_bots(*out.person, game, options, bots, seat);
  if (created.value("type", "") != "room") throw std::runtime_error("create_room failed: " + created.dump());
  const Json& room = created["room"];
  EXPECT_EQ(room["status"], "playing") << "bots fill the other seats: the game starts at once";
  EXPECT_EQ(room["version"], 0);
  for (const auto& bot : bots) {
    const Json& view = room["seats"][bot["seat"].get<std::size_t>()];
    EXPECT_EQ(view["bot"], bot["level"]);
    EXPECT_EQ(view["name"], "Computer, level " + std::to_string(bot["level"].get<int>()));
    EXPECT_TRUE(view["connected"].get<bool>());
  }
  EXPECT_EQ(room["seats"][static_cast<std::size_t>(seat)]["bot"], false);
  out.room = room["id"];
  out.state = room["state"];
  return out;
}

void accept(BotGame& game, const Json& update) {
  EXPECT_EQ(update["version"], game.version + 1) << update.dump();
  game.version = update["version"];
  game.state = update["state"];
}

void resolve_race(BotGame& game, bool person_claims) {
  const Json open = game.person->wait_for_type("plex_open");
  Json resolution;
  if (person_claims) {
    resolution = game.person->request({{"type", "plex"}, {"room", game.room}, {"window", open["window"]}});
    if (resolution["type"] != "update") {  // a slow machine: a bot was quicker after all
      EXPECT_EQ(resolution["code"], "plex_lost") << resolution.dump();
      resolution = wait_update(*game.person, game.version + 1);
    }
  } else {
    resolution = wait_update(*game.person, game.version + 1);
  }
  const Json& result = resolution["events"][0];
  EXPECT_EQ(result["event"], "plex_result");
  EXPECT_FALSE(result["fallback"].get<bool>()) << "a bot claims long before the deadline";
  if (result["winner"] == game.seat) {
    ++game.races_won_by_person;
    EXPECT_TRUE(person_claims);
  } else {
    ++game.races_won_by_bots;
    EXPECT_GE(result["latency_ms"].get<int>(), 300) << "no bot claims before 300 ms";
  }
  accept(game, resolution);
}

// One update: the person's random move, a bot's move, or a Plex! race.
void play_one(BotGame& game, Random& rng, PersonPlex plex) {
  if (game.state["phase"] == "plex") {
    const int races = game.races_won_by_person + game.races_won_by_bots;
    return resolve_race(game, plex == PersonPlex::claims_at_once || (plex == PersonPlex::alternates && races % 2 == 0));
  }
  const int to_move = game.state["to_move"];
  if (to_move == game.seat) {
    const auto& legal = game.state["legal"];
    const std::string token = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
    const Json update = game.person->request(
        {{"type", "move"}, {"room", game.room}, {"expected_version", game.version}, {"tokens", token}});
    if (update.value("type", "") != "update") throw std::runtime_error("move refused: " + update.dump());
    return accept(game, update);
  }
  const Json update = wait_update(*game.person, game.version + 1);
  EXPECT_EQ(update["seat"], to_move) << "the bot to move moved";
  EXPECT_EQ(update["action"], "move");
  EXPECT_FALSE(update["tokens"].get<std::string>().empty());
  ++game.bot_moves;
  accept(game, update);
}

void play_to_end(BotGame& game, std::uint64_t seed, PersonPlex plex = PersonPlex::alternates) {
  Random rng(seed);
  for (int updates = 0; game.state["result"].is_null() && updates < 20000; ++updates) {
    play_one(game, rng, plex);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(game.state["phase"], "over");
  EXPECT_FALSE(game.state["result"].is_null());
}

Json bot(int seat, int level) { return {{"seat", seat}, {"level", level}}; }

std::string metrics(unsigned short port) {
  std::string body;
  EXPECT_EQ(http_get(port, "/metrics", &body), 200);
  return body;
}

double metric(const std::string& text, const std::string& name) {
  const auto at = text.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + name.size() + 2));
}

TEST(Bots, WholeGamesAgainstLevelsOneAndTwoInEveryGame) {
  ServerProcess server;
  std::uint64_t seed = 1;
  for (const auto& type : game_types()) {
    for (int level : {1, 2}) {
      SCOPED_TRACE(std::string(type.id) + " against level " + std::to_string(level));
      const int seat = static_cast<int>(seed % 2);  // the person sits first or second
      BotGame game = open_bot_game(server.port(), std::string(type.id), Json::object(), Json::array({bot(1 - seat, level)}), seat);
      play_to_end(game, seed++);
      EXPECT_GT(game.bot_moves, 0);
      if (::testing::Test::HasFailure()) return;
    }
  }
  const std::string text = metrics(server.port());
  EXPECT_GT(metric(text, "mancala_bot_moves_total"), 0) << text;
  EXPECT_GT(metric(text, "mancala_bot_think_seconds_count"), 0);
  EXPECT_EQ(metric(text, "mancala_bot_queue"), 0);
}

TEST(Bots, NjakaOfThreeAndFourWithTwoAndThreeBots) {
  ServerProcess server;
  BotGame three = open_bot_game(server.port(), "njaka", {{"players", 3}}, Json::array({bot(0, 1), bot(2, 2)}), 1);
  play_to_end(three, 5);
  BotGame four = open_bot_game(server.port(), "njaka", {{"players", 4}}, Json::array({bot(1, 2), bot(2, 1), bot(3, 1)}));
  play_to_end(four, 6);
}

TEST(Bots, PlexRacesThePersonClaimsFirstOrTheBotClaims) {
  ServerProcess server;
  int person = 0;
  int bots = 0;
  for (std::uint64_t seed = 1; seed <= 6 && (person == 0 || bots == 0); ++seed) {
    BotGame game = open_bot_game(server.port(), "njaka", Json::object(), Json::array({bot(1, 1)}));
    // Games of one race are common: the person claims in odd games and waits in even ones.
    play_to_end(game, seed, seed % 2 ? PersonPlex::claims_at_once : PersonPlex::waits);
    person += game.races_won_by_person;
    bots += game.races_won_by_bots;
  }
  EXPECT_GT(person, 0) << "a person who claims at once beats the bot's reaction time";
  EXPECT_GT(bots, 0) << "a bot claims when the person does not";
}

TEST(Bots, AddBotFillsAFreeSeatWhileTheRoomWaits) {
  ServerProcess server;
  Client owner(server.port());
  owner.hello("Owner");
  Client watcher(server.port());
  watcher.hello("Watcher");
  const Json created = owner.request({{"type", "create_room"}, {"game", "njaka"}, {"options", {{"players", 3}}}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  const std::string room = created["room"]["id"];
  ASSERT_EQ(watcher.request({{"type", "join_room"}, {"room", room}, {"spectate", true}})["type"], "room");

  const auto add = [&](Client& client, int seat, int level) {
    return client.request({{"type", "add_bot"}, {"room", room}, {"seat", seat}, {"level", level}});
  };
  EXPECT_EQ(add(watcher, 1, 2)["code"], "not_a_player") << "only a seated player adds bots";
  EXPECT_EQ(add(owner, 0, 2)["code"], "seat_taken");
  EXPECT_EQ(add(owner, 3, 2)["code"], "bad_request") << "a room of three has seats 0..2";
  EXPECT_EQ(add(owner, 1, 6)["code"], "bad_request");
  EXPECT_EQ(owner.request({{"type", "add_bot"}, {"room", "nope"}, {"seat", 1}, {"level", 1}})["code"], "not_found");

  const Json waiting = add(owner, 2, 4);
  ASSERT_EQ(waiting["type"], "room") << waiting.dump();
  EXPECT_EQ(waiting["room"]["status"], "waiting");
  EXPECT_EQ(waiting["room"]["seats"][2]["bot"], 4);
  EXPECT_EQ(waiting["room"]["seats"][2]["name"], "Computer, level 4");
  EXPECT_EQ(waiting["room"]["seats"][1]["bot"], false);
  const Json seen = watcher.wait_for([](const Json& m) { return m["type"] == "room" && m["room"]["seats"][2]["bot"] == 4; });
  EXPECT_EQ(seen["room"]["seats"][2]["player_id"], "bot-2");
  EXPECT_EQ(add(owner, 2, 1)["code"], "seat_taken");

  const Json started = add(owner, 1, 1);
  ASSERT_EQ(started["type"], "room") << started.dump();
  EXPECT_EQ(started["room"]["status"], "playing") << "the last seat taken starts the game";
  EXPECT_EQ(started["room"]["version"], 0);
  EXPECT_EQ(add(owner, 1, 1)["code"], "not_allowed") << "no bots once the game runs";
}

TEST(Bots, BadBotSeatsAreRefused) {
  ServerProcess server;
  Client client(server.port());
  client.hello("Ada");
  const auto refused = [&](const Json& bots, const Json& extra, const std::string& words) {
    Json message = {{"type", "create_room"}, {"game", "cups"}, {"bots", bots}};
    message.update(extra);
    const Json reply = client.request(message);
    EXPECT_EQ(reply["code"], "bad_request") << reply.dump();
    EXPECT_NE(reply.value("message", "").find(words), std::string::npos) << reply.dump();
  };
  refused(Json::array({bot(0, 1), bot(1, 1)}), {{"spectate", true}}, "a person's");
  refused(Json::array({bot(1, 0)}), Json::object(), "'level' must be an integer from 1 to 5");
  refused(Json::array({bot(1, 6)}), Json::object(), "from 1 to 5");
  refused(Json::array({bot(2, 1)}), Json::object(), "seats 0..1");
  refused(Json::array({bot(0, 1)}), Json::object(), "the creator's");
  refused(Json::array({bot(1, 1), bot(1, 2)}), {{"spectate", true}}, "twice");
  refused(Json::array({1}), Json::object(), "each entry");
  // A spectating creator may leave a seat to a person who joins later.
  const Json room = client.request({{"type", "create_room"}, {"game", "cups"}, {"spectate", true}, {"bots", Json::array({bot(1, 1)})}});
  ASSERT_EQ(room["type"], "room") << room.dump();
  EXPECT_EQ(room["room"]["status"], "waiting");
}

TEST(Bots, StrongerLevelsAnswerWithinTheirThinkTime) {
  // Normal priority: the cap is a promise of the search itself. Under the default SCHED_IDLE a
  // worker on a machine whose cores are all busy (other tests running beside this one) waits for
  // a spare core, which is the point of it, and would make this bound a guess about the load.
  ServerProcess server(":memory:", {"--bot-priority", "normal"});
  for (int level : {3, 5}) {
    SCOPED_TRACE("level " + std::to_string(level));
    Client person(server.port());
    person.hello("Person");
    const auto asked = std::chrono::steady_clock::now();
    // The bot starts (first_player 1), so its first move follows the room message.
    const Json created = create_with_bots(person, "cups", {{"first_player", 1}}, Json::array({bot(1, level)}));
    ASSERT_EQ(created["type"], "room") << created.dump();
    const Json update = wait_update(person, 1);
    const auto took = std::chrono::steady_clock::now() - asked;
    EXPECT_EQ(update["seat"], 1);
    EXPECT_LT(took, std::chrono::milliseconds(2000 + 1500)) << "level 5 thinks at most 2 s";
  }
}

TEST(Bots, ARestartWithTheBotToMoveResumesItsThinking) {
  TempDir dir;
  const std::string db = dir.file("bots.db");
  // No bot workers: the bot's search waits in the queue, so the game is stored with the bot to move.
  auto server = std::make_unique<ServerProcess>(db, std::vector<std::string>{"--bot-threads", "0"});
  Client person(server->port());
  const std::string token = person.hello("Person").at("token");
  const Json created = create_with_bots(person, "cups", {{"first_player", 1}}, Json::array({bot(1, 2)}));
  ASSERT_EQ(created["type"], "room") << created.dump();
  const std::string room = created["room"]["id"];
  EXPECT_TRUE(person.sync_barrier(room, 0, [](const Json& m) { return m["type"] == "update"; }));
  server->kill_hard();

  server = std::make_unique<ServerProcess>(db);
  Client back(server->port());
  ASSERT_EQ(back.request({{"type", "hello"}, {"token", token}})["type"], "welcome");
  const Json resumed = back.wait_for_type("room");
  EXPECT_EQ(resumed["room"]["seats"][1]["bot"], 2) << "the bot seat is stored";
  EXPECT_EQ(resumed["room"]["seats"][1]["name"], "Computer, level 2");
  Json update = resumed["room"]["version"] == 1 ? Json() : wait_update(back, 1);
  if (update.is_null()) {  // it moved before this client's room message: catch up
    const Json sync = back.request({{"type", "sync"}, {"room", room}, {"since", 0}});
    update = sync["updates"][0];
  }
  EXPECT_EQ(update["seat"], 1) << "the bot moved after the restart";

  // The bot's move is in the history like any other; its seat carries its name.
  std::string body;
  ASSERT_EQ(http_get(server->port(), "/api/games/" + room, &body), 200) << body;
  const Json record = Json::parse(body);
  bool found = false;
  for (const auto& turn : record["turns"])
    found = found || (turn.value("seat", -1) == 1 && turn["tokens"] == update["tokens"] && turn["version"] == 1);
  EXPECT_TRUE(found) << body;
  ASSERT_EQ(http_get(server->port(), "/api/games?limit=5", &body), 200);
  EXPECT_NE(body.find("Computer, level 2"), std::string::npos) << body;
}

}  // namespace
}  // namespace mancala::testing
