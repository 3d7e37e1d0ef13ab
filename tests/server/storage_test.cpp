// The storage rules, run against both backends: SQLite (a temporary file) and PostgreSQL (a
// fresh database on a throwaway server, see tests/cluster/temp_postgres.hpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>

#include "database.hpp"
#include "metrics.hpp"
#include "pg_connection.hpp"
#include "schema.hpp"
#include "sqlite_vfs.hpp"
#include "storage.hpp"
#include "temp_postgres.hpp"
#include "wal_checkpointer.hpp"

namespace mancala::server {
namespace {

// An empty directory of its own for the running test (and its parameter).
std::filesystem::path fresh_directory(const std::string& prefix) {
  std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(test.begin(), test.end(), '/', '-');  // a parameterized test's name has one
  const auto dir = std::filesystem::temp_directory_path() / (prefix + std::to_string(getpid()) + "-" + test);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool wait(const std::function<void(Storage::Done)>& start) {
  std::promise<bool> done;
  start([&](bool ok) { done.set_value(ok); });
  return done.get_future().get();
}

GameMeta game(const std::string& id, const std::string& player_id, const std::string& status = "waiting") {
  GameMeta meta;
  meta.id = id;
  meta.game = "cups";
  meta.created = "2026-01-01T00:00:00.000Z";
  meta.status = status;
  if (status != "waiting") meta.started = meta.created;
  meta.seats = {{0, player_id, ""}};
  return meta;
}

std::shared_ptr<const StoredAction> move(std::int64_t version, const std::string& tokens) {
  return std::make_shared<const StoredAction>(StoredAction{version, "move", 0, tokens, "[]", "t", Json()});
}

// Each test gets a fresh database of the backend it is run with.
class StorageTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "postgresql") {
      db_ = testing::TempPostgres::shared().create_database();
    } else {
      dir_ = fresh_directory("mancala-storage-");
      db_ = (dir_ / "s.db").string();
    }
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::unique_ptr<Storage> open() { return Storage::open(db_, latency_); }

  std::string db_;
  std::filesystem::path dir_;
  Histogram latency_;
};

TEST_P(StorageTest, AVersionIsWrittenOnceAndGamesSurviveReopening) {
  {
    auto storage = open();
    EXPECT_TRUE(wait([&](auto done) { storage->create_player({"p1", "Ada", std::string(64, 'a')}, done); }));
    GameMeta meta = game("g1", "p1");
    meta.clock = Json{{"initial_s", 300}, {"increment_s", 3}};
    meta.host_id = "p1";
    EXPECT_TRUE(wait([&](auto done) { storage->create_game(meta, done); }));
    const Json clock = {{"remaining_ms", {302000, 300000}}, {"running", 1}, {"as_of", "t"}};
    auto action = std::make_shared<const StoredAction>(StoredAction{1, "move", 0, "r1", "[]", "t", clock});
    EXPECT_TRUE(wait([&](auto done) { storage->append_action("g1", action, {}, done); }));
    EXPECT_FALSE(wait([&](auto done) { storage->append_action("g1", action, {}, done); }))
        << "(game_id, version) is unique";
    EXPECT_FALSE(wait([&](auto done) { storage->append_action("nope", action, {}, done); }))
        << "a move needs its game";
  }
  auto reopened = open();
  const auto games = reopened->load_unfinished_games();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].meta.seats[0].name, "Ada");
  EXPECT_EQ(games[0].meta.host_id, "p1") << "the lobby's host is kept";
  EXPECT_EQ(games[0].meta.host_name, "Ada") << "and read with the player's name";
  EXPECT_EQ(games[0].meta.created, "2026-01-01T00:00:00.000Z");
  ASSERT_EQ(games[0].actions.size(), 1u);
  EXPECT_EQ(games[0].actions[0].tokens, "r1");
  EXPECT_EQ(games[0].meta.clock, (Json{{"initial_s", 300}, {"increment_s", 3}})) << "clock settings are kept";
  EXPECT_EQ(games[0].actions[0].clock["remaining_ms"], Json::array({302000, 300000})) << "and the clock of each update";
  const auto one = reopened->load_game("g1");
  ASSERT_TRUE(one);
  ASSERT_EQ(one->actions.size(), 1u) << "load_game (the history API's read) has the moves too";
  EXPECT_EQ(one->actions[0].tokens, "r1");
  EXPECT_EQ(reopened->load_actions("g1").size(), 1u);
  EXPECT_TRUE(reopened->healthy());
  reopened->stop();
}

// Jobs queued together commit together; the one that breaks a rule is undone alone.
TEST_P(StorageTest, AFailingWriteInABatchLeavesTheOthersCommitted) {
  auto storage = open();
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p1", "Ada", std::string(64, 'a')}, done); }));
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(game("g1", "p1", "playing"), done); }));
  std::vector<std::future<bool>> results;
  for (const std::int64_t version : {1, 2, 2, 3}) {
    auto promise = std::make_shared<std::promise<bool>>();
    results.push_back(promise->get_future());
    storage->append_action("g1", move(version, "r" + std::to_string(version)), {},
                           [promise](bool ok) { promise->set_value(ok); });
  }
  EXPECT_TRUE(results[0].get());
  EXPECT_TRUE(results[1].get());
  EXPECT_FALSE(results[2].get()) << "version 2 a second time";
  EXPECT_TRUE(results[3].get());
  const auto actions = storage->load_actions("g1");
  ASSERT_EQ(actions.size(), 3u);
  EXPECT_EQ(actions[2].tokens, "r3");
}

TEST_P(StorageTest, SeatsBotsRoundsAndTheEndOfAGame) {
  auto storage = open();
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p1", "Ada", std::string(64, 'a')}, done); }));
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p2", "Bo", std::string(64, 'b')}, done); }));
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(game("g1", "p1"), done); }));
  EXPECT_TRUE(wait([&](auto done) { storage->take_seat("g1", 1, "p2", std::nullopt, done); }));
  EXPECT_FALSE(wait([&](auto done) { storage->take_seat("g1", 2, "p2", std::nullopt, done); }))
      << "one seat per player";
  EXPECT_TRUE(wait([&](auto done) { storage->free_seat("g1", 1, done); }));
  EXPECT_TRUE(wait([&](auto done) { storage->take_bot_seat("g1", 1, 3, "2026-01-01T00:01:00.000Z", done); }));
  UpdateEffects effects;
  effects.new_rounds = {{1, Json{{"winner", 0}}}};
  effects.finished_at = "2026-01-01T00:02:00.000Z";
  effects.result = Json{{"winner", 0}};
  EXPECT_TRUE(wait([&](auto done) { storage->append_action("g1", move(1, "r4"), effects, done); }));
  const auto loaded = storage->load_game("g1");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->meta.status, "finished");
  EXPECT_EQ(loaded->meta.started, "2026-01-01T00:01:00.000Z");
  EXPECT_EQ(loaded->meta.result, (Json{{"winner", 0}}));
  ASSERT_EQ(loaded->meta.seats.size(), 2u);
  EXPECT_EQ(loaded->meta.seats[1].bot_level, 3);
  EXPECT_TRUE(loaded->meta.seats[1].player_id.empty());
  EXPECT_TRUE(storage->load_unfinished_games().empty());
  EXPECT_TRUE(wait([&](auto done) { storage->delete_game("g1", done); }));
  EXPECT_FALSE(storage->load_game("g1"));
  EXPECT_TRUE(storage->load_actions("g1").empty()) << "moves go with their game";
}

TEST_P(StorageTest, PlayersAndTheLastAliveNote) {
  auto storage = open();
  EXPECT_EQ(storage->load_last_alive(), "");
  EXPECT_TRUE(wait([&](auto done) { storage->note_alive("2026-01-01T00:00:00.000Z", done); }));
  EXPECT_TRUE(wait([&](auto done) { storage->note_alive("2026-01-01T00:00:10.000Z", done); }));
  EXPECT_EQ(storage->load_last_alive(), "2026-01-01T00:00:10.000Z");
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p1", "Ada", std::string(64, 'a')}, done); }));
  EXPECT_FALSE(wait([&](auto done) { storage->create_player({"p2", "Eve", std::string(64, 'a')}, done); }))
      << "token hashes are unique";
  EXPECT_EQ(storage->load_players().size(), 1u);
  const auto found = storage->load_player_by_token_hash(std::string(64, 'a'));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->name, "Ada");
  EXPECT_FALSE(storage->load_player_by_token_hash(std::string(64, 'c')));
}

// Accounts on both backends: a claim keeps the player, names are unique in any case, sessions
// end, resets work once, and a rated game's result brings its ratings in the same transaction.
TEST_P(StorageTest, AccountsSessionsAndRatedResults) {
  auto storage = open();
  AccountStore& accounts = storage->accounts();
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p1", "ada", std::string(64, 'a')}, done); }));
  accounts.create_account({"p1", false, "Ada", "hash-1", "session-1", std::string(64, 'r')});
  accounts.create_account({"p2", true, "Bob", "hash-2", "session-2", std::string(64, 's')});
  EXPECT_THROW(accounts.create_account({"p3", true, "ADA", "hash-3", "session-3", std::string(64, 't')}), NameTaken);
  ASSERT_TRUE(accounts.find_account("aDA"));
  EXPECT_EQ(accounts.find_account("ada")->player_id, "p1");
  EXPECT_EQ(accounts.find_account("ada")->name, "Ada") << "the claim renamed the guest";
  EXPECT_FALSE(storage->load_player_by_token_hash(std::string(64, 'a'))) << "the guest token is revoked";
  const auto players = storage->load_players();
  EXPECT_EQ(std::count_if(players.begin(), players.end(), [](const StoredPlayer& p) { return p.account; }), 2);

  EXPECT_EQ(accounts.session_player("session-1"), std::optional<std::string>("p1"));
  accounts.add_session("session-1b", "p1");
  EXPECT_EQ(accounts.sessions("p1").size(), 2u);
  accounts.end_sessions("p1", "session-1b");
  EXPECT_FALSE(accounts.session_player("session-1"));
  EXPECT_TRUE(accounts.session_player("session-1b"));
  accounts.end_session("session-1b");
  EXPECT_FALSE(accounts.session_player("session-1b"));

  // An account keeps kMaxSessionsPerAccount sessions: each new one ends the oldest beyond that.
  std::size_t ended = 0;
  for (int i = 0; i < 25; ++i) {
    const std::string hash = "session-2-" + std::to_string(i);
    const auto gone = accounts.add_session(hash, "p2");
    EXPECT_EQ(std::count(gone.begin(), gone.end(), hash), 0) << "the new session stays";
    for (const auto& each : gone) EXPECT_FALSE(accounts.session_player(each)) << each;
    ended += gone.size();
  }
  EXPECT_EQ(ended, 26 - kMaxSessionsPerAccount) << "with the sign-up's own";
  EXPECT_EQ(accounts.sessions("p2").size(), kMaxSessionsPerAccount);
  EXPECT_TRUE(accounts.session_player("session-2-24"));

  accounts.add_password_reset("reset-old", "p1", "2020-01-01T00:00:00.000Z");
  EXPECT_FALSE(accounts.password_reset_player("reset-old"));
  EXPECT_FALSE(accounts.take_password_reset("reset-old")) << "expired";
  accounts.add_password_reset("reset-1", "p1", "2999-01-01T00:00:00.000Z");
  EXPECT_EQ(accounts.password_reset_player("reset-1"), std::optional<std::string>("p1"));
  EXPECT_EQ(accounts.password_reset_player("reset-1"), std::optional<std::string>("p1")) << "looking uses nothing up";
  EXPECT_EQ(accounts.take_password_reset("reset-1"), std::optional<std::string>("p1"));
  EXPECT_FALSE(accounts.password_reset_player("reset-1"));
  EXPECT_FALSE(accounts.take_password_reset("reset-1")) << "used up";

  GameMeta rated = game("g1", "p1", "playing");
  rated.rated = true;
  rated.seats.push_back({1, "p2", ""});
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(rated, done); }));
  UpdateEffects effects;
  effects.finished_at = "2026-01-01T00:02:00.000Z";
  effects.result = Json{{"winner", 1}};
  effects.outcomes = {0.0, 1.0};
  ASSERT_TRUE(wait([&](auto done) { storage->append_action("g1", move(1, "r4"), effects, done); }));
  const auto bob = accounts.profile("bob");
  ASSERT_TRUE(bob);
  ASSERT_EQ(bob->ratings.count("cups"), 1u);
  EXPECT_GT(bob->ratings.at("cups").rating.rating, 1500.0);
  EXPECT_EQ(bob->ratings.at("cups").games, 1);
  EXPECT_EQ(bob->won, 1);
  ASSERT_EQ(bob->history.size(), 1u);
  EXPECT_EQ(bob->history[0].game_id, "g1");
  EXPECT_LT(accounts.profile("p1")->ratings.at("cups").rating.rating, 1500.0) << "by player id too";
  EXPECT_EQ(accounts.profile("p1")->lost, 1);
  EXPECT_EQ(accounts.all_ratings().size(), 2u);
  EXPECT_TRUE(accounts.leaderboard("cups", 50).empty()) << "one game leaves a rating provisional";
  EXPECT_TRUE(storage->load_game("g1")->meta.rated);

  // Three seats (Njaka): each pair one result by the final order, all from the ratings before.
  accounts.create_account({"p3", true, "Cy", "hash-3", "session-3", std::string(64, 't')});
  GameMeta three = game("g3", "p1", "playing");
  three.rated = true;
  three.seats.push_back({1, "p2", ""});
  three.seats.push_back({2, "p3", ""});
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(three, done); }));
  effects.outcomes = {0.5, 0.0, 1.0};  // Cy first, Ada second, Bob last
  ASSERT_TRUE(wait([&](auto done) { storage->append_action("g3", move(1, "r4"), effects, done); }));
  const auto cy = accounts.profile("cy");
  EXPECT_GT(cy->ratings.at("cups").rating.rating, 1500.0);
  EXPECT_EQ(cy->won, 1);
  EXPECT_EQ(accounts.profile("ada")->drawn, 1) << "a middle place";
  EXPECT_EQ(accounts.profile("bob")->ratings.at("cups").games, 2);
  EXPECT_LT(accounts.profile("bob")->ratings.at("cups").rating.rating, bob->ratings.at("cups").rating.rating);
}

// The history list: filters, privacy and paging (absent filters are bound as NULL).
// Issue 46: a name that can pass for an account's (any case, a digit for a letter, a Cyrillic
// letter for a Latin one) is taken, by the accounts' name skeletons; accounts made before the
// migration that adds them get theirs from it.
TEST_P(StorageTest, LookAlikeNamesAreTakenAndOlderAccountsGetTheirSkeletons) {
  {
    auto storage = open();
    AccountStore& accounts = storage->accounts();
    accounts.create_account({"p1", true, "carol", "hash-1", "session-1", std::string(64, 'r')});
    for (const std::string fake : {"CAROL", "caro1", "c\u0430rol"}) {
      try {
        accounts.create_account({"p2", true, fake, "hash-2", "session-2", std::string(64, 's')});
        ADD_FAILURE() << fake << " was taken";
      } catch (const NameTaken& taken) {
        EXPECT_EQ(taken.account, "carol") << fake;
      }
    }
    EXPECT_EQ(accounts.account_name_like("CAR0L"), std::optional<std::string>("carol"));
    EXPECT_FALSE(accounts.account_name_like("carla"));
    accounts.create_account({"p3", true, "carla", "hash-3", "session-3", std::string(64, 't')});
  }
  // The database as it was before the skeletons: no column, nor the tables of the migrations
  // after it (tournaments, languages), and those migrations fewer.
  const char* const kBefore =
      "DROP TABLE tournament_pairings; DROP TABLE tournament_players; DROP TABLE tournaments; "
      "ALTER TABLE accounts DROP COLUMN language; "
      "DROP INDEX accounts_by_skeleton; ALTER TABLE accounts DROP COLUMN name_skeleton;";
  if (GetParam() == "postgresql")
    PgConnection(db_).execute(std::string(kBefore) + "UPDATE schema_version SET version = 11");
  else
    Database(db_, false).execute(std::string(kBefore) + "PRAGMA user_version = 10");
  auto storage = open();
  EXPECT_EQ(storage->accounts().account_name_like("c\u0430rol"), std::optional<std::string>("carol"));
  EXPECT_EQ(storage->accounts().account_name_like("CARLA"), std::optional<std::string>("carla"));
}

// Issue 49: an account's language, empty until chosen, kept with that account alone.
TEST_P(StorageTest, AnAccountsLanguageIsKeptWithItAndSurvivesReopening) {
  {
    auto storage = open();
    AccountStore& accounts = storage->accounts();
    accounts.create_account({"p1", true, "Ada", "hash-1", "session-1", std::string(64, 'r')});
    accounts.create_account({"p2", true, "Bob", "hash-2", "session-2", std::string(64, 's')});
    EXPECT_EQ(accounts.account_of("p1")->language, "") << "not chosen yet";
    accounts.set_language("p1", "vi");
    EXPECT_EQ(accounts.account_of("p1")->language, "vi");
    EXPECT_EQ(accounts.find_account("ADA")->language, "vi") << "read by name too";
    EXPECT_EQ(accounts.account_of("p2")->language, "") << "that account's only";
    accounts.set_language("p1", "de");
  }
  auto reopened = open();
  EXPECT_EQ(reopened->accounts().account_of("p1")->language, "de");
  EXPECT_EQ(reopened->accounts().account_of("p2")->language, "");
}

TEST_P(StorageTest, PushSubscriptionsBelongToTheirPlayerAndTheNewestTenAreKept) {
  auto storage = open();
  for (const char* id : {"p1", "p2"})
    ASSERT_TRUE(wait([&](auto done) { storage->create_player({id, id, std::string(64, id[1])}, done); }));
  auto& push = storage->push_subscriptions();
  push.add({"https://push.example/a", "p1", "key-a", "auth-a"});
  push.add({"https://push.example/b", "p1", "key-b", "auth-b"});
  EXPECT_EQ(push.of_player("p1").size(), 2u);
  push.add({"https://push.example/a", "p2", "key-a2", "auth-a2"});  // the browser changed hands
  ASSERT_EQ(push.of_player("p2").size(), 1u);
  EXPECT_EQ(push.of_player("p2")[0].p256dh, "key-a2");
  EXPECT_EQ(push.of_player("p1").size(), 1u);
  EXPECT_FALSE(push.remove("p1", "https://push.example/a")) << "p2's now";
  EXPECT_TRUE(push.remove("p2", "https://push.example/a"));
  push.forget("https://push.example/b");
  EXPECT_TRUE(push.of_player("p1").empty());
  for (int i = 0; i < PushSubscriptions::kPerPlayer + 3; ++i)
    push.add({"https://push.example/n" + std::to_string(i), "p1", "k", "a"});
  const auto kept = push.of_player("p1");
  ASSERT_EQ(kept.size(), static_cast<std::size_t>(PushSubscriptions::kPerPlayer));
  const std::string newest = "https://push.example/n" + std::to_string(PushSubscriptions::kPerPlayer + 2);
  EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), [&](const auto& s) { return s.endpoint == newest; }))
      << "the newest stays";
}

// Tournaments on both backends (issue 48): a tournament found and listed by status, players in
// joining order with their standings, pairings whose end stores the points in one transaction.
TEST_P(StorageTest, TournamentsTheirPlayersAndPairings) {
  auto storage = open();
  for (const char* id : {"p1", "p2", "p3"})
    ASSERT_TRUE(wait([&](auto done) { storage->create_player({id, id, std::string(64, id[1])}, done); }));
  auto& tournaments = storage->tournaments();
  StoredTournament arena{"t1", "Hourly Cups", "cups", Json{{"seeds", 4}}, Json{{"initial_s", 60}, {"increment_s", 0}},
                         "arena", false, "upcoming", "2026-01-01T10:00:00.000Z", 30, "", "p1",
                         "2026-01-01T09:00:00.000Z"};
  tournaments.create(arena);
  StoredTournament robin = arena;
  robin.id = "t2";
  robin.kind = "round_robin";
  robin.starts_at = "2026-01-02T10:00:00.000Z";
  tournaments.create(robin);
  const auto found = tournaments.find("t1");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->name, "Hourly Cups");
  EXPECT_EQ(found->options, (Json{{"seeds", 4}}));
  EXPECT_EQ(found->clock["initial_s"], 60);
  EXPECT_EQ(found->minutes, 30);
  EXPECT_FALSE(tournaments.find("t9"));
  EXPECT_EQ(tournaments.list("", 10).size(), 2u);
  tournaments.set_status("t1", "running", "2026-01-01T10:30:00.000Z");
  const auto running = tournaments.list("running", 10);
  ASSERT_EQ(running.size(), 1u);
  EXPECT_EQ(running[0].ends_at, "2026-01-01T10:30:00.000Z");
  EXPECT_EQ(tournaments.list("upcoming", 10)[0].id, "t2");

  tournaments.save_entrant("t1", {"p2", "bo", 0, 0, 0, false, ""});
  tournaments.save_entrant("t1", {"p1", "ada", 0, 0, 0, false, ""});
  tournaments.save_entrant("t1", {"p3", "cy", 0, 0, 0, false, ""});
  EXPECT_TRUE(tournaments.remove_entrant("t1", "p3"));
  EXPECT_FALSE(tournaments.remove_entrant("t1", "p3"));
  tournaments.add_pairing("t1", {"room-a", {"p2", "p1"}, false});
  tournaments.finish_pairing("t1", "room-a", {{"p2", "bo", 2, 1, 1, false, "p1"}, {"p1", "ada", 0, 0, 1, true, "p2"}});
  tournaments.add_pairing("t1", {"room-b", {"p1", "p2"}, false});
  const auto entrants = tournaments.entrants("t1");
  ASSERT_EQ(entrants.size(), 2u);
  EXPECT_EQ(entrants[0].player_id, "p2") << "joining order, kept by a new standing";
  EXPECT_EQ(entrants[0].score, 2);
  EXPECT_EQ(entrants[0].streak, 1);
  EXPECT_EQ(entrants[1].games, 1);
  EXPECT_TRUE(entrants[1].paused);
  EXPECT_EQ(entrants[1].last_opponent, "p2");
  const auto pairings = tournaments.pairings("t1");
  ASSERT_EQ(pairings.size(), 2u);
  EXPECT_EQ(pairings[0].room_id, "room-a");
  EXPECT_TRUE(pairings[0].finished);
  EXPECT_EQ(pairings[0].players, (std::vector<std::string>{"p2", "p1"}));
  EXPECT_FALSE(pairings[1].finished);
  EXPECT_TRUE(storage->tournaments().entrants("t2").empty());
}

// A player's won tournaments on both backends (profiles, issue 48): finished ones where their
// score is the best, a shared best winning for all who share it; never a running one, nor one
// where nobody scored; the latest end first.
TEST_P(StorageTest, TheTournamentsAPlayerWon) {
  auto storage = open();
  for (const char* id : {"p1", "p2", "p3"})
    ASSERT_TRUE(wait([&](auto done) { storage->create_player({id, id, std::string(64, id[1])}, done); }));
  auto& tournaments = storage->tournaments();
  const auto held = [&](const std::string& id, const std::string& status, const std::string& ends_at,
                        const std::vector<StoredEntrant>& standings) {
    StoredTournament t{id, "Cups " + id, "cups", Json::object(), Json(), "arena", false, "upcoming",
                       "2026-01-01T10:00:00.000Z", 60, "", "", "2026-01-01T09:00:00.000Z"};
    tournaments.create(t);
    for (const auto& entrant : standings) tournaments.save_entrant(id, entrant);
    tournaments.set_status(id, status, ends_at);
  };
  held("shared", "finished", "2026-01-01T11:00:00.000Z",
       {{"p1", "ada", 4, 0, 2, false, ""}, {"p2", "bo", 4, 0, 2, false, ""}, {"p3", "cy", 1, 0, 2, false, ""}});
  held("later", "finished", "2026-01-03T11:00:00.000Z", {{"p3", "cy", 0, 0, 1, false, ""}, {"p1", "ada", 2, 1, 1, false, ""}});
  held("running", "running", "2026-01-04T11:00:00.000Z", {{"p3", "cy", 8, 3, 3, false, ""}, {"p1", "ada", 0, 0, 3, false, ""}});
  held("unplayed", "finished", "2026-01-05T11:00:00.000Z", {{"p3", "cy", 0, 0, 0, false, ""}, {"p2", "bo", 0, 0, 0, false, ""}});

  const auto ada = tournaments.won_by("p1", 10);
  ASSERT_EQ(ada.size(), 2u);
  EXPECT_EQ(ada[0].id, "later") << "the latest end first";
  EXPECT_EQ(ada[0].name, "Cups later");
  EXPECT_EQ(ada[0].status, "finished");
  EXPECT_EQ(ada[1].id, "shared");
  const auto bo = tournaments.won_by("p2", 10);
  ASSERT_EQ(bo.size(), 1u) << "a shared best is a win for each; a best of 0 is nobody's";
  EXPECT_EQ(bo[0].id, "shared");
  EXPECT_TRUE(tournaments.won_by("p3", 10).empty()) << "second, or leading one still running";
  EXPECT_EQ(tournaments.won_by("p1", 1).size(), 1u);
}

// Chat on both backends: an account's mutes (in order, once each, undone) and an operator's
// silence, which ends by itself.
TEST_P(StorageTest, MutesAndSilences) {
  auto storage = open();
  for (const char* id : {"p1", "p2", "p3"})
    ASSERT_TRUE(wait([&](auto done) { storage->create_player({id, id, std::string(64, id[1])}, done); }));
  auto& chat = storage->chat();
  chat.set_muted("p1", {"p2", "Bob"}, true);
  chat.set_muted("p1", {"p3", "Cy"}, true);
  chat.set_muted("p1", {"p3", "Cy"}, true);
  const auto muted = chat.mutes("p1");
  ASSERT_EQ(muted.size(), 2u);
  EXPECT_EQ(muted[0].player_id, "p2");
  EXPECT_EQ(muted[0].name, "Bob");
  EXPECT_TRUE(chat.mutes("p2").empty()) << "mutes are one player's own";
  chat.set_muted("p1", {"p2", ""}, false);
  ASSERT_EQ(chat.mutes("p1").size(), 1u);
  EXPECT_EQ(chat.mutes("p1")[0].player_id, "p3");

  chat.silence("p2", "2999-01-01T00:00:00.000Z");
  EXPECT_EQ(chat.silenced_until("p2"), "2999-01-01T00:00:00.000Z");
  chat.silence("p3", "2000-01-01T00:00:00.000Z");
  EXPECT_FALSE(chat.silenced_until("p3")) << "a silence in the past is over";
  chat.silence("p2", "");
  EXPECT_FALSE(chat.silenced_until("p2"));
}

// Analyses on both backends: created once, positions kept in order without duplicates (a second
// writer of the same position changes nothing), done only with the last position, and found
// again as unfinished until then.
TEST_P(StorageTest, AnalysesKeepTheirPositionsOnceAndAreDoneWithTheLast) {
  auto storage = open();
  auto& analyses = storage->analyses();
  EXPECT_FALSE(analyses.find("game:g1"));
  analyses.create({"game:g1", "g1", "", 3, "running", "2026-01-01T00:00:00.000Z", ""});
  analyses.create({"game:g1", "g1", "", 99, "running", "2026-01-02T00:00:00.000Z", ""});
  analyses.create({"abc", "", "[Game cups]\n", 2, "running", "2026-01-03T00:00:00.000Z", ""});
  const auto first = analyses.find("game:g1");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->total, 3) << "the first creation stays";
  EXPECT_EQ(first->state, "running");
  EXPECT_EQ(analyses.find("abc")->record_text, "[Game cups]\n");
  EXPECT_EQ(analyses.find("abc")->game_id, "");
  ASSERT_EQ(analyses.unfinished().size(), 2u);

  const auto add = [&](std::int64_t index, const std::string& json, bool last) {
    return wait([&](auto done) { analyses.add_position("game:g1", index, json, last, done); });
  };
  ASSERT_TRUE(add(0, "{\"a\":0}", false));
  ASSERT_TRUE(add(2, "{\"a\":2}", false));  // out of order: not reported past the gap
  EXPECT_EQ(analyses.positions("game:g1"), std::vector<std::string>{"{\"a\":0}"});
  ASSERT_TRUE(add(0, "{\"other\":0}", false));
  ASSERT_TRUE(add(1, "{\"a\":1}", true));
  EXPECT_EQ(analyses.positions("game:g1"), (std::vector<std::string>{"{\"a\":0}", "{\"a\":1}", "{\"a\":2}"}));
  EXPECT_EQ(analyses.find("game:g1")->state, "done");
  EXPECT_FALSE(analyses.find("game:g1")->finished.empty());
  ASSERT_TRUE(wait([&](auto done) { analyses.mark_failed("game:g1", done); }));
  EXPECT_EQ(analyses.find("game:g1")->state, "done") << "a done analysis stays done";
  ASSERT_TRUE(wait([&](auto done) { analyses.mark_failed("abc", done); }));
  EXPECT_EQ(analyses.find("abc")->state, "failed");
  EXPECT_TRUE(analyses.unfinished().empty());
}

// Issue 46: who asked is kept; a cancelled (removed) analysis takes no late position, can be
// created again, and is done only once it has all its positions.
TEST_P(StorageTest, ACancelledAnalysisGoesWithItsPositions) {
  auto storage = open();
  auto& analyses = storage->analyses();
  analyses.create({"k", "", "[Game cups]\n", 2, "running", "2026-01-01T00:00:00.000Z", "", "p1", "203.0.113.1"});
  EXPECT_EQ(analyses.find("k")->requested_by, "p1");
  EXPECT_EQ(analyses.find("k")->requested_from, "203.0.113.1");
  const auto add = [&](std::int64_t index, bool last) {
    return wait([&](auto done) { analyses.add_position("k", index, "{}", last, done); });
  };
  ASSERT_TRUE(add(0, false));
  ASSERT_TRUE(wait([&](auto done) { analyses.remove_running("k", done); }));
  EXPECT_FALSE(analyses.find("k"));
  ASSERT_TRUE(add(1, true));  // the position that was being searched
  analyses.create({"k", "", "[Game cups]\n", 2, "running", "2026-01-02T00:00:00.000Z", "", "", "203.0.113.2"});
  EXPECT_TRUE(analyses.positions("k").empty()) << "nothing of the cancelled one";
  ASSERT_TRUE(add(1, true));
  EXPECT_EQ(analyses.find("k")->state, "running") << "not done without position 0";
  ASSERT_TRUE(add(0, false));
  ASSERT_TRUE(add(1, true));
  EXPECT_EQ(analyses.find("k")->state, "done");
  ASSERT_TRUE(wait([&](auto done) { analyses.remove_running("k", done); }));
  EXPECT_TRUE(analyses.find("k")) << "a done analysis is not removed";
}

TEST_P(StorageTest, ListGamesFiltersAndPages) {
  auto storage = open();
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p1", "Ada", std::string(64, 'a')}, done); }));
  ASSERT_TRUE(wait([&](auto done) { storage->create_player({"p2", "Bo", std::string(64, 'b')}, done); }));
  for (int i = 1; i <= 5; ++i)
    ASSERT_TRUE(wait([&](auto done) { storage->create_game(game("g" + std::to_string(i), i % 2 ? "p1" : "p2", "playing"), done); }));
  GameMeta hidden = game("secret", "p2", "playing");
  hidden.is_private = true;
  hidden.invite = "inv";
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(hidden, done); }));
  ASSERT_TRUE(wait([&](auto done) { storage->create_game(game("waiting", "p1"), done); }));

  GameQuery all;
  all.limit = 3;
  const auto first = storage->list_games(all);
  ASSERT_EQ(first.games.size(), 3u);
  EXPECT_EQ(first.games[0].id, "g5") << "newest first; waiting and other people's private rooms are not listed";
  ASSERT_TRUE(first.next);
  all.before = first.next;
  const auto second = storage->list_games(all);
  ASSERT_EQ(second.games.size(), 2u);
  EXPECT_EQ(second.games[1].id, "g1");
  EXPECT_FALSE(second.next);

  GameQuery by_name;
  by_name.player_name = "Bo";
  by_name.viewer_id = "p2";
  const auto bo = storage->list_games(by_name);
  ASSERT_EQ(bo.games.size(), 3u) << "g2, g4 and his own private game";
  EXPECT_EQ(bo.games[0].id, "secret");
  EXPECT_EQ(bo.games[0].invite, "inv");
  GameQuery finished;
  finished.status = "finished";
  finished.game = "cups";
  EXPECT_TRUE(storage->list_games(finished).games.empty());
}

// The writer's pipeline (pg_connection.hpp): statements sent without waiting are answered
// together; a statement that reads rows first waits for those before it; a failure shows at the
// end, marked deferred, and PostgreSQL skipped everything after it.
TEST(PostgresPipeline, StatementsTravelTogetherAndAFailureIsReportedAtTheEnd) {
  PgConnection db(testing::TempPostgres::shared().create_database());
  db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)");
  db.begin_write();
  db.start_pipeline();
  db.prepare("INSERT INTO t (k) VALUES (?1)").bind(1, 1).run();
  db.prepare("INSERT INTO t (k) VALUES (?1)").bind(1, 2).run();
  auto count = db.prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(count.step()) << "a read waits for what was sent before it";
  EXPECT_EQ(count.integer(0), 2);
  EXPECT_TRUE(db.pipelined()) << "and the pipeline goes on after it";
  db.prepare("INSERT INTO t (k) VALUES (?1)").bind(1, 2).run();  // a duplicate: fails
  db.prepare("INSERT INTO t (k) VALUES (?1)").bind(1, 3).run();
  try {
    db.prepare("COMMIT").run();  // (its first prepare already waits for the answers)
    db.finish_pipeline();
    FAIL() << "the duplicate key is reported";
  } catch (const SqlError& e) {
    EXPECT_TRUE(e.deferred);
    EXPECT_FALSE(e.connection_lost);
    EXPECT_NE(std::string(e.what()).find("duplicate key"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(db.pipelined());
  db.execute("ROLLBACK");
  auto after = db.prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(after.step());
  EXPECT_EQ(after.integer(0), 0) << "the COMMIT after the failure was skipped: nothing was kept";
}

TEST(PostgresText, UrlsParametersAndLogs) {
  EXPECT_TRUE(is_postgres_url("postgresql://u@h/db"));
  EXPECT_TRUE(is_postgres_url("postgres://h/db"));
  EXPECT_FALSE(is_postgres_url("mancala.db"));
  EXPECT_FALSE(is_postgres_url(":memory:"));
  EXPECT_EQ(to_postgres_parameters("a = ?1 AND b IN (?2, ?12) AND c = '?'"), "a = $1 AND b IN ($2, $12) AND c = '?'");
  EXPECT_EQ(without_password("postgresql://mancala:s3cret@db:5432/m"), "postgresql://mancala:***@db:5432/m");
  EXPECT_EQ(without_password("postgresql://mancala@db:5432/m"), "postgresql://mancala@db:5432/m");
  EXPECT_EQ(without_password("postgresql://db:5432/m"), "postgresql://db:5432/m");
  EXPECT_EQ(without_password("games.db"), "games.db");
}

// A writer as the server opens one (1 KiB pages, WAL, no automatic checkpoints), with the
// `synchronous` setting given and a table `t (k, v)` for the tests to fill.
Database open_test_writer(const std::string& path, const std::string& synchronous) {
  Database writer(path, /*create=*/true);
  writer.execute("PRAGMA page_size = 1024; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
  writer.execute("PRAGMA synchronous = " + synchronous);
  writer.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  return writer;
}

// The WAL-coalescing VFS (every SQLite connection of the server opens through it): a commit's
// frames reach the WAL in one write, and what is committed is there for another connection and
// after a reopen, with the sync (synchronous FULL, as the server runs) and without it (where
// only the WAL index's barrier makes the frames visible).
class WalCoalescing : public ::testing::TestWithParam<std::string> {};

TEST_P(WalCoalescing, ACommitReachesTheWalInOneWriteAndIsSeenByOthers) {
  const auto dir = fresh_directory("mancala-wal-");
  const std::string path = (dir / "w.db").string();
  const std::string row(400, 'x');
  {
    Database writer = open_test_writer(path, GetParam());
    Database reader(path, /*create=*/false);
    for (int commit = 0; commit < 5; ++commit) {
      const VfsCounts before = vfs_counts();
      writer.begin_write();
      for (int k = 0; k < 60; ++k) writer.prepare("INSERT INTO t (v) VALUES (?1)").bind(1, row).run();
      writer.execute("COMMIT");
      const VfsCounts after = vfs_counts();
      EXPECT_GE(after.wal_appends - before.wal_appends, 60u) << "60 rows of 400 bytes fill some 30 pages of 1 KiB";
      EXPECT_EQ(after.wal_writes - before.wal_writes, 1u) << "one write for the whole commit";
      auto count = reader.prepare("SELECT count(*) FROM t");
      ASSERT_TRUE(count.step());
      EXPECT_EQ(count.integer(0), 60 * (commit + 1)) << "another connection sees every committed row";
    }
  }
  Database reopened(path, /*create=*/false);
  auto count = reopened.prepare("SELECT count(*), min(length(v)) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.integer(0), 300);
  EXPECT_EQ(count.integer(1), 400);
  std::filesystem::remove_all(dir);
}

// Commits only append to the WAL and never wait for the database file; a checkpoint writes the
// database file and sends it to the disk a piece at a time (one wait per 256 KiB), so that it
// never has a second's worth of pages in flight for a commit's sync to wait behind.
TEST(SqliteVfs, ACheckpointSendsTheDatabaseToTheDiskInPiecesAndACommitNever) {
  const auto dir = fresh_directory("mancala-writeback-");
  const std::string path = (dir / "w.db").string();
  Database writer = open_test_writer(path, "FULL");
  const VfsCounts before_commits = vfs_counts();
  const std::string row(400, 'x');
  writer.begin_write();
  for (int k = 0; k < 4000; ++k) writer.prepare("INSERT INTO t (v) VALUES (?1)").bind(1, row).run();
  writer.execute("COMMIT");
  const VfsCounts before_checkpoint = vfs_counts();
  EXPECT_EQ(before_checkpoint.writebacks, before_commits.writebacks) << "a commit waits for no writeback";

  auto checkpoint = writer.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  ASSERT_TRUE(checkpoint.step());
  const auto pages_copied = static_cast<std::uint64_t>(checkpoint.integer(2));
  EXPECT_GE(pages_copied, 2000u) << "4,000 rows of 400 bytes fill some 2,000 pages of 1 KiB";
  const std::uint64_t writebacks = vfs_counts().writebacks - before_checkpoint.writebacks;
  // One writeback per 256 KiB copied (one more if the pages written when the file was made
  // complete a piece).
  EXPECT_GE(writebacks, pages_copied / 256);
  EXPECT_LE(writebacks, pages_copied / 256 + 1);
  std::filesystem::remove_all(dir);
}

// A writer as the server opens it (1 KiB pages, WAL, no automatic checkpoints, FULL sync) with a
// WalCheckpointer that starts the WAL over past kRestartFrames and runs no timed passes within a
// test: only the catch-up passes the WAL's size asks for.
class WalCheckpointerTest : public ::testing::Test {
 protected:
  static constexpr int kRestartFrames = 200;
  static constexpr std::uintmax_t kLimitBytes = kRestartFrames * std::uintmax_t{1024 + 24};

  void SetUp() override {
    dir_ = fresh_directory("mancala-wal-restart-");
    path_ = (dir_ / "w.db").string();
    writer_ = std::make_unique<Database>(open_test_writer(path_, "FULL"));
    checkpointer_ = std::make_unique<WalCheckpointer>(
        path_, *writer_, WalCheckpointer::Limits{std::chrono::hours(1), kRestartFrames, 50});
  }
  void TearDown() override {
    close();
    std::filesystem::remove_all(dir_);
  }
  void close() {
    checkpointer_.reset();
    writer_.reset();
  }
  // `commits` transactions of one 300-byte row each; `after_each` runs after every commit.
  void commit_rows(int commits, const std::function<void()>& after_each = [] {}) {
    const std::string row(300, 'x');
    for (int commit = 0; commit < commits; ++commit) {
      writer_->begin_write();
      writer_->prepare("INSERT INTO t (v) VALUES (?1)").bind(1, row).run();
      writer_->execute("COMMIT");
      after_each();
    }
  }
  std::uintmax_t wal_bytes() const { return std::filesystem::file_size(path_ + "-wal"); }

  std::filesystem::path dir_;
  std::string path_;
  std::unique_ptr<Database> writer_;
  std::unique_ptr<WalCheckpointer> checkpointer_;
};

// Under a steady stream of commits the WAL still starts over once it passes its limit (before
// the WalCheckpointer's catch-up passes, it grew as long as commits kept coming), and nothing
// committed is lost on the way.
TEST_F(WalCheckpointerTest, TheWalStartsOverWhileCommitsKeepComing) {
  constexpr int kCommits = 3000;
  std::uintmax_t largest_wal = 0;
  const VfsCounts before = vfs_counts();
  commit_rows(kCommits, [&] { largest_wal = std::max(largest_wal, wal_bytes()); });
  close();
  const std::uintmax_t frames_written = (vfs_counts().wal_appends - before.wal_appends) / 2;  // header, page
  EXPECT_GT(frames_written, 10u * kRestartFrames) << "enough frames for ten WALs of the limit";
  EXPECT_LT(largest_wal, 4 * kLimitBytes) << "the WAL started over near its limit";
  Database reopened(path_, /*create=*/false);
  auto count = reopened.prepare("SELECT count(*), min(length(v)) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.integer(0), kCommits);
  EXPECT_EQ(count.integer(1), 300);
}

// A reader that holds an old snapshot keeps the WAL from starting over (its frames may still be
// needed); once it is done the WAL starts over again and the file is cut back near its limit.
TEST_F(WalCheckpointerTest, AfterALongReaderTheWalStartsOverAndShrinks) {
  {
    Database reader(path_, /*create=*/false);
    reader.execute("BEGIN");
    auto count = reader.prepare("SELECT count(*) FROM t");
    ASSERT_TRUE(count.step());
    EXPECT_EQ(count.integer(0), 0);
    commit_rows(2000);
    EXPECT_GT(wal_bytes(), 5 * kLimitBytes) << "the reader's snapshot holds the WAL";
  }  // the reader ends its transaction and closes
  commit_rows(1000);
  EXPECT_LT(wal_bytes(), 4 * kLimitBytes) << "started over, and cut back to twice the limit";
  auto count = writer_->prepare("SELECT count(*) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.integer(0), 3000);
}

// schema.cpp writes each table once for both databases: fresh ones have the same tables and
// columns, and each keeps the number of steps it shipped with (PostgreSQL has one of its own).
TEST(Schema, BothDatabasesHaveTheSameTablesAndColumns) {
  EXPECT_EQ(migrations(Dialect::sqlite).size(), 13u);
  EXPECT_EQ(migrations(Dialect::postgresql).size(), 14u);
  const auto dir = fresh_directory("mancala-schema-");
  const std::string sqlite_path = (dir / "s.db").string();
  const std::string postgres_url = testing::TempPostgres::shared().create_database();
  Histogram latency;
  Storage::open(sqlite_path, latency).reset();
  Storage::open(postgres_url, latency).reset();
  std::vector<std::string> in_sqlite, in_postgres;
  Database sqlite(sqlite_path, false);
  for (auto row = sqlite.prepare("SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                                 "WHERE m.type = 'table' ORDER BY 1");
       row.step();)
    in_sqlite.push_back(row.text(0));
  PgConnection postgres(postgres_url);
  for (auto row = postgres.prepare("SELECT table_name || '.' || column_name FROM information_schema.columns "
                                   "WHERE table_schema = current_schema() AND table_name <> 'schema_version' "
                                   "ORDER BY 1");
       row.step();)
    in_postgres.push_back(row.text(0));
  // Sorted here: the two databases' collations order '_' and '.' differently.
  std::sort(in_sqlite.begin(), in_sqlite.end());
  std::sort(in_postgres.begin(), in_postgres.end());
  EXPECT_GT(in_sqlite.size(), 50u);
  EXPECT_EQ(in_sqlite, in_postgres);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Synchronous, WalCoalescing, ::testing::Values("FULL", "OFF"),
                         [](const auto& test) { return test.param; });

INSTANTIATE_TEST_SUITE_P(Backends, StorageTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& test) { return test.param; });

}  // namespace
}  // namespace mancala::server
