// Soak and abuse: while a canary game plays move after move, hostile clients send every kind of
// bad input of issue 14 at once. The canary must keep playing, the server must keep serving,
// and every move the server acknowledged must be in the history API afterwards.
#include <atomic>
#include <iostream>
#include <thread>

#include <gtest/gtest.h>

#include "table.hpp"

namespace mancala::testing {
namespace {

constexpr auto kAbuseTime = 8s;

std::string get_request(const std::string& target, const std::string& extra_headers = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers + "Connection: close\r\n\r\n";
}

// One kind of abuse, repeated until `stop`; counts the rounds it finished.
using Attack = std::function<void(unsigned short port)>;

struct Attacker {
  std::string name;
  Attack attack;
  std::atomic<int> rounds{0};
  std::atomic<int> surprises{0};  // exceptions other than the server refusing or closing
  std::string last_surprise;
};

void bad_utf8_paths(unsigned short port) {
  for (const char* target : {"/api/games/%ff", "/api/games/%c3%28/positions", "/api/games?player=%fe%ff",
                             "/%ff%fe", "/api/games/..%2f..%2fetc%2fpasswd"})
    raw_http(port, get_request(target));
}

void huge_requests(unsigned short port) {
  raw_http(port, get_request("/healthz", "X-Pad: " + std::string(40000, 'x') + "\r\n"));
  const std::string body(80 * 1024, 'x');
  raw_http(port, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(body.size()) +
                     "\r\n\r\n" + body);
}

void forged_tokens(unsigned short port) {
  raw_http(port, get_request("/api/games", "Authorization: bearer forged-token\r\n"));
  Client client(port);
  client.request({{"type", "hello"}, {"token", "forged-token-" + std::to_string(std::rand())}});
}

void flood(unsigned short port) {
  Client client(port);
  client.hello("Flood");
  try {
    for (int i = 0; i < 300; ++i) client.send({{"type", "list_rooms"}});
  } catch (const std::runtime_error&) {
    // closed for flooding under us
  }
  client.wait_closed(3s);
}

void binary_frames(unsigned short port) {
  Client client(port);
  client.send_binary(std::string("\x00\xff{\"type\":\"hello\"}", 18));
  client.wait_closed(3s);
}

void bad_text_frames(unsigned short port) {
  Client client(port);
  client.send_text("{\"type\":\"hello\",\"name\":\"Bad\"");  // not JSON
  client.wait_for_type("error");
  client.send_text(std::string(9000, '['));  // over the frame limit
  client.wait_closed(3s);
  Client invalid(port);
  invalid.send_text("{\"type\":\"hello\",\"name\":\"\xff\xfe\"}");  // not UTF-8: Beast closes with 1007
  invalid.wait_closed(3s);
}

void many_rooms(unsigned short port) {
  Client client(port);
  client.hello("Hoarder");
  for (int i = 0; i < 8; ++i)
    client.request({{"type", "create_room"}, {"game", "cups"}, {"grace_seconds", 60}});
}

void foreign_origins(unsigned short port) {
  try {
    Client client(port, {.origin = "http://evil.example", .host = "evil.example"});
  } catch (const UpgradeRefused&) {
  }
}

TEST(Soak, CanaryPlaysOnWhileHostileClientsAttack) {
  ServerProcess server(":memory:", {"--rate-limit", "100", "--max-connections", "64"});
  const unsigned short port = server.port();
  std::vector<std::unique_ptr<Attacker>> attackers;
  for (auto [name, attack] : std::initializer_list<std::pair<const char*, Attack>>{
           {"bad UTF-8 paths", bad_utf8_paths}, {"huge requests", huge_requests},
           {"forged tokens", forged_tokens},    {"flood", flood},
           {"binary frames", binary_frames},    {"bad text frames", bad_text_frames},
           {"many rooms", many_rooms},          {"foreign origins", foreign_origins}}) {
    auto& attacker = *attackers.emplace_back(std::make_unique<Attacker>());
    attacker.name = name;
    attacker.attack = attack;
  }

  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (auto& attacker : attackers)
    threads.emplace_back([&stop, port, &attacker = *attacker] {
      while (!stop) {
        try {
          attacker.attack(port);
        } catch (const UpgradeRefused& e) {
          if (e.status != 503) {  // 503: the connection cap, which is fine under this load
            ++attacker.surprises;
            attacker.last_surprise = e.what();
          }
        } catch (const std::exception& e) {
          // A refused or closed connection ends a round early; that is the server defending itself.
          const std::string what = e.what();
          if (what.find("connection ended") == std::string::npos && what.find("cannot send") == std::string::npos &&
              what.find("refused") == std::string::npos && what.find("reset") == std::string::npos) {
            ++attacker.surprises;
            attacker.last_surprise = what;
          }
        }
        ++attacker.rounds;
      }
    });

  // The canary: games of Cups, one after another, every acknowledged move remembered.
  struct Acknowledged {
    std::string room;
    std::string token;
    std::map<std::int64_t, std::string> moves;  // version -> tokens
  };
  std::vector<Acknowledged> games;
  Random rng(2026);
  const auto until = std::chrono::steady_clock::now() + kAbuseTime;
  int moves = 0;
  std::string canary_failure;
  try {
    while (std::chrono::steady_clock::now() < until) {
      Table table = open_table(port, "cups", Json::object(), 2);
      games.push_back({table.room, table.tokens[0], {}});
      while (table.state["result"].is_null() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(5ms);  // within the rate limit the attackers run into
        const Json update = play_one(table, rng);
        games.back().moves[update["version"].get<std::int64_t>()] = update["tokens"].get<std::string>();
        ++moves;
      }
    }
  } catch (const std::exception& e) {
    canary_failure = e.what();
  }
  stop = true;
  for (auto& thread : threads) thread.join();

  ASSERT_EQ(canary_failure, "") << "the canary could not play on";
  ASSERT_TRUE(server.running());
  std::cout << "canary: " << moves << " moves in " << games.size() << " games; attack rounds:";
  for (const auto& attacker : attackers) std::cout << " " << attacker->name << " " << attacker->rounds.load() << ";";
  std::cout << "\n";
  EXPECT_GE(moves, 50) << "the canary was starved";
  for (const auto& attacker : attackers) {
    EXPECT_GE(attacker->rounds.load(), 1) << attacker->name;
    EXPECT_EQ(attacker->surprises.load(), 0) << attacker->name << ": " << attacker->last_surprise;
  }
  for (const auto& game : games) {
    std::string body;
    ASSERT_EQ(http_get(port, "/api/games/" + game.room, &body, game.token), 200) << body;
    std::map<std::int64_t, std::string> stored;
    const Json record = Json::parse(body);
    for (const auto& turn : record["turns"])
      if (turn.contains("version") && turn.contains("tokens"))
        stored[turn["version"].get<std::int64_t>()] = turn["tokens"].get<std::string>();
    for (const auto& [version, tokens] : game.moves)
      EXPECT_EQ(stored[version], tokens) << "room " << game.room << " version " << version;
  }
}

}  // namespace
}  // namespace mancala::testing
