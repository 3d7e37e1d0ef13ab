#include "config.hpp"

#include <arpa/inet.h>
#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <string_view>
#include <thread>
#include <vector>

namespace mancala::server {

namespace {

// An IPv4 or IPv6 address: a proxy is known by the address its connections come from, which a
// host name might stop being after a restart (in compose, nginx has a fixed address).
std::string checked_address(const std::string& flag, const std::string& text) {
  unsigned char bytes[16];
  if (inet_pton(AF_INET, text.c_str(), bytes) == 1 || inet_pton(AF_INET6, text.c_str(), bytes) == 1) return text;
  throw UsageError(flag + " needs an IP address such as 127.0.0.1 or ::1, not '" + text + "'");
}

long parse_integer(const std::string& flag, const std::string& text, long min, long max) {
  long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw UsageError(flag + " needs an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got '" + text + "'");
  return value;
}

// A flag's value as the parser hands it to the flag's setter.
struct FlagValue {
  std::string flag;
  std::string text;
  long integer(long min, long max) const { return parse_integer(flag, text, min, max); }
  // `text` when it is one of `choices`; else a UsageError that lists them.
  const std::string& one_of(std::initializer_list<std::string_view> choices) const {
    std::string listed;
    for (const auto choice : choices) {
      if (text == choice) return text;
      listed += (listed.empty() ? "" : ", ") + std::string(choice);
    }
    throw UsageError(flag + " needs one of " + listed + "; got '" + text + "'");
  }
};

// "30m", "24h", "7d": a number and a unit (s, m, h or d), up to a year.
std::chrono::seconds parse_duration(const std::string& text) {
  const char unit = text.empty() ? '?' : text.back();
  const long per = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : unit == 'd' ? 86400 : 0;
  if (per == 0) throw UsageError("--for needs a number and a unit (s, m, h or d), such as 24h; got '" + text + "'");
  return std::chrono::seconds(parse_integer("--for", text.substr(0, text.size() - 1), 1, 365 * 86400 / per) * per);
}

// "https://Mancala.example:8443/play/" -> "https://mancala.example:8443", the form browsers
// send as Origin.
std::string origin_of_url(const std::string& url) {
  std::string lower = url;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const auto scheme_end = lower.find("://");
  const std::string scheme = scheme_end == std::string::npos ? "" : lower.substr(0, scheme_end);
  const std::string authority =
      scheme_end == std::string::npos ? "" : lower.substr(scheme_end + 3, lower.find_first_of("/?#", scheme_end + 3) - scheme_end - 3);
  if ((scheme != "http" && scheme != "https") || authority.empty() || authority.find('@') != std::string::npos)
    throw UsageError("--public-url needs an http:// or https:// URL such as https://mancala.example, got '" + url + "'");
  return scheme + "://" + authority;
}

// Each WebSocket holds a descriptor; the rest of the limit is kept for SQLite (its files, WAL
// and readers), plain HTTP connections and the process itself.
std::int64_t default_max_connections() {
  constexpr std::int64_t kKeptForTheRest = 100;
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 10000;
  return std::max<std::int64_t>(16, static_cast<std::int64_t>(limit.rlim_cur) - kKeptForTheRest);
}

// The cores this process may run on: under `taskset` or a container's `--cpuset-cpus` fewer
// than the machine has, and a network thread per core it may not use only waits for a turn.
int cores_available() {
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof cores, &cores) == 0) return std::max(1, CPU_COUNT(&cores));
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}


// Every flag, declared once: its name, the value it takes ("" for a switch), its --help text
// (wrapped by usage()) and what it sets. The parser, --help and the README's flag table (a test
// compares them) all come from here.
struct Flag {
  std::string_view name;
  std::string_view value;
  std::string_view help;
  void (*set)(Config&, const FlagValue&);
};

const std::vector<Flag>& flags() {
  static const std::vector<Flag> all = {
      {"--port", "N", "TCP port, 0 = any free port (default 8080); prints \"listening on ADDR:PORT\"",
       [](Config& c, const FlagValue& v) { c.port = static_cast<unsigned short>(v.integer(0, 65535)); }},
      {"--bind", "ADDR", "address to listen on (default 127.0.0.1)",
       [](Config& c, const FlagValue& v) { c.bind = v.text; }},
      {"--db", "FILE|URL",
       "SQLite database, created and migrated at start (default mancala.db); :memory: for a throwaway "
       "database; or postgresql://user@host/db for PostgreSQL, which several server processes may share",
       [](Config& c, const FlagValue& v) { c.db = v.text; }},
      {"--static", "DIR", "folder of the web client (default web-client)",
       [](Config& c, const FlagValue& v) { c.static_root = v.text; }},
      {"--allow-origin", "O", "an extra allowed Origin for WebSocket upgrades (repeatable)",
       [](Config& c, const FlagValue& v) { c.allowed_origins.push_back(v.text); }},
      {"--trusted-proxy", "A",
       "a proxy's IP address (repeatable; not a host name: the TCP peer's address is compared with it): "
       "requests from it are counted against the rightmost address in X-Forwarded-For that is not a "
       "trusted proxy, and its X-Forwarded-Proto: https makes session cookies Secure",
       [](Config& c, const FlagValue& v) { c.trusted_proxies.push_back(checked_address(v.flag, v.text)); }},
      {"--threads", "N", "I/O threads (default: the cores this process may run on)",
       [](Config& c, const FlagValue& v) { c.threads = static_cast<int>(v.integer(1, 256)); }},
      {"--bot-threads", "N",
       "worker threads for computer players' searches (default 1); 0 pauses them (their searches wait "
       "in the queue), for tests and maintenance",
       [](Config& c, const FlagValue& v) { c.bot_threads = static_cast<int>(v.integer(0, 64)); }},
      {"--password-threads", "N",
       "workers for password hashes (log-in, sign-up, password change and reset; Argon2id, 64 MiB and "
       "about 0.1 s each; default 2, 1-16)",
       [](Config& c, const FlagValue& v) { c.password_threads = static_cast<int>(v.integer(1, 16)); }},
      {"--password-queue", "N",
       "hashes that may wait for a worker (default 32, 1-10000); beyond it a log-in is refused with 503 "
       "and Retry-After",
       [](Config& c, const FlagValue& v) { c.password_queue = static_cast<int>(v.integer(1, 10000)); }},
      {"--bot-priority", "P",
       "idle (default): bot workers run under SCHED_IDLE, only on a core that nothing else wants; "
       "normal: like every other thread (for comparisons)",
       [](Config& c, const FlagValue& v) { c.bot_threads_idle = v.one_of({"idle", "normal"}) == "idle"; }},
      {"--bot-budget", "B",
       "adaptive (default): while more than 4 searches per worker wait, each gets a smaller share of "
       "its level's budget (down to 1/16); full: always all of it",
       [](Config& c, const FlagValue& v) { c.bot_budget_adaptive = v.one_of({"adaptive", "full"}) == "adaptive"; }},
      {"--analysis-playouts", "N",
       "search budget of each analysed position (default: the engine's, 20,000 simulations with two "
       "seats, 5,000 with more); what-if searches take at most 3,000. Smaller for tests and slow machines",
       [](Config& c, const FlagValue& v) { c.analysis_playouts = v.integer(1, 10'000'000); }},
      {"--analysis-threads", "N",
       "worker threads for analyses and what-ifs, under SCHED_IDLE like the bots' (default 1); 0 pauses "
       "them (analyses stay queued), for tests",
       [](Config& c, const FlagValue& v) { c.analysis_threads = static_cast<int>(v.integer(0, 64)); }},
      {"--analysis-queue", "N",
       "analyses queued or running at once (default 8); more are refused 503 until one ends. Each "
       "player and each address may have 2 of them",
       [](Config& c, const FlagValue& v) { c.analysis_queue = static_cast<int>(v.integer(1, 10'000)); }},
      {"--replay-queue", "N",
       "imports, pages of positions, what-ifs and analysis starts that may wait for the one "
       "record-replay worker (default 16, 1-10000); beyond it they are refused with 503 and Retry-After",
       [](Config& c, const FlagValue& v) { c.replay_queue = static_cast<int>(v.integer(1, 10'000)); }},
      {"--public-metrics", "",
       "/metrics answers every client; without it only loopback peers (a scraper on the machine) get "
       "it, everyone else 404",
       [](Config& c, const FlagValue&) { c.public_metrics = true; }},
      {"--log-level", "L", "debug, info, warn or error (default info); JSON lines on stderr",
       [](Config& c, const FlagValue& v) { c.log_level = parse_log_level(v.one_of({"debug", "info", "warn", "error"})); }},
      {"--rate-limit", "N",
       "messages a second per WebSocket (default 20, bursts of 2N); raise it only for load tests and bots",
       [](Config& c, const FlagValue& v) { c.rate_limit = static_cast<int>(v.integer(1, 1000000)); }},
      {"--health", "",
       "ask the server these same flags start (its --port and --bind; loopback for 0.0.0.0) for "
       "/healthz, print one line and exit 0 when it is healthy, 1 when not: a container's health check",
       [](Config& c, const FlagValue&) { c.health = true; }},
      {"--backup", "FILE", "write a consistent copy of the database to FILE, then exit",
       [](Config& c, const FlagValue& v) { c.backup_to = v.text; }},
      {"--reset-password", "NAME",
       "print a one-time link (valid for an hour) with which the account NAME sets a new password, then "
       "exit (there is no e-mail)",
       [](Config& c, const FlagValue& v) { c.reset_password_of = v.text; }},
      {"--silence", "WHO", "with --for D: refuse the chat of WHO (an account name or a player id) for D, then exit",
       [](Config& c, const FlagValue& v) { c.silence_who = v.text; }},
      {"--for", "D", "how long --silence lasts: a number and a unit, 30m, 24h, 7d (up to a year)",
       [](Config& c, const FlagValue& v) { c.silence_for = parse_duration(v.text); }},
      {"--unsilence", "WHO", "lift the silence of WHO, then exit",
       [](Config& c, const FlagValue& v) { c.unsilence_who = v.text; }},
      {"--vapid-key", "FILE",
       "Web Push on: the VAPID private key (PEM, P-256) that signs the server's pushes; without it there "
       "is no push and no button for it",
       [](Config& c, const FlagValue& v) { c.vapid_key = v.text; }},
      {"--vapid-subject", "S",
       "with --vapid-key: how a push service reaches the operator, mailto:… or https://…",
       [](Config& c, const FlagValue& v) { c.vapid_subject = v.text; }},
      {"--generate-vapid-key", "FILE",
       "write a new VAPID key to FILE (readable by its owner only), print its public key, then exit",
       [](Config& c, const FlagValue& v) { c.generate_vapid_key = v.text; }},
      {"--public-url", "URL",
       "the address people open, e.g. https://mancala.example; then only its origin (and --allow-origin) "
       "may open a WebSocket, whatever Host says. Without it only a loopback or --bind Host vouches for "
       "its own origin",
       // Empty: not set, so that a blank setting can be passed on (compose's ${VAR:-}).
       [](Config& c, const FlagValue& v) { c.public_origin = v.text.empty() ? "" : origin_of_url(v.text); }},
      {"--max-connections", "N",
       "open WebSockets at most; more upgrades get HTTP 503 (default: the file descriptor limit minus "
       "100 kept for the database and HTTP, at least 16)",
       [](Config& c, const FlagValue& v) { c.max_connections = v.integer(1, 1000000); }},
      {"--waiting-room-ttl", "S",
       "seconds a room may wait for its players before it is removed (default 86400, a day)",
       [](Config& c, const FlagValue& v) { c.waiting_room_ttl_seconds = static_cast<int>(v.integer(1, 365 * 24 * 60 * 60)); }},
      {"--lease-ms", "N",
       "with PostgreSQL: this process owns its rooms through a lease of N ms (200-600000, default 5000), "
       "renewed every N/3 ms; when it dies, another process takes its rooms once the lease ran out",
       [](Config& c, const FlagValue& v) { c.lease_ms = static_cast<int>(v.integer(200, 600000)); }},
      {"--tournament-schedule", "FILE",
       "recurring tournaments, kept registered ahead: a JSON array of tournaments as POST "
       "/api/tournaments takes them, each with \"first\" (its first start, UTC) and \"every\" "
       "(once, hour, day, week or month) instead of starts_at; docker/tournaments.json is an example",
       [](Config& c, const FlagValue& v) { c.tournament_schedule = v.text; }},
      {"--clock-speed", "K",
       "for tests only: game clocks, grace times and the once-a-minute check of open sockets' sessions "
       "run K times faster (1-1000, default 1), so a test sees a timeout without waiting for it",
       [](Config& c, const FlagValue& v) { c.clock_speed = static_cast<double>(v.integer(1, 1000)); }},
      {"--test-tournament-minute-ms", "N",
       "for tests only: an arena's minute lasts N ms (10-60000, default 60000), so that a test plays a whole arena in seconds",
       [](Config& c, const FlagValue& v) { c.test_tournament_minute_ms = static_cast<int>(v.integer(10, 60000)); }},
      {"--test-tournament-write-delay-ms", "N",
       "for tests only: each tournament write after a game, a start or a pairing waits N ms (0-10000, "
       "default 0), so that a test can kill the server between a game's end and its points",
       [](Config& c, const FlagValue& v) { c.test_tournament_write_delay_ms = static_cast<int>(v.integer(0, 10000)); }},
      {"--test-read-delay-ms", "N",
       "for tests only: every database read after the start waits N ms (0-10000, default 0), to show "
       "that no network thread waits for one",
       [](Config& c, const FlagValue& v) { c.test_read_delay_ms = static_cast<int>(v.integer(0, 10000)); }},
      {"--test-push-http-loopback", "",
       "for tests only: push endpoints on http://127.0.0.1 are accepted too (a test's stand-in push "
       "service); real ones are https only",
       [](Config& c, const FlagValue&) { c.test_push_http_loopback = true; }},
      {"--test-push-resolve", "NAME=ADDRESS:PORT",
       "for tests only (repeatable): the push sender looks NAME up as ADDRESS and connects to PORT "
       "instead of asking DNS; the address is still checked to be public, as every looked-up one is. "
       "NAME=silent: the look-up of NAME never answers",
       [](Config& c, const FlagValue& v) { c.test_push_resolve.push_back(v.text); }},
      {"--test-page-limit-file", "F",
       "for tests only (SQLite): the database may grow to the number of pages written in F, read again "
       "before every move is stored",
       [](Config& c, const FlagValue& v) { c.test_page_limit_file = v.text; }},
      {"--help", "", "this text", [](Config& c, const FlagValue&) { c.help = true; }},
  };
  return all;
}

const Flag* find_flag(std::string_view name) {
  if (name == "-h") name = "--help";
  for (const Flag& flag : flags())
    if (flag.name == name) return &flag;
  return nullptr;
}

}  // namespace

std::string usage() {
  constexpr std::size_t kHelpColumn = 22;
  constexpr std::size_t kWidth = 96;
  std::string out = "usage: mancala-server [options]\n";
  for (const Flag& flag : flags()) {
    std::string line = "  " + std::string(flag.name) + (flag.value.empty() ? "" : " " + std::string(flag.value));
    line += line.size() + 2 <= kHelpColumn ? std::string(kHelpColumn - line.size(), ' ') : "  ";
    std::size_t column = line.size();
    for (std::size_t at = 0; at < flag.help.size();) {
      const std::size_t space = flag.help.find(' ', at);
      const std::string_view word = flag.help.substr(at, space == std::string_view::npos ? std::string_view::npos : space - at);
      if (column + 1 + word.size() > kWidth && column > kHelpColumn) {
        line += "\n" + std::string(kHelpColumn, ' ');
        column = kHelpColumn;
      } else if (column > kHelpColumn && line.back() != ' ') {
        line += ' ';
        ++column;
      }
      line += word;
      column += word.size();
      at = space == std::string_view::npos ? flag.help.size() : space + 1;
    }
    out += line + "\n";
  }
  return out;
}

Config parse_command_line(int argc, const char* const* argv) {
  Config config;
  config.threads = cores_available();
  for (int i = 1; i < argc; ++i) {
    const std::string name = argv[i];
    const Flag* flag = find_flag(name);
    if (!flag) throw UsageError("unknown argument '" + name + "' (see --help)");
    if (!flag->value.empty() && i + 1 >= argc) throw UsageError(name + " needs a value");
    const FlagValue value{std::string(flag->name), flag->value.empty() ? std::string() : argv[++i]};
    flag->set(config, value);
  }
  if (config.db.empty()) throw UsageError("--db needs a file name or :memory:");
  if (!config.silence_who.empty() && config.silence_for.count() == 0)
    throw UsageError("--silence needs --for, such as --for 24h");
  if (config.max_connections == 0) config.max_connections = default_max_connections();
  const bool contact = config.vapid_subject.rfind("mailto:", 0) == 0 || config.vapid_subject.rfind("https://", 0) == 0;
  if (!config.vapid_key.empty() && !contact)
    throw UsageError("--vapid-key needs --vapid-subject mailto:you@example.org (or an https:// page): "
                     "push services contact the operator there");
  return config;
}

}  // namespace mancala::server
