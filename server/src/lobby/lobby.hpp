#pragma once
// The lobby: the entries of every public room (this process's and, with several processes, the
// others'), in the order they were first listed, and the connections watching it. Watchers hear
// changes coalesced: everything that changed within kDelay goes out as one `rooms` message, and
// nothing goes out when the list reads as it did last time.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "net.hpp"

namespace mancala::server {

class Lobby {
 public:
  static constexpr auto kDelay = std::chrono::milliseconds(50);

  explicit Lobby(net::io_context& io);

  // Puts the entry in the lobby (nullopt: takes it out). True when the entry changed; the
  // watchers then hear of it, kDelay later at most.
  bool list(const std::string& room_id, std::optional<protocol::RoomSummary> summary);
  // Every entry, oldest first.
  std::vector<protocol::RoomSummary> entries() const;
  // The entries whose room `keep` accepts, with their rooms' ids.
  std::vector<std::pair<std::string, protocol::RoomSummary>> entries_where(
      const std::function<bool(const std::string& room_id)>& keep) const;

  void watch(const std::shared_ptr<Connection>& connection);
  void unwatch(const Connection* connection);

 private:
  void schedule_broadcast();
  void broadcast();

  mutable std::mutex mutex_;
  std::map<std::string, std::pair<std::uint64_t, protocol::RoomSummary>> listed_;  // id -> (order, entry)
  std::uint64_t next_order_ = 0;
  std::unordered_map<const Connection*, std::weak_ptr<Connection>> watchers_;

  Strand strand_;
  net::steady_timer timer_;         // on strand_
  bool scheduled_ = false;          // on strand_
  std::string last_text_;           // on strand_
};

}  // namespace mancala::server
