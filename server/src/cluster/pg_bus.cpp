#include "pg_bus.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <memory>
#include <stdexcept>

#include "log.hpp"
#include "pg_connection.hpp"
#include "thread_name.hpp"

namespace mancala::server {
namespace {

bool is_channel_name(const std::string& name) {
  if (name.empty() || name.size() > 63) return false;
  for (const char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// A literal for SQL text, quoted by libpq for this connection's encoding.
std::string literal(PgConnection& db, const std::string& text) {
  char* quoted = PQescapeLiteral(db.handle(), text.data(), text.size());
  if (!quoted) db.fail("escaping a notification");
  std::string out(quoted);
  PQfreemem(quoted);
  return out;
}

// Messages over kMaxPayload wait here for their receiver. Created at the first start on a
// database, under an advisory lock so that processes starting together create it once.
constexpr const char* kSpillTable = R"sql(
  BEGIN;
  SELECT pg_advisory_xact_lock(190019);
  CREATE TABLE IF NOT EXISTS bus_spill (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    payload TEXT NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  COMMIT;
)sql";

// The SQL that sends one message: inline ("N:payload"), or through a bus_spill row ("N@row").
std::string notify_sql(PgConnection& db, const std::string& channel, std::uint64_t sequence,
                       const std::string& payload) {
  const std::string prefix = std::to_string(sequence);
  if (payload.size() <= PgBus::kMaxPayload)
    return "SELECT pg_notify(" + literal(db, channel) + "," + literal(db, prefix + ":" + payload) + ");";
  return "WITH spilled AS (INSERT INTO bus_spill (payload) VALUES (" + literal(db, payload) +
         ") RETURNING id) SELECT pg_notify(" + literal(db, channel) + "," + literal(db, prefix + "@") +
         " || id) FROM spilled;"
         "DELETE FROM bus_spill WHERE created < now() - INTERVAL '10 minutes';";
}

// A notification's message: after "N:" inline, or after "N@" in the bus_spill row it names.
std::string message_of(PgConnection& db, const std::string& notification) {
  const auto mark = notification.find_first_of(":@");
  if (mark == std::string::npos) return notification;
  if (notification[mark] == ':') return notification.substr(mark + 1);
  auto row = db.prepare("DELETE FROM bus_spill WHERE id = CAST(?1 AS BIGINT) RETURNING payload");
  row.bind(1, notification.substr(mark + 1));
  if (!row.step()) throw SqlError("bus message " + notification + " is not in bus_spill (read twice, or older than 10 minutes)");
  return row.text(0);
}

}  // namespace

PgBus::PgBus(const std::string& url, const std::vector<std::string>& channels, Handler handler)
    : handler_(std::move(handler)) {
  for (const auto& channel : channels)
    if (!is_channel_name(channel)) throw std::invalid_argument("bad channel name '" + channel + "'");
  if (::pipe(wake_listener_) != 0) throw std::runtime_error("pipe failed");
  listener_ = std::thread([this, url, channels] {
    name_this_thread("bus-listener");
    listen_loop(url, channels);
  });
  {
    // Until LISTEN has run, a message published to us would be lost: wait for it.
    std::unique_lock lock(mutex_);
    started_.wait(lock, [this] { return listening_ || !startup_error_.empty(); });
  }
  if (!startup_error_.empty()) {
    listener_.join();
    ::close(wake_listener_[0]);
    ::close(wake_listener_[1]);
    throw SqlError(startup_error_);
  }
  sender_ = std::thread([this, url] {
    name_this_thread("bus-sender");
    send_loop(url);
  });
}

PgBus::~PgBus() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_sender_.notify_one();
  sender_.join();
  [[maybe_unused]] const auto written = ::write(wake_listener_[1], "x", 1);
  listener_.join();
  ::close(wake_listener_[0]);
  ::close(wake_listener_[1]);
}

void PgBus::publish(std::string channel, std::string payload) {
  if (payload.size() > kMaxSpilledPayload)
    throw std::length_error("a bus message holds at most " + std::to_string(kMaxSpilledPayload) + " bytes");
  const std::lock_guard lock(mutex_);
  queue_.emplace_back(std::move(channel), std::move(payload));
  wake_sender_.notify_one();
}

void PgBus::send_loop(const std::string& url) {
  try {
    PgConnection db(url);
    while (true) {
      std::deque<std::pair<std::string, std::string>> batch;
      std::uint64_t first = 0;
      {
        std::unique_lock lock(mutex_);
        wake_sender_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        batch.swap(queue_);
        first = sequence_;
        sequence_ += batch.size();
      }
      // One transaction, one round trip. PostgreSQL folds identical (channel, payload) pairs
      // of one transaction into one, so each payload carries a sequence number first.
      std::string sql = "BEGIN;";
      for (std::size_t i = 0; i < batch.size(); ++i) sql += notify_sql(db, batch[i].first, first + i, batch[i].second);
      sql += "COMMIT";
      try {
        // A connection PostgreSQL closed while idle fails before running anything: sent again
        // once on a fresh one. Otherwise a lost batch is reported, not retried (a retry could
        // deliver it late, after newer messages).
        db.retrying([&](PgConnection& connection) { connection.execute(sql); });
      } catch (const std::exception& e) {
        log_error("bus_send_failed", {{"message", e.what()}, {"messages", batch.size()}});
      }
    }
  } catch (const std::exception& e) {
    log_error("bus_sender_stopped", {{"message", e.what()}});
  }
}

namespace {

std::unique_ptr<PgConnection> open_listening(const std::string& url, const std::vector<std::string>& channels) {
  auto db = std::make_unique<PgConnection>(url);
  db->execute(kSpillTable);
  for (const auto& channel : channels) db->execute("LISTEN " + channel);  // checked names
  return db;
}

}  // namespace

// After PostgreSQL closed the listening connection (a restart, a network cut): a new one every
// half second until it listens again, or null once the bus stops. What was sent meanwhile is
// lost (NOTIFY keeps nothing for absent listeners).
std::unique_ptr<PgConnection> PgBus::relisten(const std::string& url, const std::vector<std::string>& channels) {
  pollfd wake = {wake_listener_[0], POLLIN, 0};
  while (::poll(&wake, 1, 500) <= 0 || !wake.revents) {
    try {
      auto db = open_listening(url, channels);
      log_info("bus_listening_again");
      return db;
    } catch (const std::exception& e) {
      log_warn("bus_listen_failed", {{"message", e.what()}});
    }
  }
  return nullptr;
}

void PgBus::listen_loop(const std::string& url, const std::vector<std::string>& channels) {
  std::unique_ptr<PgConnection> db;
  try {
    db = open_listening(url, channels);
  } catch (const std::exception& e) {
    const std::lock_guard lock(mutex_);
    startup_error_ = e.what();
    started_.notify_all();
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    listening_ = true;
  }
  started_.notify_all();
  pollfd fds[2] = {{PQsocket(db->handle()), POLLIN, 0}, {wake_listener_[0], POLLIN, 0}};
  while (true) {
    if (::poll(fds, 2, -1) < 0) continue;  // EINTR
    if (fds[1].revents) return;
    if (!PQconsumeInput(db->handle())) {
      log_error("bus_listener_lost", {{"message", PQerrorMessage(db->handle())}});
      db = relisten(url, channels);
      if (!db) return;
      fds[0].fd = PQsocket(db->handle());
      continue;
    }
    while (PGnotify* notice = PQnotifies(db->handle())) {
      const std::string notification = notice->extra;
      const std::string channel = notice->relname;
      PQfreemem(notice);
      try {
        handler_(channel, message_of(*db, notification));
      } catch (const std::exception& e) {
        log_error("bus_handler_failed", {{"message", e.what()}});
      }
    }
  }
}

}  // namespace mancala::server
