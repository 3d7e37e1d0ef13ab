#include "lobby.hpp"

#include <algorithm>

namespace mancala::server {

Lobby::Lobby(net::io_context& io) : strand_(net::make_strand(io)), timer_(strand_) {}

bool Lobby::list(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  bool changed = false;
  bool watched = false;
  {
    const std::lock_guard lock(mutex_);
    const auto it = listed_.find(room_id);
    if (!summary) {
      changed = it != listed_.end();
      if (changed) listed_.erase(it);
    } else if (it == listed_.end()) {
      listed_.emplace(room_id, std::pair(next_order_++, std::move(*summary)));
      changed = true;
    } else {
      changed = protocol::to_json(it->second.second) != protocol::to_json(*summary);
      it->second.second = std::move(*summary);
    }
    watched = !watchers_.empty();
  }
  if (changed && watched) schedule_broadcast();
  return changed;
}

std::vector<protocol::RoomSummary> Lobby::entries() const {
  std::vector<std::pair<std::uint64_t, protocol::RoomSummary>> ordered;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : listed_) ordered.push_back(entry);
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<protocol::RoomSummary> out;
  for (auto& [order, summary] : ordered) out.push_back(std::move(summary));
  return out;
}

std::vector<std::pair<std::string, protocol::RoomSummary>> Lobby::entries_where(
    const std::function<bool(const std::string& room_id)>& keep) const {
  std::vector<std::pair<std::string, protocol::RoomSummary>> out;
  const std::lock_guard lock(mutex_);
  for (const auto& [id, entry] : listed_)
    if (keep(id)) out.emplace_back(id, entry.second);
  return out;
}

void Lobby::watch(const std::shared_ptr<Connection>& connection) {
  const std::lock_guard lock(mutex_);
  watchers_[connection.get()] = connection;
}

void Lobby::unwatch(const Connection* connection) {
  const std::lock_guard lock(mutex_);
  watchers_.erase(connection);
}

void Lobby::schedule_broadcast() {
  net::post(strand_, [this] {
    if (scheduled_) return;
    scheduled_ = true;
    timer_.expires_after(kDelay);
    timer_.async_wait([this](const error_code& error) {
      scheduled_ = false;
      if (!error) broadcast();
    });
  });
}

void Lobby::broadcast() {
  std::string text = protocol::write_rooms({}, entries());
  if (text == last_text_) return;
  last_text_ = text;
  const auto shared = std::make_shared<const std::string>(std::move(text));
  std::vector<std::shared_ptr<Connection>> watchers;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : watchers_)
      if (auto watcher = weak.lock()) watchers.push_back(std::move(watcher));
  }
  for (const auto& watcher : watchers) watcher->send(shared);
}

}  // namespace mancala::server
