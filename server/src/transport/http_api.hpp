#pragma once
// The JSON and text endpoints: /healthz, /metrics and the history API under /api/.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "failure_limiter.hpp"
#include "http_answers.hpp"
#include "net.hpp"
#include "push_http.hpp"

namespace mancala::server {

class Hub;
class Storage;
class PlayerDirectory;
class Metrics;
class AnalysisJobs;
class WorkQueue;
class Tournaments;

// How often an address, a name or a player may knock on each door of the HTTP API that costs
// something (every way in is rate-limited; the WebSocket has its own per-connection limit).
struct RequestLimits {
  // Failed log-ins (and current passwords given to change one), so that passwords cannot be
  // guessed at speed: per address and account name, per address, and per name alone only at a
  // much higher count, so that a guesser locks out himself, not the account's owner.
  FailureLimiter logins_by_address_and_name{10, std::chrono::minutes(10)};
  FailureLimiter logins_by_address{50, std::chrono::minutes(10)};
  FailureLimiter logins_by_name{200, std::chrono::minutes(10)};
  // Successful log-ins too, per address and per name: each one costs a hash and a session.
  FailureLimiter sessions_by_address{30, std::chrono::minutes(10)};
  FailureLimiter sessions_by_name{20, std::chrono::minutes(10)};
  // Sign-ups (failed or not) per address; and every request that hashes a password (log-in,
  // sign-up, password change or reset), counted per address before its hash.
  FailureLimiter signups_by_address{20, std::chrono::minutes(10)};
  FailureLimiter password_hashes_by_address{100, std::chrono::minutes(10)};
  // An account's language chosen (PUT /api/account/language), per address: a write each.
  FailureLimiter account_settings_by_address{60, std::chrono::minutes(10)};
  // Analyses, imported records and what-ifs (analysis_api.cpp): only what starts new work
  // counts, per address and per player.
  FailureLimiter analyses{20, std::chrono::minutes(10)};
  FailureLimiter record_parses{60, std::chrono::minutes(10)};
  FailureLimiter record_positions{600, std::chrono::minutes(10)};  // pages of an import's positions
  FailureLimiter record_analyses{10, std::chrono::minutes(10)};
  FailureLimiter whatifs{120, std::chrono::minutes(10)};
  FailureLimiter analysis_cancels{30, std::chrono::minutes(10)};
  // Web Push subscriptions and unsubscriptions (each counts) per address.
  FailureLimiter push_by_address{30, std::chrono::minutes(10)};
  // Mutes and unmutes (each counts) per address.
  FailureLimiter mutes_by_address{60, std::chrono::minutes(10)};
  // Invites looked up (POST /api/invites) per address.
  FailureLimiter invite_lookups{120, std::chrono::minutes(10)};
  // Tournaments created, joined and left (each counts) per address.
  FailureLimiter tournaments_by_address{60, std::chrono::minutes(10)};
};

// What the HTTP side of the server needs, shared by every HTTP session.
struct HttpContext {
  Hub& hub;
  Storage& storage;
  PlayerDirectory& players;
  Metrics& metrics;
  std::string static_root;
  std::vector<std::string> allowed_origins;
  int rate_limit;  // messages a second per WebSocket
  // The Origin check (see origin_allowed): --public-url's origin, or empty; and --bind.
  std::string public_origin;
  std::string bind_address;
  std::int64_t max_connections;  // open WebSockets beyond which upgrades get 503
  RequestLimits& limits;
  // Proxies whose X-Forwarded-For names the client (--trusted-proxy).
  std::vector<std::string> trusted_proxies = {};
  // Web Push: the VAPID public key (base64url; empty: push is off) and the endpoints accepted.
  std::string push_key = {};
  PushEndpointRules push_endpoints = {};
  // Game analyses and what-if searches on the analysis workers; none: the endpoints answer 503.
  AnalysisJobs* analyses = nullptr;
  // Password hashes (log-in, sign-up, password change and reset) run here, on workers of their
  // own with a bounded queue (full: 503), never on the reader threads; none: on the caller's.
  WorkQueue* password_work = nullptr;
  // The workers that read and replay records and games for the analysis API (imports, their
  // positions, what-ifs, the start of an analysis), so that no reader thread does: a bounded
  // queue, full answers 503. None: that work runs on the reader (unit tests).
  WorkQueue* record_replays = nullptr;
  // --public-metrics: /metrics answers everyone, not only loopback peers.
  bool public_metrics = false;
  // Tournaments (tournament_service.hpp); none: their endpoints answer 503.
  Tournaments* tournaments = nullptr;
  // Served over https: cookies get Secure and the __Host- prefix.
  bool secure_cookies() const { return public_origin.rfind("https://", 0) == 0; }
};

bool is_api_target(std::string_view path);
// Whether /metrics answers a request from TCP peer `peer`: anyone with --public-metrics, else a
// loopback peer (a scraper on the machine) whose request no proxy `forwarded` (X-Forwarded-For
// or Forwarded present): a proxy on the machine makes every client a loopback peer, and
// X-Forwarded-For is what a client says of itself.
bool metrics_visible(const std::string& peer, bool forwarded, bool public_metrics);
// The client's address: the TCP peer's, or, when the peer is a trusted proxy, the rightmost
// address in its X-Forwarded-For (every field line) that is not a trusted proxy itself; earlier
// ones the client may have made up. Text that is no IP address is never the answer.
std::string client_address(const HttpRequest& request, const std::string& peer, const std::vector<std::string>& trusted);
// Whether `peer` is one of the --trusted-proxy addresses (compared as addresses, not text).
bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted);
// `address`: the client's, for rate limits and log lines.
StringResponse handle_api(const HttpRequest& request, const HttpContext& context, const std::string& address);
// The same for every request, answered through `reply`: at once on this thread, or later from a
// bot worker for a what-if search, which a reader thread must not wait for.
void handle_api_async(const std::shared_ptr<const HttpRequest>& request, const HttpContext& context,
                      const std::string& address, const ApiReply& reply);

}  // namespace mancala::server
