#include "hub.hpp"

#include <algorithm>

#include "game_log.hpp"
#include "identity.hpp"
#include "log.hpp"
#include "random.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

constexpr auto kLobbyDelay = std::chrono::milliseconds(50);

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

Hub::Hub(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics)
    : io_(io),
      storage_(storage),
      players_(players),
      metrics_(metrics),
      lobby_strand_(net::make_strand(io)),
      lobby_timer_(lobby_strand_) {}

Room::Services Hub::services() { return Room::Services{io_, *this, storage_, metrics_}; }

void Hub::restore_rooms() {
  int restored = 0;
  for (auto& stored : storage_.load_unfinished_games()) {
    try {
      std::vector<PlayerRef> seats(static_cast<std::size_t>(opening(stored.meta).game().players()));
      for (const auto& seat : stored.meta.seats) {
        auto player = players_.find(seat.player_id);
        if (!player || seat.seat < 0 || static_cast<std::size_t>(seat.seat) >= seats.size())
          throw std::runtime_error("seat " + std::to_string(seat.seat) + " does not fit the game");
        seats[static_cast<std::size_t>(seat.seat)] = std::move(player);
      }
      Match match = replay(stored.meta, stored.actions);
      const std::int64_t version = stored.actions.empty() ? 0 : stored.actions.back().version;
      auto room = std::make_shared<Room>(services(), stored.meta, std::move(match), version, seats);
      add_room(room);
      for (const auto& player : seats)
        if (player) seat_index(player->id, room->id(), true);
      room->resume_after_restart();
      ++restored;
    } catch (const std::exception& e) {
      log_error("room_not_restored", {{"room", stored.meta.id}, {"message", e.what()}});
    }
  }
  log_info("rooms_restored", {{"rooms", restored}});
}

// ---- connections -----------------------------------------------------------------------

void Hub::connected(const std::shared_ptr<Connection>& connection) {
  const std::lock_guard lock(mutex_);
  connections_[connection.get()] = connection;
}

void Hub::disconnected(const std::shared_ptr<Connection>& connection) {
  {
    const std::lock_guard lock(mutex_);
    connections_.erase(connection.get());
    lobby_watchers_.erase(connection.get());
  }
  for (const auto& room : connection->close_and_take_rooms()) room->drop(connection);
}

void Hub::close_all(CloseCode code) {
  std::vector<std::shared_ptr<Connection>> open;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : connections_)
      if (auto connection = weak.lock()) open.push_back(std::move(connection));
  }
  for (const auto& connection : open) connection->close(code);
}

void Hub::hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                const protocol::Hello& hello, std::function<void(PlayerRef)> done) {
  if (!hello.token.empty()) {
    auto player = players_.find_by_token(hello.token);
    if (!player) {
      metrics_.count_error(Code::bad_token);
      connection->send(protocol::write_error(id, {Code::bad_token, "no player has this token; say hello with a name to start anew", {}}));
      return done(nullptr);
    }
    connection->send(protocol::write_welcome(id, player->id, player->name, hello.token));
    done(player);
    // Back in every unfinished game this player sits in: a `room` message for each.
    std::vector<std::shared_ptr<Room>> rooms;
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = seated_rooms_.find(player->id); it != seated_rooms_.end())
        for (const auto& room_id : it->second)
          if (const auto room = rooms_.find(room_id); room != rooms_.end()) rooms.push_back(room->second);
    }
    for (const auto& room : rooms)
      room->attach(Caller{connection, player, {}, std::chrono::steady_clock::now(), &metrics_});
    return;
  }
  auto fresh = PlayerDirectory::make(hello.name);
  storage_.create_player(PlayerDirectory::to_stored(*fresh.player),
                         [this, connection, id, fresh, done = std::move(done)](bool stored) {
                           if (!stored) {
                             metrics_.count_error(Code::internal);
                             connection->send(protocol::write_error(id, {Code::internal, "the player could not be stored; try again", {}}));
                             return done(nullptr);
                           }
                           players_.add(fresh.player);
                           connection->send(protocol::write_welcome(id, fresh.player->id, fresh.player->name, fresh.token));
                           done(fresh.player);
                         });
}

// ---- requests --------------------------------------------------------------------------

void Hub::handle(Caller caller, protocol::ClientMessage message) {
  // Messages naming a room go to that room's strand.
  const auto in_room = [&](const std::string& room_id, auto action) {
    if (auto room = find_room(room_id)) action(*room);
    else caller.fail(Code::not_found, "no room '" + room_id + "'");
  };
  std::visit(
      Overloaded{
          [&](protocol::Hello&) { caller.fail(Code::bad_request, "this connection already said hello"); },
          [&](protocol::CreateRoom& m) { create_room(std::move(caller), std::move(m)); },
          [&](protocol::ListRooms&) { caller.reply(protocol::write_rooms(caller.id, lobby())); },
          [&](protocol::WatchLobby&) { watch_lobby(caller); },
          [&](protocol::JoinRoom& m) { join_room(std::move(caller), m); },
          [&](protocol::LeaveRoom& m) { in_room(m.room, [&](Room& r) { r.leave(caller); }); },
          [&](protocol::Move& m) { in_room(m.room, [&](Room& r) { r.move(caller, std::move(m)); }); },
          [&](protocol::Sync& m) { in_room(m.room, [&](Room& r) { r.sync(caller, m.since); }); },
          [&](protocol::Resign& m) { in_room(m.room, [&](Room& r) { r.resign(caller); }); },
          [&](protocol::Concede& m) { in_room(m.room, [&](Room& r) { r.concede(caller); }); },
          [&](protocol::Plex& m) { in_room(m.room, [&](Room& r) { r.plex(caller, std::move(m.window)); }); },
          [&](protocol::ClaimAbandon& m) { in_room(m.room, [&](Room& r) { r.claim_abandon(caller); }); },
      },
      message);
}

void Hub::create_room(Caller caller, protocol::CreateRoom create) {
  std::shared_ptr<Match> match;
  try {
    match = std::make_shared<Match>(Match::create(create.game, create.options, random_u64()));
  } catch (const EngineError& e) {
    return caller.fail(protocol::from_engine(e.code()), e.what());
  }
  const int seats = match->game().players();
  if (create.choice.seat && *create.choice.seat >= seats)
    return caller.fail(Code::bad_request, "this game has seats 0.." + std::to_string(seats - 1));
  GameMeta meta;
  meta.id = random_text(kRoomIdCharacters);
  meta.game = create.game;
  meta.options = match->options();
  meta.draws = match->draws();
  meta.is_private = create.is_private;
  if (create.is_private) meta.invite = random_text(kInviteCharacters);
  meta.grace_seconds = create.grace_seconds;
  meta.created = now_utc();
  std::optional<int> creator_seat;
  if (!create.choice.spectate) {
    creator_seat = create.choice.seat.value_or(0);
    meta.seats.push_back({*creator_seat, caller.player->id, caller.player->name});
  }
  storage_.create_game(meta, [this, caller, meta, match, creator_seat, seats](bool stored) {
    if (!stored) return caller.fail(Code::internal, "the room could not be stored; try again");
    std::vector<PlayerRef> players(static_cast<std::size_t>(seats));
    if (creator_seat) players[static_cast<std::size_t>(*creator_seat)] = caller.player;
    auto room = std::make_shared<Room>(services(), meta, *match, 0, std::move(players));
    add_room(room);
    if (creator_seat) seat_index(caller.player->id, room->id(), true);
    log_info("room_created", {{"room", meta.id}, {"game", meta.game}, {"private", meta.is_private}});
    room->welcome_creator(caller, creator_seat);
  });
}

void Hub::join_room(Caller caller, const protocol::JoinRoom& join) {
  const bool by_invite = !join.invite.empty();
  std::shared_ptr<Room> room;
  if (by_invite) {
    const std::lock_guard lock(mutex_);
    if (const auto it = invites_.find(join.invite); it != invites_.end())
      if (const auto found = rooms_.find(it->second); found != rooms_.end()) room = found->second;
  } else {
    room = find_room(join.room);
  }
  if (!room && by_invite) return caller.fail(Code::forbidden, "no open room has this invite");
  if (!room) return caller.fail(Code::not_found, "no room '" + join.room + "'");
  room->join(std::move(caller), join.choice, by_invite);
}

void Hub::watch_lobby(const Caller& caller) {
  {
    const std::lock_guard lock(mutex_);
    lobby_watchers_[caller.connection.get()] = caller.connection;
  }
  caller.ok();
}

std::shared_ptr<Room> Hub::find_room(const std::string& id) const {
  const std::lock_guard lock(mutex_);
  const auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

void Hub::add_room(const std::shared_ptr<Room>& room) {
  const std::lock_guard lock(mutex_);
  rooms_[room->id()] = room;
  if (!room->invite().empty()) invites_[room->invite()] = room->id();
}

// ---- called by rooms -------------------------------------------------------------------

void Hub::seat_index(const std::string& player_id, const std::string& room_id, bool seated) {
  const std::lock_guard lock(mutex_);
  if (seated) {
    seated_rooms_[player_id].insert(room_id);
  } else if (const auto it = seated_rooms_.find(player_id); it != seated_rooms_.end()) {
    it->second.erase(room_id);
    if (it->second.empty()) seated_rooms_.erase(it);
  }
}

void Hub::forget(const std::string& room_id) {
  {
    const std::lock_guard lock(mutex_);
    const auto it = rooms_.find(room_id);
    if (it == rooms_.end()) return;
    invites_.erase(it->second->invite());
    rooms_.erase(it);
  }
  publish(room_id, std::nullopt);
}

void Hub::publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  bool changed = false;
  {
    const std::lock_guard lock(mutex_);
    const auto it = listed_.find(room_id);
    if (!summary) {
      changed = it != listed_.end();
      if (changed) listed_.erase(it);
    } else if (it == listed_.end()) {
      listed_.emplace(room_id, std::pair(next_listing_++, std::move(*summary)));
      changed = true;
    } else {
      changed = protocol::to_json(it->second.second) != protocol::to_json(*summary);
      it->second.second = std::move(*summary);
    }
    changed = changed && !lobby_watchers_.empty();
  }
  if (changed) schedule_lobby_broadcast();
}

std::vector<protocol::RoomSummary> Hub::lobby() const {
  std::vector<std::pair<std::uint64_t, protocol::RoomSummary>> entries;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : listed_) entries.push_back(entry);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<protocol::RoomSummary> out;
  for (auto& [order, summary] : entries) out.push_back(std::move(summary));
  return out;
}

void Hub::schedule_lobby_broadcast() {
  net::post(lobby_strand_, [this] {
    if (lobby_scheduled_) return;
    lobby_scheduled_ = true;
    lobby_timer_.expires_after(kLobbyDelay);
    lobby_timer_.async_wait([this](const error_code& error) {
      lobby_scheduled_ = false;
      if (!error) broadcast_lobby();
    });
  });
}

void Hub::broadcast_lobby() {
  std::string text = protocol::write_rooms({}, lobby());
  if (text == last_lobby_text_) return;
  last_lobby_text_ = text;
  const auto shared = std::make_shared<const std::string>(std::move(text));
  std::vector<std::shared_ptr<Connection>> watchers;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : lobby_watchers_)
      if (auto watcher = weak.lock()) watchers.push_back(std::move(watcher));
  }
  for (const auto& watcher : watchers) watcher->send(shared);
}

RoomCounts Hub::room_counts() const {
  RoomCounts counts;
  const std::lock_guard lock(mutex_);
  for (const auto& [id, room] : rooms_) {
    switch (room->status()) {
      case RoomStatus::waiting: ++counts.waiting; break;
      case RoomStatus::playing: ++counts.playing; break;
      case RoomStatus::finished: ++counts.finished; break;
    }
  }
  return counts;
}

}  // namespace mancala::server
