// Web Push end to end without the internet (issue 33): a push service of the test's own on
// 127.0.0.1 receives what the server sends when the opponent moves in a game of a day per move;
// the test decrypts it with the browser key pair it generated (RFC 8291) and checks the VAPID
// signature (RFC 8292). A push service that hangs or fails does not hold up the moves.
// Issue 46: no endpoint that names an address or a local name is registered; a name that looks
// up to loopback is never connected to; a black-hole endpoint does not delay another player's
// push; in a cluster, the process that hosts the room pushes to a player who subscribed
// through another.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

#include "clock.hpp"
#include "push_crypto.hpp"
#include "table.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using server::Bytes;
using server::EcKey;

// A push service: records every POST and answers as told (or never, while it hangs).
class FakePushService {
 public:
  enum class Answer { created, server_error, gone, hang };
  struct Received {
    std::string target;
    std::map<std::string, std::string> fields;
    Bytes body;
  };

  FakePushService() : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~FakePushService() {
    io_.stop();
    thread_.join();
  }

  std::string endpoint(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()); }
  void answer_with(Answer answer) {
    const std::lock_guard lock(mutex_);
    answer_ = answer;
  }
  // The next POST, in arrival order.
  Received next(std::chrono::milliseconds timeout = 20s) {
    std::unique_lock lock(mutex_);
    if (!arrived_.wait_for(lock, timeout, [&] { return !received_.empty(); }))
      throw std::runtime_error("no push arrived within " + std::to_string(timeout.count()) + " ms");
    Received first = std::move(received_.front());
    received_.pop_front();
    return first;
  }
  // POSTs held without an answer whose connection the server has not closed yet.
  int hanging_open() const {
    const std::lock_guard lock(mutex_);
    return hanging_open_;
  }

 private:
  struct Exchange {
    explicit Exchange(asio::ip::tcp::socket s) : socket(std::move(s)) {}
    asio::ip::tcp::socket socket;
    beast::flat_buffer buffer;
    http::request<http::vector_body<unsigned char>> request;
    http::response<http::string_body> response;
    char probe = 0;
  };

  void accept() {
    acceptor_.async_accept([this](beast::error_code error, asio::ip::tcp::socket socket) {
      if (error) return;
      read(std::make_shared<Exchange>(std::move(socket)));
      accept();
    });
  }

  void read(std::shared_ptr<Exchange> exchange) {
    http::async_read(exchange->socket, exchange->buffer, exchange->request, [this, exchange](beast::error_code error, std::size_t) {
      if (error) return;
      Received got{std::string(exchange->request.target()), {}, exchange->request.body()};
      for (const auto& field : exchange->request) got.fields[std::string(field.name_string())] = std::string(field.value());
      Answer answer;
      {
        const std::lock_guard lock(mutex_);
        received_.push_back(std::move(got));
        answer = answer_;
        if (answer == Answer::hang) ++hanging_open_;
      }
      arrived_.notify_all();
      if (answer == Answer::hang) return watch_until_closed(exchange);
      const auto status = answer == Answer::created ? http::status::created
                          : answer == Answer::gone  ? http::status::gone
                                                    : http::status::internal_server_error;
      exchange->response = http::response<http::string_body>(status, 11);
      exchange->response.prepare_payload();
      http::async_write(exchange->socket, exchange->response,
                        [exchange](beast::error_code, std::size_t) {});
    });
  }

  // Reads until the server gives up on the POST and closes its end.
  void watch_until_closed(std::shared_ptr<Exchange> exchange) {
    exchange->socket.async_read_some(asio::buffer(&exchange->probe, 1), [this, exchange](beast::error_code error, std::size_t) {
      if (!error) return watch_until_closed(exchange);
      const std::lock_guard lock(mutex_);
      --hanging_open_;
    });
  }

  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<Received> received_;
  Answer answer_ = Answer::created;
  int hanging_open_ = 0;
  std::thread thread_;
};

Bytes decoded(const std::string& text) {
  auto bytes = server::from_base64url(text);
  if (!bytes) throw std::runtime_error("not base64url: " + text);
  return *bytes;
}

struct Browser {
  EcKey key = EcKey::generate();
  Bytes auth = decoded("BTBZMqHH6r4Tts7J_aSIgg");  // any 16 bytes
  Json subscription(const std::string& endpoint) const {
    return {{"endpoint", endpoint},
            {"expirationTime", nullptr},
            {"keys", {{"p256dh", server::base64url(key.public_point())}, {"auth", server::base64url(auth)}}}};
  }
};

// The flags of a server with push on: the VAPID key in `key_file`, the tests' loopback allowed.
std::vector<std::string> push_flags(const std::string& key_file, std::vector<std::string> extra = {}) {
  std::vector<std::string> flags{"--vapid-key", key_file, "--vapid-subject", "mailto:ops@example.org",
                                 "--test-push-http-loopback"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

// A VAPID key made by --generate-vapid-key in `dir`; `public_key` gets what it printed.
std::string generate_vapid_key(const TempDir& dir, std::string* public_key) {
  const std::string key_file = dir.file("vapid.pem");
  std::string out;
  EXPECT_EQ(run_server_command({"--generate-vapid-key", key_file}, &out), 0) << out;
  *public_key = out.substr(out.rfind(' ') + 1);
  while (!public_key->empty() && public_key->back() == '\n') public_key->pop_back();
  return key_file;
}

// A server with a VAPID key made by --generate-vapid-key; `public_key` gets what it printed.
std::unique_ptr<ServerProcess> push_server(const TempDir& dir, std::string* public_key,
                                           std::vector<std::string> extra = {}) {
  return std::make_unique<ServerProcess>(":memory:", push_flags(generate_vapid_key(dir, public_key), std::move(extra)));
}

void wait_presence(Client& client, int seat, bool connected) {
  client.wait_for([&](const Json& m) {
    return m.value("type", "") == "presence" && m["seat"] == seat && m["connected"] == connected;
  });
}

// `mover` moves (the first legal token) until the turn passes; returns the longest wait for a
// move's reply. The other seat's client, when connected, sees each update.
std::chrono::microseconds move_until_turn_passes(Table& table, Client& mover, int seat, Client* other) {
  std::chrono::microseconds longest{0};
  while (table.state["to_move"] == seat && table.state["result"].is_null()) {
    const std::string token = table.state["legal"][0];
    const auto sent = std::chrono::steady_clock::now();
    const Json update =
        mover.request({{"type", "move"}, {"room", table.room}, {"expected_version", table.version}, {"tokens", token}});
    longest = std::max(longest, std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - sent));
    if (update.value("type", "") != "update") throw std::runtime_error("move refused: " + update.dump());
    if (other) wait_update(*other, update["version"]);
    table.version = update["version"];
    table.state = update["state"];
  }
  return longest;
}

// The JSON a push carried, after checking its fields and its VAPID signature.
Json opened(const FakePushService::Received& push, const Browser& browser, const std::string& server_key,
            const std::string& audience) {
  EXPECT_EQ(push.fields.at("Content-Encoding"), "aes128gcm");
  EXPECT_EQ(push.fields.at("TTL"), "86400");
  const std::string& topic = push.fields.at("Topic");
  EXPECT_LE(topic.size(), 32u);
  EXPECT_TRUE(server::from_base64url(topic)) << topic;
  // RFC 8292: "vapid t=<JWT>, k=<public key>", the JWT signed by the server's key.
  const std::string& authorization = push.fields.at("Authorization");
  EXPECT_EQ(authorization.rfind("vapid t=", 0), 0u) << authorization;
  const auto comma = authorization.find(", k=");
  const std::string jwt = authorization.substr(8, comma - 8);
  EXPECT_EQ(authorization.substr(comma + 4), server_key);
  const std::string signed_part = jwt.substr(0, jwt.rfind('.'));
  EXPECT_TRUE(server::verify_es256(EcKey::from_public(decoded(server_key)), signed_part,
                                   decoded(jwt.substr(jwt.rfind('.') + 1))));
  const Bytes raw_claims = decoded(signed_part.substr(signed_part.find('.') + 1));
  const Json claims = Json::parse(std::string(raw_claims.begin(), raw_claims.end()));
  EXPECT_EQ(claims["aud"], audience);
  EXPECT_EQ(claims["sub"], "mailto:ops@example.org");
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_GT(claims["exp"].get<std::int64_t>(), now);
  EXPECT_LE(claims["exp"].get<std::int64_t>(), now + 24 * 3600);
  return Json::parse(server::decrypt_push_message(push.body, browser.key, browser.auth));
}

using Fields = std::vector<std::pair<std::string, std::string>>;
Fields bearer(const std::string& token) { return {{"Authorization", "Bearer " + token}}; }

const Json kDayPerMove = {{"clock", {{"per_move_s", 86400}}}};

// `token`'s player subscribes `browser` at `endpoint` through the server on `port`.
void subscribe(unsigned short port, const std::string& token, const Browser& browser, const std::string& endpoint) {
  const auto subscribed =
      http_call(port, "POST", "/api/push/subscriptions", browser.subscription(endpoint), bearer(token));
  if (subscribed.status != 201) throw std::runtime_error("subscribing failed: " + subscribed.body.dump());
}

// Seat 1 plays its turn if it is to move, with the page open (no push), then closes the page.
void leave_seat1(Table& table) {
  if (table.state["to_move"] == 1) move_until_turn_passes(table, *table.clients[1], 1, table.clients[0].get());
  table.clients[1]->drop();
  wait_presence(*table.clients[0], 1, false);
}

// A server with push on, a stand-in push service, a game of two with a day per move, and seat
// 1's browser subscribed at `path` on that service.
struct PushedGame {
  explicit PushedGame(const std::string& path) : table(open_table(server->port(), "cups", Json::object(), 2, kDayPerMove)) {
    subscribe(server->port(), table.tokens[1], browser, service.endpoint(path));
  }
  Fields seat1_bearer() const { return bearer(table.tokens[1]); }
  void seat1_leaves() { leave_seat1(table); }

  TempDir dir;
  std::string server_key;  // as --generate-vapid-key printed it
  std::unique_ptr<ServerProcess> server = push_server(dir, &server_key);
  FakePushService service;
  Table table;
  Browser browser;
};

// Issue 48: a player registered for a tournament who allows notices is reminded ten (arena)
// minutes before its start, and the notice opens the tournament's page.
TEST(WebPush, ATournamentsPlayersAreRemindedShortlyBeforeItsStart) {
  TempDir dir;
  std::string server_key;
  // An arena minute of a second: the reminder comes 10 s before the start, 2 s from now.
  const auto server = push_server(dir, &server_key, {"--test-tournament-minute-ms", "1000"});
  const auto port = server->port();
  FakePushService service;
  const auto account = http_call(port, "POST", "/api/accounts", {{"name", "Organiser"}, {"password", "tulip garden 42"}});
  ASSERT_EQ(account.status, 201) << account.text;
  const auto starts = std::chrono::system_clock::now() + 12s;
  const auto created = http_call(port, "POST", "/api/tournaments",
                                 {{"name", "Friday arena"}, {"game", "cups"}, {"starts_at", server::format_utc(starts)},
                                  {"minutes", 5}},
                                 {{"Cookie", cookie_of(account.set_cookie)}});
  ASSERT_EQ(created.status, 201) << created.text;
  const std::string id = created.body.value("id", "");
  Client ada(port);
  const std::string token = ada.hello("Ada").value("token", "");
  subscribe(port, token, Browser{}, service.endpoint("/ada"));
  Browser browser;
  subscribe(port, token, browser, service.endpoint("/ada-phone"));
  const auto joined = http_call(port, "POST", "/api/tournaments/" + id + "/players", Json::object(), bearer(token));
  ASSERT_EQ(joined.status, 200) << joined.text;

  FakePushService::Received push = service.next();
  if (push.target != "/ada-phone") push = service.next();  // one to each of her browsers
  const Json message = opened(push, browser, server_key, service.origin());
  EXPECT_LT(std::chrono::system_clock::now(), starts) << "before the start";
  EXPECT_EQ(message["title"], "A tournament starts soon");
  EXPECT_NE(message["body"].get<std::string>().find("\"Friday arena\" starts in 10 minutes"), std::string::npos)
      << message.dump();
  EXPECT_EQ(message["url"], "#/tournaments/" + id);
}

TEST(WebPush, TheAbsentPlayerIsToldOfTheOpponentsMoveEncryptedAndSigned) {
  PushedGame game("/push/seat-1");
  std::string body;
  ASSERT_EQ(http_get(game.server->port(), "/api/push/key", &body), 200) << body;
  EXPECT_EQ(Json::parse(body)["key"], game.server_key);
  ASSERT_EQ(decoded(game.server_key).size(), 65u);

  game.seat1_leaves();
  move_until_turn_passes(game.table, *game.table.clients[0], 0, nullptr);
  const auto push = game.service.next();
  EXPECT_EQ(push.target, "/push/seat-1");
  const Json message = opened(push, game.browser, game.server_key, game.service.origin());
  EXPECT_EQ(message["title"], "Your move");
  EXPECT_NE(message["body"].get<std::string>().find("it is your turn"), std::string::npos) << message.dump();
  EXPECT_EQ(message["url"], "#/room/" + game.table.room);
  EXPECT_EQ(message.size(), 3u) << "title, body and url only: " << message.dump();
}

TEST(WebPush, ARematchOfferIsToldInALongGame) {
  PushedGame game("/r");
  Table& table = game.table;
  // Seat 1 keeps the page open (a rematch needs every player in the room) and looks elsewhere.
  const Json resigned = table.clients[0]->request({{"type", "resign"}, {"room", table.room}});
  ASSERT_EQ(resigned["type"], "update") << resigned.dump();
  wait_update(*table.clients[1], resigned["version"]);
  const Json asked = table.clients[0]->request({{"type", "rematch"}, {"room", table.room}});
  ASSERT_EQ(asked["type"], "ok") << asked.dump();
  const Json message = opened(game.service.next(), game.browser, game.server_key, game.service.origin());
  EXPECT_EQ(message["title"], "Rematch?");
  EXPECT_NE(message["body"].get<std::string>().find("offers you a rematch"), std::string::npos) << message.dump();
  EXPECT_EQ(message["url"], "#/room/" + table.room);
}

TEST(WebPush, APushServiceThatHangsOrFailsDoesNotDelayTheNextMove) {
  PushedGame game("/p/1");
  Table& table = game.table;
  FakePushService& service = game.service;
  // Seat 1 comes in, plays its turn and leaves, while seat 0's moves keep pushing to it.
  std::unique_ptr<Client> seat1;
  const auto seat1_turn = [&] {
    seat1 = std::make_unique<Client>(game.server->port());
    seat1->request({{"type", "hello"}, {"token", table.tokens[1]}});
    seat1->wait_for_type("room");
    const auto longest = move_until_turn_passes(table, *seat1, 1, table.clients[0].get());
    seat1->drop();
    wait_presence(*table.clients[0], 1, false);
    return longest;
  };
  game.seat1_leaves();

  service.answer_with(FakePushService::Answer::hang);
  const auto before_hang = move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  service.next();  // the push is held open from now on
  const auto seat1_during_hang = seat1_turn();
  const auto seat0_during_hang = move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  EXPECT_EQ(service.hanging_open(), 1) << "the moves were answered while the push service still held the first push";
  std::printf("[ figures ] longest move reply: %lld us as the push began to hang; then %lld us (seat 1) and "
              "%lld us (seat 0) while it hung\n",
              static_cast<long long>(before_hang.count()), static_cast<long long>(seat1_during_hang.count()),
              static_cast<long long>(seat0_during_hang.count()));

  service.answer_with(FakePushService::Answer::server_error);
  const auto seat1_after = seat1_turn();
  const auto seat0_after = move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  const auto second = service.next();  // queued behind the hanging one, sent once it timed out
  EXPECT_EQ(second.target, "/p/1");
  std::printf("[ figures ] longest move reply with the push service answering 500: %lld us (seat 1), %lld us (seat 0)\n",
              static_cast<long long>(seat1_after.count()), static_cast<long long>(seat0_after.count()));
  EXPECT_NE(game.server->log().find("push_failed"), std::string::npos) << "the hanging push timed out with a log line";
  EXPECT_TRUE(game.server->running());
}

TEST(WebPush, APushServiceSayingGoneDeletesTheSubscription) {
  PushedGame game("/gone");
  game.service.answer_with(FakePushService::Answer::gone);
  game.seat1_leaves();
  move_until_turn_passes(game.table, *game.table.clients[0], 0, nullptr);
  game.service.next();
  // The deletion follows the 410 on the push thread; its log line says when it is done.
  wait_until([&] { return game.server->log().find("push_subscription_gone") != std::string::npos; }, 10s,
             "the log line of the subscription's deletion");
  const auto removed = http_call(game.server->port(), "DELETE", "/api/push/subscriptions",
                                 Json{{"endpoint", game.service.endpoint("/gone")}}, game.seat1_bearer());
  EXPECT_EQ(removed.status, 404) << removed.body.dump();
}

TEST(WebPush, SubscriptionsAreCheckedAndBelongToTheirPlayer) {
  TempDir dir;
  std::string printed_key;
  const auto server = push_server(dir, &printed_key);
  Client guest(server->port());
  const Json welcome = guest.hello("Ada");
  const std::string token = welcome["token"];
  const auto bearer = std::vector<std::pair<std::string, std::string>>{{"Authorization", "Bearer " + token}};
  Browser browser;
  const auto post = [&](const Json& body, const std::vector<std::pair<std::string, std::string>>& fields) {
    return http_call(server->port(), "POST", "/api/push/subscriptions", body, fields);
  };
  EXPECT_EQ(post(browser.subscription("https://push.example.net/abc"), {}).status, 401);
  for (const char* endpoint : {"http://push.example.net/abc", "https://127.0.0.1/abc", "http://10.1.2.3:80/x"}) {
    const auto refused = post(browser.subscription(endpoint), bearer);
    EXPECT_EQ(refused.status, 400) << endpoint;
    EXPECT_EQ(refused.body["error"]["code"], "bad_subscription") << endpoint;
  }
  Json bad_key = browser.subscription("https://push.example.net/abc");
  bad_key["keys"]["p256dh"] = server::base64url(Bytes(65, 4));
  EXPECT_EQ(post(bad_key, bearer).body["error"]["code"], "bad_subscription");
  Json bad_auth = browser.subscription("https://push.example.net/abc");
  bad_auth["keys"]["auth"] = "c2hvcnQ";
  EXPECT_EQ(post(bad_auth, bearer).body["error"]["code"], "bad_subscription");
  EXPECT_EQ(post(browser.subscription("https://push.example.net/abc"), bearer).status, 201);

  Client other(server->port());
  const std::string other_token = other.hello("Bea")["token"];
  const Json endpoint{{"endpoint", "https://push.example.net/abc"}};
  EXPECT_EQ(http_call(server->port(), "DELETE", "/api/push/subscriptions", endpoint,
                      {{"Authorization", "Bearer " + other_token}}).status, 404) << "not Bea's";
  EXPECT_EQ(http_call(server->port(), "DELETE", "/api/push/subscriptions", endpoint, bearer).status, 200);
  EXPECT_EQ(http_call(server->port(), "DELETE", "/api/push/subscriptions", endpoint, bearer).status, 404);
  EXPECT_EQ(http_call(server->port(), "POST", "/api/push/subscriptions", browser.subscription("https://push.example.net/x"),
                      {{"Authorization", "Bearer " + token}, {"Origin", "https://evil.example"}}).status, 403);
}

TEST(WebPush, SubscriptionRequestsAreLimitedPerAddress) {
  TempDir dir;
  std::string server_key;
  const auto server = push_server(dir, &server_key);
  Client guest(server->port());
  const auto bearer = std::vector<std::pair<std::string, std::string>>{
      {"Authorization", "Bearer " + guest.hello("Ada")["token"].get<std::string>()}};
  Browser browser;
  int accepted = 0;
  HttpReply reply;
  for (int i = 0; i < 40; ++i) {
    reply = http_call(server->port(), "POST", "/api/push/subscriptions",
                      browser.subscription("https://push.example.net/" + std::to_string(i)), bearer);
    if (reply.status != 201) break;
    ++accepted;
  }
  EXPECT_EQ(accepted, 30) << "30 in 10 minutes per address";
  EXPECT_EQ(reply.status, 429);
  EXPECT_EQ(reply.body["error"]["code"], "rate_limited");
  EXPECT_FALSE(reply.retry_after.empty());
}

TEST(WebPush, AnAccountSubscribesByItsSession) {
  TempDir dir;
  std::string server_key;
  const auto server = push_server(dir, &server_key);
  const auto signed_up = http_call(server->port(), "POST", "/api/accounts",
                                   Json{{"name", "Cleo"}, {"password", "correct horse battery"}});
  ASSERT_EQ(signed_up.status, 201) << signed_up.body.dump();
  const auto session = std::vector<std::pair<std::string, std::string>>{{"Cookie", cookie_of(signed_up.set_cookie)}};
  Browser browser;
  const Json endpoint{{"endpoint", "https://push.example.net/cleo"}};
  ASSERT_EQ(http_call(server->port(), "POST", "/api/push/subscriptions", browser.subscription(endpoint["endpoint"]),
                      session).status, 201);
  EXPECT_EQ(http_call(server->port(), "DELETE", "/api/push/subscriptions", endpoint, session).status, 200);
}

TEST(WebPush, WithoutAKeyThereIsNoPush) {
  ServerProcess server;
  std::string body;
  EXPECT_EQ(http_get(server.port(), "/api/push/key", &body), 404);
  EXPECT_EQ(Json::parse(body)["error"]["code"], "push_off");
  Browser browser;
  EXPECT_EQ(http_call(server.port(), "POST", "/api/push/subscriptions", browser.subscription("https://push.example.net/a"))
                .body["error"]["code"],
            "push_off");
}

TEST(WebPush, TheVapidKeyFlagsAreChecked) {
  TempDir dir;
  std::string out;
  EXPECT_EQ(run_server_command({"--vapid-key", dir.file("missing.pem"), "--vapid-subject", "mailto:a@b.c", "--db", ":memory:"}, &out), 1);
  EXPECT_EQ(run_server_command({"--vapid-key", dir.file("k.pem"), "--db", ":memory:"}, &out), 2) << "a subject is required";
  ASSERT_EQ(run_server_command({"--generate-vapid-key", dir.file("k.pem")}, &out), 0) << out;
  EXPECT_NE(run_server_command({"--generate-vapid-key", dir.file("k.pem")}, &out), 0) << "an existing key is kept";
}


// Issue 46, item 5: every endpoint that names an address, however spelled, a local name, this
// machine, or a port other than https's is refused when it is registered.
TEST(WebPush, EveryEndpointSpellingOfAnAddressOrALocalNameIsRefusedWhenRegistered) {
  TempDir dir;
  std::string server_key;
  const auto server = push_server(dir, &server_key);
  Client guest(server->port());
  const std::string token = guest.hello("Ada")["token"];
  Browser browser;
  char host_name[256] = {};
  ASSERT_EQ(gethostname(host_name, sizeof host_name - 1), 0);
  std::vector<std::string> refused = {
      "https://LOCALHOST:47011/x", "https://0x7f000001:47011/x", "https://0xa9fea9fe/", "https://example.org:22/",
      "https://127.0.0.1/x", "https://localhost/x", "https://LOCALHOST/x", "https://localhost./x",
      "https://push.localhost/x", "https://0x7f000001/x", "https://2130706433/x", "https://0177.0.0.1/x",
      "https://017700000001/x", "https://127.1/x", "https://0x7f.1/x", "https://169.254.169.254/latest",
      "https://[::1]/x", "https://[::ffff:127.0.0.1]/x", "https://[fe80::1%25eth0]/x", "https://10.0.0.1/x",
      "https://127.0.0.1./x", "https://push.example.org./x", "https://push.example.org:8443/x",
      "https://push.example.org@127.0.0.1/x", "https://printer.local/x", "https://metadata.internal/x",
      "https://" + std::string(host_name) + "/x", "https://" + std::string(host_name) + ":47011/x"};
  for (const std::string& endpoint : refused) {
    const auto reply = http_call(server->port(), "POST", "/api/push/subscriptions", browser.subscription(endpoint),
                                 bearer(token));
    EXPECT_EQ(reply.status, 400) << endpoint;
    const Json error = reply.body.value("error", Json::object());
    EXPECT_EQ(error.value("code", ""), "bad_subscription") << endpoint;
    EXPECT_FALSE(error.value("message", "").empty()) << endpoint;
  }
  EXPECT_EQ(http_call(server->port(), "POST", "/api/push/subscriptions",
                      browser.subscription("https://push.example.org:443/x"), bearer(token)).status, 201);
}

// Listens on 127.0.0.1 and tells whether anything connected (without waiting: a connection the
// server completed is in the backlog by the time the server logs what became of it).
struct LocalListener {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor{io, {asio::ip::make_address("127.0.0.1"), 0}};
  unsigned short port() const { return acceptor.local_endpoint().port(); }
  bool reached() {
    acceptor.non_blocking(true);
    beast::error_code error;
    asio::ip::tcp::socket socket(io);
    acceptor.accept(socket, error);
    return !error;
  }
};

// Waits until the server's log has `text`, or 20 s.
bool wait_logged(const ServerProcess& server, const std::string& text) {
  return eventually([&] { return server.log().find(text) != std::string::npos; }, 20s);
}

// Item 5, at send time: a host name that passes every check of its spelling but looks up to
// 127.0.0.1 (DNS rebinding, or a record pointing inside) is refused before any connection.
// --test-push-resolve stands in for DNS; the check that refuses is the real one.
TEST(WebPush, ANameThatLooksUpToLoopbackIsRefusedAtSendTimeAndNothingConnects) {
  LocalListener inside;
  TempDir dir;
  std::string server_key;
  const auto server = push_server(
      dir, &server_key, {"--test-push-resolve", "push.rebound.example=127.0.0.1:" + std::to_string(inside.port())});
  Table table = open_table(server->port(), "cups", Json::object(), 2, kDayPerMove);
  Browser browser;
  subscribe(server->port(), table.tokens[1], browser, "https://push.rebound.example/x");
  leave_seat1(table);
  move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  ASSERT_TRUE(wait_logged(*server, "push_failed")) << server->log();
  EXPECT_NE(server->log().find("127.0.0.1, which is not on the public internet"), std::string::npos) << server->log();
  EXPECT_FALSE(inside.reached()) << "the server connected to 127.0.0.1";
}

// Issue 46: a look-up that a name server never answers (--test-push-resolve NAME=silent) holds
// a sender no longer than its post's deadline (5 s): the post fails saying so. Four players with
// two such subscriptions each keep all 8 senders waiting at once (two at a time per player);
// were a sender held until the look-up answered, Ada's push would never go.
TEST(WebPush, ALookUpThatNeverAnswersFailsWithinTheDeadlineAndOthersPushesStillGo) {
  TempDir dir;
  std::string server_key;
  const auto server = push_server(dir, &server_key, {"--test-push-resolve", "push.silent.example=silent"});
  FakePushService service;
  Browser browser;
  std::vector<Table> silent;
  for (int player = 0; player < 4; ++player) {
    silent.push_back(open_table(server->port(), "cups", Json::object(), 2, kDayPerMove));
    for (int i = 0; i < 2; ++i)
      subscribe(server->port(), silent.back().tokens[1], browser,
                "https://push.silent.example/" + std::to_string(player) + "/" + std::to_string(i));
    leave_seat1(silent.back());
  }
  Table ada = open_table(server->port(), "cups", Json::object(), 2, kDayPerMove);
  subscribe(server->port(), ada.tokens[1], browser, service.endpoint("/ada"));
  leave_seat1(ada);

  const auto first_push = std::chrono::steady_clock::now();
  for (Table& table : silent) move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  move_until_turn_passes(ada, *ada.clients[0], 0, nullptr);
  const auto push = service.next();
  EXPECT_EQ(push.target, "/ada");
  EXPECT_EQ(opened(push, browser, server_key, service.origin())["title"], "Your move");
  ASSERT_TRUE(wait_logged(*server, "looking up the push service timed out")) << server->log();
  const auto failed_after =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - first_push);
  EXPECT_LT(failed_after, 12s) << "the deadline is 5 s from when a sender takes the push";
  EXPECT_TRUE(server->running());
  std::printf("[ figures ] the first silent look-up failed %lld ms after the first push was due\n",
              static_cast<long long>(failed_after.count()));
}

// Issue 46: a subscription stored before the endpoint rules (here written into the database
// directly, as an older server kept it) is refused at send time and deleted, not tried again at
// every notice; the player's other subscription still gets its push.
TEST(WebPush, AStoredSubscriptionTheEndpointRulesRefuseIsDeletedAtSendTime) {
  TempDir dir;
  std::string server_key;
  const std::string db = dir.file("push.db");
  ServerProcess server(db, push_flags(generate_vapid_key(dir, &server_key)));
  FakePushService service;
  Table table = open_table(server.port(), "cups", Json::object(), 2, kDayPerMove);
  Browser browser;
  subscribe(server.port(), table.tokens[1], browser, service.endpoint("/today"));
  const std::string old_endpoint = "https://127.0.0.1/from-an-older-server";
  execute_on(db, "INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, created) "
                 "SELECT '" + old_endpoint + "', player_id, p256dh, auth, created FROM push_subscriptions");
  const auto count_old = [&] {
    return query_on(db, "SELECT count(*) FROM push_subscriptions WHERE endpoint = '" + old_endpoint + "'").at(0).at(0);
  };
  ASSERT_EQ(count_old(), "1");
  leave_seat1(table);
  move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  EXPECT_EQ(service.next().target, "/today");
  ASSERT_TRUE(wait_logged(server, "push_subscription_refused")) << server.log();
  EXPECT_EQ(count_old(), "0") << "the refused subscription is still stored";
  EXPECT_NE(server.log().find("a push endpoint names its service by host name, not by address"), std::string::npos)
      << server.log();
  EXPECT_EQ(server.log().find(old_endpoint), std::string::npos) << "log lines never name an endpoint";
  EXPECT_EQ(query_on(db, "SELECT count(*) FROM push_subscriptions").at(0).at(0), "1") << "today's one is kept";
}

// Accepts connections and never answers; says when one came and when the server closed one.
class BlackHole {
 public:
  BlackHole() : acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~BlackHole() {
    io_.stop();
    thread_.join();
  }
  std::string endpoint(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }
  // Waits until `count` connections came (20 s at most).
  bool wait_connected(int count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 20s, [&] { return accepted_ >= count; });
  }
  int open() const {
    const std::lock_guard lock(mutex_);
    return accepted_ - closed_;
  }

 private:
  void accept() {
    acceptor_.async_accept([this](beast::error_code error, asio::ip::tcp::socket socket) {
      if (error) return;
      {
        const std::lock_guard lock(mutex_);
        ++accepted_;
      }
      changed_.notify_all();
      drain_until_closed(std::make_shared<asio::ip::tcp::socket>(std::move(socket)));
      accept();
    });
  }
  // Reads what came only to see the end of the stream; never answers.
  void drain_until_closed(const std::shared_ptr<asio::ip::tcp::socket>& socket) {
    auto buffer = std::make_shared<std::array<char, 4096>>();
    socket->async_read_some(asio::buffer(*buffer), [this, socket, buffer](beast::error_code error, std::size_t) {
      if (!error) return drain_until_closed(socket);
      const std::lock_guard lock(mutex_);
      ++closed_;
    });
  }

  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int accepted_ = 0;
  int closed_ = 0;
  std::thread thread_;
};

// Item 6: a player with the most subscriptions a player may have (10), all of them black holes
// that accept and never answer, holds up only his own pushes: two of them are being sent at a
// time (the rest wait their turn), and another player's push arrives while they still hang.
TEST(WebPush, APlayersBlackHoleEndpointsDoNotDelayAnotherPlayersPush) {
  TempDir dir;
  std::string server_key;
  const auto server = push_server(dir, &server_key);
  BlackHole hole;
  FakePushService service;
  Table mallory = open_table(server->port(), "cups", Json::object(), 2, kDayPerMove);
  Table ada = open_table(server->port(), "cups", Json::object(), 2, kDayPerMove);
  Browser browser;
  for (int i = 0; i < 10; ++i) subscribe(server->port(), mallory.tokens[1], browser, hole.endpoint("/" + std::to_string(i)));
  subscribe(server->port(), ada.tokens[1], browser, service.endpoint("/ada"));
  leave_seat1(mallory);
  leave_seat1(ada);
  move_until_turn_passes(mallory, *mallory.clients[0], 0, nullptr);
  ASSERT_TRUE(hole.wait_connected(2)) << server->log();
  const auto held_since = std::chrono::steady_clock::now();
  move_until_turn_passes(ada, *ada.clients[0], 0, nullptr);
  const auto push = service.next();
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - held_since);
  EXPECT_EQ(hole.open(), 2) << "two of Mallory's at a time, still hanging when Ada's push came";
  EXPECT_EQ(push.target, "/ada");
  EXPECT_EQ(opened(push, browser, server_key, service.origin())["title"], "Your move");
  std::printf("[ figures ] Ada's push arrived %lld ms after two of Mallory's 10 black holes took their pushes\n",
              static_cast<long long>(waited.count()));
}

// Issue 46, item 11: in a cluster the process that hosts the room tells the absent player,
// whichever process the player subscribed through (the subscriptions are in the shared
// database; every process has the same VAPID key).
TEST(WebPush, TheProcessHostingTheRoomTellsAPlayerWhoSubscribedThroughAnother) {
  TempDir dir;
  std::string server_key;
  const std::string key_file = generate_vapid_key(dir, &server_key);
  const std::string db = TempPostgres::shared().create_database();
  ServerProcess owner(db, push_flags(key_file));
  ServerProcess other(db, push_flags(key_file));
  FakePushService service;
  Table table;
  table.clients.push_back(std::make_unique<Client>(owner.port()));
  table.tokens.push_back(table.clients[0]->hello("Seat 0").at("token"));
  Json create = {{"type", "create_room"}, {"game", "cups"}, {"private", true}};
  create.update(kDayPerMove);
  const Json created = table.clients[0]->request(create);
  ASSERT_EQ(created["type"], "room") << created.dump();
  table.room = created["room"]["id"];
  table.clients.push_back(std::make_unique<Client>(other.port()));
  table.tokens.push_back(table.clients[1]->hello("Seat 1").at("token"));
  const Json joined = table.clients[1]->request({{"type", "join_room"}, {"invite", created["room"]["invite"]}});
  ASSERT_EQ(joined["room"]["status"], "playing") << joined.dump();
  table.state = joined["room"]["state"];
  table.clients[0]->wait_for([](const Json& m) { return m.value("type", "") == "room" && m["room"]["status"] == "playing"; });
  Browser browser;
  subscribe(other.port(), table.tokens[1], browser, service.endpoint("/seat-1"));

  leave_seat1(table);  // its page was open on the other process
  move_until_turn_passes(table, *table.clients[0], 0, nullptr);
  const auto push = service.next();
  EXPECT_EQ(push.target, "/seat-1");
  const Json message = opened(push, browser, server_key, service.origin());
  EXPECT_EQ(message["url"], "#/room/" + table.room);
  EXPECT_NE(owner.log().find("web_push_on"), std::string::npos);
  EXPECT_EQ(other.log().find("push_failed"), std::string::npos) << other.log();
}

}  // namespace
}  // namespace mancala::testing
