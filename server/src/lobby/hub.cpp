#include "hub.hpp"

#include <algorithm>

#include "identity.hpp"
#include "log.hpp"
#include "overloaded.hpp"
#include "random.hpp"
#include "rematch.hpp"
#include "room_plan.hpp"
#include "room_restorer.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

Hub::Hub(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics,
         BotPool& bot_pool)
    : io_(io),
      storage_(storage),
      players_(players),
      metrics_(metrics),
      bot_pool_(bot_pool),
      lobby_(io),
      pairing_(io, [this] { return time_.now(); }, [this](Table table) { seat_paired_table(std::move(table), [this](const std::string& room_id, const auto&) {
                   if (!room_id.empty()) pairing_.paired_room_opened(room_id);
                 }); },
               [this] { return playing_by_game(); }),
      greeter_(io, storage, players, metrics, readers_, rooms_),
      routing_(readers_, rooms_,
               [this](Caller caller, protocol::ClientMessage message) { handle_here(std::move(caller), std::move(message)); }),
      timer_strand_(net::make_strand(io)),
      expiry_timer_(timer_strand_),
      alive_timer_(timer_strand_),
      session_timer_(timer_strand_) {}

// The writer's thread only posts: what follows a write (a new room, a welcome) runs on the I/O
// threads, so the next commit never waits for it.
std::function<void(bool)> Hub::on_io(std::function<void(bool)> then) {
  return [this, then = std::move(then)](bool committed) { net::post(io_, [then, committed] { then(committed); }); };
}

Room::Services Hub::services() { return Room::Services{io_, *this, storage_, metrics_, bot_pool_, time_, readers_, push_}; }

void Hub::restore_rooms(const std::function<bool(const std::string& room_id)>& take) {
  int restored = 0;
  for (auto& stored : storage_.load_unfinished_games())
    if ((!take || take(stored.meta.id)) && restore_room(stored, storage_.load_last_alive(stored.meta.id))) ++restored;
  log_info("rooms_restored", {{"rooms", restored}});
}

std::vector<std::string> Hub::take_over_rooms(const std::vector<std::string>& room_ids) {
  std::vector<std::string> unread;
  std::vector<std::string> taken;  // rebuilt here: other processes send their clients of them
  // Unknown when it cannot be read: clocks are not charged for the gap (the rooms are ours now,
  // whatever fails).
  const auto last_alive = [this](const std::string& id) {
    try {
      return storage_.load_last_alive(id);
    } catch (const std::exception& e) {
      log_error("alive_not_read", {{"room", id}, {"message", e.what()}});
      return std::string();
    }
  };
  for (const auto& id : room_ids) {
    try {
      if (find_room(id)) continue;  // ours already
      const auto stored = storage_.load_game(id);
      if (!stored || stored->meta.status == "finished") continue;  // nothing left to play
      load_missing_players(*stored, players_, storage_);
      if (const auto room = restore_room(*stored, last_alive(id))) {
        log_info("room_taken_over", {{"room", id}});
        attach_connected_players(room);
        taken.push_back(id);
      }
    } catch (const std::exception& e) {
      log_error("room_not_taken_over", {{"room", id}, {"message", e.what()}});
      unread.push_back(id);
    }
  }
  if (others_) others_->announce_taken(taken);
  return unread;
}

void Hub::give_up_rooms(const std::vector<std::string>& room_ids) {
  for (const auto& id : room_ids) {
    const auto room = find_room(id);
    if (!room || !rooms_.remove(id)) continue;
    lobby_.list(id, std::nullopt);  // its new owner lists it in every lobby
    room->give_up();
  }
}

void Hub::attach_connected_players(const std::shared_ptr<Room>& room) {
  for (auto& [connection, player] : greeter_.seated_in(room->id()))
    room->handle(Caller{connection, player, {}, std::chrono::steady_clock::now(), &metrics_}, Attach{});
}

std::shared_ptr<Room> Hub::restore_room(const StoredGame& stored, const std::string& last_alive) {
  try {
    RestoredGame game = restore_game(stored, last_alive, players_);
    auto room = std::make_shared<Room>(services(), stored.meta, std::move(game.match), game.version, game.seats,
                                       game.clock_view);
    add_room(room, game.seats);
    try {  // a failed read costs the room's recent chat (the history still has it), not the room
      room->restore_chat(storage_.chat().lines(stored.meta.id));
    } catch (const std::exception& e) {
      log_error("chat_not_restored", {{"room", stored.meta.id}, {"message", e.what()}});
    }
    room->resume_after_restart();
    return room;
  } catch (const std::exception& e) {
    log_error("room_not_restored", {{"room", stored.meta.id}, {"message", e.what()}});
    return nullptr;
  }
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
  }
  greeter_.forget(connection.get());
  lobby_.unwatch(connection.get());
  pairing_.connection_closed(connection.get());
  for (const auto& room : connection->close_and_take_rooms()) room->drop(connection);
  if (others_) others_->connection_closed(connection);
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

void Hub::close_sessions(const std::vector<std::string>& session_hashes) {
  close_sessions_here(session_hashes);
  if (others_) others_->announce_ended_sessions(session_hashes);
}

void Hub::close_ended_sessions_every(std::chrono::seconds interval) {
  net::post(timer_strand_, [this, interval] {
    session_sweep_interval_ = interval;
    sweep_ended_sessions();
  });
}

// Runs on timer_strand_. A session's 30 days run out while its sockets stay open (nothing asks
// the database about a socket that does not reconnect), so the sessions of this process's
// sockets are looked up now and then, on a reader, and the sockets of those that ended close as
// at a log-out: their browsers reconnect and are told to log in again. Each process sweeps its
// own sockets. The interval is on the rooms' clock (--clock-speed makes it shorter for tests).
void Hub::sweep_ended_sessions() {
  std::set<std::string> open;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : connections_)
      if (const auto connection = weak.lock(); connection && !connection->session_hash().empty())
        open.insert(connection->session_hash());
  }
  if (!open.empty())
    readers_.run([this, hashes = std::vector<std::string>(open.begin(), open.end())] {
      try {
        const auto ended = storage_.accounts().ended_sessions(hashes);
        if (ended.empty()) return;
        log_info("ended_sessions_closed", {{"sessions", ended.size()}, {"why", "expired, idle or ended elsewhere"}});
        close_sessions_here(ended);
      } catch (const std::exception& e) {  // tried again at the next sweep
        log_warn("sessions_not_checked", {{"message", e.what()}});
      }
    });
  session_timer_.expires_after(time_.real_delay_until(time_.now() + session_sweep_interval_));
  session_timer_.async_wait([this](const error_code& error) {
    if (!error) sweep_ended_sessions();
  });
}

void Hub::players_changed(const std::vector<std::string>& player_ids) {
  if (others_) others_->announce_players_changed(player_ids);
}

void Hub::reread_players_here(const std::vector<std::string>& player_ids) {
  readers_.run([this, player_ids] {  // database reads: never on the bus's thread
    for (const auto& id : player_ids) {
      if (!players_.find(id)) continue;  // read when first met, as any player of another process
      try {
        greeter_.reread_account(id);
      } catch (const std::exception& e) {  // shown as they were until the next change or restart
        log_warn("player_not_reread", {{"player", id}, {"message", e.what()}});
      }
    }
  });
}

void Hub::close_sessions_here(const std::vector<std::string>& session_hashes) {
  std::vector<std::shared_ptr<Connection>> ended;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : connections_) {
      auto connection = weak.lock();
      if (!connection) continue;
      const auto listed = [&](const std::string& hash) {
        return !hash.empty() && std::find(session_hashes.begin(), session_hashes.end(), hash) != session_hashes.end();
      };
      // An account's session, or a guest token that became an account's (close_sessions).
      if (listed(connection->session_hash()) || listed(connection->guest_token_hash()))
        ended.push_back(std::move(connection));
    }
  }
  for (const auto& connection : ended) connection->close(CloseCode::going_away);
}

void Hub::hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                const protocol::Hello& hello, const std::string& session_hash, std::function<void(PlayerRef)> done) {
  greeter_.hello(connection, id, hello, session_hash, [this, connection, done = std::move(done)](PlayerRef player) {
    if (player) pairing_.player_connected(connection, player);  // whose last connection ends their seeks
    done(std::move(player));
  });
}

// ---- requests --------------------------------------------------------------------------

void Hub::handle(Caller caller, protocol::ClientMessage message) { routing_.route(std::move(caller), std::move(message)); }

void Hub::attach_here(const std::string& room_id, Caller caller) {
  if (const auto room = find_room(room_id)) room->handle(std::move(caller), Attach{});
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
          [&](protocol::ListRooms&) { caller.reply(protocol::write_rooms(caller.id, lobby_.entries())); },
          [&](protocol::WatchLobby&) {
            lobby_.watch(caller.connection);
            caller.ok();
          },
          [&](protocol::JoinRoom& m) { join_room(std::move(caller), m); },
          [&](protocol::Seek& m) { seek(std::move(caller), std::move(m), ""); },
          [&](protocol::CancelSeek& m) { cancel_seek(caller, m); },
          [&](protocol::WatchSeeks&) { watch_seeks(caller); },
          [&](protocol::WatchTournament& m) {
            if (watch_tournament_) return watch_tournament_(caller, m.tournament);
            caller.fail(Code::not_found, "no tournament '" + m.tournament + "' is run here");
          },
          // Every other message names its room, which takes it as it is.
          [&](auto& m) { in_room(m.room, [&](Room& r) { r.handle(caller, std::move(m)); }); },
      },
      message);
}

// ---- quick pairing (issue 47; the pool and its rules in pairing.hpp, seek_pool.hpp) -------

void Hub::seek(Caller caller, protocol::Seek wanted, std::string seek_id) {
  auto checked = check_seek(wanted, *caller.player);
  if (const auto* refusal = std::get_if<protocol::Error>(&checked))
    return caller.fail(refusal->code, refusal->message, refusal->details);
  auto request = std::get<SeekRequest>(std::move(checked));
  if (!caller.player->account) return add_seek(caller, std::move(request), {}, seek_id);  // a guest's mutes stay in the browser
  readers_.run([this, caller, request = std::move(request), seek_id]() mutable {  // an account's mutes: a database read
    std::set<std::string> muted;
    try {
      for (const auto& mute : storage_.chat().mutes(caller.player->id)) muted.insert(mute.player_id);
    } catch (const std::exception& e) {
      log_warn("mutes_not_read", {{"player", caller.player->id}, {"message", e.what()}});
      return caller.fail_storing("the players you muted could not be read, so the seek was not made",
                                 storage_.trouble());
    }
    net::post(io_, [this, caller, request = std::move(request), muted = std::move(muted), seek_id]() mutable {
      add_seek(caller, std::move(request), std::move(muted), seek_id);
    });
  });
}

void Hub::restore_seek(Caller caller, protocol::Seek wanted, const std::string& seek_id) {
  seek(std::move(caller), std::move(wanted), seek_id);
}

void Hub::add_seek(const Caller& caller, SeekRequest request, std::set<std::string> muted, const std::string& seek_id) {
  pairing_.player_connected(caller.connection, caller.player);  // known since hello; once more costs nothing
  auto added = pairing_.seek(*caller.player, std::move(request), std::move(muted), seek_id);
  if (const auto* refusal = std::get_if<protocol::Error>(&added))
    return caller.fail(refusal->code, refusal->message, refusal->details);
  if (!seek_id.empty()) return;  // taken over from the pool's previous holder: answered there
  // A table found at once is being stored: its `room` follows this reply.
  const auto& made = std::get<Pairing::SeekMade>(added);
  caller.reply(protocol::write_seeking(caller.id, made.seek_id, static_cast<int>(made.delayed.count())));
}

void Hub::end_seeks_of_seated(const std::vector<std::string>& player_ids) {
  for (const auto& id : player_ids) pairing_.seated_elsewhere(id);
}

void Hub::seated_here(const std::string& player_id) {
  pairing_.seated_elsewhere(player_id);
  if (others_) others_->announce_seated({player_id});  // the seek pool may be another process's
}

void Hub::seek_pool_held(bool held) {
  if (!held) {
    // Another process took the pool while our lease had lapsed, and was sent the seeks of the
    // other processes' clients: ours would pair a second time. Everyone here is told to seek again.
    const auto players = pairing_.end_every_seek();
    for (const auto& player_id : players)
      for (const auto& connection : pairing_.connections_of(player_id)) {
        metrics_.count_error(Code::unavailable);
        connection->send(protocol::write_error(
            {}, {Code::unavailable, "your seek ended because the server holding it was replaced; seek again",
                 {{"seeks_ended", true}, {"retry_after_ms", kRetryAfterMs}}}));
      }
    log_warn("seeks_ended", {{"players", players.size()}, {"why", "the seek pool moved to another process"}});
  }
  if (others_) others_->seek_pool_held(held);
}

void Hub::cancel_seek(const Caller& caller, const protocol::CancelSeek& cancel) {
  if (!pairing_.cancel(caller.player->id, cancel.seek))
    return caller.fail(Code::not_found, "you have no open seek '" + cancel.seek + "': it was paired, cancelled or ended");
  caller.ok();
}

void Hub::watch_seeks(const Caller& caller) {
  caller.ok();
  pairing_.watch(caller.connection);
}

void Hub::seat_paired_table(Table table, RoomOpened opened) {
  const auto report = [opened](const std::string& room_id, const std::vector<PlayerRef>& by_seat = {}) {
    std::vector<std::string> ids;
    for (const auto& player : by_seat) ids.push_back(player->id);
    if (opened) opened(room_id, ids);
  };
  std::vector<PlayerRef> players;
  for (const auto& seeker : table.seekers) {
    auto player = players_.find(seeker.player_id);
    if (!player) {
      report("");
      return log_error("paired_player_unknown", {{"player", seeker.player_id}});
    }
    players.push_back(std::move(player));
  }
  const RoomDraw draw{random_u64(), random_text(kRoomIdCharacters), "", now_utc(), format_utc(time_.now())};
  std::shared_ptr<PairedRoom> paired;
  try {
    paired = std::make_shared<PairedRoom>(plan_paired_room(table, players, draw));
  } catch (const std::exception& e) {
    log_error("paired_room_not_planned", {{"game", table.kind.game}, {"message", e.what()}});
    report("");
    return tell_paired_players(players, Code::internal, "the game you were paired into could not be set up; seek again");
  }
  storage_.create_game(paired->meta, on_io([this, paired, report](bool stored) {
    if (!stored) {
      report("");
      return tell_paired_players(paired->players, Code::unavailable,
                                 "the game you were paired into could not be stored; seek again");
    }
    auto room = std::make_shared<Room>(services(), paired->meta, paired->match, 0, paired->players);
    add_room(room, paired->players);
    std::vector<Caller> members;  // every connection of every player here hears of the room
    for (const auto& player : paired->players)
      for (auto& connection : pairing_.connections_of(player->id))
        members.push_back(Caller{std::move(connection), player, {}, std::chrono::steady_clock::now(), &metrics_});
    log_info("paired_room_created", {{"room", paired->meta.id}, {"game", paired->meta.game},
                                     {"seats", paired->players.size()}});
    room->welcome_rematch(members);  // as a rematch's players: all seated, none asked for it in this room
    report(paired->meta.id, paired->players);
  }));
}

void Hub::game_finished(const std::string& room_id, const Json& result,
                        const std::vector<std::string>& left_unplayed) {
  pairing_.paired_game_finished(room_id, left_unplayed);
  if (game_finished_) game_finished_(room_id, result);
}

// An unsolicited error to every connection of the players of a table that could not be seated.
void Hub::tell_paired_players(const std::vector<PlayerRef>& players, Code code, const std::string& message) {
  for (const auto& player : players)
    for (const auto& connection : pairing_.connections_of(player->id)) {
      metrics_.count_error(code);
      connection->send(protocol::write_error({}, {code, message, {{"paired", true}}}));  // the seeks ended
    }
}

// Persons seated in public rooms being played, by game (every process's: the lobby has them all).
std::map<std::string, int> Hub::playing_by_game() const {
  std::map<std::string, int> playing;
  for (const auto& room : lobby_.entries()) {
    if (room.status != "playing") continue;
    for (const auto& seat : room.seats)
      if (!seat.player_id.empty() && seat.bot == 0) ++playing[room.game];
  }
  return playing;
}

void Hub::create_room(Caller caller, protocol::CreateRoom create) {
  const RoomDraw draw{random_u64(), random_text(kRoomIdCharacters), random_text(kInviteCharacters), now_utc(),
                      format_utc(time_.now())};
  auto planned = plan_room(create, *caller.player, draw);
  if (const auto* refusal = std::get_if<protocol::Error>(&planned))
    return caller.fail(refusal->code, refusal->message, refusal->details);
  auto plan = std::make_shared<RoomPlan>(std::get<RoomPlan>(std::move(planned)));
  if (!rooms_.reserve(caller.player->id, kMaxWaitingRoomsPerPlayer))
    return caller.fail(Code::too_many_rooms,
                       "you already hold " + std::to_string(kMaxWaitingRoomsPerPlayer) +
                           " rooms that wait for players; start or leave one of them first");
  storage_.create_game(plan->meta, on_io([this, caller, plan](bool stored) {
    if (!stored) {
      rooms_.end_reservation(caller.player->id, nullptr);
      return caller.fail_storing("the room could not be stored", storage_.trouble());
    }
    const GameMeta& meta = plan->meta;
    std::vector<PlayerRef> players(static_cast<std::size_t>(plan->match.game().players()));
    if (plan->creator_seat) players[static_cast<std::size_t>(*plan->creator_seat)] = caller.player;
    auto room = std::make_shared<Room>(services(), meta, plan->match, 0, players);
    add_room(room, players);
    rooms_.end_reservation(caller.player->id, &room->id());  // only now: the room counts by itself
    if (plan->creator_seat) seated_here(caller.player->id);
    log_info("room_created", {{"room", meta.id}, {"game", meta.game}, {"private", meta.is_private},
                              {"bots", meta.seats.size() - (plan->creator_seat ? 1 : 0)}, {"started", !meta.started.empty()}});
    room->handle(caller, WelcomeCreator{plan->creator_seat});
  }));
}

void Hub::note_alive() {
  storage_.note_alive(format_utc(time_.now()), [](bool noted) {
    if (!noted) log_warn("alive_not_noted");
  });
}

void Hub::note_alive_every(std::chrono::seconds interval) {
  net::post(timer_strand_, [this, interval] {
    note_alive();
    alive_timer_.expires_after(interval);
    alive_timer_.async_wait([this, interval](const error_code& error) {
      if (!error) note_alive_every(interval);
    });
  });
}

void Hub::expire_waiting_rooms_after(std::chrono::seconds ttl) {
  net::post(timer_strand_, [this, ttl] {
    waiting_room_ttl_ = ttl;
    sweep_expired_rooms();
  });
}

// Runs on timer_strand_, a few times per time-to-live (at most once a minute, at least every
// quarter second), so a room goes at most a quarter of its lifetime late.
void Hub::sweep_expired_rooms() {
  const auto cutoff = std::chrono::system_clock::now() - waiting_room_ttl_;
  for (const auto& room : rooms_.waiting_rooms()) room->expire_if_created_before(cutoff);
  const auto interval = std::clamp<std::chrono::milliseconds>(waiting_room_ttl_ / 4, std::chrono::milliseconds(250),
                                                             std::chrono::seconds(60));
  expiry_timer_.expires_after(interval);
  expiry_timer_.async_wait([this](const error_code& error) {
    if (!error) sweep_expired_rooms();
  });
}

void Hub::join_room(Caller caller, const protocol::JoinRoom& join) {
  const bool by_invite = !join.invite.empty();
  const auto room = by_invite ? rooms_.find_by_invite(join.invite) : find_room(join.room);
  if (!room && by_invite) return caller.fail(Code::forbidden, "no open room has this invite");
  if (!room) return caller.fail(Code::not_found, "no room '" + join.room + "'");
  room->handle(std::move(caller), join);
}

void Hub::add_room(const std::shared_ptr<Room>& room, const std::vector<PlayerRef>& seated) {
  std::vector<std::string> ids;
  for (const auto& player : seated)
    if (player) ids.push_back(player->id);
  rooms_.add(room, ids);
}

// ---- called by rooms -------------------------------------------------------------------

void Hub::seat_index(const std::string& player_id, const std::string& room_id, bool seated) {
  rooms_.seat(player_id, room_id, seated);
  if (seated) seated_here(player_id);  // a seat taken ends the player's seeks
}

void Hub::forget(const std::string& room_id) {
  if (rooms_.remove(room_id)) publish(room_id, std::nullopt);
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
    add_room(room, setup->players);
    log_info("rematch_created", {{"room", meta.id}, {"game", meta.game}});
    room->welcome_rematch(members);
    done(room->id());
  }));
}

void Hub::publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  pairing_.changed();  // the players counted as playing may have changed
  std::optional<protocol::RoomSummary> for_others;
  if (others_) for_others = summary;
  if (lobby_.list(room_id, std::move(summary)) && others_)
    others_->publish_summary(room_id, for_others);  // to the other processes' lobbies
}

void Hub::remote_summary(const std::string& room_id, std::optional<protocol::RoomSummary> summary) {
  if (find_room(room_id)) return;  // ours now (taken over): our own entry is the one to keep
  lobby_.list(room_id, std::move(summary));
}

std::vector<std::pair<std::string, protocol::RoomSummary>> Hub::local_listings() const {
  return lobby_.entries_where([this](const std::string& room_id) { return find_room(room_id) != nullptr; });
}

RoomCounts Hub::room_counts() const { return rooms_.counts(); }

}  // namespace mancala::server
