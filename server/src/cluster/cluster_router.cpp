#include "cluster_router.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "bus_messages.hpp"
#include "cluster_registry.hpp"
#include "hub.hpp"
#include "log.hpp"
#include "pg_bus.hpp"

namespace mancala::server {
namespace {

const std::string kLobbyChannel = "mancala_lobby";

// A remote client's connection as the owner's rooms see it: frames go back to its process.
class ProxyConnection final : public Connection {
 public:
  ProxyConnection(std::weak_ptr<PgBus> bus, std::string channel, std::uint64_t number)
      : bus_(std::move(bus)), channel_(std::move(channel)), header_(bus::frame_header(number)) {}
  void send(SharedText text) override {
    if (const auto bus = bus_.lock()) bus->publish(channel_, header_ + *text);
  }
  // The client's WebSocket is its own process's: a stop here (its rooms move on) leaves it open.
  void close(CloseCode) override {}

 private:
  std::weak_ptr<PgBus> bus_;
  std::string channel_;
  std::string header_;
};

bus::Who who_of(const Player& player) {
  return player.account ? bus::Who{true, player.ratings->all()} : bus::Who{};
}

}  // namespace

std::string channel_of_process(const std::string& process_id) {
  std::string name;
  for (const char c : process_id)
    name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : '_';
  constexpr std::size_t kRoom = 63 - 8;  // identifiers hold 63 bytes; the end (pid, random) differs most
  if (name.size() > kRoom) name = name.substr(name.size() - kRoom);
  return "mancala_" + name;
}

template <class Lookup>
auto ClusterRouter::look_up(Lookup lookup) {
  if (const auto delay = lookup_delay_ms_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  const std::lock_guard lock(db_mutex_);
  return db_.retrying(lookup);
}

ClusterRouter::ClusterRouter(const std::string& url, std::string process_id, std::chrono::milliseconds lease,
                             Hub& hub, PlayerDirectory& players, Metrics& metrics)
    : process_id_(std::move(process_id)),
      channel_(channel_of_process(process_id_)),
      hub_(hub),
      players_(players),
      metrics_(metrics),
      db_(url),
      bus_(std::make_shared<PgBus>(url, std::vector<std::string>{channel_, kLobbyChannel},
                                   [this](const std::string& channel, const std::string& payload) {
                                     on_message(channel, payload);
                                   })),
      sweeper_([this, lease] { sweep_every(lease); }) {}

ClusterRouter::~ClusterRouter() {
  {
    const std::lock_guard lock(sweep_mutex_);
    stopping_ = true;
  }
  sweep_wake_.notify_all();
  sweeper_.join();
  bus_.reset();  // stops the listener before the maps it uses go
}

void ClusterRouter::sweep_every(std::chrono::milliseconds lease) {
  constexpr std::chrono::milliseconds kAnswerCheck{250};
  auto next_sweep = std::chrono::steady_clock::now() + lease;
  std::unique_lock lock(sweep_mutex_);
  while (!sweep_wake_.wait_for(lock, std::min(kAnswerCheck, lease), [this] { return stopping_; })) {
    lock.unlock();
    answer_overdue_requests();
    if (std::chrono::steady_clock::now() >= next_sweep) {
      next_sweep = std::chrono::steady_clock::now() + lease;
      try {
        forget_dead_processes();
      } catch (const std::exception& e) {  // PostgreSQL away for a moment: the next round tries again
        log_warn("cluster_sweep_failed", {{"message", e.what()}});
      }
    }
    lock.lock();
  }
}

void ClusterRouter::forget_dead_processes() {
  std::set<std::string> live;
  {
    look_up([&](PgConnection& db) {
      live.clear();
      auto rows = db.prepare("SELECT id FROM cluster_processes WHERE lease_until > now()");
      while (rows.step()) live.insert(rows.text(0));
    });
  }
  std::vector<std::shared_ptr<Connection>> orphans;  // proxies of clients of dead processes
  {
    const std::lock_guard lock(mutex_);
    std::erase_if(owners_, [&](const auto& entry) { return !live.contains(entry.second); });
    for (auto it = proxies_.begin(); it != proxies_.end();) {
      if (live.contains(it->first.first)) {
        ++it;
        continue;
      }
      orphans.push_back(std::move(it->second));
      it = proxies_.erase(it);
    }
  }
  for (const auto& proxy : orphans) hub_.disconnected(proxy);
  if (!orphans.empty()) log_info("remote_clients_dropped", {{"clients", orphans.size()}, {"why", "their process died"}});
}

void ClusterRouter::start() { publish(kLobbyChannel, bus::LobbyHello{process_id_}); }

void ClusterRouter::publish(const std::string& channel, const bus::Message& message) {
  try {
    bus_->publish(channel, bus::write(message));
  } catch (const std::exception& e) {
    log_error("bus_publish_failed", {{"channel", channel}, {"message", e.what()}});
  }
}

// ---- client side --------------------------------------------------------------------------

bool ClusterRouter::forward(const Caller& caller, const protocol::ClientMessage& message, const std::string& room) {
  const auto owner = owner_of(room);
  if (!owner || *owner == process_id_) return false;
  std::string text = protocol::write_client_message(caller.id, message);
  const std::uint64_t number = note_remote_room(caller.connection, caller.player, room, *owner);
  if (room == kSeekPoolRoom) {
    const std::lock_guard lock(mutex_);
    if (const auto it = remote_clients_.find(caller.connection.get()); it != remote_clients_.end())
      note_pool_message(it->second, message, text, caller.id);
  }
  await_answer(number, caller.id, room);
  publish(channel_of_process(*owner), bus::Request{process_id_, number, caller.player->id, std::move(text),
                                                   who_of(*caller.player)});
  return true;
}

bool ClusterRouter::owner_known(const std::string& room) {
  const std::lock_guard lock(mutex_);
  return owners_.contains(room);
}

std::uint64_t ClusterRouter::note_remote_room(const std::shared_ptr<Connection>& connection, const PlayerRef& player,
                                              const std::string& room, const std::string& owner) {
  const std::lock_guard lock(mutex_);
  auto [it, fresh] = remote_clients_.try_emplace(connection.get());
  RemoteClient& client = it->second;
  if (fresh) {
    client.number = next_number_++;
    client.player = player;
    by_number_[client.number] = connection;
  }
  client.rooms.insert(room);
  if (owner.empty()) return client.number;  // its owner died: the take-over will name the next
  client.owners.insert(owner);
  owners_[room] = owner;
  return client.number;
}

std::optional<std::string> ClusterRouter::owner_of(const std::string& room) {
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = owners_.find(room); it != owners_.end()) return it->second;
  }
  if (room == kSeekPoolRoom) {
    const auto holder = holder_of_seek_pool();
    if (holder) {  // remembered, ourselves too: a seek at the holder needs no read
      const std::lock_guard lock(mutex_);
      owners_[room] = *holder;
    }
    return holder;
  }
  const auto row = look_up([&](PgConnection& db) -> std::optional<std::array<std::string, 3>> {
    auto owner = db.prepare(
        "SELECT o.process_id, o.process_id IN (SELECT id FROM cluster_processes WHERE lease_until > now()), "
        "g.status FROM room_owners o JOIN games g ON g.id = o.game_id WHERE o.game_id = ?1");
    owner.bind(1, room);
    if (!owner.step()) return std::nullopt;
    return std::array<std::string, 3>{owner.text(0), owner.text(1), owner.text(2)};
  });
  if (!row) return std::nullopt;
  const auto& [process, live, status] = *row;
  if (live == "t") return process;
  if (status == "finished") return std::nullopt;  // nobody serves it any more
  throw std::runtime_error("the process that held room " + room + " stopped; another takes it over within a few seconds");
}

// None when no process ever held the pool (the seek is served here); throws while its holder is
// dead and not yet replaced (the client is told to seek again in a moment).
std::optional<std::string> ClusterRouter::holder_of_seek_pool() {
  const auto row = look_up([&](PgConnection& db) -> std::optional<std::pair<std::string, std::string>> {
    auto holder = db.prepare(
        "SELECT process_id, process_id IN (SELECT id FROM cluster_processes WHERE lease_until > now()) "
        "FROM cluster_singletons WHERE name = ?1");
    holder.bind(1, ClusterRegistry::kSeekPoolName);
    if (!holder.step()) return std::nullopt;
    return std::pair{holder.text(0), holder.text(1)};
  });
  if (!row) return std::nullopt;
  if (row->second == "t") return row->first;
  throw std::runtime_error("the process that held the seeks stopped; another takes them over within a few seconds");
}

std::string ClusterRouter::room_of_invite(const std::string& invite) {
  return look_up([&](PgConnection& db) {
    auto room = db.prepare("SELECT id FROM games WHERE invite = ?1 AND status <> 'finished'");
    room.bind(1, invite);
    return room.step() ? room.text(0) : std::string();
  });
}

void ClusterRouter::attach_remote_rooms(const std::shared_ptr<Connection>& connection, const PlayerRef& player) {
  std::vector<std::pair<std::string, std::string>> rooms;  // (room, owner; "" when its owner is dead)
  {
    look_up([&](PgConnection& db) {
      rooms.clear();
      auto seated = db.prepare(
          "SELECT s.game_id, CASE WHEN o.process_id IN (SELECT id FROM cluster_processes WHERE lease_until > now()) "
          "THEN o.process_id ELSE '' END FROM seats s JOIN games g ON g.id = s.game_id "
          "JOIN room_owners o ON o.game_id = s.game_id "
          "WHERE s.player_id = ?1 AND g.status <> 'finished' AND o.process_id <> ?2");
      seated.bind(1, player->id).bind(2, process_id_);
      while (seated.step()) rooms.emplace_back(seated.text(0), seated.text(1));
    });
  }
  for (const auto& [room, owner] : rooms) {
    // A room whose owner is dead is noted too: its take-over ("taken") sends the player there.
    const std::uint64_t number = note_remote_room(connection, player, room, owner);
    if (!owner.empty()) send_attach(owner, number, player, room);
  }
}

void ClusterRouter::send_attach(const std::string& owner, std::uint64_t number, const PlayerRef& player,
                                const std::string& room) {
  publish(channel_of_process(owner), bus::Attach{process_id_, number, player->id, room, who_of(*player)});
}

void ClusterRouter::connection_closed(const std::shared_ptr<Connection>& connection) {
  RemoteClient client;
  {
    const std::lock_guard lock(mutex_);
    const auto it = remote_clients_.find(connection.get());
    if (it == remote_clients_.end()) return;
    client = std::move(it->second);
    remote_clients_.erase(it);
    by_number_.erase(client.number);
    std::erase_if(awaited_, [&](const AwaitedAnswer& a) { return a.number == client.number; });
  }
  for (const auto& owner : client.owners)
    if (owner != process_id_) publish(channel_of_process(owner), bus::Gone{process_id_, client.number});
}

void ClusterRouter::await_answer(std::uint64_t number, const protocol::RequestId& id, const std::string& room) {
  if (std::holds_alternative<std::monostate>(id)) return;  // the client asked for no answer
  const std::lock_guard lock(mutex_);
  awaited_.push_back({number, id, room, std::chrono::steady_clock::now() + kOwnerAnswerDeadline});
}

// Parses the frame only while the client waits for an answer from another process.
void ClusterRouter::note_answer(std::uint64_t number, const std::string& text) {
  {
    const std::lock_guard lock(mutex_);
    if (std::none_of(awaited_.begin(), awaited_.end(), [&](const AwaitedAnswer& a) { return a.number == number; }))
      return;
  }
  const protocol::RequestId id = protocol::reply_id(text);
  if (std::holds_alternative<std::monostate>(id)) return;
  const std::lock_guard lock(mutex_);
  const auto it = std::find_if(awaited_.begin(), awaited_.end(),
                               [&](const AwaitedAnswer& a) { return a.number == number && a.id == id; });
  if (it != awaited_.end()) awaited_.erase(it);
}

void ClusterRouter::answer_overdue_requests() {
  std::vector<std::pair<std::shared_ptr<Connection>, protocol::RequestId>> overdue;
  {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const auto late = std::find_if(awaited_.begin(), awaited_.end(), [&](const AwaitedAnswer& a) { return a.deadline > now; });
    for (auto it = awaited_.begin(); it != late; ++it) {
      owners_.erase(it->room);  // look the owner up again: it may have been replaced
      if (const auto found = by_number_.find(it->number); found != by_number_.end())
        if (auto connection = found->second.lock()) overdue.emplace_back(std::move(connection), it->id);
    }
    awaited_.erase(awaited_.begin(), late);
  }
  for (const auto& [connection, id] : overdue) {
    metrics_.count_error(protocol::Code::unavailable);
    connection->send(protocol::write_error(
        id, {protocol::Code::unavailable,
             "the server that held this room did not answer (it may be being replaced, or the room just moved "
             "to another); nothing acknowledged is lost: ask again in a moment",
             {{"retry_after_ms", kRetryAfterMs}}}));
  }
  if (!overdue.empty()) log_warn("owner_did_not_answer", {{"requests", overdue.size()}});
}

// ---- owner side ---------------------------------------------------------------------------

void ClusterRouter::publish_summary(const std::string& room_id, const std::optional<protocol::RoomSummary>& summary) {
  publish(kLobbyChannel, bus::Summary{process_id_, room_id, summary});
}

void ClusterRouter::announce_taken(const std::vector<std::string>& room_ids) {
  if (room_ids.empty()) return;
  publish(kLobbyChannel, bus::Taken{process_id_, room_ids});
  stop_awaiting_old_owners_of(room_ids);  // ours now: asked again, they are served here
}

void ClusterRouter::announce_ended_sessions(const std::vector<std::string>& session_hashes) {
  if (!session_hashes.empty()) publish(kLobbyChannel, bus::SessionsEnded{process_id_, session_hashes});
}

void ClusterRouter::announce_players_changed(const std::vector<std::string>& player_ids) {
  if (!player_ids.empty()) publish(kLobbyChannel, bus::PlayersChanged{process_id_, player_ids});
}

void ClusterRouter::stop_awaiting_old_owners_of(const std::vector<std::string>& room_ids) {
  {
    const std::lock_guard lock(mutex_);
    for (const auto& room : room_ids) owners_.erase(room);
    // Still in the order of their deadlines: the rooms' requests are moved to the front.
    std::stable_partition(awaited_.begin(), awaited_.end(), [&](AwaitedAnswer& a) {
      const bool moved = std::find(room_ids.begin(), room_ids.end(), a.room) != room_ids.end();
      if (moved) a.deadline = std::chrono::steady_clock::time_point::min();
      return moved;
    });
  }
  answer_overdue_requests();
}

std::shared_ptr<Connection> ClusterRouter::proxy_for(const std::string& from, std::uint64_t number) {
  const std::lock_guard lock(mutex_);
  auto& proxy = proxies_[{from, number}];
  if (!proxy) proxy = std::make_shared<ProxyConnection>(bus_, channel_of_process(from), number);
  return proxy;
}

PlayerRef ClusterRouter::player_by_id(const std::string& player_id) {
  if (auto player = players_.find(player_id)) return player;
  // Made on another process after this one loaded its players.
  const auto stored = look_up([&](PgConnection& db) -> std::optional<StoredPlayer> {
    auto row = db.prepare("SELECT id, name, token_hash FROM players WHERE id = ?1");
    row.bind(1, player_id);
    if (!row.step()) return std::nullopt;
    return StoredPlayer{row.text(0), row.text(1), row.text(2)};
  });
  if (!stored) return nullptr;
  players_.load({*stored});
  return players_.find(player_id);
}

PlayerRef ClusterRouter::player_as(const std::string& player_id, const bus::Who& who) {
  auto player = player_by_id(player_id);
  if (!player || !who.account) return player;
  if (!player->account) player = players_.become_account(player->id, player->name);
  player->ratings->set(who.ratings);
  return player;
}

// ---- the bus ------------------------------------------------------------------------------

void ClusterRouter::on_message(const std::string&, const std::string& payload) {
  bus::Message message;
  try {
    message = bus::read(payload);
  } catch (const std::exception& e) {
    return log_warn("bus_message_unreadable", {{"start", payload.substr(0, 80)}, {"message", e.what()}});
  }
  if (const auto* frame = std::get_if<bus::Frame>(&message)) return on_frame(frame->number, frame->text);
  std::visit(
      [this](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (!std::is_same_v<T, bus::Frame>) {
          if (m.from == process_id_) return;  // our own lobby messages come back to us
          on(m);
        }
      },
      message);
}

void ClusterRouter::on(const bus::Request& m) { on_request(m.from, m.number, m.player_id, m.who, m.text); }
void ClusterRouter::on(const bus::Attach& m) { on_attach(m.from, m.number, m.player_id, m.who, m.room); }
void ClusterRouter::on(const bus::Gone& m) { on_gone(m.from, m.number); }
void ClusterRouter::on(const bus::Summary& m) { hub_.remote_summary(m.room, m.entry); }
void ClusterRouter::on(const bus::LobbyHello&) {
  for (const auto& [room, summary] : hub_.local_listings()) publish_summary(room, summary);
}
void ClusterRouter::on(const bus::Taken& m) { on_taken(m.from, m.rooms); }
void ClusterRouter::on(const bus::SessionsEnded& m) { hub_.close_sessions_here(m.session_hashes); }
void ClusterRouter::on(const bus::PlayersChanged& m) { hub_.reread_players_here(m.player_ids); }
void ClusterRouter::on(const bus::Seated& m) { hub_.end_seeks_of_seated(m.player_ids); }

void ClusterRouter::on(const bus::PoolTaken& m) {
  stop_awaiting_old_owners_of({kSeekPoolRoom});  // seeks sent to the dead holder: the client seeks again
  {
    const std::lock_guard lock(mutex_);
    owners_[kSeekPoolRoom] = m.from;
  }
  send_seeks_to(m.from);
}

void ClusterRouter::on(const bus::Reseek& m) {
  protocol::Parsed parsed = protocol::parse_client_message(m.text);
  auto* message = std::get_if<protocol::ClientMessage>(&parsed.body);
  auto* seek = message ? std::get_if<protocol::Seek>(message) : nullptr;
  const auto player = seek ? player_as(m.player_id, m.who) : nullptr;
  if (!player) return log_warn("seek_not_taken_over", {{"seek", m.seek_id}, {"from", m.from}});
  hub_.restore_seek(Caller{proxy_for(m.from, m.number), player, {}, std::chrono::steady_clock::now(), &metrics_},
                    std::move(*seek), m.seek_id);
}

// ---- quick pairing at another process -----------------------------------------------------

void ClusterRouter::seek_pool_held(bool held) {
  if (!held) {  // looked up again: the process that took it over serves the seeks now
    const std::lock_guard lock(mutex_);
    owners_.erase(kSeekPoolRoom);
    return;
  }
  {
    const std::lock_guard lock(mutex_);
    owners_[kSeekPoolRoom] = process_id_;
  }
  publish(kLobbyChannel, bus::PoolTaken{process_id_});
  send_seeks_to(process_id_);  // our own clients' seeks that waited at the dead holder
}

void ClusterRouter::announce_seated(const std::vector<std::string>& player_ids) {
  if (!player_ids.empty()) publish(kLobbyChannel, bus::Seated{process_id_, player_ids});
}

void ClusterRouter::note_pool_message(RemoteClient& client, const protocol::ClientMessage& message,
                                      const std::string& text, const protocol::RequestId& id) {
  if (std::holds_alternative<protocol::Seek>(message) && !std::holds_alternative<std::monostate>(id))
    client.seeks_asked.emplace_back(id, text);  // open once its `seeking` names it
  else if (const auto* cancel = std::get_if<protocol::CancelSeek>(&message))
    client.open_seeks.erase(cancel->seek);
  else if (std::holds_alternative<protocol::WatchSeeks>(message))
    client.watches_seeks = true;
}

// Parses only the frames of clients with seeks asked or open: a `seeking` reply opens one; a
// new room being played at version 0 (the pool seated the player: every seek of theirs ended)
// or a refusal of the table (`paired`) or the pool's end (`seeks_ended`) closes them all.
void ClusterRouter::note_pool_frame(RemoteClient& client, const std::string& text) {
  if (client.seeks_asked.empty() && client.open_seeks.empty()) return;
  const Json frame = Json::parse(text, nullptr, false);
  if (!frame.is_object()) return;
  const std::string type = frame.value("type", "");
  const protocol::RequestId id = protocol::reply_id(text);
  if (!std::holds_alternative<std::monostate>(id)) {
    const auto asked = std::find_if(client.seeks_asked.begin(), client.seeks_asked.end(),
                                    [&](const auto& entry) { return entry.first == id; });
    if (asked == client.seeks_asked.end()) return;
    if (type == "seeking" && frame.contains("seek") && frame["seek"].is_string())
      client.open_seeks[frame["seek"].get<std::string>()] = asked->second;
    client.seeks_asked.erase(asked);
    return;
  }
  const bool seated = type == "room" && frame.contains("room") && frame["room"].is_object() &&
                      frame["room"].value("version", -1) == 0 && frame["room"].value("status", "") == "playing";
  const bool ended = type == "error" && (frame.value("paired", false) || frame.value("seeks_ended", false));
  if (seated || ended) client.open_seeks.clear();
}

void ClusterRouter::send_seeks_to(const std::string& holder) {
  struct Resend {
    std::shared_ptr<Connection> connection;
    std::uint64_t number = 0;
    PlayerRef player;
    std::map<std::string, std::string> seeks;
    bool watches = false;
  };
  std::vector<Resend> resends;
  {
    const std::lock_guard lock(mutex_);
    for (auto& [key, client] : remote_clients_) {
      if (client.open_seeks.empty() && !client.watches_seeks) continue;
      const auto found = by_number_.find(client.number);
      auto connection = found == by_number_.end() ? nullptr : found->second.lock();
      if (!connection) continue;
      Resend resend{std::move(connection), client.number, client.player, client.open_seeks, client.watches_seeks};
      if (holder == process_id_) {  // served here from now on: the local pool keeps them
        client.open_seeks.clear();
        client.watches_seeks = false;
      } else {
        client.owners.insert(holder);
      }
      resends.push_back(std::move(resend));
    }
  }
  std::size_t seeks = 0;
  for (auto& resend : resends) {
    seeks += resend.seeks.size();
    const auto caller = [&] { return Caller{resend.connection, resend.player, {}, std::chrono::steady_clock::now(), &metrics_}; };
    for (const auto& [seek_id, text] : resend.seeks) {
      if (holder != process_id_) {
        publish(channel_of_process(holder),
                bus::Reseek{process_id_, resend.number, resend.player->id, seek_id, text, who_of(*resend.player)});
        continue;
      }
      protocol::Parsed parsed = protocol::parse_client_message(text);
      if (auto* message = std::get_if<protocol::ClientMessage>(&parsed.body))
        if (auto* seek = std::get_if<protocol::Seek>(message)) hub_.restore_seek(caller(), std::move(*seek), seek_id);
    }
    if (!resend.watches) continue;
    if (holder == process_id_) hub_.handle_here(caller(), protocol::WatchSeeks{});
    else publish(channel_of_process(holder), bus::Request{process_id_, resend.number, resend.player->id,
                                                          R"({"type":"watch_seeks"})", who_of(*resend.player)});
  }
  if (!resends.empty()) log_info("seeks_sent_again", {{"holder", holder}, {"clients", resends.size()}, {"seeks", seeks}});
}

void ClusterRouter::on_frame(std::uint64_t number, const std::string& text) {
  std::shared_ptr<Connection> connection;
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = by_number_.find(number); it != by_number_.end()) connection = it->second.lock();
  }
  if (!connection) return;  // the client has gone meanwhile
  note_answer(number, text);
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = remote_clients_.find(connection.get()); it != remote_clients_.end())
      note_pool_frame(it->second, text);
  }
  connection->send(text);
}

void ClusterRouter::on_request(const std::string& from, std::uint64_t number, const std::string& player_id,
                               const bus::Who& who, const std::string& text) {
  const auto proxy = proxy_for(from, number);
  protocol::Parsed parsed = protocol::parse_client_message(text);
  const auto player = player_as(player_id, who);
  if (!player) {
    metrics_.count_error(protocol::Code::internal);
    return proxy->send(protocol::write_error(parsed.id, {protocol::Code::internal, "player " + player_id +
                                                         " is not in the database; say hello again", {}}));
  }
  if (auto* error = std::get_if<protocol::Error>(&parsed.body)) return proxy->send(protocol::write_error(parsed.id, *error));
  hub_.handle_here(Caller{proxy, player, std::move(parsed.id), std::chrono::steady_clock::now(), &metrics_},
                   std::move(std::get<protocol::ClientMessage>(parsed.body)));
}

void ClusterRouter::on_attach(const std::string& from, std::uint64_t number, const std::string& player_id,
                              const bus::Who& who, const std::string& room) {
  if (const auto player = player_as(player_id, who))
    hub_.attach_here(room, Caller{proxy_for(from, number), player, {}, std::chrono::steady_clock::now(), &metrics_});
}

void ClusterRouter::on_gone(const std::string& from, std::uint64_t number) {
  std::shared_ptr<Connection> proxy;
  {
    const std::lock_guard lock(mutex_);
    const auto it = proxies_.find({from, number});
    if (it == proxies_.end()) return;
    proxy = std::move(it->second);
    proxies_.erase(it);
  }
  hub_.disconnected(proxy);  // its rooms hear that the player left, as for a local client
}

void ClusterRouter::on_taken(const std::string& from, const std::vector<std::string>& rooms) {
  stop_awaiting_old_owners_of(rooms);  // the new owner answers them when asked again
  std::vector<std::tuple<std::uint64_t, PlayerRef, std::string>> to_attach;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& room : rooms) {
      owners_[room] = from;
      for (auto& [key, client] : remote_clients_) {
        if (!client.rooms.contains(room)) continue;
        client.owners.insert(from);
        to_attach.emplace_back(client.number, client.player, room);
      }
    }
  }
  for (const auto& [number, player, room] : to_attach) send_attach(from, number, player, room);
  log_info("rooms_moved", {{"owner", from}, {"rooms", rooms.size()}, {"clients_sent", to_attach.size()}});
}

}  // namespace mancala::server
