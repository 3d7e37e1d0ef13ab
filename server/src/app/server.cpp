#include "server.hpp"

#include "password.hpp"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include "analysis_jobs.hpp"
#include "bot_pool.hpp"
#include "cluster_membership.hpp"
#include "cluster_router.hpp"
#include "hub.hpp"
#include "identity.hpp"
#include "listener.hpp"
#include "log.hpp"
#include "metrics.hpp"
#include "pg_connection.hpp"
#include "sqlite_vfs.hpp"
#include "storage.hpp"
#include "thread_name.hpp"
#include "tournament_service.hpp"
#include "web_push.hpp"
#include "work_queue.hpp"

namespace mancala::server {
namespace {

constexpr auto kCloseGrace = std::chrono::seconds(2);
constexpr std::size_t kBotQueueCapacity = 4096;
// Records and games being read or replayed for the analysis API at once; beyond --replay-queue
// waiting, the request is answered 503 (issue 46). One import of a 64 KiB record is about 1 s.
constexpr int kRecordReplayThreads = 1;
// Analyses' positions (one queued per running analysis) and what-ifs waiting for a worker.
constexpr std::size_t kAnalysisWorkQueue = 64;

// The orderly stop: no new connections, everything queued committed and announced, then every
// socket closed with 1001 (waiting briefly for the close handshakes) and the threads released.
void stop_gracefully(net::io_context& io, Listener& listener, Hub& hub, Metrics& metrics) {
  log_info("stopping");
  listener.stop();
  hub.close_all(CloseCode::going_away);
  wait_until(
      io, [&metrics] { return metrics.connections.load() <= 0; },
      std::chrono::steady_clock::now() + kCloseGrace, [&io] { io.stop(); });
}

}  // namespace

namespace {

struct Waiting {
  net::steady_timer timer;
  std::function<bool()> done;
  std::chrono::steady_clock::time_point deadline;
  std::function<void()> then;
};

// Only the pending timer handler owns the state, so it is freed once `then` has run. (A
// function that captured a shared_ptr to itself was never freed: a leak ASan reported.)
void poll(const std::shared_ptr<Waiting>& waiting) {
  if (waiting->done() || std::chrono::steady_clock::now() >= waiting->deadline) return waiting->then();
  waiting->timer.expires_after(std::chrono::milliseconds(20));
  waiting->timer.async_wait([waiting](const error_code&) { poll(waiting); });
}

}  // namespace

void wait_until(net::io_context& io, std::function<bool()> done,
                std::chrono::steady_clock::time_point deadline, std::function<void()> then) {
  poll(std::make_shared<Waiting>(Waiting{net::steady_timer(io), std::move(done), deadline, std::move(then)}));
}

// The operator's way to a forgotten password: a link with a one-time code (only its hash is
// stored) that the page at #/reset/<code> turns into a new password.
int print_password_reset(const Config& config) {
  Metrics metrics;
  const auto storage = Storage::open(config.db, metrics.commit_latency);
  const auto account = storage->accounts().find_account(config.reset_password_of);
  if (!account) {
    std::cerr << "no account is named '" << config.reset_password_of << "'\n";
    return 1;
  }
  const std::string code = new_secret();
  storage->accounts().add_password_reset(secret_hash(code), account->player_id,
                                         format_utc(std::chrono::system_clock::now() + std::chrono::hours(1)));
  storage->stop();
  const std::string site = config.public_origin.empty() ? "http://localhost:" + std::to_string(config.port)
                                                        : config.public_origin;
  std::cout << "A new password for " << account->name << " can be set within an hour at:\n"
            << site << "/#/reset/" << code << "\n";
  log_info("password_reset_issued", {{"account", account->name}});
  return 0;
}

// The operator silences a player's chat everywhere (or lifts it); rooms read it before each line.
int set_silence(const Config& config) {
  Metrics metrics;
  const auto storage = Storage::open(config.db, metrics.commit_latency);
  const std::string& who = config.silence_who.empty() ? config.unsilence_who : config.silence_who;
  const auto player = storage->accounts().profile(who);
  if (!player) {
    std::cerr << "no account is named '" << who << "' and no player has that id\n";
    return 1;
  }
  const std::string until = config.silence_who.empty()
                                ? ""
                                : format_utc(std::chrono::system_clock::now() + config.silence_for);
  storage->chat().silence(player->player_id, until);
  storage->stop();
  std::cout << (until.empty() ? player->name + " may chat again\n" : player->name + " is silenced until " + until + "\n");
  log_info(until.empty() ? "unsilenced" : "silenced", {{"player", player->player_id}, {"until", until}});
  return 0;
}

// A new VAPID key for --vapid-key; its public half is printed (the operator may check it
// against what /api/push/key serves).
int generate_vapid_key(const Config& config) {
  const EcKey key = EcKey::generate();
  key.write_pem_file(config.generate_vapid_key);
  std::cout << "wrote a VAPID key to " << config.generate_vapid_key << "; its public key is "
            << base64url(key.public_point()) << "\n";
  return 0;
}

// One --test-push-resolve answer, NAME=ADDRESS:PORT or NAME=silent, as the name and the endpoint
// it stands for (none: the name server never answers).
std::pair<std::string, std::optional<tcp::endpoint>> parse_test_answer(const std::string& answer) {
  const auto equals = answer.find('=');
  const auto colon = answer.rfind(':');
  const auto bad = [&] {
    return UsageError("--test-push-resolve needs NAME=ADDRESS:PORT or NAME=silent, got '" + answer + "'");
  };
  if (equals != std::string::npos && equals > 0 && answer.substr(equals + 1) == "silent")
    return {answer.substr(0, equals), std::nullopt};
  if (equals == std::string::npos || colon == std::string::npos || colon < equals) throw bad();
  const std::string port = answer.substr(colon + 1);
  const bool digits = std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); });
  if (port.empty() || port.size() > 5 || !digits) throw bad();
  error_code error;
  const auto address = net::ip::make_address(answer.substr(equals + 1, colon - equals - 1), error);
  const int number = std::stoi(port);
  if (error || number > 65535) throw bad();
  return {answer.substr(0, equals), tcp::endpoint(address, static_cast<unsigned short>(number))};
}

// The push sender's look-ups with --test-push-resolve's answers in place of DNS for their names
// (a test's way to a name that resolves to loopback, or to a name server that never answers:
// its look-up sleeps for a day); the system's resolver for the others.
PushResolver push_resolver(const std::vector<std::string>& test_answers) {
  if (test_answers.empty()) return resolve_with_system;
  std::map<std::string, std::optional<tcp::endpoint>> answers;
  for (const std::string& answer : test_answers) answers.insert(parse_test_answer(answer));
  return [answers](const std::string& host, const std::string& port) {
    const auto found = answers.find(host);
    if (found == answers.end()) return resolve_with_system(host, port);
    if (!found->second) {
      std::this_thread::sleep_for(std::chrono::hours(24));
      throw PushDeliveryError("the silent name server answered after all");
    }
    return std::vector<tcp::endpoint>{*found->second};
  };
}

// Web Push when the operator gave a key (read before anything starts, so a bad key stops the
// start at once); nothing otherwise.
std::unique_ptr<WebPush> start_web_push(const Config& config, std::optional<EcKey> vapid_key, Storage& storage) {
  if (!vapid_key) return nullptr;
  WebPushSettings settings;
  settings.subject = config.vapid_subject;
  settings.endpoints.allow_loopback_http = config.test_push_http_loopback;
  settings.resolver = push_resolver(config.test_push_resolve);
  auto push = std::make_unique<WebPush>(std::move(*vapid_key), settings, storage.push_subscriptions());
  log_info("web_push_on", {{"public_key", push->public_key()}});
  return push;
}

namespace {

// The --tournament-schedule file's tournaments (none without the flag); a file that cannot be
// read or followed stops the start-up with a message naming the entry.
std::vector<ScheduledTournament> read_schedule(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  if (!file) throw std::runtime_error("cannot read the tournament schedule '" + path + "'");
  return parse_schedule(text.str());
}

}  // namespace

int run_server(const Config& config) {
  set_log_level(config.log_level);
  if (!config.backup_to.empty()) {
    Storage::backup(config.db, config.backup_to);
    log_info("backup_written", {{"from", config.db}, {"to", config.backup_to}});
    return 0;
  }

  if (!config.generate_vapid_key.empty()) return generate_vapid_key(config);
  if (!config.reset_password_of.empty()) return print_password_reset(config);
  if (!config.silence_who.empty() || !config.unsilence_who.empty()) return set_silence(config);

  auto schedule = read_schedule(config.tournament_schedule);
  std::optional<EcKey> vapid_key;
  if (!config.vapid_key.empty()) vapid_key = EcKey::from_pem_file(config.vapid_key);
  Metrics metrics;
  // PostgreSQL may be shared by several processes: each owns its rooms through the registry.
  // The membership comes first, so that the registry's tables exist before the first write.
  std::unique_ptr<ClusterMembership> membership;
  if (is_postgres_url(config.db))
    membership = std::make_unique<ClusterMembership>(config.db, std::chrono::milliseconds(config.lease_ms));
  const auto opened = Storage::open(config.db, metrics.commit_latency, membership ? membership->process_id() : "");
  Storage& storage = *opened;
  PlayerDirectory players;
  players.load(storage.load_players());
  players.load_ratings(storage.accounts().all_ratings());

  net::io_context io(config.threads);
  // Computer players think here, never on the I/O threads. Each room queues at most one search.
  BotPool bot_pool(config.bot_threads, kBotQueueCapacity, metrics,
                   config.bot_threads_idle ? BotPriority::idle : BotPriority::normal,
                   config.bot_budget_adaptive);
  Hub hub(io, storage, players, metrics, bot_pool);
  metrics.room_counts = [&hub] { return hub.room_counts(); };
  metrics.sqlite_writes = [] {
    const VfsCounts counts = vfs_counts();
    return SqliteWrites{counts.wal_writes, counts.writebacks};
  };
  hub.set_clock_speed(config.clock_speed);
  const std::unique_ptr<WebPush> push = start_web_push(config, std::move(vapid_key), storage);
  hub.set_push_notices(push.get());
  // Rooms owned by other processes and their lobby entries, over LISTEN/NOTIFY.
  std::unique_ptr<ClusterRouter> router;
  if (membership) {
    router = std::make_unique<ClusterRouter>(config.db, membership->process_id(), std::chrono::milliseconds(config.lease_ms),
                                             hub, players, metrics);
    hub.set_other_processes(router.get());
    hub.share_database_with_other_processes();
    hub.restore_rooms([&membership](const std::string& room_id) { return membership->claim(room_id); });
    router->start();
    // The cluster's one seek pool (quick pairing): ours when nobody live holds it; a process
    // that takes it from a dead holder is sent the others' seeks again.
    if (membership->claim_seek_pool()) hub.seek_pool_held(true);
  } else {
    hub.restore_rooms();
  }
  // Arenas run on this process when it is the only one (no take-over between processes yet).
  Tournaments tournaments(io, storage, hub, [] { return std::chrono::system_clock::now(); },
                          std::chrono::milliseconds(config.test_tournament_minute_ms));
  tournaments.delay_writes(std::chrono::milliseconds(config.test_tournament_write_delay_ms));
  tournaments.follow(std::move(schedule));
  tournaments.set_push_notices(push.get());
  if (!membership) tournaments.start();
  storage.delay_reads(std::chrono::milliseconds(config.test_read_delay_ms));  // after the start's reads
  if (router) router->delay_lookups(std::chrono::milliseconds(config.test_read_delay_ms));
  storage.limit_pages_from(config.test_page_limit_file);
  hub.note_alive_every(std::chrono::seconds(10));  // a crash charges running clocks up to the last note
  hub.expire_waiting_rooms_after(std::chrono::seconds(config.waiting_room_ttl_seconds));
  hub.close_ended_sessions_every(std::chrono::minutes(1));

  // Analyses have workers of their own, as idle as the bots'; those a restart interrupted go on
  // from where they were. Records are replayed on workers of their own too: no reader waits.
  WorkQueue analysis_workers(config.analysis_threads, kAnalysisWorkQueue, "analysis",
                             {.on_thread_start = config.bot_threads_idle ? run_at_idle_priority : std::function<void()>()});
  AnalysisLimits analysis_limits;
  analysis_limits.max_running = static_cast<std::size_t>(config.analysis_queue);
  const auto analyses =
      AnalysisJobs::create(io, analysis_workers, storage, config.analysis_playouts, analysis_limits);
  analyses->resume_unfinished();
  WorkQueue record_replays(kRecordReplayThreads, static_cast<std::size_t>(config.replay_queue), "replay");

  // Password hashes on workers of their own, so that log-ins at speed cannot hold the readers.
  WorkQueue password_work(config.password_threads, static_cast<std::size_t>(config.password_queue), "password");
  RequestLimits request_limits;
  const HttpContext context{hub,          storage,          players,           metrics,
                            config.static_root, config.allowed_origins, config.rate_limit,
                            config.public_origin, config.bind,     config.max_connections, request_limits,
                            config.trusted_proxies,
                            push ? push->public_key() : "",
                            {config.test_push_http_loopback},
                            analyses.get(),
                            &password_work,
                            &record_replays,
                            config.public_metrics,
                            &tournaments};
  const auto listener = std::make_shared<Listener>(
      io, tcp::endpoint(net::ip::make_address(config.bind), config.port), context);
  listener->run();
  const auto endpoint = listener->local_endpoint();
  std::cout << "listening on " << endpoint.address().to_string() << ":" << endpoint.port() << std::endl;
  log_info("listening", {{"address", endpoint.address().to_string()},
                         {"port", endpoint.port()},
                         {"threads", config.threads},
                         {"db", without_password(config.db)}});

  net::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const error_code& error, int) {
    if (!error) stop_gracefully(io, *listener, hub, metrics);
  });
  if (membership)  // after the handler above: a replaced process stops gracefully
    membership->start(endpoint.address().to_string() + ":" + std::to_string(endpoint.port()),
                      {[&hub](const std::vector<std::string>& rooms) { return hub.take_over_rooms(rooms); },
                       [&hub] { return hub.room_ids(); },
                       [&hub](const std::vector<std::string>& rooms) { hub.give_up_rooms(rooms); },
                       [] { std::raise(SIGTERM); },
                       [&hub](bool held) { hub.seek_pool_held(held); }});

  std::vector<std::thread> threads;
  for (int i = 1; i < config.threads; ++i) threads.emplace_back([&io, i] {
    name_this_thread("net-" + std::to_string(i));
    io.run();
  });
  io.run();
  for (auto& thread : threads) thread.join();
  password_work.stop();  // hashes still queued have nobody to answer; before `context` goes
  record_replays.stop();  // the same for replays
  analyses->stop();  // positions being searched are still stored; the rest resume at the next start
  analysis_workers.stop();
  tournaments.stop();  // no new pairing; what is stored stays
  bot_pool.stop();  // searches still running finish (each is time-bounded); their results go nowhere
  hub.readers().stop();  // reads still queued have nobody to answer
  if (push) push->stop();  // notices still queued are dropped; those being sent end by their timeout
  hub.note_alive();  // a graceful stop charges running clocks up to this moment
  storage.stop();  // commits anything still queued
  // Only now, with every queued move committed: leave the registry, so the others take our rooms
  // at their next renewal instead of after the lease.
  if (membership) membership->stop();
  hub.set_other_processes(nullptr);
  router.reset();
  metrics.room_counts = nullptr;
  log_info("stopped");
  return 0;
}

}  // namespace mancala::server
