#pragma once
// What rooms and the hub know of a client connection: somewhere to send frames, and who is
// asking. Keeps rooms free of Beast, so their logic reads as game logic.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clock.hpp"
#include "identity.hpp"
#include "metrics.hpp"
#include "storage_trouble.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::server {

class Room;
using SharedText = std::shared_ptr<const std::string>;

// How long a client is asked to wait before trying again while the database cannot be reached.
inline constexpr int kRetryAfterMs = 1000;

enum class CloseCode : std::uint16_t { going_away = 1001, policy_violation = 1008 };

class Connection {
 public:
  virtual ~Connection() = default;
  // Queues one frame. Thread-safe; frames leave in the order they were queued.
  virtual void send(SharedText text) = 0;
  void send(std::string text) { send(std::make_shared<const std::string>(std::move(text))); }
  // Closes with `code` once the frames already queued are written.
  virtual void close(CloseCode code) = 0;
  // The stored hash of the account session (cookie) the connection was opened with; empty for
  // a guest. Ending that session closes the connection.
  virtual const std::string& session_hash() const {
    static const std::string none;
    return none;
  }

  // The SHA-256 (hex) of the guest token the connection said hello with; empty for an account or
  // before hello. A guest who takes an account ends his token, and with it these connections.
  std::string guest_token_hash() const {
    const std::lock_guard lock(rooms_mutex_);
    return guest_token_hash_;
  }
  void set_guest_token_hash(std::string hash) {
    const std::lock_guard lock(rooms_mutex_);
    guest_token_hash_ = std::move(hash);
  }

  // The rooms this connection is a member of, so that they hear when it closes. Thread-safe.
  // False once the connection has closed: a room must not keep it as a member then.
  bool joined(const std::shared_ptr<Room>& room) {
    const std::lock_guard lock(rooms_mutex_);
    if (closed_) return false;
    rooms_.push_back(room);
    return true;
  }
  void left(const Room* room) {
    const std::lock_guard lock(rooms_mutex_);
    std::erase_if(rooms_, [room](const std::weak_ptr<Room>& r) {
      const auto locked = r.lock();
      return !locked || locked.get() == room;
    });
  }
  // Marks the connection closed and returns the rooms that must hear of it. After this,
  // `joined` refuses, so no room can add the connection behind the hub's back.
  std::vector<std::shared_ptr<Room>> close_and_take_rooms() {
    const std::lock_guard lock(rooms_mutex_);
    closed_ = true;
    std::vector<std::shared_ptr<Room>> out;
    for (const auto& room : rooms_)
      if (auto locked = room.lock()) out.push_back(std::move(locked));
    rooms_.clear();
    return out;
  }

 private:
  mutable std::mutex rooms_mutex_;
  bool closed_ = false;
  std::string guest_token_hash_;
  std::vector<std::weak_ptr<Room>> rooms_;
};

// One request on its way through the hub and a room: who sent it on which connection, its id
// for the reply, and when it arrived (for the latency histogram).
struct Caller {
  std::shared_ptr<Connection> connection;
  PlayerRef player;
  protocol::RequestId id;
  SteadyTime received;
  Metrics* metrics = nullptr;

  void reply(std::string text) const { connection->send(std::move(text)); }
  void ok() const { reply(protocol::write_ok(id)); }
  void fail(protocol::Code code, std::string message, Json details = Json::object()) const {
    if (metrics) metrics->count_error(code);
    reply(protocol::write_error(id, {code, std::move(message), std::move(details)}));
  }
  void fail(protocol::Error error) const { fail(error.code, std::move(error.message), std::move(error.details)); }
  // A write or read of `what` failed: `unavailable`, with a time to retry, while the database
  // cannot be reached or its disk is full (nothing is lost; the client asks again), `internal`
  // for anything else.
  void fail_storing(const std::string& what, StorageTrouble trouble) const {
    const Json retry{{"retry_after_ms", kRetryAfterMs}};
    switch (trouble) {
      case StorageTrouble::unreachable:
        return fail(protocol::Code::unavailable, what + ": the database cannot be reached right now; try again shortly", retry);
      case StorageTrouble::disk_full:
        return fail(protocol::Code::unavailable, what + ": the server's disk is full; try again later", retry);
      case StorageTrouble::none: break;
    }
    fail(protocol::Code::internal, what + "; try again");
  }
};

}  // namespace mancala::server
