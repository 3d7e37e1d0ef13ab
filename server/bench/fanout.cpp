// mancala-loadgen's fan-out mode: see fanout.hpp.
#include "fanout.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mancala::bench {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

// Connections set up at a time: the server tells every member the new spectator count
// (coalesced), and a member whose frames pile up beyond the server's limit is closed as slow.
constexpr int kSetupBatch = 100;
constexpr auto kSetupLimit = std::chrono::minutes(15);
constexpr auto kMoveLimit = std::chrono::seconds(60);
constexpr int kWarmUpMoves = 5;  // played before the measured window opens

double micros(Clock::duration duration) { return std::chrono::duration<double, std::micro>(duration).count(); }

// Runs `io` until `done()`; after `limit`, throws what `progress()` says.
void run_until(net::io_context& io, const std::function<bool()>& done, Clock::duration limit,
               const std::function<std::string()>& progress) {
  const auto deadline = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() > deadline) throw std::runtime_error(progress());
    io.run_for(std::chrono::milliseconds(5));
  }
}

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

void refuse_errors(std::string_view text) {
  if (starts_with(text, R"({"type":"error")")) throw std::runtime_error("the server refused: " + std::string(text));
}

// The move in flight, as the spectators receive it: how many have its version, and when the
// first and the last got it. Versions start again at 1 in a rematch, but only one move is in
// flight and the next is sent once every spectator has the last, so a version names one move.
struct Delivery {
  int spectators = 0;
  std::int64_t version = -1;  // -1: no move in flight
  int received = 0;
  Clock::time_point first{}, last{};
  std::uint64_t strays = 0;      // an update of another version: should not happen; printed
  std::uint64_t other_frames = 0;  // room, rematch and presence messages to the spectators
  std::function<void()> on_complete;

  void expect(std::int64_t next) {
    version = next;
    received = 0;
  }
  void note(std::int64_t got) {
    if (got != version) {
      ++strays;
      return;
    }
    const auto now = Clock::now();
    if (received++ == 0) first = now;
    last = now;
    if (received == spectators && on_complete) on_complete();
  }
};

struct SetupCounts {
  int welcomed = 0;
  int joined = 0;
};

// One spectator: says hello, joins the room with `spectate`, then only counts updates.
class Spectator {
 public:
  Spectator(net::io_context& io, unsigned short port, int number, Delivery& delivery, SetupCounts& counts)
      : connection_(io, port), delivery_(delivery), counts_(counts) {
    connection_.start([this](std::string_view text) { on_message(text); });
    connection_.send(R"({"type":"hello","id":"h","name":"Watcher )" + std::to_string(number) + "\"}");
  }
  void join(const std::string& room) {
    connection_.send(R"({"type":"join_room","id":"j","room":")" + room + R"(","spectate":true})");
  }
  void close() { connection_.close(); }
  // The spectator count of the last room message this spectator had.
  std::int64_t spectators_seen() const { return spectators_seen_; }

 private:
  void on_message(std::string_view text) {
    if (starts_with(text, R"({"type":"update")")) return delivery_.note(integer_at(value_after(text, "version", false)));
    refuse_errors(text);
    if (starts_with(text, R"({"type":"room")")) spectators_seen_ = integer_at(value_after(text, "spectators", false));
    if (starts_with(text, R"({"type":"welcome")")) ++counts_.welcomed;
    else if (starts_with(text, R"({"type":"room","id":"j")")) ++counts_.joined;
    else ++delivery_.other_frames;
  }

  std::int64_t spectators_seen_ = 0;

  Connection connection_;
  Delivery& delivery_;
  SetupCounts& counts_;
};

// One move's times: sent by the mover, acknowledged to him, first and last spectator's copy.
struct MoveTimes {
  Clock::time_point sent, acknowledged, first, last;
};

// Two players playing Cups move by move, one move in flight; after each game both ask for a
// rematch, which moves the spectators into the new room with them.
class Game {
 public:
  Game(net::io_context& io, unsigned short port, Delivery& delivery, unsigned seed) : delivery_(delivery), rng_(seed) {
    for (int i = 0; i < 2; ++i) {
      players_.push_back(std::make_unique<Connection>(io, port));
      players_.back()->start([this, i](std::string_view text) { on_message(i, text); });
    }
    players_[0]->send(R"({"type":"hello","id":"h","name":"Fan-out A"})");
    players_[1]->send(R"({"type":"hello","id":"h","name":"Fan-out B"})");
    players_[0]->send(R"({"type":"create_room","id":"c","game":"cups","options":{"cups_per_side":6}})");
    delivery_.on_complete = [this] { maybe_done(); };
  }

  bool ready() const { return playing_; }
  const std::string& room() const { return room_; }
  // Plays until `stop()`; each move after the first `warm_up` is recorded.
  void play(int warm_up) {
    warm_up_ = warm_up;
    next_move();
  }
  void stop() { stopping_ = true; }
  bool idle() const { return idle_; }
  const std::vector<MoveTimes>& moves() const { return moves_; }
  int games() const { return games_; }
  Clock::time_point window_opened() const { return window_opened_; }
  std::int64_t version() const { return reply_.version; }
  int delivered() const { return delivery_.received; }
  void close() {
    for (auto& player : players_) player->close();
  }

 private:
  void on_message(int player, std::string_view text) {
    refuse_errors(text);
    if (starts_with(text, R"({"type":"update","id":"m")")) {
      reply_ = scan_update(text);
      acknowledged_ = Clock::now();
      return maybe_done();
    }
    if (starts_with(text, R"({"type":"update")") || !starts_with(text, R"({"type":"room")")) return;
    // A room message: setting up a game, rare, so parsed in full.
    const Json message = Json::parse(text);
    const Json& room = message["room"];
    const std::string id = message.value("id", "");
    if (id == "c") {
      room_ = room["id"];
      players_[1]->send(R"({"type":"join_room","id":"j","room":")" + room_ + "\"}");
    } else if (id == "j" || (player == 0 && id.empty() && room["id"] != room_ && room["status"] == "playing")) {
      if (id.empty()) {  // the rematch: every seat moved on by one
        room_ = room["id"];
        for (int& seat : seat_of_) seat = (seat + 1) % 2;
        ++games_;
      }
      const Json& state = room["state"];
      reply_ = {0, state["to_move"].get<int>(), false, state["legal"].get<std::vector<std::string>>()};
      if (playing_) return next_move();
      playing_ = true;
    }
  }

  void next_move() {
    if (stopping_) {
      idle_ = true;
      return;
    }
    const std::string& token =
        reply_.legal.at(std::uniform_int_distribution<std::size_t>(0, reply_.legal.size() - 1)(rng_));
    const int mover = seat_of_[0] == reply_.to_move ? 0 : 1;
    delivery_.expect(reply_.version + 1);
    acknowledged_ = {};
    sent_ = Clock::now();
    players_[static_cast<std::size_t>(mover)]->send(R"({"type":"move","id":"m","room":")" + room_ +
                                                    R"(","expected_version":)" + std::to_string(reply_.version) +
                                                    R"(,"tokens":")" + token + "\"}");
  }

  // The move is done once its mover has the acknowledgement and every spectator the update.
  void maybe_done() {
    if (acknowledged_ == Clock::time_point{} || delivery_.received < delivery_.spectators) return;
    delivery_.expect(-1);
    if (played_++ == warm_up_) window_opened_ = sent_;
    if (played_ > warm_up_) moves_.push_back({sent_, acknowledged_, delivery_.first, delivery_.last});
    if (!reply_.over) return next_move();
    if (stopping_) {
      idle_ = true;
      return;
    }
    for (auto& player : players_) player->send(R"({"type":"rematch","id":"r","room":")" + room_ + "\"}");
  }

  Delivery& delivery_;
  std::mt19937 rng_;
  std::vector<std::unique_ptr<Connection>> players_;
  int seat_of_[2] = {0, 1};  // player -> seat in the current room
  std::string room_;
  bool playing_ = false;
  bool stopping_ = false;
  bool idle_ = false;
  int warm_up_ = 0;
  int played_ = 0;
  int games_ = 1;
  MoveReply reply_;
  Clock::time_point sent_{}, acknowledged_{}, window_opened_{};
  std::vector<MoveTimes> moves_;
};

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
};

Percentiles percentiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {percentile(values, 0.50), percentile(values, 0.99), values.empty() ? 0 : values.back()};
}

// Opens `count` spectators on `port`, `kSetupBatch` at a time, and has each join `room`.
std::vector<std::unique_ptr<Spectator>> open_spectators(net::io_context& io, unsigned short port, int count,
                                                        const std::string& room, Delivery& delivery,
                                                        SetupCounts& counts) {
  std::vector<std::unique_ptr<Spectator>> spectators;
  for (int start = 0; start < count; start += kSetupBatch) {
    const int end = std::min(count, start + kSetupBatch);
    for (int i = start; i < end; ++i)
      spectators.push_back(std::make_unique<Spectator>(io, port, i + 1, delivery, counts));
    run_until(io, [&] { return counts.welcomed == end; }, kSetupLimit,
              [&] { return std::to_string(counts.welcomed) + " of " + std::to_string(end) + " spectators welcomed"; });
    for (int i = start; i < end; ++i) spectators[static_cast<std::size_t>(i)]->join(room);
    run_until(io, [&] { return counts.joined == end; }, kSetupLimit,
              [&] { return std::to_string(counts.joined) + " of " + std::to_string(end) + " spectators joined"; });
    // The batch's new count reaches every spectator (coalesced: a message or a few each) before
    // the next batch, so that no spectator's queue at the server grows without bound.
    const auto counted = [&] {
      return std::count_if(spectators.begin(), spectators.end(),
                           [&](const auto& spectator) { return spectator->spectators_seen() == end; });
    };
    run_until(io, [&] { return counted() == end; }, kSetupLimit, [&] {
      return std::to_string(counted()) + " of " + std::to_string(end) + " spectators were told the count " +
             std::to_string(end);
    });
  }
  return spectators;
}

int run_spectators(const Options& options) {
  const auto dir = scratch_dir();
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    net::io_context io;
    Delivery delivery;
    delivery.spectators = options.spectators;
    SetupCounts counts;
    Game game(io, server.port(), delivery, 1);
    run_until(io, [&] { return game.ready(); }, kSetupLimit, [] { return "the two players' game did not start"; });
    const auto setup_started = Clock::now();
    auto spectators = open_spectators(io, server.port(), options.spectators, game.room(), delivery, counts);
    std::printf("    %d spectators joined in %.1f s (load average %.1f)\n", options.spectators,
                micros(Clock::now() - setup_started) / 1e6, load_average());
    std::fflush(stdout);
    delivery.other_frames = 0;

    // The window: from the first recorded move's send to the last one's completion.
    game.play(kWarmUpMoves);
    run_until(io, [&] { return game.moves().size() >= 1; }, kMoveLimit, [] { return "the warm-up moves did not finish"; });
    const double server_cpu_before = server.cpu_seconds();
    const double generator_cpu_before = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    const std::uint64_t other_before = delivery.other_frames;
    const auto window_end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double>(options.seconds));
    std::size_t last_count = 0;
    auto last_progress = Clock::now();
    run_until(
        io,
        [&] {
          if (Clock::now() >= window_end) game.stop();
          if (game.moves().size() != last_count) {
            last_count = game.moves().size();
            last_progress = Clock::now();
          }
          if (Clock::now() - last_progress > kMoveLimit)
            throw std::runtime_error("move " + std::to_string(game.version() + 1) + " reached only " +
                                     std::to_string(game.delivered()) + " of " + std::to_string(options.spectators) +
                                     " spectators within " + std::to_string(kMoveLimit.count()) + " s");
          return game.idle();
        },
        std::chrono::hours(24), [] { return ""; });
    const double server_cpu = server.cpu_seconds() - server_cpu_before;
    const double generator_cpu = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - generator_cpu_before;
    // The first recorded move was sent before the CPU was first read; it is left out of the
    // figures so that the CPU and the moves cover the same window.
    std::vector<MoveTimes> moves(game.moves().begin() + 1, game.moves().end());
    const double seconds = micros(moves.empty() ? Clock::duration{} : moves.back().last - moves.front().sent) / 1e6;

    std::vector<double> from_send, from_ack, first_from_send;
    for (const auto& move : moves) {
      from_send.push_back(micros(move.last - move.sent));
      from_ack.push_back(micros(move.last - move.acknowledged));
      first_from_send.push_back(micros(move.first - move.sent));
    }
    const Percentiles send = percentiles(from_send), ack = percentiles(from_ack), first = percentiles(first_from_send);
    const double delivered = static_cast<double>(moves.size()) * options.spectators;
    const double server_us = 1e6 * server_cpu / std::max(1.0, delivered);
    std::printf("    %zu moves in %.1f s (%d game(s)), one in flight; to the last spectator from the move's send: "
                "p50 %.1f ms, p99 %.1f ms, max %.1f ms; from the mover's acknowledgement: p50 %.1f ms, p99 %.1f ms; "
                "first spectator from the send: p50 %.1f ms\n",
                moves.size(), seconds, game.games(), send.p50 / 1000, send.p99 / 1000, send.max / 1000, ack.p50 / 1000,
                ack.p99 / 1000, first.p50 / 1000);
    std::printf("    server CPU %.2f s (%.2f cores) for %.0f updates delivered (%llu other frames to the spectators "
                "meanwhile: rematches); generator CPU %.1f us per delivered update; load average %.1f%s\n",
                server_cpu, server_cpu / std::max(1e-9, seconds), delivered,
                static_cast<unsigned long long>(delivery.other_frames - other_before),
                1e6 * generator_cpu / std::max(1.0, delivered), load_average(),
                delivery.strays ? (", " + std::to_string(delivery.strays) + " updates of a version not in flight").c_str()
                                : "");
    // The p99 counts from the send: the commit lies between the send and the acknowledgement,
    // so this bounds the time from the commit from above.
    std::printf("fan-out: %d spectators, p99 %.1f ms, %.2f us per delivered message\n", options.spectators,
                send.p99 / 1000, server_us);
    // The server goes first: spectators leaving one by one would each send the room message
    // to all who are still there, which they no longer read.
    server.stop();
    for (auto& spectator : spectators) spectator->close();
    game.close();
  }
  std::filesystem::remove_all(dir);
  return 0;
}

// The floor under a delivered message: the CPU one thread spends on a bare write() of an
// update's 600 bytes to each of `count` loopback TCP sockets (no WebSocket, no event loop; on
// loopback the sender's system call also runs the receiving side of TCP). Socket pairs are
// opened, written `rounds` times (drained between rounds), and closed again.
double bare_write_us(int count, int rounds = 10) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener, 4096) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw std::runtime_error(std::string("cannot listen on loopback: ") + std::strerror(errno));
  std::vector<int> senders, receivers;
  for (int i = 0; i < count; ++i) {
    const int client = ::socket(AF_INET, SOCK_STREAM, 0);
    if (client < 0 || ::connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
      throw std::runtime_error(std::string("cannot connect on loopback: ") + std::strerror(errno));
    const int server = ::accept(listener, nullptr, nullptr);
    const int one = 1;
    ::setsockopt(server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    senders.push_back(server);
    receivers.push_back(client);
  }
  const std::string frame(600, 'x');
  std::vector<char> drain(4096);
  double cpu = 0;
  for (int round = 0; round < rounds; ++round) {
    const double before = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    for (const int fd : senders)
      if (::write(fd, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size()))
        throw std::runtime_error(std::string("write to a loopback socket failed: ") + std::strerror(errno));
    cpu += cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - before;
    for (const int fd : receivers)
      for (std::size_t got = 0; got < frame.size();) {
        const ssize_t n = ::read(fd, drain.data(), drain.size());
        if (n <= 0) throw std::runtime_error("reading a loopback socket failed");
        got += static_cast<std::size_t>(n);
      }
  }
  for (const int fd : senders) ::close(fd);
  for (const int fd : receivers) ::close(fd);
  ::close(listener);
  return 1e6 * cpu / (static_cast<double>(count) * rounds);
}

}  // namespace

int run_fanout(const Options& options) {
  const rlim_t descriptors = raise_descriptor_limit();
  std::printf("fan-out: %d spectators of one Cups game, %.0f s, %d server threads%s; open files allowed: %llu\n",
              options.spectators, options.seconds, options.server_threads, options.pin ? ", pinned" : "",
              static_cast<unsigned long long>(descriptors));
  const int sockets = options.spectators;
  std::printf("    the floor: a bare write() of 600 bytes to each of %d loopback TCP sockets costs the writer %.2f us "
              "of CPU (load average %.1f)\n",
              sockets, bare_write_us(sockets), load_average());
  std::fflush(stdout);
  return run_spectators(options);
}

}  // namespace mancala::bench
