// Accounts, sessions and ratings against a real server process (issue 31): a guest who claims
// an account keeps his games, a session cookie is the only proof and carries its flags, the
// refusals are clear and rate-limited, and a rated result and its ratings are stored together.
#include <atomic>
#include <cmath>
#include <fstream>
#include <iterator>
#include <regex>
#include <thread>

#include <gtest/gtest.h>

#include "harness.hpp"

namespace mancala::testing {
namespace {

const std::string kPassword = "tulip garden 42";

struct Account {
  std::string player_id;
  std::string cookie;  // "mancala_session=…", as a browser sends it back
};

HttpReply sign_up(unsigned short port, const std::string& name, const std::string& password = kPassword,
                  const std::string& guest_token = "") {
  std::vector<std::pair<std::string, std::string>> fields;
  if (!guest_token.empty()) fields.emplace_back("Authorization", "Bearer " + guest_token);
  return http_call(port, "POST", "/api/accounts", {{"name", name}, {"password", password}}, fields);
}

Account account(unsigned short port, const std::string& name) {
  const HttpReply reply = sign_up(port, name);
  EXPECT_EQ(reply.status, 201) << reply.body.dump();
  return {reply.body.value("player_id", ""), cookie_of(reply.set_cookie)};
}

HttpReply log_in(unsigned short port, const std::string& name, const std::string& password = kPassword) {
  return http_call(port, "POST", "/api/session", {{"name", name}, {"password", password}});
}

std::string error_code(const HttpReply& reply) { return reply.body["error"].value("code", ""); }

// A connection whose upgrade carries the account's cookie; its hello names nobody.
std::unique_ptr<Client> connect_as(unsigned short port, const std::string& cookie, Json* welcome) {
  auto client = std::make_unique<Client>(port, Client::Options{"", "", cookie});
  *welcome = client->request({{"type", "hello"}});
  return client;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A finished Cups game: `a` at seat 0, `b` at seat 1, and seat `loser` resigns at once.
Json play_to_resignation(Client& a, Client& b, bool rated, int loser) {
  const Json created = a.request({{"type", "create_room"}, {"game", "cups"}, {"rated", rated}});
  EXPECT_EQ(created["type"], "room") << created.dump();
  const std::string room = created["room"]["id"];
  const Json joined = b.request({{"type", "join_room"}, {"room", room}});
  EXPECT_EQ(joined["room"]["status"], "playing") << joined.dump();
  Client& resigner = loser == 0 ? a : b;
  const Json update = resigner.request({{"type", "resign"}, {"room", room}});
  EXPECT_EQ(update["type"], "update") << update.dump();
  EXPECT_FALSE(update["state"]["result"].is_null());
  return created["room"];
}

TEST(Accounts, AGuestWhoClaimsAnAccountKeepsHisGamesAndHisTokenStopsWorking) {
  ServerProcess server;
  Client guest(server.port());
  const Json welcome = guest.hello("Ada");
  EXPECT_EQ(welcome["account"], false);
  Client other(server.port());
  other.hello("Bob");
  const Json room = play_to_resignation(guest, other, false, 0);

  const HttpReply claimed = sign_up(server.port(), "Ada", kPassword, welcome["token"]);
  ASSERT_EQ(claimed.status, 201) << claimed.body.dump();
  EXPECT_EQ(claimed.body["player_id"], welcome["player_id"]) << "the account keeps the guest's player id";

  Client old_token(server.port());
  EXPECT_EQ(old_token.request({{"type", "hello"}, {"token", welcome["token"]}})["code"], "bad_token")
      << "after a claim only the cookie proves the player";
  Json again;
  const auto as_account = connect_as(server.port(), cookie_of(claimed.set_cookie), &again);
  EXPECT_EQ(again["type"], "welcome") << again.dump();
  EXPECT_EQ(again["player_id"], welcome["player_id"]);
  EXPECT_EQ(again["account"], true);
  EXPECT_FALSE(again.contains("token")) << "an account gets no token a page script could read";

  std::string body;
  ASSERT_EQ(http_get(server.port(), "/api/games?player_id=" + welcome["player_id"].get<std::string>(), &body), 200);
  const Json games = Json::parse(body)["games"];
  ASSERT_EQ(games.size(), 1u) << body;
  EXPECT_EQ(games[0]["id"], room["id"]);
  EXPECT_EQ(games[0]["players"][0]["account"], true);
  EXPECT_EQ(games[0]["players"][1]["account"], false);
  const HttpReply profile = http_call(server.port(), "GET", "/api/players/ada");
  ASSERT_EQ(profile.status, 200);
  EXPECT_EQ(profile.body["name"], "Ada");
  EXPECT_EQ(profile.body["account"], true);
  EXPECT_EQ(profile.body["games"], Json({{"played", 1}, {"won", 0}, {"drawn", 0}, {"lost", 1}}));
  EXPECT_EQ(http_call(server.port(), "GET", "/api/players/Bob").status, 404) << "guests are found by id only";
  const HttpReply bob = http_call(server.port(), "GET", "/api/players/" + games[0]["players"][1]["player_id"].get<std::string>());
  EXPECT_EQ(bob.body["account"], false) << "a guest's profile, by his player id";
  EXPECT_EQ(bob.body["games"]["won"], 1);
}

TEST(Accounts, TheNameIsReservedAndRefusalsSayWhy) {
  ServerProcess server;
  account(server.port(), "Ada");
  EXPECT_EQ(error_code(sign_up(server.port(), "ADA")), "name_taken");
  EXPECT_EQ(sign_up(server.port(), "ADA").status, 409);
  EXPECT_EQ(error_code(sign_up(server.port(), "Cy", "short")), "weak_password");
  EXPECT_EQ(error_code(sign_up(server.port(), "Cy", "1234567890")), "weak_password") << "a common password";
  EXPECT_EQ(error_code(sign_up(server.port(), "Cyrilcyril", "cyrilcyril")), "weak_password") << "the name itself";
  EXPECT_EQ(error_code(sign_up(server.port(), "two words")), "bad_name");
  EXPECT_EQ(error_code(sign_up(server.port(), "")), "bad_name");
  const HttpReply weak = sign_up(server.port(), "Cy", "short");
  EXPECT_NE(weak.body["error"].value("message", "").find("10 characters"), std::string::npos) << weak.body.dump();

  Client guest(server.port());
  const Json refused = guest.request({{"type", "hello"}, {"name", "aDa"}});
  EXPECT_EQ(refused["code"], "bad_name") << "no guest can pass for an account";
  EXPECT_EQ(guest.request({{"type", "hello"}})["code"], "bad_request") << "no name, no token, no cookie";
  EXPECT_EQ(guest.hello("Ada Lovelace")["type"], "welcome");
}

// Issue 46: no guest can take a name that shows as an account's (an invisible character added,
// a look-alike letter, a reversed spelling, another case, a digit for a letter) or that shows
// as nothing; nor can a new account. Names are kept in NFC.
TEST(Accounts, NamesThatPassForAnAccountOrForNothingAreRefused) {
  ServerProcess server;
  account(server.port(), "carol");
  Client guest(server.port());
  for (const std::string fake : {"carol\u200B", "c\u0430rol", "\u202Elorac", "\u200B\u200B\u200B", "\u3164",
                                 "carol\U000E0041", "\u0301\u0301", "CAR0L", "ca\u200Drol"}) {
    const Json refused = guest.request({{"type", "hello"}, {"name", fake}});
    EXPECT_EQ(refused["code"], "bad_name") << fake << ": " << refused.dump();
  }
  EXPECT_EQ(guest.request({{"type", "hello"}, {"name", "c\u0430rol"}})["message"],
            "'c\u0430rol' looks like the account 'carol': pick another name");
  EXPECT_EQ(guest.request({{"type", "hello"}, {"name", "ca\u200Drol"}})["message"],
            "'ca\u200Drol' looks like the account 'carol': pick another name")
      << "a joiner between letters is allowed, and shows nothing";
  EXPECT_EQ(guest.request({{"type", "hello"}, {"name", "\u202Elorac"}})["message"],
            "names may not contain direction-changing characters such as a right-to-left override (U+202E)");
  const HttpReply like = sign_up(server.port(), "caro1");
  EXPECT_EQ(like.status, 409);
  EXPECT_EQ(like.body["error"]["message"], "the name 'caro1' looks like the account 'carol'; pick another");
  const Json welcome = guest.request({{"type", "hello"}, {"name", "Rene\u0301"}});
  EXPECT_EQ(welcome["name"], "Ren\u00E9") << "e and a combining accent are kept as é";
}

// The accounts a database had before the name skeletons get theirs when the server migrates it.
TEST(Accounts, AnOlderDatabasesAccountsGetTheirNameSkeletons) {
  TempDir dir;
  const std::string db = dir.file("before.db");
  { ServerProcess server(db); account(server.port(), "carol"); }
  // Version 10 is the one before the skeletons: what later steps made goes too.
  execute_on(db, "DROP TABLE tournament_pairings; DROP TABLE tournament_players; DROP TABLE tournaments; "
                 "ALTER TABLE accounts DROP COLUMN language; "
                 "DROP INDEX accounts_by_skeleton; ALTER TABLE accounts DROP COLUMN name_skeleton; PRAGMA user_version = 10");
  ServerProcess server(db);
  EXPECT_EQ(sign_up(server.port(), "caro1").status, 409);
  EXPECT_EQ(sign_up(server.port(), "carla").status, 201);
}

TEST(Accounts, LoggingInElsewhereResumesTheRoomsAndTheCookieHasItsFlags) {
  ServerProcess server;
  const Account ada = account(server.port(), "Ada");
  Json welcome;
  auto first = connect_as(server.port(), ada.cookie, &welcome);
  const Json created = first->request({{"type", "create_room"}, {"game", "cups"}});
  const std::string room = created["room"]["id"];
  Client bob(server.port());
  bob.hello("Bob");
  ASSERT_EQ(bob.request({{"type", "join_room"}, {"room", room}})["room"]["status"], "playing");

  const HttpReply second = log_in(server.port(), "ada");
  ASSERT_EQ(second.status, 200) << second.body.dump();
  EXPECT_NE(second.set_cookie.find("HttpOnly"), std::string::npos) << second.set_cookie;
  EXPECT_NE(second.set_cookie.find("SameSite=Lax"), std::string::npos);
  EXPECT_NE(second.set_cookie.find("Path=/"), std::string::npos);
  EXPECT_EQ(second.set_cookie.find("Secure"), std::string::npos) << "plain http: no Secure";
  auto phone = connect_as(server.port(), cookie_of(second.set_cookie), &welcome);
  EXPECT_EQ(welcome["player_id"], ada.player_id);
  const Json resumed = phone->wait_for_type("room");
  EXPECT_EQ(resumed["room"]["id"], room) << "the open room comes back on the new device";
  EXPECT_EQ(resumed["room"]["seats"][0]["account"], true);
  EXPECT_EQ(resumed["room"]["seats"][0]["rating"], 1500);
  EXPECT_EQ(resumed["room"]["seats"][0]["provisional"], true);
  EXPECT_EQ(resumed["room"]["seats"][1]["account"], false);

  const HttpReply listed = http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", ada.cookie}});
  ASSERT_EQ(listed.status, 200);
  EXPECT_EQ(listed.body["sessions"].size(), 2u) << listed.body.dump();
}

TEST(Accounts, BehindHttpsTheCookieIsSecureAndHostOnly) {
  ServerProcess server(":memory:", {"--public-url", "https://mancala.example"});
  const HttpReply reply = sign_up(server.port(), "Ada");
  ASSERT_EQ(reply.status, 201);
  EXPECT_EQ(reply.set_cookie.rfind("__Host-mancala_session=", 0), 0u) << reply.set_cookie;
  EXPECT_NE(reply.set_cookie.find("; Secure"), std::string::npos);
  EXPECT_EQ(http_call(server.port(), "POST", "/api/session", {{"name", "Ada"}, {"password", kPassword}},
                      {{"Origin", "https://elsewhere.example"}}).status, 403)
      << "another site's page cannot log anyone in";
}

TEST(Accounts, WrongPasswordsAreRefusedAlikeAndThenLockedOut) {
  ServerProcess server;
  account(server.port(), "Ada");
  const HttpReply unknown = log_in(server.port(), "Nobody");
  const HttpReply wrong = log_in(server.port(), "Ada", "not the password");
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(unknown.body, wrong.body) << "an unknown name and a wrong password look the same";
  for (int i = 0; i < 9; ++i) EXPECT_EQ(log_in(server.port(), "ada", "guess number " + std::to_string(i)).status, 401);
  const HttpReply locked = log_in(server.port(), "Ada");
  EXPECT_EQ(locked.status, 429) << "ten failures lock the name from this address, even for the right password";
  EXPECT_EQ(error_code(locked), "rate_limited");
  EXPECT_FALSE(locked.retry_after.empty());
  EXPECT_GT(std::stoi(locked.retry_after), 0) << "Retry-After says how long, in seconds";
  const std::string log = server.log();
  EXPECT_NE(log.find("\"login_refused\""), std::string::npos);
  EXPECT_NE(log.find("\"login_locked\""), std::string::npos);
  EXPECT_EQ(log.find("not the password"), std::string::npos) << "no password in a log line";
  EXPECT_EQ(log.find("guess number"), std::string::npos);
}

TEST(Accounts, LoggedOutAndRevokedSessionsAreRefused) {
  ServerProcess server;
  const Account laptop = account(server.port(), "Ada");
  const std::string phone = cookie_of(log_in(server.port(), "Ada").set_cookie);
  const std::string tablet = cookie_of(log_in(server.port(), "Ada").set_cookie);

  const HttpReply out = http_call(server.port(), "DELETE", "/api/session", Json(), {{"Cookie", tablet}});
  EXPECT_EQ(out.status, 200);
  EXPECT_NE(out.set_cookie.find("Max-Age=0"), std::string::npos) << "the browser forgets the cookie";
  Json welcome;
  connect_as(server.port(), tablet, &welcome);
  EXPECT_EQ(welcome["code"], "bad_token") << welcome.dump();
  EXPECT_NE(welcome.value("message", "").find("log in again"), std::string::npos);

  // A new password ends every other session.
  const HttpReply changed = http_call(server.port(), "POST", "/api/account/password",
                                      {{"password", kPassword}, {"new_password", "a brand new secret"}},
                                      {{"Cookie", laptop.cookie}});
  ASSERT_EQ(changed.status, 200) << changed.body.dump();
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", phone}}).status, 401);
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", laptop.cookie}}).status, 200);
  EXPECT_EQ(log_in(server.port(), "Ada").status, 401) << "the old password is gone";

  // Log out everywhere.
  const std::string desk = cookie_of(log_in(server.port(), "Ada", "a brand new secret").set_cookie);
  EXPECT_EQ(http_call(server.port(), "DELETE", "/api/sessions", Json(), {{"Cookie", desk}}).status, 200);
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", laptop.cookie}}).status, 401);
  EXPECT_EQ(error_code(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", desk}})), "not_logged_in");
}

// Ending a session also ends what is already open with it: the WebSockets of the devices whose
// sessions a new password or a log-out ended are closed at once, and their hello again is
// refused; the device that changed the password keeps its connection.
TEST(Accounts, EndingSessionsClosesTheirOpenConnections) {
  ServerProcess server;
  const Account laptop = account(server.port(), "Ada");
  const std::string phone = cookie_of(log_in(server.port(), "Ada").set_cookie);
  Json welcome;
  auto on_laptop = connect_as(server.port(), laptop.cookie, &welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  auto on_phone = connect_as(server.port(), phone, &welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();

  const HttpReply changed = http_call(server.port(), "POST", "/api/account/password",
                                      {{"password", kPassword}, {"new_password", "a brand new secret"}},
                                      {{"Cookie", laptop.cookie}});
  ASSERT_EQ(changed.status, 200) << changed.body.dump();
  EXPECT_TRUE(on_phone->wait_closed(5s)) << "the phone's session ended with the old password";
  EXPECT_EQ(on_laptop->request({{"type", "list_rooms"}})["type"], "rooms") << "the laptop plays on";
  connect_as(server.port(), phone, &welcome);
  EXPECT_EQ(welcome["code"], "bad_token") << welcome.dump();

  const HttpReply out = http_call(server.port(), "DELETE", "/api/session", Json(), {{"Cookie", laptop.cookie}});
  EXPECT_EQ(out.status, 200);
  EXPECT_TRUE(on_laptop->wait_closed(5s)) << "logging out closes this device's connection too";
}

TEST(Accounts, ASessionUnusedForThirtyDaysHasExpired) {
  TempDir dir;
  const std::string db = dir.file("accounts.db");
  ServerProcess server(db);
  const Account ada = account(server.port(), "Ada");
  execute_on(db, "UPDATE sessions SET last_used = '2020-01-01T00:00:00.000Z'");
  Json welcome;
  connect_as(server.port(), ada.cookie, &welcome);
  EXPECT_EQ(welcome["code"], "bad_token") << welcome.dump();
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", ada.cookie}}).status, 401);
}

// Issue 46: a session that reaches its 30 days while its socket stays open has that socket
// closed (the hub sweeps its sockets' sessions once a minute on the rooms' clock, every 60 ms
// here with --clock-speed 1000); a device with a live session plays on. The log-in is
// back-dated in the database: no test waits 30 days.
TEST(Accounts, ASessionThatReachesItsLifetimeHasItsOpenConnectionsClosed) {
  TempDir dir;
  const std::string db = dir.file("accounts.db");
  ServerProcess server(db, {"--clock-speed", "1000"});
  const Account ada = account(server.port(), "Ada");
  Json welcome;
  auto old_device = connect_as(server.port(), ada.cookie, &welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  execute_on(db, "UPDATE sessions SET created = '2000-01-01T00:00:00.000Z'");  // used now, made long ago
  const std::string today = cookie_of(log_in(server.port(), "Ada").set_cookie);
  auto new_device = connect_as(server.port(), today, &welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();

  int code = 0;
  EXPECT_TRUE(old_device->wait_closed(10s, &code)) << "the expired session's socket is still open";
  EXPECT_EQ(code, 1001);
  EXPECT_NE(server.log().find("ended_sessions_closed"), std::string::npos) << server.log();
  EXPECT_EQ(new_device->request({{"type", "list_rooms"}})["type"], "rooms") << "the live session plays on";
  connect_as(server.port(), ada.cookie, &welcome);
  EXPECT_EQ(welcome["code"], "bad_token") << welcome.dump();
}

TEST(Accounts, NoSessionProofOrPasswordReachesTheDatabaseOrTheLog) {
  TempDir dir;
  const std::string db = dir.file("secrets.db");
  std::string secret;
  std::string log;
  {
    ServerProcess server(db);
    const Account ada = account(server.port(), "Ada");
    secret = ada.cookie.substr(ada.cookie.find('=') + 1);
    ASSERT_GE(secret.size(), 40u);
    log = server.log();
  }  // stopped: the WAL is checkpointed into the file
  const std::string bytes = file_text(db) + file_text(db + "-wal");
  EXPECT_EQ(bytes.find(secret), std::string::npos) << "only the session's hash is stored";
  EXPECT_EQ(bytes.find(kPassword), std::string::npos) << "only the password's Argon2id hash";
  EXPECT_NE(bytes.find("$argon2id$"), std::string::npos);
  EXPECT_EQ(log.find(secret), std::string::npos);
  EXPECT_EQ(log.find(kPassword), std::string::npos);
}

TEST(Accounts, AnOperatorsResetLinkSetsANewPasswordOnce) {
  TempDir dir;
  const std::string db = dir.file("reset.db");
  ServerProcess server(db);
  const Account ada = account(server.port(), "Ada");
  std::string out;
  ASSERT_EQ(run_server_command({"--db", db, "--reset-password", "ada"}, &out), 0) << out;
  std::smatch link;
  ASSERT_TRUE(std::regex_search(out, link, std::regex("/#/reset/([A-Za-z0-9_-]{40,})"))) << out;
  const std::string code = link[1];
  EXPECT_NE(run_server_command({"--db", db, "--reset-password", "nobody"}), 0);

  const HttpReply reset = http_call(server.port(), "POST", "/api/password-reset",
                                    {{"code", code}, {"new_password", "remembered at last"}});
  ASSERT_EQ(reset.status, 200) << reset.body.dump();
  EXPECT_EQ(reset.body["player_id"], ada.player_id);
  EXPECT_FALSE(reset.set_cookie.empty()) << "logged in at once";
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", ada.cookie}}).status, 401)
      << "the old sessions ended";
  EXPECT_EQ(log_in(server.port(), "Ada", "remembered at last").status, 200);
  const HttpReply again = http_call(server.port(), "POST", "/api/password-reset",
                                    {{"code", code}, {"new_password", "yet another secret"}});
  EXPECT_EQ(error_code(again), "bad_code") << "a link works once";
}

TEST(Accounts, RatedRoomsAreForAccountsOnly) {
  ServerProcess server;
  const Account ada = account(server.port(), "Ada");
  Json welcome;
  auto creator = connect_as(server.port(), ada.cookie, &welcome);
  Client guest(server.port());
  guest.hello("Guest");
  EXPECT_EQ(guest.request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}})["code"], "not_allowed");
  EXPECT_EQ(creator->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true},
                              {"bots", Json::array({{{"seat", 1}, {"level", 1}}})}})["code"],
            "not_allowed");
  const Json created = creator->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
  ASSERT_EQ(created["type"], "room") << created.dump();
  EXPECT_EQ(created["room"]["rated"], true);
  const std::string room = created["room"]["id"];
  const Json refused = guest.request({{"type", "join_room"}, {"room", room}});
  EXPECT_EQ(refused["code"], "not_allowed") << refused.dump();
  EXPECT_EQ(guest.request({{"type", "join_room"}, {"room", room}, {"spectate", true}})["type"], "room")
      << "anyone may watch";
  EXPECT_EQ(creator->request({{"type", "add_bot"}, {"room", room}, {"seat", 1}, {"level", 1}})["code"], "not_allowed");
  const Json lobby = guest.request({{"type", "list_rooms"}});
  ASSERT_EQ(lobby["rooms"].size(), 1u);
  EXPECT_EQ(lobby["rooms"][0]["rated"], true);
}

Json rating_of(unsigned short port, const std::string& name) {
  const HttpReply profile = http_call(port, "GET", "/api/players/" + name);
  EXPECT_EQ(profile.status, 200) << name;
  return profile.body;
}

// The result and the ratings are one transaction: a SIGKILL right after the acknowledged
// result loses neither, and the restart does not count the game again.
TEST(Accounts, ARatedResultAndItsRatingsSurviveAKillTogether) {
  TempDir dir;
  const std::string db = dir.file("rated.db");
  std::string ada_cookie;
  std::string bob_cookie;
  std::string room;
  {
    ServerProcess server(db);
    ada_cookie = account(server.port(), "Ada").cookie;
    bob_cookie = account(server.port(), "Bob").cookie;
    Json welcome;
    auto ada = connect_as(server.port(), ada_cookie, &welcome);
    auto bob = connect_as(server.port(), bob_cookie, &welcome);
    room = play_to_resignation(*ada, *bob, true, 1)["id"];  // Bob resigns: Ada wins
    server.kill_hard();
  }
  ServerProcess server(db);
  const Json ada = rating_of(server.port(), "Ada");
  const Json bob = rating_of(server.port(), "Bob");
  EXPECT_GT(ada["ratings"]["cups"]["rating"].get<double>(), 1500.0) << ada.dump();
  EXPECT_LT(bob["ratings"]["cups"]["rating"].get<double>(), 1500.0) << bob.dump();
  EXPECT_NEAR(ada["ratings"]["cups"]["rating"].get<double>() - 1500.0, 1500.0 - bob["ratings"]["cups"]["rating"].get<double>(), 1e-6)
      << "two newcomers move by the same amount";
  EXPECT_EQ(ada["ratings"]["cups"]["games"], 1) << "counted once, also after the restart";
  EXPECT_EQ(ada["ratings"]["cups"]["provisional"], true);
  ASSERT_EQ(ada["rating_history"]["cups"].size(), 1u);
  EXPECT_EQ(ada["rating_history"]["cups"][0]["game_id"], room);
  EXPECT_EQ(ada["games"]["won"], 1);
  EXPECT_EQ(bob["games"]["lost"], 1);
  std::string body;
  ASSERT_EQ(http_get(server.port(), "/api/games/" + room, &body), 200);
  EXPECT_EQ(Json::parse(body)["status"], "finished");
  EXPECT_EQ(Json::parse(body)["rated"], true);
  const HttpReply board = http_call(server.port(), "GET", "/api/leaderboard/cups");
  EXPECT_EQ(board.body["players"].size(), 0u) << "provisional ratings stay off the leaderboard";

  // The next rated game's room shows the new ratings beside the names.
  Json welcome;
  auto ada_again = connect_as(server.port(), ada_cookie, &welcome);
  const Json created = ada_again->request({{"type", "create_room"}, {"game", "cups"}, {"rated", true}});
  EXPECT_EQ(created["room"]["seats"][0]["rating"],
            static_cast<int>(std::lround(ada["ratings"]["cups"]["rating"].get<double>())));
}

TEST(Accounts, AnAccountsMutesFollowItToEveryBrowserAndSurviveARestart) {
  TempDir dir;
  const std::string db = dir.file("mutes.db");
  auto server = std::make_unique<ServerProcess>(db);
  const Account ada = account(server->port(), "Ada");
  const Account bob = account(server->port(), "Bob");
  const auto as_ada = [&](const std::string& method, const std::string& target, const Json& body = Json()) {
    return http_call(server->port(), method, target, body, {{"Cookie", ada.cookie}});
  };
  const std::string bob_path = "/api/account/mutes/" + bob.player_id;

  HttpReply muted = as_ada("PUT", bob_path, {{"name", "Bob"}});
  ASSERT_EQ(muted.status, 200) << muted.body.dump();
  EXPECT_EQ(muted.body["muted"], Json::parse(R"([{"player_id":")" + bob.player_id + R"(","name":"Bob"}])"));
  EXPECT_EQ(as_ada("PUT", bob_path, {{"name", "Bob"}}).body["muted"].size(), 1u) << "muting twice keeps one";

  server->kill_hard();
  server = std::make_unique<ServerProcess>(db);
  const HttpReply elsewhere = log_in(server->port(), "Ada");  // another browser
  ASSERT_EQ(elsewhere.status, 200);
  const HttpReply listed = http_call(server->port(), "GET", "/api/account/mutes", Json(),
                                     {{"Cookie", cookie_of(elsewhere.set_cookie)}});
  ASSERT_EQ(listed.status, 200);
  ASSERT_EQ(listed.body["muted"].size(), 1u) << listed.body.dump();
  EXPECT_EQ(listed.body["muted"][0]["name"], "Bob");

  EXPECT_EQ(error_code(as_ada("PUT", "/api/account/mutes/" + ada.player_id, {{"name", "Ada"}})), "bad_request")
      << "nobody mutes himself";
  EXPECT_EQ(error_code(as_ada("PUT", bob_path, Json::object())), "bad_request") << "a mute needs the name to show";
  const HttpReply guest = http_call(server->port(), "GET", "/api/account/mutes");
  EXPECT_EQ(guest.status, 401) << "a guest's mutes stay in the browser";
  EXPECT_EQ(error_code(guest), "not_logged_in");
  EXPECT_EQ(http_call(server->port(), "PUT", bob_path, {{"name", "Bob"}},
                      {{"Cookie", ada.cookie}, {"Origin", "http://evil.example"}}).status, 403);

  const HttpReply unmuted = as_ada("DELETE", bob_path);
  ASSERT_EQ(unmuted.status, 200) << unmuted.body.dump();
  EXPECT_TRUE(unmuted.body["muted"].empty());
}

// Issue 49: an account's language is kept by the server, so that every browser it logs in from
// shows its pages in it; a guest's stays in his browser.
TEST(Accounts, AnAccountsLanguageIsKeptByTheServerAndSurvivesARestart) {
  TempDir dir;
  const std::string db = dir.file("language.db");
  auto server = std::make_unique<ServerProcess>(db);
  const Account ada = account(server->port(), "Ada");
  const auto as_ada = [&](const std::string& method, const std::string& target, const Json& body = Json()) {
    return http_call(server->port(), method, target, body, {{"Cookie", ada.cookie}});
  };

  EXPECT_EQ(as_ada("GET", "/api/account").body["language"], "") << "not chosen yet: the browser's languages decide";
  const HttpReply chosen = as_ada("PUT", "/api/account/language", {{"language", "vi"}});
  ASSERT_EQ(chosen.status, 200) << chosen.body.dump();
  EXPECT_EQ(chosen.body["language"], "vi");
  EXPECT_EQ(as_ada("GET", "/api/account").body["language"], "vi");

  for (const char* unknown : {"fr", "VI", "", "vi-VN"}) {
    const HttpReply refused = as_ada("PUT", "/api/account/language", {{"language", unknown}});
    EXPECT_EQ(refused.status, 400) << unknown;
    EXPECT_EQ(error_code(refused), "bad_language") << unknown;
    EXPECT_FALSE(refused.body["error"].value("message", "").empty()) << "the one error shape, with words";
  }
  EXPECT_EQ(error_code(as_ada("PUT", "/api/account/language", {{"language", 1}})), "bad_request");
  EXPECT_EQ(error_code(as_ada("PUT", "/api/account/language", Json::object())), "bad_request");
  EXPECT_EQ(as_ada("GET", "/api/account").body["language"], "vi") << "a refusal changes nothing";

  Client guest(server->port());
  const Json welcome = guest.hello("Cy");
  const HttpReply as_guest = http_call(server->port(), "PUT", "/api/account/language", {{"language", "de"}},
                                       {{"Authorization", "Bearer " + welcome["token"].get<std::string>()}});
  EXPECT_EQ(as_guest.status, 401) << "a guest's language stays in his browser";
  EXPECT_EQ(error_code(as_guest), "not_logged_in");
  EXPECT_EQ(http_call(server->port(), "PUT", "/api/account/language", {{"language", "de"}},
                      {{"Cookie", ada.cookie}, {"Origin", "http://evil.example"}}).status, 403);

  server->kill_hard();
  server = std::make_unique<ServerProcess>(db);
  const HttpReply elsewhere = log_in(server->port(), "Ada");  // another browser, after the restart
  ASSERT_EQ(elsewhere.status, 200);
  EXPECT_EQ(elsewhere.body["language"], "vi") << "the log-in's answer has it, for the page to switch at once";
  const HttpReply shown = http_call(server->port(), "GET", "/api/account", Json(),
                                    {{"Cookie", cookie_of(elsewhere.set_cookie)}});
  ASSERT_EQ(shown.status, 200);
  EXPECT_EQ(shown.body["language"], "vi");

  // Each change is a write: an address may make 60 in 10 minutes.
  HttpReply last;
  for (int i = 0; i < 70 && last.status != 429; ++i) last = as_ada("PUT", "/api/account/language", {{"language", "de"}});
  EXPECT_EQ(last.status, 429);
  EXPECT_EQ(error_code(last), "rate_limited");
}

// ---- issue 46: log-ins that cost, lock-outs that hurt only the guesser --------------------

// A log-in from behind a proxy on loopback (the server trusts 127.0.0.1) as `address`.
HttpReply log_in_from(unsigned short port, const std::string& address, const std::string& name,
                      const std::string& password = kPassword) {
  return http_call(port, "POST", "/api/session", {{"name", name}, {"password", password}},
                   {{"X-Forwarded-For", address}});
}

TEST(Accounts, AGuesserLocksOutHimselfNotTheOwner) {
  ServerProcess server(":memory:", {"--trusted-proxy", "127.0.0.1"});
  account(server.port(), "Ada");
  const std::string attacker = "203.0.113.66";
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(log_in_from(server.port(), attacker, "ada", "guess number " + std::to_string(i)).status, 401);
  const HttpReply locked = log_in_from(server.port(), attacker, "Ada");
  EXPECT_EQ(locked.status, 429) << "ten failures for one name lock that name for that address";
  EXPECT_FALSE(locked.retry_after.empty());
  EXPECT_EQ(log_in_from(server.port(), "198.51.100.7", "Ada").status, 200)
      << "the owner, from his own address, still logs in";

  // The guesser goes on with other names until his address has failed 50 times in all.
  for (int i = 0; i < 40; ++i)
    EXPECT_EQ(log_in_from(server.port(), attacker, "someone" + std::to_string(i), "guess again").status, 401) << i;
  EXPECT_EQ(log_in_from(server.port(), attacker, "nobody-yet", "guess again").status, 429)
      << "fifty failures lock the address";
  EXPECT_EQ(log_in_from(server.port(), "198.51.100.8", "Ada").status, 200)
      << "a second address logs in while the first has failed 50 times";
  EXPECT_EQ(server.log().find("guess"), std::string::npos) << "no password in a log line";
}

// Guessers at one name from many addresses slow it for everybody, but only after 200 failures
// in 10 minutes; and even then its owner sets a new password with the operator's link.
TEST(Accounts, ANameAloneIsSlowedOnlyAtAMuchHigherCountAndItsOwnerCanStillReset) {
  TempDir dir;
  const std::string db = dir.file("name-limit.db");
  ServerProcess server(db, {"--trusted-proxy", "127.0.0.1"});
  account(server.port(), "Ada");
  std::atomic<int> refused{0};
  std::vector<std::thread> guessers;
  for (int address = 0; address < 20; ++address)  // 20 addresses, 10 guesses each: none locked alone
    guessers.emplace_back([&, address] {
      for (int i = 0; i < 10; ++i)
        if (log_in_from(server.port(), "203.0.113." + std::to_string(address), "ada", "guess " + std::to_string(i)).status != 401)
          ++refused;
    });
  for (auto& thread : guessers) thread.join();
  EXPECT_EQ(refused.load(), 0) << "200 failures are answered as failures, not locked";
  const HttpReply locked = log_in_from(server.port(), "198.51.100.7", "Ada");
  EXPECT_EQ(locked.status, 429) << "now the name is slowed for everybody";
  EXPECT_FALSE(locked.retry_after.empty());

  std::string out;
  ASSERT_EQ(run_server_command({"--db", db, "--reset-password", "ada"}, &out), 0) << out;
  std::smatch link;
  ASSERT_TRUE(std::regex_search(out, link, std::regex("/#/reset/([A-Za-z0-9_-]{40,})"))) << out;
  const HttpReply reset = http_call(server.port(), "POST", "/api/password-reset",
                                    {{"code", std::string(link[1])}, {"new_password", "remembered at last"}},
                                    {{"X-Forwarded-For", "198.51.100.7"}});
  EXPECT_EQ(reset.status, 200) << "the owner's reset is not stopped by the name's count: " << reset.body.dump();
  EXPECT_FALSE(reset.set_cookie.empty()) << "and it logs him in";
}

// Correct passwords are limited per name too (20 in 10 minutes), and an account keeps at most 20
// sessions: the 21st ends the oldest, whose open connection closes as at a log-out.
TEST(Accounts, CorrectLogInsAreLimitedAndTheOldestSessionEnds) {
  ServerProcess server;
  const Account first = account(server.port(), "Ada");
  Json welcome;
  auto on_first = connect_as(server.port(), first.cookie, &welcome);
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump();
  std::vector<std::string> cookies;
  for (int i = 0; i < 20; ++i) {
    const HttpReply reply = log_in(server.port(), "Ada");
    ASSERT_EQ(reply.status, 200) << i << ": " << reply.body.dump();
    cookies.push_back(cookie_of(reply.set_cookie));
  }
  EXPECT_TRUE(on_first->wait_closed(5s)) << "the 21st session ended the first, and its connection";
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", first.cookie}}).status, 401);
  const HttpReply listed = http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", cookies.front()}});
  ASSERT_EQ(listed.status, 200) << "the second oldest still works";
  EXPECT_EQ(listed.body["sessions"].size(), 20u);

  const HttpReply limited = log_in(server.port(), "Ada");
  EXPECT_EQ(limited.status, 429) << "the 21st correct log-in in 10 minutes";
  EXPECT_EQ(error_code(limited), "rate_limited");
  EXPECT_FALSE(limited.retry_after.empty());
}

TEST(Accounts, ASessionEndsThirtyDaysAfterItsLogInHoweverMuchItIsUsed) {
  TempDir dir;
  const std::string db = dir.file("lifetime.db");
  ServerProcess server(db);
  const Account ada = account(server.port(), "Ada");
  ASSERT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", ada.cookie}}).status, 200);
  execute_on(db, "UPDATE sessions SET created = '2020-01-01T00:00:00.000Z'");  // used today, made long ago
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", ada.cookie}}).status, 401);
  Json welcome;
  connect_as(server.port(), ada.cookie, &welcome);
  EXPECT_EQ(welcome["code"], "bad_token") << welcome.dump();
}

TEST(Accounts, AResetLinkSurvivesARefusedNewPassword) {
  TempDir dir;
  const std::string db = dir.file("reset-refused.db");
  ServerProcess server(db);
  account(server.port(), "Adalovelace1");
  std::string out;
  ASSERT_EQ(run_server_command({"--db", db, "--reset-password", "adalovelace1"}, &out), 0) << out;
  std::smatch link;
  ASSERT_TRUE(std::regex_search(out, link, std::regex("/#/reset/([A-Za-z0-9_-]{40,})"))) << out;
  const std::string code = link[1];
  const HttpReply refused = http_call(server.port(), "POST", "/api/password-reset",
                                      {{"code", code}, {"new_password", "ADALOVELACE1"}});
  EXPECT_EQ(error_code(refused), "weak_password") << "the account's own name";
  const HttpReply reset = http_call(server.port(), "POST", "/api/password-reset",
                                    {{"code", code}, {"new_password", "remembered at last"}});
  EXPECT_EQ(reset.status, 200) << "the link is still good: " << reset.body.dump();
}

// Behind a TLS proxy the server trusts, the cookie is Secure and host-only without
// --public-url; nobody else's X-Forwarded-Proto counts.
TEST(Accounts, BehindATrustedTlsProxyTheCookieIsSecure) {
  ServerProcess server(":memory:", {"--trusted-proxy", "127.0.0.1"});
  const HttpReply reply = http_call(server.port(), "POST", "/api/accounts", {{"name", "Ada"}, {"password", kPassword}},
                                    {{"X-Forwarded-Proto", "https"}, {"X-Forwarded-For", "198.51.100.9"}});
  ASSERT_EQ(reply.status, 201) << reply.body.dump();
  EXPECT_EQ(reply.set_cookie.rfind("__Host-mancala_session=", 0), 0u) << reply.set_cookie;
  EXPECT_NE(reply.set_cookie.find("; Secure"), std::string::npos);
  EXPECT_EQ(http_call(server.port(), "GET", "/api/account", Json(), {{"Cookie", cookie_of(reply.set_cookie)}}).status, 200)
      << "and the __Host- cookie is the session";

  ServerProcess direct;
  const HttpReply spoofed = http_call(direct.port(), "POST", "/api/accounts", {{"name", "Bob"}, {"password", kPassword}},
                                      {{"X-Forwarded-Proto", "https"}});
  ASSERT_EQ(spoofed.status, 201);
  EXPECT_EQ(spoofed.set_cookie.find("Secure"), std::string::npos) << "no trusted proxy said so: " << spoofed.set_cookie;
}

// A guest who takes an account ends his token, and the connections that said hello with it.
TEST(Accounts, AGuestWhoSignsUpHasHisTokensConnectionsEnded) {
  ServerProcess server;
  Client guest(server.port());
  const Json welcome = guest.hello("Ada");
  Client other(server.port());
  other.hello("Bob");
  const HttpReply claimed = sign_up(server.port(), "Ada", kPassword, welcome["token"]);
  ASSERT_EQ(claimed.status, 201) << claimed.body.dump();
  EXPECT_TRUE(guest.wait_closed(5s)) << "the old token's connection is ended";
  EXPECT_EQ(other.request({{"type", "list_rooms"}})["type"], "rooms") << "other guests play on";
}

}  // namespace
}  // namespace mancala::testing
