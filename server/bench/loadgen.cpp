// mancala-loadgen: how many durable moves a second mancala-server sustains, next to a bare
// Beast WebSocket echo server driven by the same generator on the same machine.
//
// The generator opens N rooms of two players (private Cups games, played to the end and
// started again), keeps exactly one move in flight per room, and measures each move's round
// trip: sending it to receiving the update that acknowledges it (after its commit). The echo
// run uses the same connections, pacing and message sizes, with the echo as the "update".
// Each is measured at full load (no pause between moves) and at half load (moves paced so that
// the server runs at half the rate it reached at full load).
#include <signal.h>
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
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using error_code = beast::error_code;

struct Options {
  std::string server = "build/server/mancala-server";
  int rooms = 64;
  double seconds = 5;
  int server_threads = 2;
};

// ---- the bare echo server --------------------------------------------------------------

class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket&& socket) : ws_(std::move(socket)) {}
  void run() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.async_accept([self = shared_from_this()](error_code error) {
      if (!error) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](error_code error, std::size_t) {
      if (error) return;
      self->ws_.text(true);
      self->ws_.async_write(self->buffer_.data(), [self](error_code write_error, std::size_t) {
        if (write_error) return;
        self->buffer_.consume(self->buffer_.size());
        self->read();
      });
    });
  }
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

class EchoServer {
 public:
  explicit EchoServer(int threads) : io_(threads), acceptor_(io_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    accept();
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { io_.run(); });
  }
  ~EchoServer() {
    io_.stop();
    for (auto& thread : threads_) thread.join();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

 private:
  void accept() {
    acceptor_.async_accept(net::make_strand(io_), [this](error_code error, tcp::socket socket) {
      if (error) return;
      socket.set_option(tcp::no_delay(true));
      std::make_shared<EchoSession>(std::move(socket))->run();
      accept();
    });
  }
  net::io_context io_;
  tcp::acceptor acceptor_;
  std::vector<std::thread> threads_;
};

// ---- the mancala-server process --------------------------------------------------------

class ServerProcess {
 public:
  ServerProcess(const Options& options, const std::string& db) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(out[1], 1);
      const std::string threads = std::to_string(options.server_threads);
      execl(options.server.c_str(), options.server.c_str(), "--port", "0", "--db", db.c_str(),
            "--threads", threads.c_str(), "--rate-limit", "1000000", "--log-level", "warn",
            static_cast<char*>(nullptr));
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
  ~ServerProcess() {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
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

 private:
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

// ---- the generator ---------------------------------------------------------------------

// One client connection: a continuous read loop and a write queue.
class Connection {
 public:
  Connection(net::io_context& io, unsigned short port) : ws_(io) {
    beast::get_lowest_layer(ws_).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
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

struct Measure {
  bool recording = false;
  std::vector<double> latencies_us;
  std::uint64_t completed = 0;
};

// Our replies carry the id right after the type; unsolicited messages (the copy of an update
// sent to the other player) have none and are skipped without parsing.
bool is_reply(std::string_view text) { return text.substr(0, 48).find("\"id\":") != std::string_view::npos; }

// Two players and one move in flight.
class Table {
 public:
  Table(net::io_context& io, unsigned short port, bool echo, Measure& measure, double pace_seconds, unsigned seed)
      : echo_(echo), measure_(measure), pace_(pace_seconds), timer_(io), rng_(seed) {
    for (int i = 0; i < 2; ++i) players_.push_back(std::make_unique<Connection>(io, port));
    for (int i = 0; i < 2; ++i)
      players_[static_cast<std::size_t>(i)]->start([this, i](std::string_view text) { on_message(i, text); });
  }
  void start() {
    if (echo_) return next_move();
    players_[0]->send(R"({"type":"hello","id":"h","name":"Load A"})");
    players_[1]->send(R"({"type":"hello","id":"h","name":"Load B"})");
    new_game();
  }
  void stop() {
    for (auto& player : players_) player->close();
  }

 private:
  void new_game() {
    players_[0]->send(R"({"type":"create_room","id":"c","game":"cups","private":true,"options":{"cups_per_side":6}})");
  }

  void on_message(int player, std::string_view text) {
    if (!is_reply(text)) return;
    const Json message = Json::parse(text);
    const std::string id = message.value("id", "");
    if (echo_) return on_acknowledged(message);
    if (message["type"] == "error") throw std::runtime_error("the server refused: " + message.dump());
    if (id == "c") {
      room_ = message["room"]["id"];
      players_[1]->send(Json{{"type", "join_room"}, {"id", "j"}, {"invite", message["room"]["invite"]}}.dump());
    } else if (id == "j") {
      version_ = 0;
      state_ = message["room"]["state"];
      next_move();
    } else if (id == "m") {
      version_ = message["version"];
      state_ = message["state"];
      on_acknowledged(message);
    }
    (void)player;
  }

  void on_acknowledged(const Json&) {
    const double rtt = std::chrono::duration<double, std::micro>(Clock::now() - sent_).count();
    if (measure_.recording) {
      measure_.latencies_us.push_back(rtt);
      ++measure_.completed;
    }
    if (!echo_ && !state_["result"].is_null()) return new_game();
    next_move();
  }

  void next_move() {
    // Paced runs keep a fixed interval between this room's moves (if the answer came in time).
    const auto due = last_sent_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(pace_));
    if (pace_ > 0 && Clock::now() < due) {
      timer_.expires_at(due);
      timer_.async_wait([this](error_code error) {
        if (!error) send_move();
      });
      return;
    }
    send_move();
  }

  void send_move() {
    std::string token = "c1";
    int mover = echo_ ? static_cast<int>(version_ % 2) : state_["to_move"].get<int>();
    if (!echo_) {
      const auto& legal = state_["legal"];
      token = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_)];
    }
    const Json move = {{"type", "move"}, {"id", "m"}, {"room", echo_ ? "echo-room-id" : room_},
                       {"expected_version", version_}, {"tokens", token}};
    if (echo_) ++version_;
    last_sent_ = sent_ = Clock::now();
    players_[static_cast<std::size_t>(mover)]->send(move.dump());
  }

  bool echo_;
  Measure& measure_;
  double pace_;
  net::steady_timer timer_;
  std::mt19937 rng_;
  std::vector<std::unique_ptr<Connection>> players_;
  std::string room_;
  std::int64_t version_ = 0;
  Json state_;
  Clock::time_point sent_{};
  Clock::time_point last_sent_{};
};

struct Result {
  double per_second = 0;
  double p50_us = 0;
  double p99_us = 0;
  std::vector<double> latencies_us;
  // CPU per completed move (or echo) during the measured seconds: the generator's own thread,
  // and the rest of this process (the in-process echo server's threads; nothing otherwise).
  double generator_cpu_us = 0;
  double in_process_server_cpu_us = 0;
};

double cpu_seconds(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double percentile(std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(p * static_cast<double>(sorted.size())))];
}

// Runs N tables against `port` for a warm-up second and then `seconds` of measurement.
Result run(unsigned short port, bool echo, const Options& options, double pace_seconds) {
  net::io_context io;
  Measure measure;
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < options.rooms; ++i)
    tables.push_back(std::make_unique<Table>(io, port, echo, measure, pace_seconds, static_cast<unsigned>(i + 1)));
  for (auto& table : tables) table->start();
  io.run_for(std::chrono::seconds(1));
  measure.recording = true;
  const auto started = Clock::now();
  const double thread_cpu_before = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
  const double process_cpu_before = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  io.run_for(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds)));
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  const double thread_cpu = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - thread_cpu_before;
  const double process_cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - process_cpu_before;
  measure.recording = false;
  for (auto& table : tables) table->stop();
  io.run_for(std::chrono::milliseconds(100));
  Result result;
  result.per_second = static_cast<double>(measure.completed) / elapsed;
  std::sort(measure.latencies_us.begin(), measure.latencies_us.end());
  result.p50_us = percentile(measure.latencies_us, 0.50);
  result.p99_us = percentile(measure.latencies_us, 0.99);
  result.latencies_us = std::move(measure.latencies_us);
  const double completed = static_cast<double>(std::max<std::uint64_t>(1, measure.completed));
  result.generator_cpu_us = 1e6 * thread_cpu / completed;
  result.in_process_server_cpu_us = 1e6 * (process_cpu - thread_cpu) / completed;
  return result;
}

void print(const char* what, const Result& result) {
  std::printf("%-28s %10.0f /s   p50 %7.0f us   p99 %7.0f us\n", what, result.per_second, result.p50_us, result.p99_us);
}

void print_histogram(const Result& result) {
  const double bounds[] = {100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 1e18};
  std::size_t previous = 0;
  for (double bound : bounds) {
    const auto upto = static_cast<std::size_t>(std::upper_bound(result.latencies_us.begin(), result.latencies_us.end(), bound) -
                                               result.latencies_us.begin());
    if (bound < 1e17) std::printf("    <= %6.0f us: %8zu\n", bound, upto - previous);
    else std::printf("     > 50000 us: %8zu\n", upto - previous);
    previous = upto;
  }
}

// The server's own account of its commits, from /metrics: how many, how long, how many moves.
void print_commit_figures(unsigned short port) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> request{http::verb::get, "/metrics", 11};
  request.set(http::field::host, "127.0.0.1");
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  const std::string& text = response.body();
  const auto value = [&](const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? 0.0 : std::stod(text.substr(at + name.size() + 2));
  };
  const double commits = value("mancala_db_commit_seconds_count");
  const double seconds = value("mancala_db_commit_seconds_sum");
  const double moves = value("mancala_moves_applied_total");
  if (commits > 0)
    std::printf("server: %.0f commits, mean %.2f ms each, mean %.1f updates per commit\n", commits,
                1000 * seconds / commits, moves / commits);
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--server") options.server = value;
    else if (flag == "--rooms") options.rooms = std::stoi(value);
    else if (flag == "--seconds") options.seconds = std::stod(value);
    else if (flag == "--threads") options.server_threads = std::stoi(value);
    else throw std::invalid_argument("unknown flag " + flag);
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "mancala-loadgen: " << e.what()
              << "\nusage: mancala-loadgen [--server PATH] [--rooms N] [--seconds S] [--threads T]\n";
    return 2;
  }
  try {
    const auto dir = std::filesystem::temp_directory_path() / ("mancala-loadgen-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::printf("%d rooms of two players, one move in flight per room, %.0f s per run, %d server threads\n",
                options.rooms, options.seconds, options.server_threads);
    Result server_full, echo_full, server_half, echo_half;
    {
      ServerProcess server(options, (dir / "load.db").string());
      const double cpu_before = server.cpu_seconds();
      server_full = run(server.port(), false, options, 0);
      const double cpu_used = server.cpu_seconds() - cpu_before;
      print("mancala-server, full load", server_full);
      std::printf("server CPU: %.0f us per move (%.2f cores)\n",
                  1e6 * cpu_used / (server_full.per_second * (options.seconds + 1)), cpu_used / (options.seconds + 1));
      std::printf("generator CPU: %.0f us per move\n", server_full.generator_cpu_us);
      print_histogram(server_full);
      // Half load: each room paced so that all together make half the full-load rate.
      const double pace = options.rooms / (server_full.per_second / 2);
      server_half = run(server.port(), false, options, pace);
      print("mancala-server, half load", server_half);
      print_commit_figures(server.port());
      {
        EchoServer echo(options.server_threads);
        echo_full = run(echo.port(), true, options, 0);
        print("echo server, full load", echo_full);
        std::printf("echo server CPU: %.0f us per message, generator CPU: %.0f us per message\n",
                    echo_full.in_process_server_cpu_us, echo_full.generator_cpu_us);
        echo_half = run(echo.port(), true, options, pace);
        print("echo server, same half load", echo_half);
      }
    }
    std::filesystem::remove_all(dir);
    std::printf("durable moves/s / echo messages/s = %.2f (goal >= 0.35)\n", server_full.per_second / echo_full.per_second);
    std::printf("p99 at half load: server / echo = %.2f (goal <= 3)\n", server_half.p99_us / echo_half.p99_us);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "mancala-loadgen: " << e.what() << "\n";
    return 1;
  }
}
