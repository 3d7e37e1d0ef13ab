#include "pg_bus.hpp"

#include <libpq-fe.h>
#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <memory>
#include <stdexcept>

#include "log.hpp"
#include "pg_connection.hpp"

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

}  // namespace

PgBus::PgBus(const std::string& url, const std::vector<std::string>& channels, Handler handler)
    : handler_(std::move(handler)) {
  for (const auto& channel : channels)
    if (!is_channel_name(channel)) throw std::invalid_argument("bad channel name '" + channel + "'");
  if (::pipe(wake_listener_) != 0) throw std::runtime_error("pipe failed");
  listener_ = std::thread([this, url, channels] { listen_loop(url, channels); });
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
  sender_ = std::thread([this, url] { send_loop(url); });
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
  if (payload.size() > kMaxPayload)
    throw std::length_error("a bus message holds at most " + std::to_string(kMaxPayload) + " bytes");
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
      for (std::size_t i = 0; i < batch.size(); ++i)
        sql += "SELECT pg_notify(" + literal(db, batch[i].first) + "," +
               literal(db, std::to_string(first + i) + ":" + batch[i].second) + ");";
      sql += "COMMIT";
      try {
        db.reconnect_if_broken();
        db.execute(sql);
      } catch (const std::exception& e) {
        // The bus carries what crosses processes now; a lost batch is reported, not retried
        // (a retry could deliver it late, after newer messages).
        log_error("bus_send_failed", {{"message", e.what()}, {"messages", batch.size()}});
      }
    }
  } catch (const std::exception& e) {
    log_error("bus_sender_stopped", {{"message", e.what()}});
  }
}

void PgBus::listen_loop(const std::string& url, const std::vector<std::string>& channels) {
  std::unique_ptr<PgConnection> db;
  try {
    db = std::make_unique<PgConnection>(url);
    for (const auto& channel : channels) db->execute("LISTEN " + channel);  // checked names
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
      log_error("bus_listener_stopped", {{"message", PQerrorMessage(db->handle())}});
      return;
    }
    while (PGnotify* notice = PQnotifies(db->handle())) {
      std::string payload = notice->extra;
      const std::string channel = notice->relname;
      PQfreemem(notice);
      const auto colon = payload.find(':');
      try {
        handler_(channel, colon == std::string::npos ? payload : payload.substr(colon + 1));
      } catch (const std::exception& e) {
        log_error("bus_handler_failed", {{"message", e.what()}});
      }
    }
  }
}

}  // namespace mancala::server
