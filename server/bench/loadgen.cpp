// mancala-loadgen: how many durable moves a second mancala-server sustains, next to a bare
// Beast WebSocket echo server driven by the same generator on the same machine.
//
// The generator opens N rooms of two players (private Cups games, played to the end and
// started again), keeps exactly one move in flight per room, and measures each move's round
// trip: sending it to receiving the update that acknowledges it (after its commit). The echo
// run opens as many connections and sends the same move messages at the same pacing; the
// echoed move stands in for the update. The server is stopped before the echo runs start.
// Each is measured at full load (no pause between moves) and at half load (moves paced so that
// the server runs at half the rate it reached at full load; --half-rate MOVES_PER_S fixes that
// rate instead, so that two builds compare at the same load).
//
// Other modes: --capacity (how many players, each moving every 2 s, the server serves with a
// p99 within 50 ms), --idle N (memory per idle authenticated WebSocket), --bot-rooms (the impact
// of games against the computer; with --analyses N, also of N game analyses kept running),
// --connect HOST:PORT[,…] (servers started elsewhere: several processes on one PostgreSQL, or
// nginx in front of them; rooms dealt out over the addresses, both players of a room on the same
// one, or with --split the second on the next address, so that its moves are forwarded to the
// room's owner). --pin runs the server (and the echo server) on
// core 0 and the generator on core 1, so that a ratio measures the servers rather than their
// share of the cores. --floor adds the floor server (floor_server.hpp) to every round: the
// least a durable move costs on this machine, mancala-server's overhead being the gap.
// --spectators N: the fan-out mode (fanout.hpp). --arena N: one arena of N players (arena.hpp).
// --seekers N: quick pairing (issue 47): N
// seekers wait, each alone in a set-up of its own (games and clocks spread), then N/2 more
// arrive at 1,000 a second, each compatible with one waiting seeker; printed: the time from an
// arriving seek to both `room` messages, p50/p99, and the server's CPU per pairing. What the modes share is
// in loadgen_parts.hpp.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
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

#include "arena.hpp"
#include "fanout.hpp"
#include "floor_server.hpp"
#include "loadgen_parts.hpp"
#include "loopback_listener.hpp"
#include "mancala/match.hpp"
#include "mancala/record_text.hpp"
#include "pg_connection.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using error_code = beast::error_code;
using mancala::bench::Address;
using mancala::bench::Connection;
using mancala::bench::cpu_seconds;
using mancala::bench::kGeneratorCore;
using mancala::bench::kServerCore;
using mancala::bench::median;
using mancala::bench::MoveReply;
using mancala::bench::Options;
using mancala::bench::percentile;
using mancala::bench::scan_update;
using mancala::bench::scratch_dir;
using mancala::bench::ScratchDatabase;
using mancala::bench::ServerProcess;

// "host:port,host:port" -> addresses; anything else is a usage error that says what was wrong.
std::vector<Address> parse_addresses(const std::string& list) {
  std::vector<Address> addresses;
  std::size_t start = 0;
  while (start <= list.size()) {
    const auto end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    const auto colon = item.rfind(':');
    int port = 0;
    const bool numeric = colon != std::string::npos &&
                         std::from_chars(item.data() + colon + 1, item.data() + item.size(), port).ptr ==
                             item.data() + item.size();
    if (colon == 0 || !numeric || port < 1 || port > 65535)
      throw std::invalid_argument("--connect needs host:port[,host:port…], got '" + item + "'");
    addresses.push_back({item.substr(0, colon), static_cast<unsigned short>(port)});
    start = end + 1;
  }
  return addresses;
}


using mancala::bench::pin_to_core;

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
  // `core`: the core its threads run on (-1: any).
  EchoServer(int threads, int core) : listener_(threads, core) {
    listener_.serve([](tcp::socket&& socket) { std::make_shared<EchoSession>(std::move(socket))->run(); });
  }
  unsigned short port() const { return listener_.port(); }

 private:
  mancala::bench::LoopbackListener listener_;
};

// ---- the generator ---------------------------------------------------------------------

struct Measure {
  bool recording = false;
  std::size_t ready = 0;  // tables whose first game is set up
  std::vector<double> latencies_us;
  std::uint64_t completed = 0;
};

// Our replies carry the id right after the type; unsolicited messages (the copy of an update
// sent to the other player) have none and are skipped without parsing.
bool is_reply(std::string_view text) { return text.substr(0, 48).find("\"id\":") != std::string_view::npos; }


// What a generator's tables talk to: mancala-server (Cups games), the bare echo server (the
// move comes back), or the floor server (the move is stored, then sent to both players).
enum class Peer { mancala, echo, floor };

// Two players and one move in flight.
class Table {
 public:
  // The creator (whose process owns the room) on `address`, the joiner on `joiner_address`.
  Table(net::io_context& io, const Address& address, const Address& joiner_address, Peer peer, Measure& measure,
        double pace_seconds, unsigned seed)
      : peer_(peer), measure_(measure), pace_(pace_seconds), timer_(io), rng_(seed) {
    for (int i = 0; i < 2; ++i) players_.push_back(std::make_unique<Connection>(io, i == 0 ? address : joiner_address));
    for (int i = 0; i < 2; ++i)
      players_[static_cast<std::size_t>(i)]->start([this](std::string_view text) { on_message(text); });
    if (peer_ == Peer::echo) room_ = "echo-room";
    if (peer_ == Peer::floor) room_ = "floor-" + std::to_string(seed);
  }
  void start() {
    // Paced rooms start at random points of their interval: started together they would stay
    // in step, and "half load" would be bursts of every room at once with idle gaps between.
    if (pace_ > 0)
      last_sent_ = Clock::now() - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                      pace_ * std::uniform_real_distribution<double>(0, 1)(rng_)));
    if (peer_ == Peer::echo) {
      ++measure_.ready;
      return next_move();
    }
    if (peer_ == Peer::floor) {
      for (auto& player : players_) player->send(R"({"type":"join","id":"j","room":")" + room_ + "\"}");
      return;
    }
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

  void on_message(std::string_view text) {
    if (peer_ == Peer::floor && text.starts_with(R"({"type":"joined")")) {
      if (++joined_ < 2) return;
      ++measure_.ready;
      return next_move();
    }
    if (!is_reply(text)) return;
    if (peer_ != Peer::mancala) return on_acknowledged();
    if (text.starts_with(R"({"type":"error")")) throw std::runtime_error("the server refused: " + std::string(text));
    if (text.starts_with(R"({"type":"update","id":"m")")) {
      reply_ = scan_update(text);
      version_ = reply_.version;
      return on_acknowledged();
    }
    // Setting up a game: rare, so parsed in full.
    const Json message = Json::parse(text);
    const std::string id = message.value("id", "");
    if (id == "c") {
      room_ = message["room"]["id"];
      players_[1]->send(Json{{"type", "join_room"}, {"id", "j"}, {"invite", message["room"]["invite"]}}.dump());
    } else if (id == "j") {
      const Json& state = message["room"]["state"];
      version_ = 0;
      reply_ = {0, state["to_move"].get<int>(), !state["result"].is_null(),
                state["legal"].get<std::vector<std::string>>()};
      if (!set_up_) ++measure_.ready;
      set_up_ = true;
      next_move();
    }
  }

  void on_acknowledged() {
    const double rtt = std::chrono::duration<double, std::micro>(Clock::now() - sent_).count();
    if (measure_.recording) {
      measure_.latencies_us.push_back(rtt);
      ++measure_.completed;
    }
    if (peer_ == Peer::mancala && reply_.over) return new_game();
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
    int mover = static_cast<int>(version_ % 2);
    if (peer_ == Peer::mancala) {
      token = reply_.legal.at(std::uniform_int_distribution<std::size_t>(0, reply_.legal.size() - 1)(rng_));
      mover = reply_.to_move;
    }
    // Room ids and tokens are plain letters and digits: nothing to escape.
    std::string move = R"({"type":"move","id":"m","room":")";
    move += room_;
    move += R"(","expected_version":)";
    move += std::to_string(version_);
    move += R"(,"tokens":")";
    move += token;
    move += "\"}";
    if (peer_ != Peer::mancala) ++version_;
    last_sent_ = sent_ = Clock::now();
    players_.at(static_cast<std::size_t>(mover))->send(std::move(move));
  }

  Peer peer_;
  int joined_ = 0;  // the floor's join answers
  Measure& measure_;
  double pace_;
  net::steady_timer timer_;
  std::mt19937 rng_;
  std::vector<std::unique_ptr<Connection>> players_;
  std::string room_;
  std::int64_t version_ = 0;
  bool set_up_ = false;
  MoveReply reply_;
  Clock::time_point sent_{};
  Clock::time_point last_sent_{};
};

// A person playing the computer at Cups who answers at once: the bot of the room is always
// searching, which is the load whose effect on the other rooms the impact mode measures.
class BotTable {
 public:
  BotTable(net::io_context& io, const Address& address, int level, unsigned seed)
      : player_(io, address), level_(level), rng_(seed) {
    player_.start([this](std::string_view text) { on_message(text); });
  }
  void start() {
    player_.send(R"({"type":"hello","id":"h","name":"Bot load"})");
    new_game();
  }
  void stop() { player_.close(); }

 private:
  void new_game() {
    player_.send(R"({"type":"create_room","id":"c","game":"cups","private":true,"options":{"cups_per_side":6},)"
                 R"("bots":[{"seat":1,"level":)" + std::to_string(level_) + "}]}");
  }

  void on_message(std::string_view text) {
    if (text.starts_with(R"({"type":"error")")) throw std::runtime_error("the server refused: " + std::string(text));
    if (text.starts_with(R"({"type":"update")")) {  // the reply to our move, or the bot's move
      const MoveReply reply = scan_update(text);
      if (reply.version <= version_) return;
      version_ = reply.version;
      return answer(reply);
    }
    if (text.starts_with(R"({"type":"room","id":"c")")) {  // the new game, started at once
      const Json message = Json::parse(text);
      const Json& state = message["room"]["state"];
      room_ = message["room"]["id"];
      version_ = 0;
      answer({0, state["to_move"].get<int>(), false, state["legal"].get<std::vector<std::string>>()});
    }
  }

  void answer(const MoveReply& reply) {
    if (reply.over) return new_game();
    if (reply.to_move != 0) return;  // the bot's turn
    const std::string& token =
        reply.legal.at(std::uniform_int_distribution<std::size_t>(0, reply.legal.size() - 1)(rng_));
    player_.send(R"({"type":"move","id":"b","room":")" + room_ + R"(","expected_version":)" +
                 std::to_string(version_) + R"(,"tokens":")" + token + "\"}");
  }

  Connection player_;
  int level_;
  std::mt19937 rng_;
  std::string room_;
  std::int64_t version_ = 0;
};

struct LoopLateness {
  int over_2ms = 0;
  int over_20ms = 0;
  double max_ms = 0;
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
  // How late the generator's own loop ran a 1 ms tick: a move that seems to stall may have
  // waited for the generator (descheduled, or busy) rather than for the server.
  LoopLateness generator_loop;
};

// A 1 ms tick on the generator's loop that notes how late each one ran while `recording`.
class LoopWatch {
 public:
  LoopWatch(net::io_context& io, const Measure& measure) : timer_(io), measure_(measure) { arm(); }
  void stop() { stopped_ = true; timer_.cancel(); }
  const LoopLateness& lateness() const { return lateness_; }

 private:
  static constexpr auto kTick = std::chrono::milliseconds(1);
  void arm() {
    due_ = Clock::now() + kTick;
    timer_.expires_at(due_);
    timer_.async_wait([this](const beast::error_code& error) {
      if (error || stopped_) return;
      const double late_ms = std::chrono::duration<double, std::milli>(Clock::now() - due_).count();
      if (measure_.recording) {
        lateness_.max_ms = std::max(lateness_.max_ms, late_ms);
        if (late_ms > 2) ++lateness_.over_2ms;
        if (late_ms > 20) ++lateness_.over_20ms;
      }
      arm();
    });
  }
  net::steady_timer timer_;
  const Measure& measure_;
  Clock::time_point due_;
  bool stopped_ = false;
  LoopLateness lateness_;
};


// Runs N tables against `port` for a warm-up second and then `seconds` of measurement, with
// `bot_rooms` games against the computer beside them (not measured).
// Room i goes to addresses[i % n], both its players with it.
Result run_on(const std::vector<Address>& addresses, Peer peer, const Options& options, double pace_seconds,
              int bot_rooms = 0) {
  net::io_context io;
  Measure measure;
  const auto address = [&](int i) -> const Address& { return addresses[static_cast<std::size_t>(i) % addresses.size()]; };
  std::vector<std::unique_ptr<Table>> tables;
  for (int i = 0; i < options.rooms; ++i)
    tables.push_back(std::make_unique<Table>(io, address(i), address(options.split ? i + 1 : i), peer, measure,
                                             pace_seconds, static_cast<unsigned>(i + 1)));
  std::vector<std::unique_ptr<BotTable>> bot_tables;
  for (int i = 0; i < bot_rooms; ++i)
    bot_tables.push_back(std::make_unique<BotTable>(io, address(i), options.bot_level, static_cast<unsigned>(1000 + i)));
  for (auto& table : bot_tables) table->start();
  for (auto& table : tables) table->start();
  LoopWatch watch(io, measure);
  // Many rooms take a while to set up (a commit each for creating and joining): the warm-up
  // second starts once every room plays, or after a minute at most.
  const auto setup_deadline = Clock::now() + std::chrono::minutes(1);
  while (measure.ready < tables.size() && Clock::now() < setup_deadline) io.run_for(std::chrono::milliseconds(50));
  if (measure.ready < tables.size())
    std::printf("    (only %zu of %zu rooms were set up after a minute)\n", measure.ready, tables.size());
  io.run_for(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(1.0, pace_seconds))));
  measure.recording = true;
  const auto started = Clock::now();
  const double thread_cpu_before = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
  const double process_cpu_before = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
  io.run_for(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.seconds)));
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  const double thread_cpu = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - thread_cpu_before;
  const double process_cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - process_cpu_before;
  measure.recording = false;
  watch.stop();
  for (auto& table : tables) table->stop();
  for (auto& table : bot_tables) table->stop();
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
  result.generator_loop = watch.lateness();
  return result;
}

// Against a server started by this process (or the in-process echo server) on loopback.
Result run(unsigned short port, Peer peer, const Options& options, double pace_seconds, int bot_rooms = 0) {
  return run_on({Address{"127.0.0.1", port}}, peer, options, pace_seconds, bot_rooms);
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
  std::printf("    the generator's 1 ms tick: late by over 2 ms %d times, over 20 ms %d times, at most %.1f ms\n",
              result.generator_loop.over_2ms, result.generator_loop.over_20ms, result.generator_loop.max_ms);
}

// The server's own account, from /metrics: its commits, and how long moves spent inside it
// (from the frame's arrival to the reply's queueing). Differences between two readings describe
// the run between them.
struct ServerFigures {
  double commits = 0;
  double commit_seconds = 0;
  double commits_within_1ms = 0;  // fsync included
  double commits_within_2ms = 0;
  double moves = 0;
  double moves_within_1ms = 0;
  double moves_within_2ms = 0;
  double move_seconds = 0;         // arrival to reply, summed
  double move_commit_seconds = 0;  // hand-off to the writer to the commit, summed
  double move_commits_within_1ms = 0;
  double move_commits_within_2ms = 0;
  double bot_moves = 0;
  double bot_thinks = 0;
  double bot_think_seconds = 0;

  ServerFigures operator-(const ServerFigures& before) const {
    return {commits - before.commits, commit_seconds - before.commit_seconds,
            commits_within_1ms - before.commits_within_1ms, commits_within_2ms - before.commits_within_2ms,
            moves - before.moves, moves_within_1ms - before.moves_within_1ms,
            moves_within_2ms - before.moves_within_2ms, move_seconds - before.move_seconds,
            move_commit_seconds - before.move_commit_seconds,
            move_commits_within_1ms - before.move_commits_within_1ms,
            move_commits_within_2ms - before.move_commits_within_2ms, bot_moves - before.bot_moves,
            bot_thinks - before.bot_thinks, bot_think_seconds - before.bot_think_seconds};
  }
};

// One HTTP request; the answer's body. `client`: an X-Forwarded-For to send (or none).
std::string http_exchange(const Address& address, http::verb verb, const std::string& target,
                          const std::string& text = "", const std::string& client = "") {
  net::io_context io;
  beast::tcp_stream stream(io);
  tcp::resolver resolver(io);
  stream.connect(resolver.resolve(address.host, std::to_string(address.port)));
  http::request<http::string_body> request{verb, target, 11};
  request.set(http::field::host, address.text());
  if (!client.empty()) request.set("X-Forwarded-For", client);
  if (!text.empty()) {
    request.set(http::field::content_type, "text/plain");
    request.body() = text;
  }
  request.prepare_payload();
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  return response.body();
}

ServerFigures read_server_figures(const Address& address) {
  const std::string text = http_exchange(address, http::verb::get, "/metrics");
  const auto value = [&](const std::string& name) {
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? 0.0 : std::stod(text.substr(at + name.size() + 2));
  };
  const auto bucket = [&](const std::string& histogram, const char* bound) {
    return value(histogram + "_bucket{le=\"" + bound + "\"}");
  };
  const std::string commit = "mancala_db_commit_seconds", move = "mancala_move_latency_seconds",
                    move_commit = "mancala_move_commit_seconds";
  return {value(commit + "_count"), value(commit + "_sum"), bucket(commit, "0.001"), bucket(commit, "0.002"),
          value(move + "_count"), bucket(move, "0.001"), bucket(move, "0.002"), value(move + "_sum"),
          value(move_commit + "_sum"), bucket(move_commit, "0.001"), bucket(move_commit, "0.002"),
          value("mancala_bot_moves_total"), value("mancala_bot_think_seconds_count"),
          value("mancala_bot_think_seconds_sum")};
}

ServerFigures read_server_figures(unsigned short port) { return read_server_figures(Address{"127.0.0.1", port}); }

void print_server_figures(const ServerFigures& figures) {
  const auto over = [](double within, double all) { return 100 * (1 - within / std::max(1.0, all)); };
  std::printf("    commits: %.0f, mean %.2f ms (fsync included), %.1f moves each; over 1 ms: %.1f %%, over 2 ms: %.1f %%\n",
              figures.commits, 1000 * figures.commit_seconds / std::max(1.0, figures.commits),
              figures.moves / std::max(1.0, figures.commits), over(figures.commits_within_1ms, figures.commits),
              over(figures.commits_within_2ms, figures.commits));
  std::printf("    moves inside the server (arrival to reply): over 1 ms: %.1f %%, over 2 ms: %.1f %%; "
              "mean %.2f ms, of which %.2f ms from the hand-off to the writer to the commit "
              "(that part over 1 ms: %.1f %%, over 2 ms: %.1f %%)\n",
              over(figures.moves_within_1ms, figures.moves), over(figures.moves_within_2ms, figures.moves),
              1000 * figures.move_seconds / std::max(1.0, figures.moves),
              1000 * figures.move_commit_seconds / std::max(1.0, figures.moves),
              over(figures.move_commits_within_1ms, figures.moves), over(figures.move_commits_within_2ms, figures.moves));
}

// What a run left on disk: the database file and its write-ahead log (whose growth under a
// steady load is what the WalCheckpointer bounds).
void print_file_sizes(const std::string& database) {
  const auto megabytes = [](const std::string& file) {
    std::error_code error;
    const auto bytes = std::filesystem::file_size(file, error);
    return error ? 0.0 : static_cast<double>(bytes) / (1 << 20);
  };
  std::printf("    on disk: database %.1f MB, WAL %.1f MB\n", megabytes(database), megabytes(database + "-wal"));
}


// Runs `round` options.rounds times, each announced, and returns the median of its figures.
double median_of_rounds(const Options& options, const std::function<double()>& round) {
  std::vector<double> figures;
  for (int k = 1; k <= options.rounds; ++k) {
    std::printf("-- round %d\n", k);
    figures.push_back(round());
  }
  return median(figures);
}

// What one durable write costs on this disk: a 4 KiB append and `fdatasync`, as SQLite's WAL
// commits, timed `count` times on a file in `dir` (the database's own filesystem).
struct SyncFigures {
  double p50_us = 0, p99_us = 0;
};

SyncFigures measure_fdatasync(const std::filesystem::path& dir, int count = 400) {
  const auto path = dir / "fdatasync-probe";
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  if (fd < 0) throw std::runtime_error("cannot create " + path.string() + ": " + std::strerror(errno));
  std::vector<char> page(4096, 'x');
  std::vector<double> times;
  for (int k = 0; k < count; ++k) {
    const auto start = std::chrono::steady_clock::now();
    const bool written = ::pwrite(fd, page.data(), page.size(), static_cast<off_t>(k) * 4096) == 4096;
    if (!written || ::fdatasync(fd) != 0) {
      ::close(fd);
      throw std::runtime_error("cannot write and sync " + path.string() + ": " + std::strerror(errno));
    }
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  ::close(fd);
  std::filesystem::remove(path);
  std::sort(times.begin(), times.end());
  return {percentile(times, 0.50), percentile(times, 0.99)};
}

// The half-load goal: a durable move may cost the echo's round trip plus one disk sync, with
// half as much again for the work between them, and 1 ms of slack.
double p99_limit_us(double echo_p99_us, const SyncFigures& sync) { return (echo_p99_us + sync.p99_us) * 1.5 + 1000; }

struct Round {
  Result server_full, server_half, echo_full, echo_half;
  Result floor_full, floor_half;  // with --floor
  SyncFigures sync;
};

// The floor server at full load and at the server's half-load pace, on a database in `dir`.
void run_floor(const Options& options, const std::filesystem::path& dir, double pace, Round& round) {
  {
    const mancala::bench::FloorServer floor(options.server_threads, options.pin ? kServerCore : -1, dir / "floor.db");
    round.floor_full = run(floor.port(), Peer::floor, options, 0);
    print("floor server, full load", round.floor_full);
    std::printf("    CPU per move: floor server %.0f us, generator %.0f us\n", round.floor_full.in_process_server_cpu_us,
                round.floor_full.generator_cpu_us);
    print_histogram(round.floor_full);
    round.floor_half = run(floor.port(), Peer::floor, options, pace);
    print("floor server, same half load", round.floor_half);
    print_histogram(round.floor_half);
  }
  ::sync();
}

// mancala-server at full and half load, then the echo server at the same loads.
Round run_round(const Options& options) {
  Round round;
  const auto dir = scratch_dir();
  double pace = 0;
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    const double cpu_before = server.cpu_seconds();
    const ServerFigures before = read_server_figures(server.port());
    round.server_full = run(server.port(), Peer::mancala, options, 0);
    const double cpu_used = server.cpu_seconds() - cpu_before;
    const ServerFigures after_full = read_server_figures(server.port());
    print("mancala-server, full load", round.server_full);
    std::printf("    CPU per move: server %.0f us (%.2f cores), generator %.0f us\n",
                1e6 * cpu_used / (round.server_full.per_second * (options.seconds + 1)),
                cpu_used / (options.seconds + 1), round.server_full.generator_cpu_us);
    print_server_figures(after_full - before);
    print_histogram(round.server_full);
    // Half load: each room paced so that all together make half the full-load rate. Two builds
    // of different speeds get different half loads; --half-rate gives both the same one.
    pace = options.rooms / (options.half_rate > 0 ? options.half_rate : round.server_full.per_second / 2);
    round.server_half = run(server.port(), Peer::mancala, options, pace);
    print("mancala-server, half load", round.server_half);
    print_histogram(round.server_half);
    print_server_figures(read_server_figures(server.port()) - after_full);
    if (options.db.empty()) print_file_sizes(database.url());
  }
  // The server has stopped before the echo runs start, and the kernel has written out what the
  // server left in the page cache, so the echo does not share the machine with either.
  ::sync();
  round.sync = measure_fdatasync(dir);
  std::printf("fdatasync of a 4 KiB append in %s: p50 %.0f us, p99 %.0f us\n", dir.c_str(), round.sync.p50_us,
              round.sync.p99_us);
  if (options.floor) run_floor(options, dir, pace, round);
  std::filesystem::remove_all(dir);
  EchoServer echo(options.server_threads, options.pin ? kServerCore : -1);
  round.echo_full = run(echo.port(), Peer::echo, options, 0);
  print("echo server, full load", round.echo_full);
  std::printf("    CPU per message: echo server %.0f us, generator %.0f us\n",
              round.echo_full.in_process_server_cpu_us, round.echo_full.generator_cpu_us);
  round.echo_half = run(echo.port(), Peer::echo, options, pace);
  print("echo server, same half load", round.echo_half);
  return round;
}

// ---- analyses beside the rooms ------------------------------------------------------------

// One HTTP request to the server; the JSON answer (null when there is none).
Json http_json(unsigned short port, http::verb verb, const std::string& target, const std::string& text,
               const std::string& client) {
  return Json::parse(http_exchange(Address{"127.0.0.1", port}, verb, target, text, client), nullptr, false);
}

// A Cups game of random legal moves as a text record: each seed a new game, so a new analysis.
std::string random_cups_text(std::uint64_t seed) {
  mancala::Match match = mancala::Match::create("cups", mancala::Json::object(), seed);
  std::mt19937_64 rng(seed);
  while (!match.over()) {
    const auto legal = match.legal_tokens();
    match.play(legal[rng() % legal.size()]);
  }
  mancala::Json record = match.record();
  record["result"] = match.result();
  return mancala::record_to_text(record);
}

// Keeps `count` imported games being analysed (the server's default budget) on a thread of its
// own: each that finishes is replaced by a new one. Counts the positions analysed meanwhile.
class AnalysisLoad {
 public:
  AnalysisLoad(unsigned short port, int count) : port_(port) {
    for (int i = 0; i < count; ++i) running_.push_back(start());
    thread_ = std::thread([this] { keep_running(); });
  }
  ~AnalysisLoad() {
    stop_ = true;
    thread_.join();
  }
  double positions() const { return positions_; }

 private:
  std::string start() {
    const std::string client = "10.0." + std::to_string(next_ / 250) + "." + std::to_string(next_ % 250 + 1);
    const std::string text = random_cups_text(1000 + next_++);
    const std::string key = http_json(port_, http::verb::post, "/api/records", text, client).value("key", "");
    if (key.empty()) throw std::runtime_error("the server did not import a generated record");
    http_json(port_, http::verb::post, "/api/records/" + key + "/analysis", text, client);
    return key;
  }

  void keep_running() {
    double finished = 0;  // positions of the analyses replaced so far
    while (!stop_) {
      double in_progress = 0;
      for (auto& key : running_) {
        const Json status = http_json(port_, http::verb::get, "/api/records/" + key + "/analysis", "", "10.1.0.1");
        in_progress += status.value("done", 0.0);
        if (status.value("state", "") != "done") continue;
        finished += status.value("total", 0.0);
        in_progress -= status.value("done", 0.0);
        key = start();
      }
      positions_ = finished + in_progress;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }

  unsigned short port_;
  int next_ = 0;
  std::vector<std::string> running_;
  std::atomic<bool> stop_{false};
  std::atomic<double> positions_{0};
  std::thread thread_;
};

// The same half load with `options.analyses` analyses running (and the bot games, if any):
// returns the p99 with them over the p99 alone.
double run_beside_analyses(unsigned short port, const Options& options, double pace, const Result& alone) {
  Result with_analyses;
  double positions = 0;
  {
    const AnalysisLoad analyses(port, options.analyses);
    with_analyses = run(port, Peer::mancala, options, pace, options.bot_rooms);
    positions = analyses.positions();
  }
  print("with analyses, half load", with_analyses);
  print_histogram(with_analyses);
  const double ratio = with_analyses.p99_us / alone.p99_us;
  std::printf("    %d analyses kept running (%.0f positions analysed); p99 at half load: with analyses / alone = %.2f\n",
              options.analyses, positions, ratio);
  return ratio;
}

// The impact of computer players on everybody else: the person-vs-person rooms at half load
// alone, then at the same pace with `bot_rooms` games against the computer running beside them
// (and the same at full load). Returns the p99 at half load with bots over the p99 without.
double run_impact_round(const Options& options) {
  const auto dir = scratch_dir();
  double ratio = 0;
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    const Result full = run(server.port(), Peer::mancala, options, 0);
    print("rooms alone, full load", full);
    const double pace = options.rooms / (full.per_second / 2);
    const Result alone = run(server.port(), Peer::mancala, options, pace);
    print("rooms alone, half load", alone);
    const ServerFigures before = read_server_figures(server.port());
    const Result with_bots = run(server.port(), Peer::mancala, options, pace, options.bot_rooms);
    const ServerFigures during = read_server_figures(server.port()) - before;
    print("with bot games, half load", with_bots);
    std::printf("    bot moves: %.0f (%.1f /s), mean think %.1f ms\n", during.bot_moves,
                during.bot_moves / (options.seconds + 1),
                1000 * during.bot_think_seconds / std::max(1.0, during.bot_thinks));
    print_histogram(with_bots);
    const Result full_with_bots = run(server.port(), Peer::mancala, options, 0, options.bot_rooms);
    print("with bot games, full load", full_with_bots);
    ratio = with_bots.p99_us / alone.p99_us;
    std::printf("    p99 at half load: with bots / alone = %.2f; moves/s at full load: with bots / alone = %.2f\n",
                ratio, full_with_bots.per_second / full.per_second);
    if (options.analyses > 0) ratio = run_beside_analyses(server.port(), options, pace, alone);
  }
  std::filesystem::remove_all(dir);
  return ratio;
}

// ---- capacity: players who each move every 2 s --------------------------------------------

constexpr double kPlayerInterval = 2.0;  // seconds between one player's moves
constexpr double kCapacityP99Us = 50000;

// The counts of players tried, up to `most`: each a fresh server.
std::vector<int> capacity_steps(int most) {
  std::vector<int> steps;
  for (int players : {1000, 2000, 4000, 8000, 12000, 16000, 19000})
    if (players <= most) steps.push_back(players);
  if (steps.empty() || steps.back() != most) steps.push_back(most);
  return steps;
}

// One round: the largest count whose p99 stayed within 50 ms while the server kept the pace
// (at least 95 % of the moves due were made). Stops at the first count that fails.
int run_capacity_round(const Options& options) {
  int served = 0;
  for (const int players : capacity_steps(options.capacity)) {
    const auto dir = scratch_dir();
    Options step = options;
    step.rooms = players / 2;
    // Two players take turns, so a room moves twice as often as each of its players.
    const double room_interval = kPlayerInterval / 2;
    Result result;
    {
      const ScratchDatabase database(step, dir);
      ServerProcess server(step, database.url());
      result = run(server.port(), Peer::mancala, step, room_interval);
      std::printf("%6d players: %8.0f moves/s (due %.0f)   p50 %7.0f us   p99 %7.0f us   server RSS %.0f MiB\n", players,
                  result.per_second, step.rooms / room_interval, result.p50_us, result.p99_us, server.rss_kib() / 1024);
    }
    std::filesystem::remove_all(dir);
    const bool kept_pace = result.per_second >= 0.95 * step.rooms / room_interval;
    if (result.p99_us > kCapacityP99Us || !kept_pace) break;
    served = players;
  }
  return served;
}

int run_capacity(const Options& options) {
  std::printf("capacity: players each moving every %.0f s (two per Cups room), up to %d players, p99 goal %.0f ms, "
              "%.0f s per step, %d server threads%s, %d rounds\n",
              kPlayerInterval, options.capacity, kCapacityP99Us / 1000, options.seconds, options.server_threads,
              options.pin ? ", pinned" : "", options.rounds);
  const double served = median_of_rounds(options, [&] {
    const int players = run_capacity_round(options);
    std::printf("    served: %d players\n", players);
    return static_cast<double>(players);
  });
  std::printf("median of %d rounds: %.0f players with p99 <= %.0f ms (goal: 19000, the most one process may hold here)\n",
              options.rounds, served,
              kCapacityP99Us / 1000);
  return 0;
}

// ---- idle memory: authenticated WebSockets that send nothing more --------------------------

// Opens `count` WebSockets that each say hello; returns when every welcome arrived.
std::vector<std::unique_ptr<Connection>> open_idle(net::io_context& io, unsigned short port, int count) {
  std::vector<std::unique_ptr<Connection>> connections;
  int welcomed = 0;
  for (int i = 0; i < count; ++i) {
    connections.push_back(std::make_unique<Connection>(io, port));
    connections.back()->start([&welcomed](std::string_view text) {
      if (text.starts_with(R"({"type":"welcome")")) ++welcomed;
    });
    connections.back()->send(R"({"type":"hello","id":"h","name":"Idle"})");
    if (i % 256 == 255) io.poll();  // let replies in as we go
  }
  const auto deadline = Clock::now() + std::chrono::minutes(2);
  while (welcomed < count && Clock::now() < deadline) io.run_for(std::chrono::milliseconds(50));
  if (welcomed < count) throw std::runtime_error("only " + std::to_string(welcomed) + " welcomes arrived");
  return connections;
}

double run_idle_round(const Options& options) {
  const auto dir = scratch_dir();
  double kib_each = 0;
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    net::io_context io;
    // One connection first, so that what every connection shares (buffers, the first session's
    // allocations) is in the baseline.
    auto first = open_idle(io, server.port(), 1);
    io.run_for(std::chrono::milliseconds(500));
    const double before = server.rss_kib();
    auto connections = open_idle(io, server.port(), options.idle);
    io.run_for(std::chrono::seconds(2));  // let the server settle
    const double after = server.rss_kib();
    kib_each = (after - before) / options.idle;
    std::printf("    server RSS %.0f KiB -> %.0f KiB with %d more idle WebSockets: %.2f KiB each\n", before, after,
                options.idle, kib_each);
    for (auto& connection : connections) connection->close();
    io.run_for(std::chrono::milliseconds(200));
  }
  std::filesystem::remove_all(dir);
  return kib_each;
}

int run_idle(const Options& options) {
  std::printf("idle memory: %d authenticated WebSockets, %d server threads%s, %d rounds\n", options.idle,
              options.server_threads, options.pin ? ", pinned" : "", options.rounds);
  const double each = median_of_rounds(options, [&] { return run_idle_round(options); });
  std::printf("median of %d rounds: %.2f KiB of server RSS per idle WebSocket (goal <= 8)\n", options.rounds, each);
  return 0;
}

// ---- servers started elsewhere: several processes, or nginx in front of them ---------------

// Full load, then half load, against the --connect addresses (rooms dealt out in turn). Each
// address's /metrics is read before and after, so a process that got no moves shows it;
// through nginx that is whichever process answers it.
int run_connected(const Options& options) {
  const std::vector<Address> addresses = parse_addresses(options.connect);
  std::string listed;
  for (const auto& address : addresses) listed += (listed.empty() ? "" : ", ") + address.text();
  std::printf("%d rooms of two players dealt out over %zu address(es) (%s), servers started elsewhere "
              "(they need --rate-limit 1000000), %.0f s per run, %d rounds\n",
              options.rooms, addresses.size(), listed.c_str(), options.seconds, options.rounds);
  std::vector<double> per_second, p99_full, p99_half;
  for (int round = 1; round <= options.rounds; ++round) {
    std::printf("-- round %d\n", round);
    std::vector<ServerFigures> before;
    for (const auto& address : addresses) before.push_back(read_server_figures(address));
    const Result full = run_on(addresses, Peer::mancala, options, 0);
    print("full load", full);
    for (std::size_t i = 0; i < addresses.size(); ++i) {
      std::printf("  %s\n", addresses[i].text().c_str());
      print_server_figures(read_server_figures(addresses[i]) - before[i]);
    }
    print_histogram(full);
    const Result half = run_on(addresses, Peer::mancala, options, options.rooms / (full.per_second / 2));
    print("half load", half);
    per_second.push_back(full.per_second);
    p99_full.push_back(full.p99_us);
    p99_half.push_back(half.p99_us);
  }
  std::printf("median of %d rounds: %.0f durable moves/s at full load, p99 %.1f ms at full load, %.1f ms at half load\n",
              options.rounds, median(per_second), median(p99_full) / 1000, median(p99_half) / 1000);
  return 0;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--pin") {
      options.pin = true;
      continue;
    }
    if (flag == "--split") {
      options.split = true;
      continue;
    }
    if (flag == "--floor") {
      options.floor = true;
      continue;
    }
    if (flag == "--think-jitter") {
      options.arena_think_jitter = true;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument(flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--server") options.server = value;
    else if (flag == "--rooms") options.rooms = std::stoi(value);
    else if (flag == "--seconds") options.seconds = std::stod(value);
    else if (flag == "--threads") options.server_threads = std::stoi(value);
    else if (flag == "--rounds") options.rounds = std::stoi(value);
    else if (flag == "--bot-rooms") options.bot_rooms = std::stoi(value);
    else if (flag == "--analyses") options.analyses = std::stoi(value);
    else if (flag == "--bot-level") options.bot_level = std::stoi(value);
    else if (flag == "--bot-threads") options.bot_threads = std::stoi(value);
    else if (flag == "--bot-priority") options.bot_priority = value;
    else if (flag == "--bot-budget") options.bot_budget = value;
    else if (flag == "--capacity") options.capacity = std::stoi(value);
    else if (flag == "--idle") options.idle = std::stoi(value);
    else if (flag == "--spectators") options.spectators = std::stoi(value);
    else if (flag == "--seekers") options.seekers = std::stoi(value);
    else if (flag == "--arena") options.arena = std::stoi(value);
    else if (flag == "--think-ms") options.arena_think_ms = std::stoi(value);
    else if (flag == "--db") options.db = value;
    else if (flag == "--connect") options.connect = value;
    else if (flag == "--half-rate") options.half_rate = std::stod(value);
    else throw std::invalid_argument("unknown flag " + flag);
  }
  if (!options.connect.empty()) parse_addresses(options.connect);  // a bad list is a usage error
  if (options.rooms < 1 || options.rounds < 1 || options.server_threads < 1 || !(options.seconds > 0))
    throw std::invalid_argument("--rooms, --rounds and --threads must be at least 1, --seconds above 0");
  if (options.half_rate < 0) throw std::invalid_argument("--half-rate must be a number of moves/s above 0");
  if (options.bot_rooms < 0 || options.analyses < 0 || options.bot_level < 1 || options.bot_level > 5 ||
      options.bot_threads < 1)
    throw std::invalid_argument(
        "--bot-rooms and --analyses must be at least 0, --bot-level 1 to 5, --bot-threads at least 1");
  return options;
}

// ---- quick pairing: many waiting seekers, 1,000 arriving a second ------------------------------

// Seeker i's seek: a set-up no other waiting seeker has (two games, a spread of clocks).
std::string seek_text(int i) {
  static const char* const kGames[] = {"cups", "oanquan"};
  constexpr int kMinInitial = 60, kMaxInitial = 10800;  // seconds, within the protocol's range
  const int initial = kMinInitial + (i / 2) % (kMaxInitial - kMinInitial);
  const int increment = (i / 2) / (kMaxInitial - kMinInitial);
  return std::string(R"({"type":"seek","id":"s","game":")") + kGames[i % 2] + R"(","clock":{"initial_s":)" +
         std::to_string(initial) + R"(,"increment_s":)" + std::to_string(increment) + "}}";
}

// Opens `count` connections that said hello; `on_message(i, text)` hears connection i.
std::vector<std::unique_ptr<Connection>> open_seekers(net::io_context& io, unsigned short port, int count,
                                                      const std::function<void(int, std::string_view)>& on_message) {
  std::vector<std::unique_ptr<Connection>> connections;
  int welcomed = 0;
  for (int i = 0; i < count; ++i) {
    connections.push_back(std::make_unique<Connection>(io, port));
    connections.back()->start([&welcomed, on_message, i](std::string_view text) {
      if (text.starts_with(R"({"type":"welcome")")) ++welcomed;
      else on_message(i, text);
    });
    connections.back()->send(R"({"type":"hello","id":"h","name":"Seeker"})");
    if (i % 256 == 255) io.poll();
  }
  const auto deadline = Clock::now() + std::chrono::minutes(2);
  while (welcomed < count && Clock::now() < deadline) io.run_for(std::chrono::milliseconds(50));
  if (welcomed < count) throw std::runtime_error("only " + std::to_string(welcomed) + " welcomes arrived");
  return connections;
}

int run_seekers(const Options& options) {
  mancala::bench::raise_descriptor_limit();
  const int waiting = options.seekers, arriving = options.seekers / 2;
  constexpr double kArrivalsPerSecond = 1000;
  std::printf("quick pairing: %d waiting seekers (one per set-up), %d arriving at %.0f/s, %d server threads\n",
              waiting, arriving, kArrivalsPerSecond, options.server_threads);
  const auto dir = scratch_dir();
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    net::io_context io;
    int seeking = 0;
    std::vector<Clock::time_point> sent(static_cast<std::size_t>(arriving));
    std::vector<Clock::time_point> done(static_cast<std::size_t>(arriving));
    std::vector<int> rooms(static_cast<std::size_t>(arriving), 0);  // `room`s heard for pairing i (of 2)
    int paired = 0;
    const auto heard = [&](int pairing, std::string_view text) {
      if (text.starts_with(R"({"type":"seeking")")) return void(++seeking);
      if (!text.starts_with(R"({"type":"room")")) return;
      auto& count = rooms[static_cast<std::size_t>(pairing)];
      if (++count == 2) {
        done[static_cast<std::size_t>(pairing)] = Clock::now();
        ++paired;
      }
    };
    auto waiters = open_seekers(io, server.port(), waiting, [&](int i, std::string_view text) {
      if (i < arriving) heard(i, text);  // paired by arrival i
      else if (text.starts_with(R"({"type":"seeking")")) ++seeking;  // waits to the end
    });
    for (int i = 0; i < waiting; ++i) {
      waiters[static_cast<std::size_t>(i)]->send(seek_text(i));
      if (i % 256 == 255) io.poll();
    }
    const auto deadline = Clock::now() + std::chrono::minutes(2);
    while (seeking < waiting && Clock::now() < deadline) io.run_for(std::chrono::milliseconds(50));
    if (seeking < waiting) throw std::runtime_error("only " + std::to_string(seeking) + " seeks were taken");
    auto arrivals = open_seekers(io, server.port(), arriving, heard);
    const double cpu_before = server.cpu_seconds();
    const auto start = Clock::now();
    for (int i = 0; i < arriving; ++i) {  // arrival i is compatible with waiting seeker i only
      const auto due = start + std::chrono::microseconds(static_cast<std::int64_t>(i * 1e6 / kArrivalsPerSecond));
      while (Clock::now() < due) io.run_for(due - Clock::now());
      sent[static_cast<std::size_t>(i)] = Clock::now();
      arrivals[static_cast<std::size_t>(i)]->send(seek_text(i));
    }
    while (paired < arriving && Clock::now() < deadline + std::chrono::minutes(1)) io.run_for(std::chrono::milliseconds(20));
    const double cpu = server.cpu_seconds() - cpu_before;
    if (paired < arriving) throw std::runtime_error("only " + std::to_string(paired) + " of " + std::to_string(arriving) + " were paired");
    std::vector<double> ms;
    for (int i = 0; i < arriving; ++i)
      ms.push_back(std::chrono::duration<double, std::milli>(done[static_cast<std::size_t>(i)] - sent[static_cast<std::size_t>(i)]).count());
    std::sort(ms.begin(), ms.end());
    std::printf("seekers %d waiting, %d paired at %.0f/s: seek to both rooms p50 %.2f ms, p99 %.2f ms (goal <= 50); "
                "server CPU %.0f us per pairing\n",
                waiting, arriving, kArrivalsPerSecond, percentile(ms, 0.50), percentile(ms, 0.99), cpu * 1e6 / arriving);
    for (auto& connection : waiters) connection->close();
    for (auto& connection : arrivals) connection->close();
    io.run_for(std::chrono::milliseconds(200));
  }
  std::filesystem::remove_all(dir);
  return 0;
}

int run_impact(const Options& options) {
  std::printf("%d rooms of two players (one move in flight each) beside %d Cups games against the computer "
              "at level %d (%d bot threads), %.0f s per run, %d server threads, %d rounds\n",
              options.rooms, options.bot_rooms, options.bot_level, options.bot_threads, options.seconds,
              options.server_threads, options.rounds);
  const double ratio = median_of_rounds(options, [&] { return run_impact_round(options); });
  std::printf("median of %d rounds: p99 at half load with %s / without = %.2f (goal < 2)\n", options.rounds,
              options.analyses > 0 ? "analyses" : "bot games", ratio);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "mancala-loadgen: " << e.what()
              << "\nusage: mancala-loadgen [--server PATH] [--pin] [--rooms N] [--seconds S] [--threads T] [--rounds R]\n"
                 "                       [--bot-rooms N [--bot-level L] [--bot-threads T] [--bot-priority idle|normal]\n"
                 "                       [--bot-budget adaptive|full]] [--analyses N] [--capacity MAX_PLAYERS]\n"
                 "                       [--idle CONNECTIONS] [--db postgresql://…] [--half-rate MOVES_PER_S] [--floor]\n"
                 "       mancala-loadgen --spectators N [--seconds S] [--pin]   (fan-out: fanout.hpp)\n"
                 "       mancala-loadgen --seekers N [--threads T] [--db postgresql://…]   (quick pairing)\n"
                 "       mancala-loadgen --arena N [--think-ms MS] [--think-jitter] [--threads T]   (a tournament: arena.hpp)\n"
                 "       mancala-loadgen --connect HOST:PORT[,HOST:PORT…] [--split] [--rooms N] [--seconds S] [--rounds R]\n";
    return 2;
  }
  try {
    if (options.pin) pin_to_core(kGeneratorCore);  // before any thread starts: they inherit it
    if (!options.connect.empty()) return run_connected(options);
    if (options.bot_rooms > 0 || options.analyses > 0) return run_impact(options);
    if (options.capacity > 0) return run_capacity(options);
    if (options.idle > 0) return run_idle(options);
    if (options.spectators > 0) return mancala::bench::run_fanout(options);
    if (options.seekers > 0) return run_seekers(options);
    if (options.arena > 0) return mancala::bench::run_arena(options);
    std::printf("%d rooms of two players, one move in flight per room, %.0f s per run, %d server threads%s, %d rounds\n",
                options.rooms, options.seconds, options.server_threads, options.pin ? ", pinned" : "", options.rounds);
    std::vector<double> ratios, p99s, limits, floor_ratios, of_floor, floor_p99s;
    for (int round = 1; round <= options.rounds; ++round) {
      std::printf("-- round %d\n", round);
      const Round figures = run_round(options);
      ratios.push_back(figures.server_full.per_second / figures.echo_full.per_second);
      p99s.push_back(figures.server_half.p99_us);
      limits.push_back(p99_limit_us(figures.echo_half.p99_us, figures.sync));
      std::printf("    durable moves/s / echo messages/s = %.2f; p99 at half load %.2f ms, limit %.2f ms "
                  "((echo %.2f + fdatasync %.2f) x 1.5 + 1)\n",
                  ratios.back(), p99s.back() / 1000, limits.back() / 1000, figures.echo_half.p99_us / 1000,
                  figures.sync.p99_us / 1000);
      if (options.floor) {
        floor_ratios.push_back(figures.floor_full.per_second / figures.echo_full.per_second);
        of_floor.push_back(figures.server_full.per_second / figures.floor_full.per_second);
        floor_p99s.push_back(figures.floor_half.p99_us);
        std::printf("    floor moves/s / echo messages/s = %.2f; mancala-server / floor = %.2f; "
                    "floor p99 at half load %.2f ms\n",
                    floor_ratios.back(), of_floor.back(), floor_p99s.back() / 1000);
      }
    }
    // Rounds alternate the two servers, so a machine whose speed drifts (a shared VM) moves both.
    std::printf("median of %d rounds: durable moves/s / echo messages/s = %.2f (goal >= %s), "
                "p99 at half load %.2f ms against a limit of %.2f ms\n",
                options.rounds, median(ratios), options.pin ? "0.40 pinned" : "0.45", median(p99s) / 1000,
                median(limits) / 1000);
    if (options.floor)
      std::printf("median of %d rounds: floor moves/s / echo messages/s = %.2f, mancala-server / floor = %.2f, "
                  "floor p99 at half load %.2f ms\n",
                  options.rounds, median(floor_ratios), median(of_floor), median(floor_p99s) / 1000);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "mancala-loadgen: " << e.what() << "\n";
    return 1;
  }
}
