#pragma once
// What mancala-loadgen's modes share (loadgen.cpp's, fanout.cpp's): the options, the
// mancala-server process they start, a client connection, reading an update's text without a
// JSON tree, the scratch database, and the CPU and percentile helpers.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "loopback_listener.hpp"
#include "pg_connection.hpp"

namespace mancala::bench {

// The machine's load average over the last minute: the cores are shared, so every figure
// says how busy they were.
inline double load_average() {
  double load = 0;
  if (std::FILE* file = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(file, "%lf", &load) != 1) load = 0;
    std::fclose(file);
  }
  return load;
}

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using error_code = beast::error_code;

struct Options {
  std::string server = "build/server/mancala-server";
  int rooms = 64;
  double seconds = 5;
  int server_threads = 2;
  int rounds = 3;
  int bot_rooms = 0;   // > 0: the impact mode (games against the computer beside the rooms)
  int analyses = 0;    // > 0: the impact mode also with this many game analyses kept running
  int bot_level = 5;
  int bot_threads = 1;
  std::string bot_priority = "idle";    // passed to the server's --bot-priority
  std::string bot_budget = "adaptive";  // passed to the server's --bot-budget
  bool pin = false;     // servers on core 0, the generator on core 1
  int capacity = 0;     // > 0: the capacity mode, trying up to this many players
  int idle = 0;         // > 0: the idle-memory mode with this many WebSockets
  std::string db;       // --db URL: a PostgreSQL server to run on instead of SQLite (ScratchDatabase)
  std::string connect;  // --connect host:port[,host:port…]: servers started elsewhere, none started here
  bool split = false;   // --split: a room's second player on the next --connect address (forwarded)
  double half_rate = 0;  // --half-rate: the "half load" at this many moves/s, for comparing two builds
  bool floor = false;    // --floor: each round also runs the floor server (floor_server.hpp)
  int spectators = 0;    // > 0: the fan-out mode, one game watched by this many (fanout.hpp)
  int seekers = 0;       // > 0: the quick pairing mode with this many waiting seekers
  int arena = 0;         // > 0: the tournament mode, one arena of this many players (arena.hpp)
  int arena_think_ms = 250;  // --think-ms: the arena mode's pause before each move
  bool arena_think_jitter = false;  // --think-jitter: that pause drawn from 0.5 to 1.5 times it
  std::vector<std::string> server_flags;  // more flags for the started mancala-server (a mode's own)
};

// Where a generator connection goes: a server this process started (on loopback), or one given
// with --connect (another process, nginx in front of several, another machine).
struct Address {
  std::string host = "127.0.0.1";
  unsigned short port = 0;
  std::string text() const { return host + ":" + std::to_string(port); }
};

constexpr int kServerCore = 0;
constexpr int kGeneratorCore = 1;

// ---- the mancala-server process --------------------------------------------------------

class ServerProcess {
 public:
  ServerProcess(const Options& options, const std::string& database) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      if (options.pin) pin_to_core(kServerCore);
      const std::string threads = std::to_string(options.server_threads);
      const std::string bot_threads = std::to_string(options.bot_threads);
      std::vector<std::string> flags = {options.server, "--port", "0", "--db", database, "--threads", threads,
                                        "--rate-limit", "1000000", "--log-level", "warn", "--bot-threads",
                                        bot_threads, "--bot-priority", options.bot_priority, "--bot-budget",
                                        options.bot_budget,
                                        // The analyses' (and the arena's joins') requests name made-up
                                        // clients, so that their rate limits stay out of the way.
                                        "--trusted-proxy", "127.0.0.1"};
      flags.insert(flags.end(), options.server_flags.begin(), options.server_flags.end());
      std::vector<char*> argv;
      for (auto& flag : flags) argv.push_back(flag.data());
      argv.push_back(nullptr);
      execv(options.server.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    std::string line;
    char c;
    while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
    close(out[0]);
    if (line.rfind("listening on ", 0) != 0)
      throw std::runtime_error("could not start " + options.server + " (use --server PATH)");
    port_ = static_cast<unsigned short>(std::stoi(line.substr(line.rfind(':') + 1)));
  }
  ~ServerProcess() { stop(); }
  // Stops the server (SIGTERM) and waits for it; nothing once it has stopped.
  void stop() {
    if (pid_ < 0) return;
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  unsigned short port() const { return port_; }
  // CPU time the server has used so far (user + system), from /proc.
  double cpu_seconds() const {
    std::FILE* file = std::fopen(("/proc/" + std::to_string(pid_) + "/stat").c_str(), "r");
    if (!file) return 0;
    char text[1024] = {};
    const std::size_t size = std::fread(text, 1, sizeof text - 1, file);
    std::fclose(file);
    // Fields 14 and 15 (utime, stime) follow the command name in parentheses.
    const char* rest = std::strrchr(text, ')');
    if (!rest || size == 0) return 0;
    unsigned long utime = 0, stime = 0;
    std::sscanf(rest + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  // The server's resident memory now, from /proc (VmRSS).
  double rss_kib() const {
    std::FILE* file = std::fopen(("/proc/" + std::to_string(pid_) + "/status").c_str(), "r");
    if (!file) return 0;
    char line[256];
    double kib = 0;
    while (std::fgets(line, sizeof line, file))
      if (std::sscanf(line, "VmRSS: %lf kB", &kib) == 1) break;
    std::fclose(file);
    return kib;
  }

 private:
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};


// One client connection: a continuous read loop and a write queue.
class Connection {
 public:
  Connection(net::io_context& io, unsigned short port) : Connection(io, Address{"127.0.0.1", port}) {}
  Connection(net::io_context& io, const Address& address) : ws_(io) {
    tcp::resolver resolver(io);
    beast::get_lowest_layer(ws_).connect(resolver.resolve(address.host, std::to_string(address.port)));
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    ws_.handshake(address.text(), "/ws");
    ws_.text(true);
  }
  void start(std::function<void(std::string_view)> on_message) {
    on_message_ = std::move(on_message);
    read();
  }
  void send(std::string text) {
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) write();
  }
  void close() {
    error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void read() {
    ws_.async_read(buffer_, [this](error_code error, std::size_t) {
      if (error) return;
      const auto data = buffer_.cdata();
      on_message_(std::string_view(static_cast<const char*>(data.data()), data.size()));
      buffer_.consume(buffer_.size());
      read();
    });
  }
  void write() {
    ws_.async_write(net::buffer(queue_.front()), [this](error_code error, std::size_t) {
      if (error) return;
      queue_.pop_front();
      if (!queue_.empty()) write();
    });
  }
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  std::function<void(std::string_view)> on_message_;
};

// What the generator needs of an acknowledged move, read off the update's text without building
// a JSON tree. On this 2-core machine the generator shares the cores with the server it
// measures, and parsing each 600-byte update in full cost it more CPU than the echo server
// spends on a message. The state is the update's last field and the keys read here are among
// its last, so searching from the end finds the state's own. Anything unexpected throws.
struct MoveReply {
  std::int64_t version = 0;
  int to_move = 0;
  bool over = false;
  std::vector<std::string> legal;
};

inline std::string_view value_after(std::string_view text, std::string_view key, bool last) {
  const std::string quoted = "\"" + std::string(key) + "\":";
  const auto at = last ? text.rfind(quoted) : text.find(quoted);
  if (at == std::string_view::npos) throw std::runtime_error("no \"" + std::string(key) + "\" in " + std::string(text));
  return text.substr(at + quoted.size());
}

inline std::int64_t integer_at(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) throw std::runtime_error("expected a number at " + std::string(text.substr(0, 20)));
  return value;
}

inline MoveReply scan_update(std::string_view text) {
  MoveReply reply;
  reply.version = integer_at(value_after(text, "version", false));
  reply.over = value_after(text, "result", true).substr(0, 4) != "null";
  const auto to_move = value_after(text, "to_move", true);
  reply.to_move = to_move.substr(0, 4) == "null" ? -1 : static_cast<int>(integer_at(to_move));
  std::string_view legal = value_after(text, "legal", true);
  legal = legal.substr(1, legal.find(']') - 1);  // "c1","c2",...: tokens hold no quotes or brackets
  for (std::size_t at = legal.find('"'); at != std::string_view::npos; at = legal.find('"', at)) {
    const auto end = legal.find('"', at + 1);
    reply.legal.emplace_back(legal.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return reply;
}

inline double cpu_seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

inline double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// A fresh directory for the server's database (one per generator process; removed after each run).
inline std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("mancala-loadgen-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// The database of one server run, fresh like the SQLite file in the scratch directory: with
// --db postgresql://…, a database of its own created on that PostgreSQL server (the URL's
// database is only where the CREATE runs) and dropped after the run. A run on a database that
// earlier runs filled measures their leftovers too: with 500,000 moves in the table, PostgreSQL
// made about 13 % fewer moves a second than on an empty one (medians of 4 and 5 runs).
class ScratchDatabase {
 public:
  ScratchDatabase(const Options& options, const std::filesystem::path& dir) {
    if (options.db.empty()) {
      url_ = (dir / "load.db").string();
      return;
    }
    static int created = 0;
    name_ = "mancala_loadgen_" + std::to_string(getpid()) + "_" + std::to_string(++created);
    admin_.emplace(options.db);
    admin_->execute("CREATE DATABASE " + name_);
    url_ = with_database(options.db, name_);
  }
  ~ScratchDatabase() {
    if (!admin_) return;
    try {
      admin_->execute("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "could not drop the scratch database %s: %s\n", name_.c_str(), e.what());
    }
  }
  ScratchDatabase(const ScratchDatabase&) = delete;
  ScratchDatabase& operator=(const ScratchDatabase&) = delete;

  const std::string& url() const { return url_; }

 private:
  // postgresql://user@host:port/db?options with `db` replaced by `name`.
  static std::string with_database(const std::string& url, const std::string& name) {
    const std::size_t authority = url.find("://");
    // The value is not echoed: a connection string may carry a password.
    if (authority == std::string::npos)
      throw std::invalid_argument("--db needs a postgresql://user@host:port/database URL");
    const std::size_t query = url.find('?', authority + 3);
    const std::size_t path = url.find('/', authority + 3);
    const std::size_t host_end = std::min(path, query);
    return url.substr(0, host_end) + "/" + name + (query == std::string::npos ? "" : url.substr(query));
  }

  std::string name_;
  std::optional<mancala::server::PgConnection> admin_;
  std::string url_;
};

// Raises this process's open-file limit to its hard limit, so that thousands of sockets fit
// (the server started afterwards inherits it). Returns the limit now in force.
inline rlim_t raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) throw std::runtime_error("getrlimit(RLIMIT_NOFILE) failed");
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) throw std::runtime_error("setrlimit(RLIMIT_NOFILE) failed");
  }
  return limit.rlim_cur;
}

}  // namespace mancala::bench
