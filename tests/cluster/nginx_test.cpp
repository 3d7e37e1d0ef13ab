// The cluster's nginx config (docker/nginx.cluster.conf) on loopback (label `cluster`): the same
// file compose mounts, with the containers' addresses replaced by loopback ports, run by
// Debian's nginx as an ordinary process in a temporary folder, in front of three real
// mancala-server processes on a throwaway PostgreSQL. The two players of a room land on
// different processes, the room's owner is SIGKILLed, its player reconnects through nginx to a
// survivor and the game goes on.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <fstream>
#include <thread>

#include "loopback_port.hpp"
#include "table.hpp"
#include "temp_path.hpp"
#include "temp_postgres.hpp"

namespace mancala::testing {
namespace {

// Replaces the one occurrence of `from` in `text`; a config that lacks it would test something
// other than what compose runs, so that fails loudly.
void replace_once(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos)
    throw std::runtime_error("docker/nginx.cluster.conf should contain '" + from +
                             "' exactly once (the loopback test replaces it); update the test with the config");
  text.replace(at, from.size(), to);
}

// docker/nginx.cluster.conf with nginx listening on `listen` and the upstreams mancala-1,
// mancala-2 and mancala-3 on the loopback ports `servers` (in that order).
std::string render_cluster_config(unsigned short listen, const std::vector<unsigned short>& servers) {
  std::string config = read_text_file(MANCALA_SOURCE_DIR "/docker/nginx.cluster.conf");
  if (config.empty()) throw std::runtime_error("cannot read " MANCALA_SOURCE_DIR "/docker/nginx.cluster.conf");
  replace_once(config, "listen 8080;", "listen 127.0.0.1:" + std::to_string(listen) + ";");
  for (std::size_t i = 0; i < servers.size(); ++i)
    replace_once(config, "mancala-" + std::to_string(i + 1) + ":8080", "127.0.0.1:" + std::to_string(servers[i]));
  if (config.find("mancala-" + std::to_string(servers.size() + 1) + ":8080") != std::string::npos)
    throw std::runtime_error("docker/nginx.cluster.conf lists more servers than the test starts; update the test with the config");
  return config;
}

// Debian's nginx (the `nginx` package, which ./test.sh installs; $MANCALA_NGINX overrides) as
// a foreground process whose pid file, logs and temporary files are all in its own folder, so
// it needs no root and touches nothing of a system nginx. The site goes inside its http block,
// as the image's nginx.conf includes conf.d/default.conf.
class TempNginx {
 public:
  // `site_on(port)`: the site, listening on that loopback port. The port is picked here, as
  // nginx cannot pick one itself; one taken before nginx binds it is replaced by a new one.
  explicit TempNginx(const std::function<std::string(unsigned short port)>& site_on)
      : dir_(make_temp_dir("mancala-nginx")) {
    const char* chosen = std::getenv("MANCALA_NGINX");
    binary_ = chosen ? chosen : "/usr/sbin/nginx";
    if (access(binary_.c_str(), X_OK) != 0)
      throw std::runtime_error(binary_ + " not found: install Debian's nginx package (./test.sh does) or set MANCALA_NGINX");
    chmod(dir_.c_str(), 0755);  // as root, the workers run as nobody and must reach the temp folders
    std::ofstream(dir_ + "/nginx.conf") << main_config();
    const auto start_on = [&](unsigned short port) {
      std::ofstream(dir_ + "/site.conf") << site_on(port);
      start();
      return listening_on(port);
    };
    port_ = start_on_free_port(start_on, [&] { return log(); }, "nginx");
  }
  ~TempNginx() {
    stop();
    std::filesystem::remove_all(dir_);
  }
  TempNginx(const TempNginx&) = delete;
  TempNginx& operator=(const TempNginx&) = delete;

  unsigned short port() const { return port_; }
  std::string log() const { return read_text_file(dir_ + "/error.log"); }

 private:
  std::string main_config() const {
    std::string config = "daemon off;\nworker_processes 1;\npid " + dir_ + "/nginx.pid;\n";
    if (geteuid() == 0) config += "user nobody nogroup;\n";
    config += "events { worker_connections 256; }\nhttp {\n  access_log " + dir_ + "/access.log;\n";
    for (const char* kind : {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"})
      config += std::string("  ") + kind + "_temp_path " + dir_ + "/" + kind + ";\n";
    return config + "  include " + dir_ + "/site.conf;\n}\n";
  }
  void start() {
    std::filesystem::remove(dir_ + "/nginx.pid");
    std::ofstream(dir_ + "/error.log", std::ios::trunc).flush();  // a retry reads its own log only
    pid_ = fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);  // a test killed on its timeout leaves no nginx behind
      const std::string log = dir_ + "/error.log", config = dir_ + "/nginx.conf";
      // Errors at start (a port already in use) go to stderr, not to -e: into the log with them.
      const int fd = open(log.c_str(), O_WRONLY | O_APPEND);
      if (fd >= 0 && dup2(fd, STDERR_FILENO) >= 0 && fd != STDERR_FILENO) close(fd);
      execl(binary_.c_str(), binary_.c_str(), "-p", dir_.c_str(), "-c", config.c_str(), "-e", log.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  // True once nginx accepts connections on `port`; false when it stopped first (its log says
  // why). nginx writes its pid file only after it has bound its port: before that, whoever else
  // holds the port may be the one answering.
  bool listening_on(unsigned short port) {
    bool stopped = false;
    const bool listening = eventually(
        [&] {
          stopped = waitpid(pid_, nullptr, WNOHANG) == pid_;
          return stopped || (std::filesystem::exists(dir_ + "/nginx.pid") && accepts_connections(port));
        },
        10s, 20ms);
    if (stopped) {
      pid_ = -1;
      return false;
    }
    if (!listening) throw std::runtime_error("nginx did not listen within 10 s:\n" + log());
    return true;
  }
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);  // fast shutdown: open WebSockets are closed, not waited for
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  std::string dir_;
  std::string binary_;
  unsigned short port_ = 0;
  pid_t pid_ = -1;
};

// The value of a gauge or counter on the server's /metrics.
double metric(unsigned short port, const std::string& name) {
  std::string body;
  EXPECT_EQ(http_get(port, "/metrics", &body), 200);
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) throw std::runtime_error("no " + name + " in /metrics");
  return std::stod(body.substr(at + name.size() + 2));
}

using Processes = std::vector<std::unique_ptr<ServerProcess>>;

// The open WebSockets of each process, once they add up to `total` (closed connections are
// counted down asynchronously) or after five seconds.
std::vector<int> connections_of(const Processes& processes, int total) {
  std::vector<int> open;
  eventually(
      [&] {
        open.clear();
        int sum = 0;
        for (const auto& process : processes) {
          open.push_back(process ? static_cast<int>(metric(process->port(), "mancala_connections")) : 0);
          sum += open.back();
        }
        return sum == total;
      },
      5s, 50ms);
  return open;
}

// The index of the process that got the one WebSocket opened since the counts were `before`.
std::size_t process_of_new_connection(const Processes& processes, const std::vector<int>& before) {
  int total = 1;
  for (int open : before) total += open;
  const std::vector<int> after = connections_of(processes, total);
  for (std::size_t i = 0; i < after.size(); ++i)
    if (after[i] == before[i] + 1) return i;
  throw std::runtime_error("no process shows the new connection");
}

std::string describe(const std::vector<int>& open) {
  std::string text;
  for (std::size_t i = 0; i < open.size(); ++i) text += "mancala-" + std::to_string(i + 1) + ": " + std::to_string(open[i]) + " ";
  return text;
}

// A private Cups room opened through nginx: seat 0 connects and creates it, seat 1 connects and
// joins by invite. `seat_process` gets the index of the process nginx sent each seat to
// (seat 0's owns the room: a room lives on the process its creator used).
Table open_table_through(unsigned short nginx_port, const Processes& processes, std::vector<std::size_t>& seat_process) {
  Table table;
  std::vector<int> open = connections_of(processes, 0);
  for (int seat = 0; seat < 2; ++seat) {
    table.clients.push_back(std::make_unique<Client>(nginx_port));
    table.tokens.push_back(table.clients.back()->hello("Seat " + std::to_string(seat)).at("token"));
    seat_process.push_back(process_of_new_connection(processes, open));
    ++open[seat_process.back()];
  }
  const Json created = table.clients[0]->request({{"type", "create_room"}, {"game", "cups"}, {"private", true}});
  if (created.value("type", "") != "room") throw std::runtime_error("create_room failed: " + created.dump());
  table.room = created["room"]["id"];
  table.invite = created["room"]["invite"];
  const Json joined = table.clients[1]->request({{"type", "join_room"}, {"invite", table.invite}});
  if (joined.value("type", "") != "room" || joined["room"]["status"] != "playing")
    throw std::runtime_error("join_room by invite failed: " + joined.dump());
  table.clients[0]->wait_for([](const Json& m) { return m.value("type", "") == "room" && m["room"]["status"] == "playing"; });
  table.state = joined["room"]["state"];
  table.states.push_back(table.state);
  return table;
}

// The next `room` message for the table's room on `client`; it must be at the table's exact
// version and state (the survivor rebuilt the room from the database).
void expect_room_resent(Client& client, const Table& table, const std::string& who) {
  const Json room = client.wait_for(
      [&](const Json& m) { return m.value("type", "") == "room" && m["room"]["id"] == table.room; }, 10s);
  EXPECT_EQ(room["room"]["version"], table.version) << who << " is sent the room at the exact version";
  EXPECT_EQ(room["room"]["state"], table.state) << who << " is sent the room in the exact state";
}

const std::vector<std::string> kShortLease = {"--lease-ms", "600"};

// nginx (least_conn) in front of three processes: the two players of a room land on different
// processes; the creator's process, which owns the room, is SIGKILLed mid-game; nginx closes
// the creator's WebSocket, the other player keeps his and is sent the room by the survivor that
// took it over, the creator reconnects through nginx to a survivor, and the game goes on with
// every acknowledged move.
TEST(ClusterNginx, PlayersShareTheProcessesAndCarryOnWhenTheOwnerIsKilled) {
  const std::string db = TempPostgres::shared().create_database();
  Processes processes;
  std::vector<unsigned short> ports;
  for (int i = 0; i < 3; ++i) {
    processes.push_back(std::make_unique<ServerProcess>(db, kShortLease));
    ports.push_back(processes.back()->port());
  }
  TempNginx nginx([&](unsigned short listen) { return render_cluster_config(listen, ports); });

  std::vector<std::size_t> seat_process;
  Table table = open_table_through(nginx.port(), processes, seat_process);
  const std::size_t owner = seat_process[0];
  ASSERT_NE(seat_process[1], owner) << "nginx sent both players to mancala-" << owner + 1
                                    << " though the others had no connection: " << describe(connections_of(processes, 2));
  std::vector<std::string> played;
  Random rng(21);
  for (int i = 0; i < 5; ++i) played.push_back(play_one(table, rng)["tokens"]);
  ASSERT_TRUE(table.state["result"].is_null()) << "the game must still be on";

  processes[owner]->kill_hard();
  const auto killed = std::chrono::steady_clock::now();
  EXPECT_TRUE(table.clients[0]->wait_closed(5s)) << "nginx closes the WebSocket when its process dies";
  // At once, as the page does, so most likely before the lease has run out: the survivor it
  // reaches notes the room and attaches the player once the room has a new owner.
  table.clients[0] = std::make_unique<Client>(nginx.port());
  const Json welcome = table.clients[0]->request({{"type", "hello"}, {"token", table.tokens[0]}});
  ASSERT_EQ(welcome["type"], "welcome") << welcome.dump() << "\nnginx:\n" << nginx.log();
  expect_room_resent(*table.clients[0], table, "the reconnected creator");
  expect_room_resent(*table.clients[1], table, "the player on a surviving process");
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  played.push_back(play_one(table, rng)["tokens"]);
  const auto failover = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - killed);
  std::cout << "failover through nginx with --lease-ms 600: " << failover.count()
            << " ms from SIGKILL of the owner to the first move accepted after the take-over" << std::endl;
  processes[owner].reset();  // already dead: its port answers nothing any more
  // Seat 1 still plays on its first WebSocket; least_conn sent seat 0 to the emptier survivor.
  const std::vector<int> open = connections_of(processes, 2);
  EXPECT_EQ(open[seat_process[1]], 1) << "the reconnect went to the survivor with no connection: " << describe(open);

  for (int i = 0; i < 200 && table.state["result"].is_null(); ++i) played.push_back(play_one(table, rng)["tokens"]);
  EXPECT_FALSE(table.state["result"].is_null()) << "played to the end";
  EXPECT_EQ(stored_moves(nginx.port(), table), played) << "every acknowledged move is in the history";
}

// nginx passes the browser's Host on with its port, so without --public-url a page opened at
// the proxy's loopback address may open a WebSocket, and another site still may not.
TEST(ClusterNginx, TheOriginCheckSeesTheAddressTheBrowserUsed) {
  ServerProcess first(":memory:");
  ServerProcess second(":memory:");
  ServerProcess third(":memory:");
  TempNginx nginx([&](unsigned short listen) {
    return render_cluster_config(listen, {first.port(), second.port(), third.port()});
  });
  const unsigned short port = nginx.port();
  const std::string own = "http://127.0.0.1:" + std::to_string(port);
  Client page(port, Client::Options{own, "127.0.0.1:" + std::to_string(port)});
  EXPECT_EQ(page.hello("Browser")["type"], "welcome");
  try {
    Client other(port, Client::Options{"http://evil.example", "127.0.0.1:" + std::to_string(port)});
    ADD_FAILURE() << "an upgrade from another site's page was let through";
  } catch (const UpgradeRefused& refused) {
    EXPECT_EQ(refused.status, 403);
  }
  std::string body;
  EXPECT_EQ(http_get(port, "/healthz", &body), 200) << "the servers' health check answers through nginx";
}

}  // namespace
}  // namespace mancala::testing
