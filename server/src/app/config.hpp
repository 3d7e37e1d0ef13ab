#pragma once
// The command line of mancala-server (see cli.md and server/README.md).
#include <cstdint>
#include <stdexcept>
#include <chrono>
#include <string>
#include <vector>

#include "log.hpp"

namespace mancala::server {

struct Config {
  unsigned short port = 8080;
  std::string bind = "127.0.0.1";
  std::string db = "mancala.db";
  std::string static_root = "web-client";
  std::string tournament_schedule;  // a JSON file of recurring tournaments; empty: none
  std::vector<std::string> allowed_origins;
  std::vector<std::string> trusted_proxies;  // their X-Forwarded-For names the client
  int threads = 1;
  int bot_threads = 1;  // worker threads for computer players' searches
  int password_threads = 2;  // --password-threads: workers for Argon2id hashes (64 MiB each)
  int password_queue = 32;   // --password-queue: hashes waiting at most; more get 503
  bool bot_threads_idle = true;  // --bot-priority idle (SCHED_IDLE) or normal
  bool bot_budget_adaptive = true;  // --bot-budget adaptive (less while many wait) or full
  std::int64_t analysis_playouts = 0;  // --analysis-playouts; 0: the engine's default budget
  int analysis_threads = 1;  // --analysis-threads: workers for analyses and what-ifs (0 pauses them)
  int analysis_queue = 8;    // --analysis-queue: analyses queued or running at once
  int replay_queue = 16;     // --replay-queue: record reads and replays waiting at most; more get 503
  bool public_metrics = false;  // --public-metrics: /metrics for every peer, not only loopback
  int rate_limit = 20;  // messages a second per connection (bursts of twice as many)
  LogLevel log_level = LogLevel::info;
  bool health = false;     // --health: ask the running server's /healthz and exit
  std::string backup_to;  // --backup FILE: copy the database and exit
  std::string reset_password_of;  // --reset-password NAME: print a reset link and exit
  std::string silence_who;        // --silence WHO --for D: refuse WHO's chat for D, then exit
  std::string unsilence_who;      // --unsilence WHO
  std::chrono::seconds silence_for{0};
  std::string generate_vapid_key;  // --generate-vapid-key FILE: write a new VAPID key and exit
  std::string vapid_key;           // --vapid-key FILE: Web Push on, signed with this key
  std::string vapid_subject;       // --vapid-subject: mailto: or https: contact for push services
  bool test_push_http_loopback = false;  // tests only: push endpoints on http://127.0.0.1 too
  std::vector<std::string> test_push_resolve;  // tests only: NAME=ADDRESS:PORT, the push sender's DNS
  std::string public_origin;     // --public-url reduced to its origin ("https://host[:port]"), or empty
  std::int64_t max_connections = 0;  // open WebSockets; 0 until parsed: then from the fd limit
  int waiting_room_ttl_seconds = 24 * 60 * 60;  // a room without its players is removed after this
  // PostgreSQL only (several processes on one database): how long this process's lease on its
  // rooms lasts without renewal; it renews every third of that. A dead process's rooms move
  // to a survivor after it ran out.
  int lease_ms = 5000;
  double clock_speed = 1;  // --clock-speed K, tests only: game clocks and grace times run K times faster
  int test_tournament_minute_ms = 60000;  // tests only: how long an arena's minute lasts
  int test_tournament_write_delay_ms = 0;  // tests only: each tournament write after a game waits this long
  int test_read_delay_ms = 0;  // tests only: every read after the start waits this long
  std::string test_page_limit_file;  // tests only: see Storage::limit_pages_from
  bool help = false;
};

// Bad usage: the message says what is wrong and what would be right.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Config parse_command_line(int argc, const char* const* argv);
// --help: every flag with what it does, from the same declarations the parser reads.
std::string usage();

}  // namespace mancala::server
