// Whole games over WebSocket: every registered game, more seats where a game has them, the
// Plex! race, and many rooms at once.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "mancala/registry.hpp"
#include "table.hpp"

namespace mancala::testing {
namespace {

// Games that take more than two seats do so through an option named `players` (Njaka).
bool has_option(const GameType& type, const std::string& name) {
  return std::any_of(type.options.begin(), type.options.end(),
                     [&](const OptionSpec& spec) { return spec.name == name; });
}

void play_full_game(unsigned short port, const GameType& type, int seats, std::uint64_t seed) {
  SCOPED_TRACE(std::string(type.id) + " with " + std::to_string(seats) + " players");
  const Json options = seats > 2 ? Json{{"players", seats}} : Json::object();
  Table table = open_table(port, std::string(type.id), options, seats);
  const int updates = play_to_end(table, seed);
  EXPECT_FALSE(table.state["result"].is_null()) << "no result after " << updates << " updates";
  EXPECT_EQ(table.state["phase"], "over");
  EXPECT_EQ(table.version + 1, static_cast<std::int64_t>(table.states.size()))
      << "one version per update, none skipped";
}

TEST(FullGames, EveryRegisteredGameBetweenTwoClients) {
  ServerProcess server;
  for (const auto& type : game_types()) play_full_game(server.port(), type, 2, 11);
}

TEST(FullGames, GamesWithMoreSeatsWithThreeAndFourClients) {
  ServerProcess server;
  int played = 0;
  for (const auto& type : game_types()) {
    if (type.max_players <= 2 || !has_option(type, "players")) continue;
    for (int seats = 3; seats <= type.max_players; ++seats, ++played)
      play_full_game(server.port(), type, seats, 20 + static_cast<std::uint64_t>(seats));
  }
  EXPECT_GT(played, 0) << "no registered game takes more than two seats (was its 'players' option renamed?)";
}

// The game whose rules open a Plex! window (Njaka), as the engine declares it; a test fails
// when none does rather than passing without having run.
const GameType* plex_game() {
  for (const auto& type : game_types())
    for (const auto window : type.claim_windows)
      if (window == "plex") return &type;
  ADD_FAILURE() << "no registered game declares the claim window 'plex'";
  return nullptr;
}

// The shortest Plex! deadline the game allows, so that the tests need not wait the default.
Json fast_plex_options(const GameType& type) {
  for (const auto& spec : type.options)
    if (spec.name == "plex_window_ms" && !spec.choices.is_array()) return Json{{"plex_window_ms", spec.min}};
  ADD_FAILURE() << type.id << " has no numeric option 'plex_window_ms' (renamed?)";
  return Json::object();
}

// Spectators arriving together reach the players' count together: fewer room messages than
// arrivals (each arrival used to send the room to every member, N²/2 messages for N).
TEST(Spectators, ManyArrivingTogetherAreCountedInFewRoomMessages) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  constexpr int kSpectators = 20;
  std::vector<std::unique_ptr<Client>> watchers;
  for (int i = 0; i < kSpectators; ++i) {
    watchers.push_back(std::make_unique<Client>(server.port()));
    watchers.back()->hello("Watcher" + std::to_string(i));
  }
  for (auto& watcher : watchers)
    watcher->send({{"type", "join_room"}, {"id", "watch"}, {"invite", table.invite}, {"spectate", true}});
  for (auto& watcher : watchers) ASSERT_EQ(watcher->wait_for_type("room")["room"]["id"], table.room);
  int room_messages = 0;
  const Json counted = table.clients[0]->wait_for([&](const Json& message) {
    if (message.value("type", "") != "room") return false;
    ++room_messages;
    return message["room"]["spectators"] == kSpectators;
  });
  EXPECT_EQ(counted["room"]["id"], table.room);
  EXPECT_LT(room_messages, kSpectators) << "one room message per arrival";

  const auto counts = [&](int spectators) {
    return [spectators](const Json& message) {
      return message.value("type", "") == "room" && message["room"]["spectators"] == spectators;
    };
  };
  Client& other = *table.clients[1];
  other.wait_for(counts(kSpectators));
  Client late(server.port());
  late.hello("Late");
  ASSERT_EQ(late.request({{"type", "join_room"}, {"invite", table.invite}, {"spectate", true}})["type"], "room");
  other.wait_for(counts(kSpectators + 1));  // a lone arrival is told too
  late.drop();
  other.wait_for(counts(kSpectators));  // and a departure
}

TEST(PlexRace, SimultaneousClaimsHaveExactlyOneWinner) {
  const GameType* type = plex_game();
  ASSERT_NE(type, nullptr);
  ServerProcess server;
  for (int seats : {2, 4}) {
    if (seats > type->max_players) continue;
    Json options = fast_plex_options(*type);
    if (seats > 2) options["players"] = seats;
    Table table = open_table(server.port(), std::string(type->id), options, seats);
    Random rng(7);
    int races = 0;
    while (table.state["result"].is_null() && races < 3) {
      const bool before = table.state["phase"] == "plex";
      play_one(table, rng, PlexPolicy::all_claim_at_once);
      if (!before && table.states.size() >= 2 &&
          table.states[table.states.size() - 2]["phase"] == "plex")
        ++races;
    }
    EXPECT_GT(races, 0) << "the game never opened a Plex! window";
  }
}

TEST(PlexRace, UnclaimedWindowFallsToTheMover) {
  const GameType* type = plex_game();
  ASSERT_NE(type, nullptr);
  ServerProcess server;
  Table table = open_table(server.port(), std::string(type->id), fast_plex_options(*type), 2);
  Random rng(3);
  while (table.state["result"].is_null()) {
    play_one(table, rng, PlexPolicy::nobody_claims);
    if (table.states.size() >= 2 && table.states[table.states.size() - 2]["phase"] == "plex") return;
  }
  ADD_FAILURE() << "the game ended without opening a Plex! window";
}

TEST(PlexRace, AWindowOpenAtACrashIsOpenedAgainAfterTheRestart) {
  const GameType* type = plex_game();
  ASSERT_NE(type, nullptr);
  const TempDir dir;
  const std::string db = dir.file("plex.db");
  auto server = std::make_unique<ServerProcess>(db);
  Json options = fast_plex_options(*type);
  options["plex_window_ms"] = 3000;  // time to restart and reconnect
  Table table = open_table(server->port(), std::string(type->id), options, 2);
  Random rng(5);
  while (table.state["phase"] != "plex" && table.state["result"].is_null())
    play_one(table, rng, PlexPolicy::leave_open);
  ASSERT_EQ(table.state["phase"], "plex");
  const std::string old_window = table.clients[0]->wait_for_type("plex_open")["window"];
  server->kill_hard();
  server = std::make_unique<ServerProcess>(db);
  for (std::size_t seat = 0; seat < 2; ++seat) {
    table.clients[seat] = std::make_unique<Client>(server->port());
    ASSERT_EQ(table.clients[seat]->request({{"type", "hello"}, {"token", table.tokens[seat]}})["type"], "welcome");
    EXPECT_EQ(table.clients[seat]->wait_for_type("room")["room"]["state"]["phase"], "plex");
  }
  const Json open = table.clients[1]->wait_for_type("plex_open");
  EXPECT_NE(open["window"], old_window) << "a new window id";
  EXPECT_LE(open["deadline_ms"].get<int>(), 3000);
  const Json won = table.clients[1]->request({{"type", "plex"}, {"room", table.room}, {"window", open["window"]}});
  ASSERT_EQ(won["type"], "update") << won.dump();
  EXPECT_EQ(won["version"], table.version + 1);
  EXPECT_EQ(won["events"][0]["winner"], 1);
  server.reset();  // before the folder goes
}

// A move's row keeps no events (the engine makes them again when the move is replayed); a
// claim's keeps its own, with the race's latency. `sync` and the history API give back every
// update's events exactly as the players got them live.
TEST(StoredEvents, AMoveKeepsNoneAndEveryReaderGetsThemBackAsPlayed) {
  const GameType* type = plex_game();
  ASSERT_NE(type, nullptr);
  const TempDir dir;
  const std::string db = dir.file("events.db");
  ServerProcess server(db);
  Table table = open_table(server.port(), std::string(type->id), fast_plex_options(*type), 2);
  Random rng(7);
  int claims = 0;
  while (table.state["result"].is_null() && (claims == 0 || table.version < 40)) {
    play_one(table, rng, PlexPolicy::one_claims);
    claims = 0;
    for (const auto& events : table.events)
      if (events.is_array() && !events.empty() && events[0].contains("latency_ms")) ++claims;
  }
  ASSERT_GT(claims, 0) << "the game never settled a Plex! race";

  const auto rows = query_on(db, "SELECT version, kind, events FROM moves WHERE game_id = '" + table.room +
                                     "' ORDER BY version");
  ASSERT_EQ(rows.size(), static_cast<std::size_t>(table.version));
  int moves = 0;
  for (const auto& row : rows) {
    const auto version = std::stoul(row[0]);
    if (row[1] == "move") {
      EXPECT_EQ(row[2], "") << "version " << version;
      ++moves;
    } else {
      EXPECT_EQ(Json::parse(row[2]), table.events[version]) << "version " << version << ", " << row[1];
    }
  }
  EXPECT_GT(moves, 0);
  EXPECT_LT(moves, static_cast<int>(rows.size())) << "some rows are claims";

  const Json sync = table.clients[1]->request({{"type", "sync"}, {"room", table.room}, {"since", 0}});
  ASSERT_EQ(sync["updates"].size(), rows.size()) << sync.dump();
  for (const auto& update : sync["updates"])
    EXPECT_EQ(update["events"], table.events[update["version"].get<std::size_t>()]) << update.dump();

  std::string body;
  ASSERT_EQ(http_get(server.port(), "/api/games/" + table.room, &body, table.tokens[0]), 200) << body;
  const Json record = Json::parse(body);
  std::size_t turns = 0;
  for (const auto& turn : record["turns"])
    if (turn.contains("version")) {
      EXPECT_EQ(turn["events"], table.events[turn["version"].get<std::size_t>()]) << turn.dump();
      ++turns;
    }
  EXPECT_EQ(turns, rows.size());
}

TEST(PlexRace, ClaimsOutsideTheWindowAreRefused) {
  ServerProcess server;
  Table table = open_table(server.port(), "cups", Json::object(), 2);
  const Json reply = table.clients[0]->request({{"type", "plex"}, {"room", table.room}, {"window", "guess"}});
  EXPECT_EQ(reply["code"], "no_plex_window");
}

TEST(Concurrency, ManyRoomsPlayAtOnceOnSeveralThreads) {
  ServerProcess server(":memory:", {"--threads", "4"});
  constexpr int kRooms = 24;
  std::atomic<int> finished{0};
  std::vector<std::thread> threads;
  std::vector<std::string> failures(kRooms);
  for (int i = 0; i < kRooms; ++i) {
    threads.emplace_back([&, i] {
      try {
        Table table = open_table(server.port(), "cups", Json::object(), 2);
        play_to_end(table, 100 + static_cast<std::uint64_t>(i));
        if (!table.state["result"].is_null()) ++finished;
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(i)] = e.what();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures) EXPECT_EQ(failure, "");
  EXPECT_EQ(finished.load(), kRooms);
  std::string body;
  ASSERT_EQ(http_get(server.port(), "/metrics", &body), 200);
  EXPECT_NE(body.find("mancala_moves_applied_total"), std::string::npos);
  const auto value = [&](const std::string& name) {
    const auto at = body.find("\n" + name + " ");
    return at == std::string::npos ? -1.0 : std::stod(body.substr(at + name.size() + 2));
  };
  // Every person's move is timed twice: as a whole, and from its hand-off to the writer to
  // its commit, which is a part of the whole.
  EXPECT_GT(value("mancala_move_latency_seconds_count"), 0);
  EXPECT_EQ(value("mancala_move_commit_seconds_count"), value("mancala_move_latency_seconds_count"));
  EXPECT_GT(value("mancala_move_commit_seconds_sum"), 0);
  EXPECT_LE(value("mancala_move_commit_seconds_sum"), value("mancala_move_latency_seconds_sum"));
}

}  // namespace
}  // namespace mancala::testing
