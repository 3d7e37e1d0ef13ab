// mancala-loadgen's tournament mode: see arena.hpp.
#include "arena.hpp"

#include "clock.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

namespace mancala::bench {
namespace {

using Clock = std::chrono::steady_clock;
using WallClock = std::chrono::system_clock;
using Json = nlohmann::json;
namespace http = beast::http;

// An arena "minute" of 10 s, 6 of them: 60 s of play (a game of Cups takes a pair about 30 s at
// the default think time, so each player is paired about three times). The clock is the shortest the server takes
// for a seek (60 s); a player moves after the think time, so a game lasts far less.
constexpr int kMinuteMs = 10000;
constexpr int kArenaMinutes = 6;
constexpr auto kOutside = std::chrono::seconds(40);  // the ordinary rooms' window
const char* const kClock = R"({"initial_s":60,"increment_s":1})";
const char* const kCupsOptions = R"({"cups_per_side":6})";
constexpr int kJoinsPerAddress = 50;  // below the 60 tournament requests in 10 minutes per address
constexpr int kPushChanges = 6;       // changes before the start, each one push to every watcher
constexpr auto kChangeEvery = std::chrono::seconds(2);  // the server pushes at most once a second

double millis(Clock::duration duration) { return std::chrono::duration<double, std::milli>(duration).count(); }

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }


struct HttpReply {
  int status = 0;
  std::string body;
  std::string cookie;  // the first Set-Cookie's name=value
};

// One blocking HTTP/1.1 request on a connection of its own.
HttpReply http_call(unsigned short port, http::verb verb, const std::string& target, const std::string& body,
                    const std::vector<std::pair<std::string, std::string>>& headers) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> request{verb, target, 11};
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (const auto& [name, value] : headers) request.set(name, value);
  if (!body.empty()) {
    request.set(http::field::content_type, "application/json");
    request.body() = body;
  }
  request.prepare_payload();
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  http::read(stream, buffer, parser);
  const auto& response = parser.get();
  HttpReply reply{static_cast<int>(response.result_int()), response.body(), ""};
  if (const auto cookie = response.find(http::field::set_cookie); cookie != response.end()) {
    const std::string text(cookie->value());
    reply.cookie = text.substr(0, text.find(';'));
  }
  error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return reply;
}

HttpReply expect_status(HttpReply reply, int status, const std::string& what) {
  if (reply.status != status)
    throw std::runtime_error(what + ": HTTP " + std::to_string(reply.status) + " " + reply.body.substr(0, 300));
  return reply;
}

// A made-up client address for the i-th rate-limited request (X-Forwarded-For, trusted from loopback).
std::string client_for(int i) {
  const int block = i / kJoinsPerAddress;
  return "10.48." + std::to_string(block / 250) + "." + std::to_string(1 + block % 250);
}

struct Percentiles {
  double p50 = 0, p99 = 0, max = 0;
  std::size_t count = 0;
};

Percentiles percentiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {percentile(values, 0.50), percentile(values, 0.99), values.empty() ? 0 : values.back(), values.size()};
}

// What every player adds to, per phase.
struct Figures {
  std::vector<double> move_ms;     // a move's send to its acknowledgement, for moves sent before `until`
  Clock::time_point until = Clock::time_point::max();  // the arena's end: its tail has fewer games
  std::size_t moves_after = 0;     // moves sent from `until` on (not in move_ms)
  std::vector<double> pairing_ms;  // a game's last update to the player's next room
  std::vector<double> start_ms;    // starts_at to the player's first room (wall clock)
  int games_started = 0;           // rooms heard, one per player and game
  int games_ended = 0;             // per player
  int errors = 0;
  std::string first_error;
};

// One player: its own connection; plays its turns after the think time, one move in flight.
class Player {
 public:
  // `jitter`: each pause drawn from 0.5 to 1.5 times `think` (games then end apart), else exactly `think`.
  Player(net::io_context& io, unsigned short port, int number, Figures*& figures, Clock::duration think, bool jitter)
      : connection_(io, port), timer_(io), figures_(figures), think_(think), jitter_(jitter), rng_(number) {
    connection_.start([this](std::string_view text) { on_message(text); });
    connection_.send(R"({"type":"hello","id":"h","name":"Arena )" + std::to_string(number) + "\"}");
  }
  bool welcomed() const { return !token_.empty(); }
  const std::string& token() const { return token_; }
  bool playing() const { return playing_; }
  bool in_flight() const { return in_flight_; }

  // The arena's pairings: the time from `starts_at` to the first room, from a game's end to the next.
  void arena_mode(WallClock::time_point starts_at) {
    starts_at_ = starts_at;
    first_room_ = true;
    rematch_ = false;
  }
  // Ordinary rooms: `partner` joins the room this one creates; both ask for a rematch after each game.
  void outside_mode(Player* partner) {
    first_room_ = false;
    ended_at_ = {};
    rematch_ = true;
    stopping_ = false;
    if (partner) {
      partner_ = partner;
      connection_.send(std::string(R"({"type":"create_room","id":"c","game":"cups","options":)") + kCupsOptions +
                       R"(,"clock":)" + kClock + "}");
    }
  }
  void stop() { stopping_ = true; }
  void join(const std::string& room) {
    connection_.send(R"({"type":"join_room","id":"j","room":")" + room + "\"}");
  }
  void close() {
    timer_.cancel();
    connection_.close();
  }

 private:
  void on_message(std::string_view text) {
    if (starts_with(text, R"({"type":"update")")) return on_update(text);
    if (starts_with(text, R"({"type":"room")")) return on_room(text);
    if (starts_with(text, R"({"type":"welcome")")) {
      const Json welcome = Json::parse(text);
      id_ = welcome.value("player_id", "");
      token_ = welcome.value("token", "");
      return;
    }
    if (starts_with(text, R"({"type":"error")")) {
      if (figures_->errors++ == 0) figures_->first_error = std::string(text.substr(0, 300));
      if (text.find(R"("id":"m")") != std::string_view::npos) in_flight_ = false;
    }
  }

  void on_update(std::string_view text) {
    const bool mine = starts_with(text, R"({"type":"update","id":"m")");
    const MoveReply reply = scan_update(text);
    if (mine) {
      if (sent_ < figures_->until) figures_->move_ms.push_back(millis(Clock::now() - sent_));
      else ++figures_->moves_after;
      in_flight_ = false;
    }
    if (!playing_) return;
    version_ = reply.version;
    to_move_ = reply.to_move;
    legal_ = reply.legal;
    if (reply.over) return game_over();
    if (to_move_ == seat_) schedule();
  }

  void game_over() {
    playing_ = false;
    timer_.cancel();
    ended_at_ = Clock::now();
    ++figures_->games_ended;
    if (rematch_ && !stopping_) connection_.send(R"({"type":"rematch","id":"r","room":")" + room_ + "\"}");
  }

  // A room message: rare (a game's start), so parsed in full.
  void on_room(std::string_view text) {
    const Json message = Json::parse(text);
    const Json& room = message["room"];
    const std::string id = message.value("id", "");
    if (id == "c") {  // the room this player created: the partner joins it
      if (partner_) partner_->join(room["id"].get<std::string>());
      return;
    }
    if (room.value("status", "") != "playing" || room["id"] == room_) return;
    if (id != "j" && !id.empty()) return;
    const auto now = Clock::now();
    if (first_room_) {
      figures_->start_ms.push_back(std::chrono::duration<double, std::milli>(WallClock::now() - starts_at_).count());
      first_room_ = false;
    } else if (ended_at_ != Clock::time_point{}) {
      figures_->pairing_ms.push_back(millis(now - ended_at_));
    }
    ended_at_ = {};
    ++figures_->games_started;
    room_ = room["id"].get<std::string>();
    seat_ = -1;
    const Json& seats = room["seats"];
    for (std::size_t i = 0; i < seats.size(); ++i)
      if (seats[i].value("player_id", Json()).is_string() && seats[i]["player_id"] == id_) seat_ = static_cast<int>(i);
    if (seat_ < 0) throw std::runtime_error("a room without this player's seat: " + std::string(text.substr(0, 300)));
    const Json& state = room["state"];
    version_ = room.value("version", 0);
    to_move_ = state["to_move"].is_number() ? state["to_move"].get<int>() : -1;
    legal_ = state["legal"].get<std::vector<std::string>>();
    playing_ = true;
    if (to_move_ == seat_) schedule();
  }

  void schedule() {
    if (stopping_ || in_flight_) return;
    timer_.expires_after(jitter_ ? std::chrono::duration_cast<Clock::duration>(
                                       think_ * std::uniform_real_distribution<double>(0.5, 1.5)(rng_))
                                 : think_);
    timer_.async_wait([this](error_code error) {
      if (error || !playing_ || stopping_ || to_move_ != seat_ || legal_.empty()) return;
      in_flight_ = true;
      sent_ = Clock::now();
      connection_.send(R"({"type":"move","id":"m","room":")" + room_ + R"(","expected_version":)" +
                       std::to_string(version_) + R"(,"tokens":")" + legal_.front() + "\"}");
    });
  }

  Connection connection_;
  net::steady_timer timer_;
  Figures*& figures_;  // the phase's
  Clock::duration think_;
  bool jitter_;
  std::mt19937 rng_;
  std::string id_, token_;
  std::string room_;
  int seat_ = -1;
  std::int64_t version_ = 0;
  int to_move_ = -1;
  std::vector<std::string> legal_;
  bool playing_ = false;
  bool in_flight_ = false;
  bool first_room_ = false;
  bool rematch_ = false;
  bool stopping_ = false;
  Player* partner_ = nullptr;
  WallClock::time_point starts_at_{};
  Clock::time_point ended_at_{}, sent_{};
};

// One push of the standings as the watchers had it: the k-th `tournament` message after each
// watcher's own first copy is the k-th push (the pushes are seconds apart).
struct Push {
  Clock::time_point first{}, last{};
  int received = 0;
  std::size_t bytes = 0;
  int other_sizes = 0;  // watchers whose k-th push had another size: should not happen; printed
};

class Watcher {
 public:
  Watcher(net::io_context& io, unsigned short port, int number, std::vector<Push>& pushes, int& ready,
          std::size_t& copy_bytes)
      : connection_(io, port), pushes_(pushes), ready_(ready), copy_bytes_(copy_bytes) {
    connection_.start([this](std::string_view text) { on_message(text); });
    connection_.send(R"({"type":"hello","id":"h","name":"Watcher )" + std::to_string(number) + "\"}");
  }
  void watch(const std::string& tournament) {
    connection_.send(R"({"type":"watch_tournament","id":"w","tournament":")" + tournament + "\"}");
  }
  bool welcomed() const { return welcomed_; }
  void close() { connection_.close(); }

 private:
  void on_message(std::string_view text) {
    if (starts_with(text, R"({"type":"welcome")")) welcomed_ = true;
    if (starts_with(text, R"({"type":"error")")) throw std::runtime_error("a watcher was refused: " + std::string(text.substr(0, 300)));
    if (!starts_with(text, R"({"type":"tournament")")) return;
    if (!had_copy_) {  // the answer to watch_tournament
      had_copy_ = true;
      copy_bytes_ = std::max(copy_bytes_, text.size());
      ++ready_;
      return;
    }
    const auto now = Clock::now();
    if (pushes_.size() <= seen_) pushes_.resize(seen_ + 1);
    Push& push = pushes_[seen_++];
    if (push.received++ == 0) {
      push.first = now;
      push.bytes = text.size();
    } else if (push.bytes != text.size()) {
      ++push.other_sizes;
    }
    push.last = now;
  }

  Connection connection_;
  std::vector<Push>& pushes_;
  int& ready_;
  std::size_t& copy_bytes_;
  bool welcomed_ = false;
  bool had_copy_ = false;
  std::size_t seen_ = 0;
};

// Runs `io` until `done()`; after `limit`, throws what `progress()` says.
void run_until(net::io_context& io, const std::function<bool()>& done, Clock::duration limit,
               const std::function<std::string()>& progress) {
  const auto deadline = Clock::now() + limit;
  while (!done()) {
    if (Clock::now() > deadline) throw std::runtime_error(progress());
    io.run_for(std::chrono::milliseconds(5));
  }
}

// Runs `io` for `duration`.
void run_for(net::io_context& io, Clock::duration duration) {
  const auto end = Clock::now() + duration;
  while (Clock::now() < end) io.run_for(std::min<Clock::duration>(end - Clock::now(), std::chrono::milliseconds(20)));
}

// Runs `work` on a thread of its own while `io` runs here (so that blocking HTTP does not delay
// the time stamps of what the connections receive), until it is done.
template <class Work>
void beside_io(net::io_context& io, Work&& work) {
  std::atomic<bool> done{false};
  std::exception_ptr failure;
  std::thread thread([&] {
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    done = true;
  });
  while (!done) io.run_for(std::chrono::milliseconds(5));
  thread.join();
  if (failure) std::rethrow_exception(failure);
}

int count_playing(const std::vector<std::unique_ptr<Player>>& players) {
  return static_cast<int>(std::count_if(players.begin(), players.end(), [](const auto& p) { return p->playing(); }));
}

int count_in_flight(const std::vector<std::unique_ptr<Player>>& players) {
  return static_cast<int>(std::count_if(players.begin(), players.end(), [](const auto& p) { return p->in_flight(); }));
}

void print_errors(const char* phase, const Figures& figures) {
  if (figures.errors > 0) std::printf("    %s: %d error(s) from the server, the first: %s\n", phase, figures.errors, figures.first_error.c_str());
}

}  // namespace

int run_arena(const Options& given) {
  Options options = given;
  options.server_flags = {"--test-tournament-minute-ms", std::to_string(kMinuteMs)};
  const int count = options.arena;
  const int watchers_count = count;
  const auto think = std::chrono::milliseconds(options.arena_think_ms);
  const rlim_t descriptors = raise_descriptor_limit();
  std::printf("arena: %d players of Cups (clock %s, a move %s%d ms after the turn comes), %d watchers, an arena of %d "
              "minutes of %d ms, %d server threads; open files allowed: %llu; load average %.1f\n",
              count, kClock, options.arena_think_jitter ? "0.5 to 1.5 x " : "", options.arena_think_ms, watchers_count, kArenaMinutes, kMinuteMs, options.server_threads,
              static_cast<unsigned long long>(descriptors), load_average());
  std::fflush(stdout);
  const auto dir = scratch_dir();
  {
    const ScratchDatabase database(options, dir);
    ServerProcess server(options, database.url());
    const unsigned short port = server.port();
    net::io_context io;

    // The organiser and the arena, starting after the joins and the pushes before the start.
    const HttpReply account =
        expect_status(http_call(port, http::verb::post, "/api/accounts",
                                R"({"name":"Organiser","password":"tulip garden 42"})", {}),
                      201, "signing up the organiser");
    const auto lead = std::chrono::seconds(16) + std::chrono::milliseconds(25) * count;
    const WallClock::time_point starts_at =
        std::chrono::time_point_cast<std::chrono::milliseconds>(WallClock::now() + lead);
    const Json created = Json::parse(
        expect_status(http_call(port, http::verb::post, "/api/tournaments",
                                std::string(R"({"name":"Loadgen arena","game":"cups","kind":"arena","options":)") +
                                    kCupsOptions + R"(,"clock":)" + kClock + R"(,"starts_at":")" +
                                    server::format_utc(starts_at) + R"(","minutes":)" + std::to_string(kArenaMinutes) + "}",
                                {{"Cookie", account.cookie}, {"X-Forwarded-For", "10.47.0.1"}}),
                      201, "creating the arena")
            .body);
    const std::string tournament = created.value("id", "");

    // The players: hello, then each joins over HTTP with its token.
    Figures arena_figures, outside_figures;
    Figures* phase = &arena_figures;
    std::vector<std::unique_ptr<Player>> players;
    const auto setup_started = Clock::now();
    for (int i = 0; i < count; ++i) {
      players.push_back(std::make_unique<Player>(io, port, i + 1, phase, think, options.arena_think_jitter));
      if (i % 100 == 99) io.poll();
    }
    run_until(io, [&] { return std::all_of(players.begin(), players.end(), [](const auto& p) { return p->welcomed(); }); },
              std::chrono::minutes(2), [] { return "not every player was welcomed"; });
    for (auto& player : players) player->arena_mode(starts_at);
    std::vector<std::string> tokens;
    for (const auto& player : players) tokens.push_back(player->token());
    const std::string players_path = "/api/tournaments/" + tournament + "/players";
    beside_io(io, [&] {
      for (int i = 0; i < count; ++i)
        expect_status(http_call(port, http::verb::post, players_path, "",
                                {{"Authorization", "Bearer " + tokens[static_cast<std::size_t>(i)]},
                                 {"X-Forwarded-For", client_for(i)}}),
                      200, "player " + std::to_string(i + 1) + " joining");
    });
    const double joined_s = millis(Clock::now() - setup_started) / 1000;

    // The watchers, and the pushes before the start: player 1 withdraws and joins again.
    std::vector<Push> pushes;
    int watching = 0;
    std::size_t copy_bytes = 0;
    std::vector<std::unique_ptr<Watcher>> watchers;
    for (int i = 0; i < watchers_count; ++i) {
      watchers.push_back(std::make_unique<Watcher>(io, port, i + 1, pushes, watching, copy_bytes));
      if (i % 100 == 99) io.poll();
    }
    run_until(io, [&] { return std::all_of(watchers.begin(), watchers.end(), [](const auto& w) { return w->welcomed(); }); },
              std::chrono::minutes(2), [] { return "not every watcher was welcomed"; });
    for (int i = 0; i < watchers_count; ++i) {
      watchers[static_cast<std::size_t>(i)]->watch(tournament);
      if (i % 100 == 99) io.poll();
    }
    run_until(io, [&] { return watching == watchers_count; }, std::chrono::minutes(2),
              [&] { return std::to_string(watching) + " of " + std::to_string(watchers_count) + " watchers had the standings"; });
    std::printf("    %d players joined in %.1f s, %d watchers had their first copy (%zu bytes) after %.1f s; "
                "%.1f s left before the start (load average %.1f)\n",
                count, joined_s, watchers_count, copy_bytes, millis(Clock::now() - setup_started) / 1000,
                std::chrono::duration<double>(starts_at - WallClock::now()).count(), load_average());
    std::fflush(stdout);
    std::vector<Clock::time_point> changed_at;
    const double push_cpu_before = server.cpu_seconds();
    beside_io(io, [&] {
      auto due = Clock::now() + std::chrono::milliseconds(200);
      for (int k = 0; k < kPushChanges; ++k, due += kChangeEvery) {
        // Each change needs its push delivered before the start (a push at the start would join it).
        if (WallClock::now() + kChangeEvery + std::chrono::seconds(1) > starts_at) break;
        std::this_thread::sleep_until(due);
        changed_at.push_back(Clock::now());
        expect_status(http_call(port, k % 2 == 0 ? http::verb::delete_ : http::verb::post, players_path, "",
                                {{"Authorization", "Bearer " + tokens[0]}, {"X-Forwarded-For", "10.47.0.2"}}),
                      200, "player 1 withdrawing or joining again");
      }
    });
    const std::size_t changes = changed_at.size();
    run_until(io, [&] { return pushes.size() >= changes && (changes == 0 || pushes[changes - 1].received == watchers_count); },
              std::chrono::seconds(30), [&] { return "the pushes before the start did not reach every watcher"; });
    const double push_cpu = server.cpu_seconds() - push_cpu_before;
    if (changes % 2 == 1)  // player 1 is out: join again
      expect_status(http_call(port, http::verb::post, players_path, "",
                              {{"Authorization", "Bearer " + tokens[0]}, {"X-Forwarded-For", "10.47.0.2"}}),
                    200, "player 1 joining again");
    std::vector<double> push_ms, spread_ms;
    std::size_t push_bytes = 0;
    int other_sizes = 0;
    for (std::size_t k = 0; k < changes; ++k) {
      push_ms.push_back(millis(pushes[k].last - changed_at[k]));
      spread_ms.push_back(millis(pushes[k].last - pushes[k].first));
      push_bytes = std::max(push_bytes, pushes[k].bytes);
      other_sizes += pushes[k].other_sizes;
    }
    const Percentiles push = percentiles(push_ms), spread = percentiles(spread_ms);
    const double delivered = static_cast<double>(changes) * watchers_count;
    std::printf("    %zu changes before the start, 2 s apart, each pushed to %d watchers (%zu pushes heard): from the "
                "change's request to the last watcher p50 %.1f ms p99 %.1f ms; first to last watcher p50 %.1f ms; "
                "server CPU %.2f s%s\n",
                changes, watchers_count, pushes.size(), push.p50, push.p99, spread.p50, push_cpu,
                other_sizes ? (", " + std::to_string(other_sizes) + " pushes of another size than the first watcher's").c_str() : "");
    for (auto& watcher : watchers) watcher->close();  // the arena's moves are compared without them

    // The arena: from the start to the end, and the games still played after it.
    const double arena_cpu_before = server.cpu_seconds();
    run_until(io, [&] { return WallClock::now() >= starts_at; }, std::chrono::minutes(10), [] { return ""; });
    const auto arena_started = Clock::now();
    const auto arena_ends = arena_started + std::chrono::milliseconds(kMinuteMs) * kArenaMinutes;
    arena_figures.until = arena_ends;  // after the end only the games still played go on
    // The standings in the middle of it (the GET body is the pushed message without "type").
    HttpReply midway;
    run_for(io, (arena_ends - arena_started) / 2);
    beside_io(io, [&] { midway = http_call(port, http::verb::get, "/api/tournaments/" + tournament, "", {}); });
    const int playing_midway = count_playing(players);
    run_until(io, [&] { return Clock::now() >= arena_ends + std::chrono::seconds(1) && count_playing(players) == 0; },
              std::chrono::minutes(3), [&] { return std::to_string(count_playing(players)) + " players still in a game long after the arena's end"; });
    const double arena_s = millis(Clock::now() - arena_started) / 1000;
    const double arena_cpu = server.cpu_seconds() - arena_cpu_before;
    run_for(io, std::chrono::milliseconds(500));
    const Json final_view = Json::parse(http_call(port, http::verb::get, "/api/tournaments/" + tournament, "", {}).body, nullptr, false);
    const Percentiles pairing = percentiles(arena_figures.pairing_ms), start = percentiles(arena_figures.start_ms),
                      arena_moves = percentiles(arena_figures.move_ms);
    std::printf("    the arena: %.1f s to its last game's end, %d games started (per player), %d players in a game "
                "midway, %zu moves before its end and %zu after (server CPU %.1f us a move, tournament included), status %s; the standings midway "
                "%zu bytes; load average %.1f\n",
                arena_s, arena_figures.games_started, playing_midway, arena_moves.count, arena_figures.moves_after,
                1e6 * arena_cpu / std::max<double>(1, static_cast<double>(arena_moves.count + arena_figures.moves_after)),
                final_view.is_object() ? final_view.value("status", "?").c_str() : "?", midway.body.size(), load_average());
    std::printf("    pairing after a game: %zu re-pairings, p50 %.1f ms p99 %.1f ms max %.1f ms; start wave: %zu first "
                "rooms, p50 %.1f ms p99 %.1f ms max %.1f ms after starts_at; move p50 %.1f ms p99 %.1f ms max %.1f ms\n",
                pairing.count, pairing.p50, pairing.p99, pairing.max, start.count, start.p50, start.p99, start.max,
                arena_moves.p50, arena_moves.p99, arena_moves.max);
    print_errors("the arena", arena_figures);
    std::fflush(stdout);

    // The same games outside a tournament: player 2i creates a room, 2i+1 joins; a rematch after each.
    phase = &outside_figures;
    const double outside_cpu_before = server.cpu_seconds();
    for (int i = 0; i + 1 < count; i += 2) {
      players[static_cast<std::size_t>(i + 1)]->outside_mode(nullptr);
      players[static_cast<std::size_t>(i)]->outside_mode(players[static_cast<std::size_t>(i + 1)].get());
    }
    const auto outside_started = Clock::now();
    run_for(io, kOutside);
    for (auto& player : players) player->stop();
    run_until(io, [&] { return count_in_flight(players) == 0; }, std::chrono::minutes(1), [] { return "moves still unanswered"; });
    const double outside_s = millis(Clock::now() - outside_started) / 1000;
    const double outside_cpu = server.cpu_seconds() - outside_cpu_before;
    const Percentiles outside_moves = percentiles(outside_figures.move_ms);
    std::printf("    outside a tournament: %.1f s, %d games started (per player), %zu moves (server CPU %.1f us a move), "
                "move p50 %.1f ms p99 %.1f ms max %.1f ms; load average %.1f\n",
                outside_s, outside_figures.games_started, outside_moves.count,
                1e6 * outside_cpu / std::max<double>(1, static_cast<double>(outside_moves.count)), outside_moves.p50,
                outside_moves.p99, outside_moves.max, load_average());
    print_errors("outside", outside_figures);

    std::printf("arena: %d players, pairing p50 %.1f ms p99 %.1f ms (goal 20 ms), start wave p99 %.1f ms\n", count,
                pairing.p50, pairing.p99, start.p99);
    std::printf("arena: move p99 %.1f ms in the arena, %.1f ms outside (ratio %.2f, goal 1.2)\n", arena_moves.p99,
                outside_moves.p99, arena_moves.p99 / std::max(1e-9, outside_moves.p99));
    std::printf("arena: standings %zu bytes, push to %d watchers p99 %.1f ms, %.2f us per delivered message\n",
                push_bytes, watchers_count, push.p99, 1e6 * push_cpu / std::max(1.0, delivered));
    std::fflush(stdout);
    server.stop();
    for (auto& player : players) player->close();
  }
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace mancala::bench
