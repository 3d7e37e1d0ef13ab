// The defects of issue 14, one regression test each: hostile requests that once crashed the
// server, spun it, leaked, or slipped past a limit. Every test also checks that the server
// keeps serving afterwards.
#include <signal.h>
#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "table.hpp"

namespace mancala::testing {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::string get_request(const std::string& target, const std::string& extra_headers = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "Connection: close\r\n\r\n";
}

bool server_serves(unsigned short port) {
  try {
    return http_get(port, "/healthz", nullptr) == 200;
  } catch (const std::exception&) {
    return false;
  }
}

// ---- 1. text from a request that is not UTF-8 ----------------------------------------------

TEST(Hardening, InvalidUtf8InApiRequestsIsRefusedAndTheServerLives) {
  ServerProcess server;
  for (const std::string target : {"/api/games/%ff", "/api/games/%c3%28/positions", "/api/games?player=%ff",
                                   "/api/games?game=%e2%82", "/api/games/%ed%a0%80"}) {
    std::string body;
    EXPECT_EQ(raw_http(server.port(), get_request(target), &body), 400) << target;
    EXPECT_TRUE(Json::accept(body)) << target << ": " << body;
    ASSERT_TRUE(server.running()) << "the server died on " << target;
  }
  // Valid UTF-8 in an id is only not found.
  EXPECT_EQ(raw_http(server.port(), get_request("/api/games/%c3%a9t%c3%a9")), 404);
  EXPECT_TRUE(server_serves(server.port()));
}

// ---- 2. the file-descriptor limit -----------------------------------------------------------

// Starts a server whose file-descriptor limit is `limit` (the test process keeps its own).
std::unique_ptr<ServerProcess> server_with_fd_limit(rlim_t limit, std::vector<std::string> extra = {}) {
  rlimit saved{};
  getrlimit(RLIMIT_NOFILE, &saved);
  rlimit lowered = saved;
  lowered.rlim_cur = limit;
  setrlimit(RLIMIT_NOFILE, &lowered);
  std::unique_ptr<ServerProcess> server;
  try {
    server = std::make_unique<ServerProcess>(":memory:", std::move(extra));
  } catch (...) {
    setrlimit(RLIMIT_NOFILE, &saved);
    throw;
  }
  setrlimit(RLIMIT_NOFILE, &saved);
  return server;
}

std::size_t count_lines_with(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(Hardening, AcceptBacksOffAtTheDescriptorLimit) {
  auto server = server_with_fd_limit(64);
  net::io_context io;
  std::vector<std::unique_ptr<tcp::socket>> sockets;
  for (int i = 0; i < 120; ++i) {
    auto socket = std::make_unique<tcp::socket>(io);
    beast::error_code error;
    socket->connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server->port()), error);
    if (!error) sockets.push_back(std::move(socket));
  }
  // The server retries every 75 ms and says so once a second: its second line, a second after
  // the first, counts the failures it kept quiet about meanwhile.
  wait_until([&] { return count_lines_with(server->log(), "accept_failed") >= 2; }, 20s,
             "a second accept_failed line");
  std::vector<Json> lines;
  std::istringstream log(server->log());
  for (std::string line; std::getline(log, line);)
    if (line.find("accept_failed") != std::string::npos) lines.push_back(Json::parse(line));
  ASSERT_GE(lines.size(), 2u);
  EXPECT_GE(lines[1]["not_logged"].get<int>(), 1) << "at most one line a second about it: " << lines[1].dump();
  sockets.clear();  // the descriptors come back and the server serves again
  wait_until([&] { return server_serves(server->port()); }, 10s, "the server to serve again", 100ms);
}

TEST(Hardening, UpgradesBeyondMaxConnectionsGet503) {
  ServerProcess server(":memory:", {"--max-connections", "2"});
  Client first(server.port()), second(server.port());
  first.hello("One");
  second.hello("Two");
  try {
    Client third(server.port());
    FAIL() << "a third WebSocket was accepted";
  } catch (const UpgradeRefused& refused) {
    EXPECT_EQ(refused.status, 503);
  }
  // Issue 46: a flood of refused upgrades writes one line a second, not one each.
  const auto flood_began = std::chrono::steady_clock::now();
  int refused = 0;
  for (int i = 0; i < 30; ++i) {
    try {
      Client more(server.port());
    } catch (const UpgradeRefused&) {
      ++refused;
    }
  }
  const auto flood_seconds = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - flood_began);
  EXPECT_EQ(refused, 30);
  const std::string log = server.log();
  EXPECT_LE(count_lines_with(log, "\"connection_limit\""), 2u + static_cast<std::size_t>(flood_seconds.count())) << log;
  EXPECT_NE(log.find("\"not_logged\""), std::string::npos) << log;
  EXPECT_TRUE(server_serves(server.port())) << "plain HTTP still works";
  second.drop();
  // The server frees the place when it notices the dropped connection; until then it refuses.
  const auto accepted = [&] {
    try {
      Client again(server.port());
      return again.hello("Three")["type"] == "welcome";
    } catch (const UpgradeRefused&) {
      return false;
    }
  };
  wait_until(accepted, 10s, "a freed place to be taken again", 50ms);
}

TEST(Hardening, NewFlagsAreCheckedAndInHelp) {
  std::string out;
  EXPECT_EQ(run_server_command({"--max-connections", "0"}, &out), 2);
  EXPECT_EQ(run_server_command({"--waiting-room-ttl", "soon"}, &out), 2);
  EXPECT_EQ(run_server_command({"--public-url", "mancala.example"}, &out), 2);
  EXPECT_EQ(run_server_command({"--public-url", "", "--help"}, &out), 0) << "empty means unset (compose passes it so)";
  for (const char* flag : {"--max-connections", "--waiting-room-ttl", "--public-url"})
    EXPECT_NE(out.find(flag), std::string::npos) << flag << " is in --help";
}

// ---- 4. waiting rooms per player, and their age ---------------------------------------------

Json create_room(Client& client) {
  return client.request({{"type", "create_room"}, {"game", "cups"}, {"grace_seconds", 60}});
}

TEST(Hardening, APlayerMayHoldOnlyAFewWaitingRooms) {
  ServerProcess server;
  Client ada(server.port());
  const Json welcome = ada.hello("Ada");
  std::vector<std::string> rooms;
  for (int i = 0; i < 5; ++i) {
    const Json created = create_room(ada);
    ASSERT_EQ(created["type"], "room") << created;
    rooms.push_back(created["room"]["id"]);
  }
  Json refused = create_room(ada);
  EXPECT_EQ(refused["code"], "too_many_rooms") << refused;
  // Another connection of the same player is the same player.
  Client again(server.port());
  again.request({{"type", "hello"}, {"token", welcome["token"]}});
  EXPECT_EQ(create_room(again)["code"], "too_many_rooms");
  // Even many requests at once do not get past the cap.
  for (int i = 0; i < 10; ++i) again.send({{"type", "create_room"}, {"game", "cups"}, {"id", "burst" + std::to_string(i)}});
  int created_in_burst = 0;
  for (int i = 0; i < 10; ++i) {
    const Json reply = again.wait_for([&](const Json& m) { return m.value("id", "").rfind("burst", 0) == 0; });
    if (reply["type"] == "room") ++created_in_burst;
  }
  EXPECT_EQ(created_in_burst, 0);
  // Leaving one frees a place; a game that started no longer counts.
  EXPECT_EQ(ada.request({{"type", "leave_room"}, {"room", rooms[0]}})["type"], "ok");
  const Json after_leaving = create_room(ada);
  EXPECT_EQ(after_leaving["type"], "room") << after_leaving;
  Client bob(server.port());
  bob.hello("Bob");
  EXPECT_EQ(bob.request({{"type", "join_room"}, {"room", rooms[1]}})["room"]["status"], "playing");
  EXPECT_EQ(create_room(ada)["type"], "room");
  EXPECT_EQ(create_room(ada)["code"], "too_many_rooms");
}

TEST(Hardening, RoomsThatWaitTooLongExpire) {
  ServerProcess server(":memory:", {"--waiting-room-ttl", "1"});
  Client ada(server.port()), bob(server.port());
  ada.hello("Ada");
  bob.hello("Bob");
  const std::string room = create_room(ada)["room"]["id"];
  ASSERT_EQ(bob.request({{"type", "list_rooms"}})["rooms"].size(), 1u);
  const Json closed = ada.wait_for([&](const Json& m) {
    return m.value("type", "") == "error" && m.value("code", "") == "room_expired";
  }, 5s);
  EXPECT_EQ(closed["room"], room);
  EXPECT_EQ(bob.request({{"type", "list_rooms"}})["rooms"].size(), 0u);
  EXPECT_EQ(bob.request({{"type", "join_room"}, {"room", room}})["code"], "not_found");
  EXPECT_EQ(http_get(server.port(), "/api/games/" + room, nullptr), 404) << "gone from storage too";
  EXPECT_EQ(create_room(ada)["type"], "room") << "the creator may open a new one";
}

// ---- 5. the rate limit counts messages when they arrive ---------------------------------------

TEST(Hardening, RateLimitCountsMessagesWhenTheyArrive) {
  ServerProcess server(":memory:", {"--rate-limit", "20", "--threads", "1"});
  // A slow server: a lobby of 300 rooms makes each list_rooms cost something, and the server
  // runs for about 1 ms in every 60, so it takes seconds to read a flood that arrived at once.
  // The flood must still be cut off after the burst of 40.
  std::vector<std::unique_ptr<Client>> hosts;
  for (int i = 0; i < 60; ++i) {
    auto& host = *hosts.emplace_back(std::make_unique<Client>(server.port()));
    host.hello("Host " + std::to_string(i));
    for (int k = 0; k < 5; ++k) ASSERT_EQ(create_room(host)["type"], "room");
  }
  Client flooder(server.port());
  flooder.hello("Flood");
  ::kill(server.pid(), SIGSTOP);
  for (int i = 0; i < 300; ++i) flooder.send({{"type", "list_rooms"}, {"id", i}});
  std::thread slow([&] {
    for (int i = 0; i < 40; ++i) {
      ::kill(server.pid(), SIGCONT);
      std::this_thread::sleep_for(1ms);
      ::kill(server.pid(), SIGSTOP);
      std::this_thread::sleep_for(60ms);
    }
    ::kill(server.pid(), SIGCONT);
  });
  int served = 0, limited = 0;
  std::string ended;
  try {
    // The loop ends when the server closes the connection; the long wait is only for a
    // sanitizer build on a busy machine, which may take seconds between two replies.
    while (true) {
      const Json reply = flooder.wait_for([](const Json&) { return true; }, 30s);
      if (reply.value("type", "") == "rooms") ++served;
      if (reply.value("code", "") == "rate_limited") ++limited;
    }
  } catch (const std::runtime_error& end) {
    ended = end.what();
  }
  slow.join();
  EXPECT_LE(served, 42) << "only the burst is served; refill for time the server was slow is not earned";
  EXPECT_EQ(limited, 40) << "and closed after 40 refusals in a row; the replies ended: " << ended.substr(0, 200);
  int code = 0;
  EXPECT_TRUE(flooder.wait_closed(5s, &code));
  EXPECT_EQ(code, 1008);
  EXPECT_TRUE(server_serves(server.port()));
}

// ---- 6. Origin and Host ---------------------------------------------------------------------

void expect_refused(unsigned short port, Client::Options options, int status) {
  try {
    Client client(port, options);
    ADD_FAILURE() << "accepted Origin " << options.origin << " with Host " << options.host;
  } catch (const UpgradeRefused& refused) {
    EXPECT_EQ(refused.status, status);
  }
}

TEST(Hardening, OriginMatchingAForeignHostIsRefused) {
  ServerProcess server;
  expect_refused(server.port(), {.origin = "http://evil.example", .host = "evil.example"}, 403);
  expect_refused(server.port(), {.origin = "http://evil.example:80", .host = "evil.example:80"}, 403);
  const std::string port = std::to_string(server.port());
  for (const std::string& host : {"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}) {
    Client own(server.port(), {.origin = "http://" + host, .host = host});
    EXPECT_EQ(own.hello("Own")["type"], "welcome") << host;
  }
}

TEST(Hardening, PublicUrlIsTheOnlyOriginWhateverTheHost) {
  ServerProcess server(":memory:", {"--public-url", "https://mancala.example", "--allow-origin",
                                    "https://friend.example"});
  Client own(server.port(), {.origin = "https://mancala.example", .host = "mancala.example"});
  EXPECT_EQ(own.hello("Own")["type"], "welcome");
  Client friendly(server.port(), {.origin = "https://friend.example", .host = ""});
  EXPECT_EQ(friendly.hello("Friend")["type"], "welcome");
  const std::string local = "127.0.0.1:" + std::to_string(server.port());
  expect_refused(server.port(), {.origin = "http://" + local, .host = local}, 403);
  expect_refused(server.port(), {.origin = "http://evil.example", .host = "evil.example"}, 403);
}

// ---- 7. oversized requests and the Authorization scheme ---------------------------------------

TEST(Hardening, OversizedHeaderGets431AndOversizedBodyGets413) {
  ServerProcess server;
  EXPECT_EQ(raw_http(server.port(), get_request("/healthz", "X-Pad: " + std::string(20000, 'x') + "\r\n")), 431);
  const std::string body(100 * 1024, 'x');
  EXPECT_EQ(raw_http(server.port(), "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " +
                                        std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body),
            413);
  EXPECT_TRUE(server_serves(server.port()));
}

TEST(Hardening, BearerSchemeIsCaseInsensitive) {
  ServerProcess server;
  Client ada(server.port());
  const std::string token = ada.hello("Ada")["token"];
  const Json created = ada.request({{"type", "create_room"}, {"game", "cups"}, {"private", true}});
  const std::string room = created["room"]["id"];
  for (const std::string scheme : {"Bearer", "bearer", "BEARER"}) {
    std::string body;
    EXPECT_EQ(raw_http(server.port(), get_request("/api/games/" + room, "Authorization: " + scheme + " " + token + "\r\n"), &body),
              200)
        << scheme << ": " << body;
  }
  EXPECT_EQ(raw_http(server.port(), get_request("/api/games/" + room, "Authorization: Bearer nope\r\n")), 404);
}

// ---- 8. binary frames -----------------------------------------------------------------------

// Issue 46: pages, files and API answers say how a browser may use them: no inline script, no
// framing (clickjacking of "resign" or "log out everywhere"), no referrer to other sites.
TEST(Hardening, EveryAnswerCarriesTheSecurityHeaders) {
  ServerProcess server;
  for (const std::string target : {"/", "/index.html", "/js/app.js", "/style.css", "/sw.js", "/api/games", "/healthz",
                                   "/no-such-file"}) {
    HttpReply reply = http_call(server.port(), "GET", target);
    const std::string policy = reply.headers["content-security-policy"];
    EXPECT_NE(policy.find("default-src 'self'"), std::string::npos) << target << ": " << policy;
    EXPECT_NE(policy.find("script-src 'self';"), std::string::npos) << target;
    EXPECT_NE(policy.find("frame-ancestors 'none'"), std::string::npos) << target;
    EXPECT_NE(policy.find("object-src 'none'"), std::string::npos) << target;
    EXPECT_NE(policy.find("base-uri 'none'"), std::string::npos) << target;
    EXPECT_EQ(policy.find("unsafe-inline"), std::string::npos) << target;
    EXPECT_EQ(reply.headers["x-frame-options"], "DENY") << target;
    EXPECT_EQ(reply.headers["referrer-policy"], "same-origin") << target;
    EXPECT_EQ(reply.headers["x-content-type-options"], "nosniff") << target;
  }
  // The page itself has no inline script for the policy to refuse.
  const HttpReply page = http_call(server.port(), "GET", "/");
  EXPECT_EQ(page.text.find("<script>"), std::string::npos);
  EXPECT_EQ(page.text.find("style=\""), std::string::npos);
}

// /metrics answers only a loopback peer that no proxy forwarded, or anyone with --public-metrics:
// a proxy on the machine would make every visitor a loopback peer.
TEST(Hardening, MetricsAnswerOnlyTheMachineItselfUnlessPublic) {
  {
    ServerProcess server(":memory:", {"--trusted-proxy", "127.0.0.1"});
    EXPECT_EQ(http_call(server.port(), "GET", "/metrics").status, 200);
    EXPECT_EQ(http_call(server.port(), "GET", "/metrics", Json(), {{"X-Forwarded-For", "203.0.113.9"}}).status, 404)
        << "forwarded by a (trusted) proxy: a visitor";
    EXPECT_EQ(http_call(server.port(), "GET", "/metrics", Json(), {{"X-Forwarded-For", "127.0.0.1"}}).status, 404)
        << "whatever the visitor says of itself";
    EXPECT_EQ(http_call(server.port(), "GET", "/metrics", Json(), {{"Forwarded", "for=203.0.113.9"}}).status, 404);
  }
  ServerProcess open(":memory:", {"--public-metrics"});
  EXPECT_EQ(http_call(open.port(), "GET", "/metrics", Json(), {{"X-Forwarded-For", "203.0.113.9"}}).status, 200);
}

TEST(Hardening, BinaryFramesAreRefusedWith1003) {
  ServerProcess server;
  Client client(server.port());
  client.hello("Bin");
  client.send_binary(R"({"type":"list_rooms","id":1})");
  int code = 0;
  EXPECT_TRUE(client.wait_closed(5s, &code));
  EXPECT_EQ(code, 1003);
  Client other(server.port());
  EXPECT_EQ(other.hello("Text")["type"], "welcome");
}

// ---- a client that stops reading ------------------------------------------------------------

// A spectator that says hello, watches a room (by its invite) and then never reads again, with a receive buffer
// as small as the kernel allows: the server's sends to it fill the socket and then its queue.
class StalledSpectator {
 public:
  StalledSpectator(unsigned short port, const std::string& invite) : ws_(io_) {
    auto& socket = ws_.next_layer();
    socket.open(tcp::v4());
    socket.set_option(net::socket_base::receive_buffer_size(1024));
    socket.connect({net::ip::make_address("127.0.0.1"), port});
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    ws_.text(true);
    ws_.write(net::buffer(Json{{"type", "hello"}, {"id", "h"}, {"name", "Stalled"}}.dump()));
    watch(invite);
  }
  void watch(const std::string& invite) {
    ws_.write(net::buffer(Json{{"type", "join_room"}, {"id", invite}, {"invite", invite}, {"spectate", true}}.dump()));
  }

 private:
  net::io_context io_;
  beast::websocket::stream<tcp::socket> ws_;
};

TEST(Hardening, AClientThatStopsReadingDelaysNoOtherRoom) {
  // One network thread, so both rooms and all their connections share it.
  ServerProcess server(":memory:", {"--threads", "1", "--rate-limit", "100000"});
  Table flooded = open_table(server.port(), "njaka", Json::object(), 2);
  StalledSpectator stalled(server.port(), flooded.invite);
  Table other = open_table(server.port(), "cups", Json::object(), 2);

  // Room A plays as fast as its two players can while every update also goes to the spectator
  // who does not read (a new room A when one ends, which he watches too), until the server gives
  // up on him (his queue is full) and some more.
  std::atomic<bool> flooding{true};
  int flood_updates = 0;
  std::string flood_failure;
  std::thread flood([&] {
    try {
      Random rng(7);
      for (int slack = 200; slack > 0 && flood_updates < 20000; ++flood_updates) {
        if (!flooded.state["result"].is_null()) {
          flooded = open_table(server.port(), "njaka", Json::object(), 2);
          if (slack == 200) stalled.watch(flooded.invite);
        }
        play_one(flooded, rng);
        if (server.log().find("slow_client_closed") != std::string::npos) --slack;
      }
    } catch (const std::exception& e) {
      flood_failure = e.what();
    }
    flooding = false;
  });

  // Meanwhile room B (a new one when one ends) moves one move at a time; each round trip is timed.
  Random rng(8);
  std::chrono::steady_clock::duration slowest{};
  int other_moves = 0;
  std::string other_failure;
  try {
    while (flooding) {
      if (!other.state["result"].is_null()) other = open_table(server.port(), "cups", Json::object(), 2);
      const auto start = std::chrono::steady_clock::now();
      play_one(other, rng);
      slowest = std::max(slowest, std::chrono::steady_clock::now() - start);
      ++other_moves;
    }
  } catch (const std::exception& e) {
    other_failure = e.what();
  }
  flood.join();
  EXPECT_EQ(flood_failure, "");
  EXPECT_EQ(other_failure, "");

  EXPECT_NE(server.log().find("slow_client_closed"), std::string::npos)
      << "the spectator's socket and queue filled after " << flood_updates << " updates";
  std::printf("flood %d updates, other %d moves, slowest %.1f ms\n", flood_updates, other_moves, std::chrono::duration<double, std::milli>(slowest).count());
  EXPECT_GE(other_moves, 20);
  // A send that waited for the stalled reader would hold the thread until he was dropped, or
  // for good. An ordinary round trip takes a few milliseconds, but on a machine whose two cores
  // other work shares, one of nearly 2,000 has taken 1.15 s: 5 s tells the two apart.
  EXPECT_LT(std::chrono::duration<double>(slowest).count(), 5.0)
      << "room B's slowest move of " << other_moves << " while room A flooded its stalled spectator";
  EXPECT_TRUE(server_serves(server.port()));
}

// ---- 9. addresses behind a proxy, and password hashes (issue 46) ------------------------------

// A sign-up with a password too short to hash, from behind a proxy on loopback: counted per
// address (20 in 10 minutes) before anything else, so its 429 shows which address counted.
int weak_sign_up(unsigned short port, const std::string& forwarded_lines) {
  const std::string body = R"({"name":"Ada","password":"short"})";
  return raw_http(port, "POST /api/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                            forwarded_lines + "Content-Length: " + std::to_string(body.size()) +
                            "\r\nConnection: close\r\n\r\n" + body);
}

// A proxy that appends its own X-Forwarded-For line (HAProxy does) after the client's: the
// client's line, whatever it says, does not make it somebody else.
TEST(Hardening, ForwardedForIsReadFromTheRightOverEveryFieldLine) {
  ServerProcess server(":memory:", {"--trusted-proxy", "127.0.0.1"});
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 10.9.8." + std::to_string(i) +
                                              "\r\nX-Forwarded-For: 203.0.113.5\r\n"), 400) << i;
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 10.9.9.1\r\nX-Forwarded-For: 203.0.113.5\r\n"), 429)
      << "every one counted against 203.0.113.5, the address the proxy saw";
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 203.0.113.5\r\nX-Forwarded-For: 198.51.100.1\r\n"), 400)
      << "another client behind the same proxy is counted apart";
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 203.0.113.5, 127.0.0.1\r\n"), 429)
      << "a trusted proxy in the chain is skipped";
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 203.0.113.5\r\n"), 429);
}

// Text that is no address is never a key: it would give each request an address of its own.
TEST(Hardening, ForwardedForTextThatIsNoAddressIsNoKey) {
  ServerProcess server(":memory:", {"--trusted-proxy", "127.0.0.1"});
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: made-up-" + std::to_string(i) + "\r\n"), 400) << i;
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: made-up-again\r\n"), 429)
      << "all counted against the proxy itself, the last hop known to be real";
  EXPECT_EQ(weak_sign_up(server.port(), "X-Forwarded-For: 10.0.0.1, 999.1.1.1\r\n"), 429)
      << "nor does a good address left of a bad one count";
  EXPECT_EQ(weak_sign_up(server.port(), ""), 429) << "the proxy's own requests";
  EXPECT_TRUE(server_serves(server.port()));
}

// Hashes run on their own workers with a bounded queue: log-ins beyond it are refused at once
// with 503 and Retry-After, and /healthz and the history API answer while the hashes run.
TEST(Hardening, PasswordHashesHaveWorkersOfTheirOwnWithABoundedQueue) {
  ServerProcess server(":memory:", {"--password-threads", "1", "--password-queue", "2"});
  const Json account = {{"name", "Ada"}, {"password", "tulip garden 42"}};
  ASSERT_EQ(http_call(server.port(), "POST", "/api/accounts", account).status, 201);

  constexpr int kLogIns = 12;
  std::vector<HttpReply> replies(kLogIns);
  std::mutex mutex;
  std::condition_variable changed;
  int answered = 0;
  std::vector<std::thread> logins;
  for (int i = 0; i < kLogIns; ++i)
    logins.emplace_back([&, i] {
      HttpReply reply = http_call(server.port(), "POST", "/api/session", account);
      const std::lock_guard lock(mutex);
      replies[i] = std::move(reply);
      ++answered;
      changed.notify_all();
    });
  {  // the first answer: a refusal at once (the queue is full, so hashes are running), or a hash done
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 60s, [&] { return answered > 0; }));
  }
  std::string body;
  const int health = http_get(server.port(), "/healthz", &body);
  const int games = http_get(server.port(), "/api/games", &body);
  int answered_by_then = 0;
  {
    const std::lock_guard lock(mutex);
    answered_by_then = answered;
  }
  for (auto& thread : logins) thread.join();
  EXPECT_EQ(health, 200);
  EXPECT_EQ(games, 200);
  int busy = 0, ok = 0;
  for (const HttpReply& reply : replies) {
    if (reply.status == 200) ++ok;
    if (reply.status != 503) continue;
    ++busy;
    EXPECT_FALSE(reply.retry_after.empty());
    EXPECT_EQ(reply.body["error"].value("code", ""), "busy");
    EXPECT_NE(reply.body["error"].value("message", "").find("too many log-ins right now"), std::string::npos);
  }
  EXPECT_GT(busy, 0) << "more log-ins at once than one worker and a queue of two hold";
  EXPECT_GT(ok, 0);
  EXPECT_EQ(ok + busy, kLogIns);
  EXPECT_LT(answered_by_then, ok + busy) << "/healthz and /api/games answered while log-ins were still hashing";
  EXPECT_TRUE(server_serves(server.port()));
}

}  // namespace
}  // namespace mancala::testing
