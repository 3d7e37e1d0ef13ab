#include "hub.hpp"

#include <algorithm>

#include "cluster_router.hpp"
#include "game_log.hpp"
#include "mancala/bot.hpp"
#include "identity.hpp"
#include "log.hpp"
#include "random.hpp"
#include "rematch.hpp"
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

// create_room's clock as GameMeta::clock stores it; null for none.
Json clock_settings(const std::optional<protocol::ClockChoice>& clock) {
  if (!clock) return Json();
  const auto settings = clock->correspondence()
                            ? ClockSettings::correspondence(std::chrono::seconds(clock->per_move_s))
                            : ClockSettings::real_time(std::chrono::seconds(clock->initial_s),
                                                       std::chrono::seconds(clock->increment_s));
  return settings.to_json();
}

}  // namespace

Hub::Hub(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics,
         BotPool& bot_pool)
    : io_(io),
      storage_(storage),
      players_(players),
      metrics_(metrics),
      bot_pool_(bot_pool),
      lobby_strand_(net::make_strand(io)),
      lobby_timer_(lobby_strand_),
      expiry_timer_(lobby_strand_),
      alive_timer_(lobby_strand_) {}

// The writer's thread only posts: what follows a write (a new room, a welcome) runs on the I/O
// threads, so the next commit never waits for it.
std::function<void(bool)> Hub::on_io(std::function<void(bool)> then) {
  return [this, then = std::move(then)](bool committed) { net::post(io_, [then, committed] { then(committed); }); };
}

Room::Services Hub::services() { return Room::Services{io_, *this, storage_, metrics_, bot_pool_, time_, readers_}; }

void Hub::restore_rooms(const std::function<bool(const std::string& room_id)>& take) {
  int restored = 0;
  const std::string alive = storage_.load_last_alive();
  for (auto& stored : storage_.load_unfinished_games())
    if ((!take || take(stored.meta.id)) && restore_room(stored, alive)) ++restored;
  log_info("rooms_restored", {{"rooms", restored}});
}

std::vector<std::string> Hub::take_over_rooms(const std::vector<std::string>& room_ids) {
  std::vector<std::string> unread;
  std::vector<std::string> taken;  // rebuilt here: other processes send their clients of them
  std::string alive;  // unknown: clocks are not charged for the gap (the rooms are ours now, whatever fails)
  try {
    alive = storage_.load_last_alive();
  } catch (const std::exception& e) {
    log_error("alive_not_read", {{"message", e.what()}});
  }
  for (const auto& id : room_ids) {
    try {
      if (find_room(id)) continue;  // ours already
      const auto stored = storage_.load_game(id);
      if (!stored || stored->meta.status == "finished") continue;  // nothing left to play
      load_missing_players(*stored);
      if (const auto room = restore_room(*stored, alive)) {
        log_info("room_taken_over", {{"room", id}});
        attach_connected_players(room);
        taken.push_back(id);
      }
    } catch (const std::exception& e) {
      log_error("room_not_taken_over", {{"room", id}, {"message", e.what()}});
      unread.push_back(id);
    }
  }
  if (router_) router_->announce_taken(taken);
  return unread;
}

void Hub::attach_connected_players(const std::shared_ptr<Room>& room) {
  std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> seated;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, entry] : hello_players_) {
      const auto rooms = seated_rooms_.find(entry.second->id);
      if (rooms == seated_rooms_.end() || !rooms->second.contains(room->id())) continue;
      if (auto connection = entry.first.lock()) seated.emplace_back(std::move(connection), entry.second);
    }
  }
  for (auto& [connection, player] : seated)
    room->attach(Caller{connection, player, {}, std::chrono::steady_clock::now(), &metrics_});
}

// The dead process may have created players after this one loaded them at start.
void Hub::load_missing_players(const StoredGame& stored) {
  for (const auto& seat : stored.meta.seats) {
    if (seat.bot_level > 0 || players_.find(seat.player_id)) continue;
    for (const auto& player : storage_.load_players())
      if (!players_.find(player.id)) players_.load({player});
    return;
  }
}

std::shared_ptr<Room> Hub::restore_room(const StoredGame& stored, const std::string& last_alive) {
  try {
    std::vector<PlayerRef> seats(static_cast<std::size_t>(opening(stored.meta).game().players()));
    for (const auto& seat : stored.meta.seats) {
      if (seat.bot_level > 0) continue;  // the room seats its computer players itself
      auto player = players_.find(seat.player_id);
      if (!player || seat.seat < 0 || static_cast<std::size_t>(seat.seat) >= seats.size())
        throw std::runtime_error("seat " + std::to_string(seat.seat) + " does not fit the game");
      seats[static_cast<std::size_t>(seat.seat)] = std::move(player);
    }
    Match match = replay(stored.meta, stored.actions);
    const std::int64_t version = stored.actions.empty() ? 0 : stored.actions.back().version;
    // The clock as last stored, charged up to the last moment the server was known to run.
    const Json clock_view = charged_until(
        stored.actions.empty() ? opening_clock_view(stored.meta, match) : stored.actions.back().clock, last_alive);
    auto room = std::make_shared<Room>(services(), stored.meta, std::move(match), version, seats, clock_view);
    add_room(room);
    for (const auto& player : seats)
      if (player) seat_index(player->id, room->id(), true);
    room->resume_after_restart();
    return room;
  } catch (const std::exception& e) {
    log_error("room_not_restored", {{"room", stored.meta.id}, {"message", e.what()}});
    return nullptr;
  }
}

// Several processes: a token made on another process is found in the database. (A blocking
// read on this thread, once per such player and process; the directory keeps him after.)
PlayerRef Hub::load_player_by_token(const std::string& token) {
  const auto stored = storage_.load_player_by_token_hash(to_hex(sha256(token)));
  if (!stored) return nullptr;
  players_.load({*stored});
  return players_.find_by_token(token);
}

PlayerRef Hub::player_by_token(const std::string& token) {
  auto player = players_.find_by_token(token);
  if (player || !shared_database_) return player;
  return load_player_by_token(token);
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
    hello_players_.erase(connection.get());
  }
  for (const auto& room : connection->close_and_take_rooms()) room->drop(connection);
  if (router_) router_->connection_closed(connection);
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
    if (!player && shared_database_) {
      try {
        player = load_player_by_token(hello.token);
      } catch (const std::exception& e) {  // not "bad token": the player would start anew
        log_error("player_not_loaded", {{"message", e.what()}});
        metrics_.count_error(Code::internal);
        connection->send(protocol::write_error(id, {Code::internal, "the player could not be looked up; try again", {}}));
        return done(nullptr);
      }
    }
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
      if (shared_database_) hello_players_[connection.get()] = {connection, player};  // before the lookup: no take-over falls between
      if (const auto it = seated_rooms_.find(player->id); it != seated_rooms_.end())
        for (const auto& room_id : it->second)
          if (const auto room = rooms_.find(room_id); room != rooms_.end()) rooms.push_back(room->second);
    }
    for (const auto& room : rooms)
      room->attach(Caller{connection, player, {}, std::chrono::steady_clock::now(), &metrics_});
    if (router_) {  // and in those other processes own
      try {
        router_->attach_remote_rooms(connection, player);
      } catch (const std::exception& e) {  // the player can still join or sync them one by one
        log_error("remote_rooms_not_attached", {{"player", player->id}, {"message", e.what()}});
      }
    }
    return;
  }
  auto fresh = PlayerDirectory::make(hello.name);
  storage_.create_player(PlayerDirectory::to_stored(*fresh.player),
                         on_io([this, connection, id, fresh, done = std::move(done)](bool stored) {
                           if (!stored) {
                             metrics_.count_error(Code::internal);
                             connection->send(protocol::write_error(id, {Code::internal, "the player could not be stored; try again", {}}));
                             return done(nullptr);
                           }
                           players_.add(fresh.player);
                           if (shared_database_) {  // a room he joins may be taken over later
                             const std::lock_guard lock(mutex_);
                             hello_players_[connection.get()] = {connection, fresh.player};
                           }
                           connection->send(protocol::write_welcome(id, fresh.player->id, fresh.player->name, fresh.token));
                           done(fresh.player);
                         }));
}

// ---- requests --------------------------------------------------------------------------

void Hub::handle(Caller caller, protocol::ClientMessage message) {
  if (router_) {
    try {
      const std::string room = room_for_routing(message);
      if (!room.empty() && !find_room(room) && router_->forward(caller, message, room)) return;
    } catch (const std::exception& e) {  // the owner could not be looked up
      log_warn("forward_failed", {{"message", e.what()}});
      return caller.fail(Code::internal, "the server that holds this room cannot be reached now (it may be "
                                         "being replaced); try again in a few seconds");
    }
  }
  handle_here(std::move(caller), std::move(message));
}

std::string Hub::room_for_routing(const protocol::ClientMessage& message) const {
  if (const auto* join = std::get_if<protocol::JoinRoom>(&message); join && !join->invite.empty()) {
    {
      const std::lock_guard lock(mutex_);
      if (const auto it = invites_.find(join->invite); it != invites_.end()) return it->second;
    }
    return router_->room_of_invite(join->invite);
  }
  return room_named_by(message);
}

void Hub::attach_here(const std::string& room_id, Caller caller) {
  if (const auto room = find_room(room_id)) room->attach(std::move(caller));
}

void Hub::handle_here(Caller caller, protocol::ClientMessage message) {
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
          [&](protocol::Special& m) { in_room(m.room, [&](Room& r) { r.special(caller, std::move(m.action)); }); },
          [&](protocol::Claim& m) { in_room(m.room, [&](Room& r) { r.claim(caller, std::move(m.window)); }); },
          [&](protocol::ClaimAbandon& m) { in_room(m.room, [&](Room& r) { r.claim_abandon(caller); }); },
          [&](protocol::AddBot& m) { in_room(m.room, [&](Room& r) { r.add_bot(caller, m.bot); }); },
          [&](protocol::Rematch& m) { in_room(m.room, [&](Room& r) { r.rematch(caller); }); },
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
  for (const auto& bot : create.bots)
    if (bot.seat >= seats)
      return caller.fail(Code::bad_request, "'bots' names seat " + std::to_string(bot.seat) +
                                                "; this game has seats 0.." + std::to_string(seats - 1));
  if (create.choice.spectate && static_cast<int>(create.bots.size()) >= seats)
    return caller.fail(Code::bad_request,
                       "at least one seat must be a person's: leave a seat free or take one yourself");
  if (!reserve_room_for(caller.player->id))
    return caller.fail(Code::too_many_rooms,
                       "you already hold " + std::to_string(kMaxWaitingRoomsPerPlayer) +
                           " rooms that wait for players; start or leave one of them first");
  GameMeta meta;
  meta.id = random_text(kRoomIdCharacters);
  meta.game = create.game;
  meta.options = match->options();
  meta.draws = match->draws();
  meta.is_private = create.is_private;
  if (create.is_private) meta.invite = random_text(kInviteCharacters);
  meta.grace_seconds = create.grace_seconds;
  meta.clock = clock_settings(create.clock);
  meta.created = now_utc();
  meta.host_id = caller.player->id;
  meta.host_name = caller.player->name;
  std::optional<int> creator_seat;
  if (!create.choice.spectate) {
    creator_seat = create.choice.seat.value_or(0);
    meta.seats.push_back({*creator_seat, caller.player->id, caller.player->name});
  }
  for (const auto& bot : create.bots) meta.seats.push_back({bot.seat, "", bots::display_name(bot.level), bot.level});
  if (static_cast<int>(meta.seats.size()) == seats) {  // computer players took every other seat
    meta.status = "playing";
    meta.started = format_utc(time_.now());  // the clock's time: version 0 of its history
  }
  storage_.create_game(meta, on_io([this, caller, meta, match, creator_seat, seats](bool stored) {
    if (!stored) {
      end_reservation(caller.player->id, nullptr);
      return caller.fail(Code::internal, "the room could not be stored; try again");
    }
    std::vector<PlayerRef> players(static_cast<std::size_t>(seats));
    if (creator_seat) players[static_cast<std::size_t>(*creator_seat)] = caller.player;
    auto room = std::make_shared<Room>(services(), meta, *match, 0, std::move(players));
    add_room(room);
    if (creator_seat) seat_index(caller.player->id, room->id(), true);
    end_reservation(caller.player->id, &room->id());  // only now: the room counts by itself
    log_info("room_created", {{"room", meta.id}, {"game", meta.game}, {"private", meta.is_private},
                              {"bots", meta.seats.size() - (creator_seat ? 1 : 0)}, {"started", !meta.started.empty()}});
    room->welcome_creator(caller, creator_seat);
  }));
}

// Counts the player's waiting rooms and the ones being stored for him, so that requests sent
// at once cannot all pass the check before the first room exists.
bool Hub::reserve_room_for(const std::string& player_id) {
  const std::lock_guard lock(mutex_);
  std::set<std::string> held;
  for (const auto* index : {&seated_rooms_, &created_rooms_})
    if (const auto it = index->find(player_id); it != index->end()) held.insert(it->second.begin(), it->second.end());
  int count = 0;
  for (const auto& id : held)
    if (const auto room = rooms_.find(id); room != rooms_.end() && room->second->status() == RoomStatus::waiting)
      ++count;
  int& pending = rooms_being_created_[player_id];
  if (count + pending >= kMaxWaitingRoomsPerPlayer) {
    if (pending == 0) rooms_being_created_.erase(player_id);
    return false;
  }
  ++pending;
  return true;
}

void Hub::end_reservation(const std::string& player_id, const std::string* created_room) {
  const std::lock_guard lock(mutex_);
  if (--rooms_being_created_[player_id] <= 0) rooms_being_created_.erase(player_id);
  if (!created_room) return;
  created_rooms_[player_id].insert(*created_room);
  creator_of_[*created_room] = player_id;
}

void Hub::note_alive() {
  storage_.note_alive(format_utc(time_.now()), [](bool noted) {
    if (!noted) log_warn("alive_not_noted");
  });
}

void Hub::note_alive_every(std::chrono::seconds interval) {
  net::post(lobby_strand_, [this, interval] {
    note_alive();
    alive_timer_.expires_after(interval);
    alive_timer_.async_wait([this, interval](const error_code& error) {
      if (!error) note_alive_every(interval);
    });
  });
}

void Hub::expire_waiting_rooms_after(std::chrono::seconds ttl) {
  net::post(lobby_strand_, [this, ttl] {
    waiting_room_ttl_ = ttl;
    sweep_expired_rooms();
  });
}

// Runs on lobby_strand_, a few times per time-to-live (at most once a minute, at least every
// quarter second), so a room goes at most a quarter of its lifetime late.
void Hub::sweep_expired_rooms() {
  const auto cutoff = std::chrono::system_clock::now() - waiting_room_ttl_;
  std::vector<std::shared_ptr<Room>> waiting;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [id, room] : rooms_)
      if (room->status() == RoomStatus::waiting) waiting.push_back(room);
  }
  for (const auto& room : waiting) room->expire_if_created_before(cutoff);
  const auto interval = std::clamp<std::chrono::milliseconds>(waiting_room_ttl_ / 4, std::chrono::milliseconds(250),
                                                             std::chrono::seconds(60));
  expiry_timer_.expires_after(interval);
  expiry_timer_.async_wait([this](const error_code& error) {
    if (!error) sweep_expired_rooms();
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
    if (const auto creator = creator_of_.find(room_id); creator != creator_of_.end()) {
      const auto created = created_rooms_.find(creator->second);
      if (created != created_rooms_.end() && created->second.erase(room_id) && created->second.empty())
        created_rooms_.erase(created);
      creator_of_.erase(creator);
    }
  }
  publish(room_id, std::nullopt);
}

void Hub::create_rematch(const GameMeta& old, std::vector<PlayerRef> players, std::vector<int> bot_levels,
                         std::vector<Caller> members, std::function<void(std::string)> done) {
  std::shared_ptr<RematchSetup> setup;
  try {
    const Match fresh = Match::create(old.game, old.options, random_u64());
    setup = std::make_shared<RematchSetup>(rematch_setup(old, players, bot_levels, fresh,
                                                         random_text(kRoomIdCharacters),
                                                         random_text(kInviteCharacters), format_utc(time_.now())));
  } catch (const std::exception& e) {
    log_error("rematch_failed", {{"room", old.id}, {"message", e.what()}});
    return done("");
  }
  storage_.create_game(setup->meta, on_io([this, setup, members = std::move(members), done = std::move(done)](bool stored) {
    if (!stored) return done("");
    const GameMeta& meta = setup->meta;
    auto room = std::make_shared<Room>(services(), meta, Match::restore(meta.game, meta.options, meta.draws), 0,
                                       setup->players);
    add_room(room);
    for (const auto& player : setup->players)
      if (player) seat_index(player->id, room->id(), true);
    log_info("rematch_created", {{"room", meta.id}, {"game", meta.game}});
    room->welcome_rematch(members);
    done(room->id());
  }));
}

void Hub::publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  std::optional<protocol::RoomSummary> for_others;
  if (router_) for_others = summary;
  const ListingChange change = list(room_id, std::move(summary));
  if (router_ && change.entry) router_->publish_summary(room_id, for_others);  // to the other processes' lobbies
  if (change.tell_watchers) schedule_lobby_broadcast();
}

void Hub::remote_summary(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  if (find_room(room_id)) return;  // ours now (taken over): our own entry is the one to keep
  if (list(room_id, std::move(summary)).tell_watchers) schedule_lobby_broadcast();
}

std::vector<std::pair<std::string, protocol::RoomSummary>> Hub::local_listings() const {
  std::vector<std::pair<std::string, protocol::RoomSummary>> out;
  const std::lock_guard lock(mutex_);
  for (const auto& [id, entry] : listed_)
    if (rooms_.contains(id)) out.emplace_back(id, entry.second);
  return out;
}

Hub::ListingChange Hub::list(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  bool changed = false;
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
  return {changed, changed && !lobby_watchers_.empty()};
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
