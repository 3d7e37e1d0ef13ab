#include "room.hpp"

#include <cstdio>
#include <ctime>

#include "game_log.hpp"
#include "log.hpp"
#include "random.hpp"
#include "reader_pool.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

constexpr std::int64_t kMaxSyncUpdates = 500;
constexpr auto kReadBackInterval = std::chrono::milliseconds(250);
// Games with at least this much time per move are left between moves, so their players are
// told by Web Push; in faster games they are at the board, and a notification would be noise.
constexpr auto kPushClock = std::chrono::hours(24);

void fail_with(const Caller& caller, const MoveError& error) {
  Json details = Json::object();
  if (!error.token.empty()) details["token"] = error.token;
  if (error.code == ErrorCode::illegal_move) details["legal"] = error.legal;
  caller.fail(protocol::from_engine(error.code), error.message, std::move(details));
}

std::string seats_text(int count) { return "0.." + std::to_string(count - 1); }

// The time format_utc wrote ("2026-01-01T12:00:00.000Z"); now for anything else, so that a
// room whose time cannot be read is never taken for old.
SystemTime parse_utc(const std::string& text) {
  std::tm utc{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                  &utc.tm_min, &utc.tm_sec, &millis) != 7)
    return std::chrono::system_clock::now();
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return std::chrono::system_clock::from_time_t(timegm(&utc)) + std::chrono::milliseconds(millis);
}

}  // namespace

Room::Room(Services services, GameMeta meta, Match match, std::int64_t version,
           std::vector<PlayerRef> players, const Json& clock_view)
    : services_(services),
      strand_(net::make_strand(services.io)),
      meta_(std::move(meta)),
      match_(std::move(match)),
      version_(version),
      status_(meta_.status == "finished"  ? RoomStatus::finished
              : meta_.status == "playing" ? RoomStatus::playing
                                          : RoomStatus::waiting),
      bots_(services.bot_pool, services.metrics, strand_, meta_.id, static_cast<int>(players.size())),
      // Every seat starts away (a new room's creator is added as a member at once); after a
      // restart the grace time counts from the restart, not from before it.
      members_(static_cast<int>(players.size()), services.time.now() + std::chrono::seconds(meta_.grace_seconds)),
      rounds_stored_(match_.game().rounds_played()),
      claim_timer_(strand_),
      read_back_timer_(strand_),
      clock_(strand_, services.time, meta_.clock, static_cast<int>(players.size())) {
  seats_ = std::move(players);
  for (const auto& seat : meta_.seats) {
    if (seat.bot_level == 0) continue;
    if (seat.seat < 0 || static_cast<std::size_t>(seat.seat) >= seats_.size())
      throw std::runtime_error("computer player's seat " + std::to_string(seat.seat) + " does not fit the game");
    seats_[static_cast<std::size_t>(seat.seat)] = bots_.add(seat.seat, seat.bot_level);
  }
  // A running game's clock goes on where it stood (the restart's downtime is not charged); a
  // game that starts now, or had no update yet, starts it.
  if (status() == RoomStatus::playing) {
    if (clock_view.is_null()) clock_.start(match_);
    else clock_.resume(clock_view);
  }
}

// ---- stepping --------------------------------------------------------------------------

void Room::serially(std::optional<Caller> caller, Step step) {
  // While the room cannot read its game back (a write failed and the database cannot be
  // reached), a request is answered at once rather than left waiting without a reply.
  if (caller && stalled_.load()) {
    const StorageTrouble trouble = services_.storage.trouble();
    return caller->fail_storing("room " + meta_.id + " is being read back from the database",
                                trouble == StorageTrouble::none ? StorageTrouble::unreachable : trouble);
  }
  net::post(strand_, [self = shared_from_this(), caller = std::move(caller),
                      step = std::move(step)]() mutable {
    self->gate_.run_or_wait([self, caller = std::move(caller), step = std::move(step)] { self->run_step(caller, step); });
  });
}

void Room::run_step(const std::optional<Caller>& caller, const Step& step) {
  if (given_up_) {  // nothing more happens here: timers, bot results and requests all stop
    if (caller) caller->fail(Code::not_found, "room " + meta_.id + " is served by another server now; reconnect to reach it");
    return;
  }
  try {
    step();
  } catch (const std::exception& e) {
    log_error("room_fault", {{"room", meta_.id}, {"message", e.what()}});
    if (caller) caller->fail(Code::internal, "the server could not handle this request");
  }
}

void Room::commit(const std::function<void(std::function<void(bool)>)>& write,
                  std::function<void(bool)> then, std::function<void()> on_durable) {
  gate_.hold();
  write([self = shared_from_this(), then = std::move(then), on_durable = std::move(on_durable)](bool committed) mutable {
    // On the writer thread. A durable update is announced from here at once, without a hop
    // through the room's strand (sending only posts to each connection's strand); the room's
    // own bookkeeping goes back to its strand, where the gate keeps later steps waiting for it.
    if (committed && on_durable) {
      try {
        on_durable();
      } catch (const std::exception& e) {
        log_error("announce_failed", {{"room", self->meta_.id}, {"message", e.what()}});
      }
    }
    net::post(self->strand_, [self, then = std::move(then), committed] {
      self->gate_.release([&] { self->run_step(std::nullopt, [&] { then(committed); }); });
    });
  });
}

// ---- public entry points ---------------------------------------------------------------

void Room::handle(Caller caller, RoomMessage message) {
  serially(caller, [this, caller, message = std::move(message)] {
    std::visit([&](const auto& m) { on(caller, m); }, message);
  });
}

void Room::on(const Caller& caller, const WelcomeCreator& welcome) {
  add_member(caller, welcome.seat);
  reply_room(caller);
  arm_clock();
  let_bot_think();  // computer players took every other seat and one of them starts
}

void Room::restore_chat(std::vector<StoredChatLine> lines) {
  serially(std::nullopt, [this, lines = std::move(lines)]() mutable {
    for (auto& said : lines) chat_.record(std::move(said));
  });
}

void Room::resume_after_restart() {
  serially(std::nullopt, [this] {
    publish();
    arm_clock();
    let_bot_think();
    // A window that was open when the server stopped is gone: open a new one.
    if (status() == RoomStatus::playing) open_claim_window();
  });
}

void Room::on(const Caller& caller, const Attach&) {
  const auto seat = seat_of(caller.player);
  if (!seat) return;
  welcome_back(caller, *seat);
  reply_room(caller);
  tell_open_window(*caller.connection);
}

void Room::welcome_rematch(std::vector<Caller> members) {
  serially(std::nullopt, [this, members = std::move(members)] {
    // Everyone joins before anyone hears of the room, so the first message already shows
    // every player of the rematch connected.
    for (const auto& caller : members) add_member(caller, seat_of(caller.player));
    for (const auto& caller : members) reply_room(caller);
    arm_clock();
    let_bot_think();
  });
}

void Room::drop(std::shared_ptr<Connection> connection) {
  serially(std::nullopt, [this, connection = std::move(connection)] {
    remove_connection(connection);
    forget_if_idle();
  });
}

void Room::expire_if_created_before(SystemTime cutoff) {
  serially(std::nullopt, [this, cutoff] {
    if (forgotten_ || status() != RoomStatus::waiting || parse_utc(meta_.created) > cutoff) return;
    forgotten_ = true;  // from now on joins are not_found and the lobby does not list it
    log_info("room_expired", {{"room", meta_.id}, {"created", meta_.created}});
    // Deleted from the database, then out of the hub, then announced: whoever hears of it can
    // find it nowhere any more.
    commit([&](auto done) { services_.storage.delete_game(meta_.id, std::move(done)); },
           [this](bool deleted) {
             if (!deleted) log_warn("expired_room_not_deleted", {{"room", meta_.id}});
             for (const auto& seat : seats_)
               if (seat) services_.host.seat_index(seat->id, meta_.id, false);
             services_.host.forget(meta_.id);
             send_to_members(std::make_shared<const std::string>(protocol::write_error(
                 {}, {Code::room_expired, "room " + meta_.id + " waited too long for its players and was removed",
                      Json{{"room", meta_.id}}})));
             for (const auto& m : members_.remove_all()) m.connection->left(this);
           });
  });
}

void Room::give_up() {
  serially(std::nullopt, [this] {
    given_up_ = true;
    claim_timer_.cancel();
    clock_.cancel();
    log_info("room_given_up", {{"room", meta_.id}});
    for (const auto& m : members_.remove_all()) {
      m.connection->left(this);
      m.connection->close(CloseCode::going_away);  // its client reconnects and finds the room's new owner
    }
  });
}

// ---- seats and members -----------------------------------------------------------------

void Room::on(const Caller& caller, const protocol::JoinRoom& join) {
  const protocol::SeatChoice& choice = join.choice;
  const bool by_invite = !join.invite.empty();
  // Found in the hub just before it expired (or was emptied and deleted).
  if (forgotten_ && status() == RoomStatus::waiting) return caller.fail(Code::not_found, "no room '" + meta_.id + "'");
  const auto seated = seat_of(caller.player);
  if (meta_.is_private && !by_invite && !seated)
    return caller.fail(Code::forbidden, "room " + meta_.id + " is private; join it with its invite");
  if (seated) {  // joining again is harmless: same seat, same room message
    welcome_back(caller, *seated);
    reply_room(caller);
    return tell_open_window(*caller.connection);
  }
  const int count = static_cast<int>(seats_.size());
  if (choice.seat && *choice.seat >= count)
    return caller.fail(Code::bad_request, "this room has seats " + seats_text(count));
  if (meta_.rated && !choice.spectate && !caller.player->account && status() == RoomStatus::waiting)
    return caller.fail(Code::not_allowed, "this room is rated: only players with an account take its seats "
                                          "(sign up or log in), anyone may watch");
  std::optional<int> target;
  if (choice.seat) {
    if (seats_[static_cast<std::size_t>(*choice.seat)] || status() != RoomStatus::waiting)
      return caller.fail(Code::seat_taken, "seat " + std::to_string(*choice.seat) + " is taken");
    target = choice.seat;
  } else if (!choice.spectate && status() == RoomStatus::waiting) {
    for (int i = 0; i < count && !target; ++i)
      if (!seats_[static_cast<std::size_t>(i)]) target = i;
  }
  if (target) return take_seat(caller, *target);
  add_member(caller, std::nullopt);  // a spectator
  reply_room(caller);
  tell_open_window(*caller.connection);
  send_room_to_others(caller.connection.get());
}

std::optional<std::string> Room::start_time_if_last_seat() const {
  const auto free_seats = std::count(seats_.begin(), seats_.end(), nullptr);
  return free_seats == 1 ? std::optional(format_utc(services_.time.now())) : std::nullopt;
}

void Room::fill_seat(int seat, PlayerRef player, const std::optional<std::string>& started_at) {
  seats_[static_cast<std::size_t>(seat)] = std::move(player);
  members_.set_grace_until(seat, services_.time.now() + std::chrono::seconds(meta_.grace_seconds));
  if (!started_at) return;
  meta_.started = *started_at;
  status_ = RoomStatus::playing;
  clock_.start(match_);
  arm_clock();
  log_info("game_started", {{"room", meta_.id}, {"game", meta_.game}});
}

void Room::take_seat(const Caller& caller, int seat) {
  const std::optional<std::string> started_at = start_time_if_last_seat();
  commit(
      [&](auto done) {
        services_.storage.take_seat(meta_.id, seat, caller.player->id, started_at, std::move(done));
      },
      [this, caller, seat, started_at](bool committed) {
        if (!committed) return caller.fail_storing("the seat could not be stored", services_.storage.trouble());
        fill_seat(seat, caller.player, started_at);
        services_.host.seat_index(caller.player->id, meta_.id, true);
        add_member(caller, seat);
        reply_room(caller);
        send_room_to_others(caller.connection.get());
        publish();
        let_bot_think();
      });
}

void Room::on(const Caller& caller, const protocol::AddBot& add) {
  const protocol::BotSeat& bot = add.bot;
  if (!seated_or_refuse(caller, "only a seated player may add a computer player")) return;
  if (status() != RoomStatus::waiting)
    return caller.fail(Code::not_allowed, "computer players join only while the room waits for players");
  if (meta_.rated) return caller.fail(Code::not_allowed, "a rated room is for people only");
  const int count = static_cast<int>(seats_.size());
  if (bot.seat >= count) return caller.fail(Code::bad_request, "this room has seats " + seats_text(count));
  if (seats_[static_cast<std::size_t>(bot.seat)])
    return caller.fail(Code::seat_taken, "seat " + std::to_string(bot.seat) + " is taken");
  // The caller sits here, so a person's seat remains.
  const std::optional<std::string> started_at = start_time_if_last_seat();
  commit(
      [&](auto done) {
        services_.storage.take_bot_seat(meta_.id, bot.seat, bot.level, started_at, std::move(done));
      },
      [this, caller, bot, started_at](bool committed) {
        if (!committed) return caller.fail_storing("the computer player could not be stored", services_.storage.trouble());
        fill_seat(bot.seat, bots_.add(bot.seat, bot.level), started_at);
        reply_room(caller);
        send_room_to_others(caller.connection.get());
        publish();
        let_bot_think();
      });
}

bool Room::persons_seated() const {
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i] && bots_.level(static_cast<int>(i)) == 0) return true;
  return false;
}

void Room::on(const Caller& caller, const protocol::LeaveRoom&) {
  if (!visible_or_refuse(caller)) return;
  const auto seat = seat_of(caller.player);
  const bool was_member = members_.find(caller.connection.get()) != nullptr;
  remove_connection(caller.connection);
  if (!seat || status() != RoomStatus::waiting) {
    // A spectator's leaving is announced by remove_connection; a seated player's here.
    if (was_member && seat) send_room_to_others(nullptr);
    forget_if_idle();
    return caller.ok();
  }
  // Before the game starts, leaving gives the seat back.
  for (const auto& m : members_.remove_player(caller.player->id)) m.connection->left(this);
  commit([&](auto done) { services_.storage.free_seat(meta_.id, *seat, std::move(done)); },
         [this, caller, seat = *seat](bool committed) {
           if (!committed) return caller.fail_storing("the seat could not be freed", services_.storage.trouble());
           seats_[static_cast<std::size_t>(seat)] = nullptr;
           services_.host.seat_index(caller.player->id, meta_.id, false);
           send_room_to_others(nullptr);
           publish();
           // The hub forgets an emptied room before the caller hears `ok`: a create_room sent
           // right after it must not still count this room against the caller's cap.
           forget_if_idle();
           caller.ok();
         });
}

void Room::remove_connection(const std::shared_ptr<Connection>& connection) {
  const auto gone =
      members_.remove(connection.get(), services_.time.now() + std::chrono::seconds(meta_.grace_seconds));
  if (!gone) return;
  connection->left(this);
  if (!gone->seat) send_room_to_others(nullptr);  // the spectator count changed
  else if (!seat_connected(*gone->seat)) send_presence(*gone->seat, false);
  publish();
}

void Room::forget_if_idle() {
  if (forgotten_ || !members_.empty()) return;
  const bool nobody_seated = !persons_seated();  // computer players do not keep a room alive
  if (status() == RoomStatus::finished) {
    forgotten_ = true;  // stays in the database for the history API
    services_.host.forget(meta_.id);
  } else if (status() == RoomStatus::waiting && nobody_seated) {
    forgotten_ = true;  // a room nobody sits in or watches is of no use to anyone
    services_.host.forget(meta_.id);
    services_.storage.delete_game(meta_.id, [id = meta_.id](bool deleted) {
      if (!deleted) log_warn("empty_room_not_deleted", {{"room", id}});
    });
  }
}

bool Room::add_member(const Caller& caller, std::optional<int> seat) {
  const bool returning = seat && !seat_connected(*seat);
  if (auto* existing = members_.find(caller.connection.get())) {
    existing->seat = seat;
  } else if (caller.connection->joined(shared_from_this())) {
    members_.add({caller.connection, caller.player, seat});
  } else {
    return false;  // it closed meanwhile; the reply goes nowhere
  }
  publish();
  return returning;
}

void Room::tell_open_window(Connection& connection) const {
  const auto& window = race_.current();
  if (!window) return;
  // Someone arriving during a claim race (a reconnection, a restart) learns the window too,
  // with the time that is left.
  connection.send(protocol::write_claim_open(window->rules.name, meta_.id, window->id,
                                             race_.left_ms(std::chrono::steady_clock::now()),
                                             window->rules.fallback_seat));
}

void Room::welcome_back(const Caller& caller, int seat) {
  if (!add_member(caller, seat)) return;
  if (status() == RoomStatus::waiting) send_room_to_others(caller.connection.get());
  else send_presence(seat, true);
}

// ---- playing ---------------------------------------------------------------------------

bool Room::check_playing(const Caller& caller) const {
  if (status() == RoomStatus::waiting) {
    caller.fail(Code::not_started, "the game has not started; it starts when every seat is taken");
    return false;
  }
  if (status() == RoomStatus::finished) {
    caller.fail(Code::game_over, "the game is over");
    return false;
  }
  return true;
}

void Room::on(const Caller& caller, const protocol::Move& move) {
  const auto seat = seated_or_refuse(caller, "only seated players move; you are watching");
  if (!seat) return;
  if (status() == RoomStatus::waiting) {
    check_playing(caller);
    return;
  }
  if (move.expected_version < version_) return resend_or_refuse(caller, move, *seat);
  if (move.expected_version > version_)
    return caller.fail(Code::stale_version,
                       "expected_version " + std::to_string(move.expected_version) +
                           " is ahead of the game, which is at version " + std::to_string(version_),
                       {{"version", version_}});
  if (!check_playing(caller)) return;
  if (flag_fell()) return handle(caller, move);  // judged after the timeout's update
  Outcome outcome = match_.play(*seat, move.tokens);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  commit_update(caller, "move", *seat, move.tokens, std::move(outcome));
}

void Room::read_stored(const Caller& caller, std::function<void(const GameMeta&, Storage&)> read) const {
  services_.readers.run([caller, meta = meta_, &storage = services_.storage, read = std::move(read)] {
    try {
      read(meta, storage);
    } catch (const Unavailable& e) {
      caller.fail_storing("this game's history could not be read", StorageTrouble::unreachable);
    } catch (const std::exception& e) {
      log_error("room_read_failed", {{"room", meta.id}, {"message", e.what()}});
      caller.fail(Code::internal, "the server could not read this game's history; try again");
    }
  });
}

void Room::resend_or_refuse(const Caller& caller, const protocol::Move& move, int seat) {
  read_stored(caller, [caller, move, seat, version = version_](const GameMeta& meta, Storage& storage) {
    // The same move again (a client that lost the reply): the stored update, to it alone.
    if (const auto update = stored_update_of(meta, storage.load_actions(meta.id), move, seat))
      return caller.reply(protocol::write_update(caller.id, *update));
    caller.fail(Code::stale_version,
                "expected_version " + std::to_string(move.expected_version) + " is not the current version " +
                    std::to_string(version) + "; sync first",
                {{"version", version}});
  });
}

void Room::on(const Caller& caller, const protocol::Resign&) { play_special(caller, "resign"); }

void Room::on(const Caller& caller, const protocol::Special& special) { play_special(caller, special.action); }

void Room::play_special(const Caller& caller, const std::string& kind) {
  const auto seat = seated_or_refuse(caller, "only seated players may " + kind);
  if (!seat) return;
  if (!check_playing(caller)) return;
  if (flag_fell()) return serially(caller, [this, caller, kind] { play_special(caller, kind); });
  Outcome outcome = kind == "resign" ? match_.resign(*seat) : match_.special_action(kind, *seat);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  if (race_.current()) {  // a resignation during the race ends the race
    race_.close();
    claim_timer_.cancel();
  }
  commit_update(caller, kind, *seat, "", std::move(outcome));
}

void Room::on(const Caller& caller, const protocol::ClaimAbandon& claim) {
  const auto seat = seated_or_refuse(caller, "only seated players may claim an abandoned game");
  if (!seat) return;
  if (!check_playing(caller)) return;
  if (flag_fell()) return handle(caller, claim);  // judged after the timeout's update
  const Seat absent = match_.game().to_move();
  if (absent == kNoSeat) return caller.fail(Code::not_abandoned, "nobody is to move right now");
  if (absent == *seat) return caller.fail(Code::not_abandoned, "you are the player to move");
  if (seat_connected(absent))
    return caller.fail(Code::not_abandoned, "seat " + std::to_string(absent) + " is connected");
  const SystemTime grace_until = members_.grace_until(absent);
  if (services_.time.now() < grace_until)
    return caller.fail(Code::not_abandoned,
                       "seat " + std::to_string(absent) + " may come back until " + format_utc(grace_until),
                       Json{{"grace_until", format_utc(grace_until)}});  // data for clients, not the sentence
  Outcome outcome = match_.resign(absent);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  commit_update(caller, "abandon", absent, "", std::move(outcome));
}

void Room::on(const Caller& caller, const protocol::Sync& sync) {
  const std::int64_t since = sync.since;
  if (!visible_or_refuse(caller)) return;
  if (version_ - since > kMaxSyncUpdates)
    return reply_room(caller);
  if (since >= version_) return caller.reply(protocol::write_updates(caller.id, meta_.id, {}));
  // The updates up to this version, as of this request; later ones reach the caller as updates.
  read_stored(caller, [caller, since, until = version_](const GameMeta& meta, Storage& storage) {
    caller.reply(protocol::write_updates(caller.id, meta.id, updates_between(meta, storage.load_actions(meta.id), since, until)));
  });
}

void Room::commit_update(std::optional<Caller> caller, std::string kind, int seat,
                         std::string tokens, Outcome outcome) {
  // The clock as this update leaves it is stored with it, and adopted once it is committed.
  const SystemTime now = clock_.now();
  std::optional<GameClock> clock = clock_.next(match_, kind, seat, now);
  Json clock_view = clock ? clock->view(now) : Json();
  // The update's text is written before the commit (the state straight as text, no tree), so
  // the commit's completion only has to send it. Its parts then move into the stored action
  // (a move's events do not: game_log.hpp, events_to_store).
  protocol::Update update{meta_.id, version_ + 1, seat, std::move(kind), std::move(tokens),
                          to_json_text(Json(std::move(outcome.events))), protocol::write_state(match_, clock_view)};
  auto text = std::make_shared<const std::string>(protocol::write_update({}, update));
  UpdateEffects effects;
  const std::size_t rounds_after = match_.game().rounds_played();
  if (rounds_after > rounds_stored_) {  // a round ended: its record is stored beside the game
    const Json rounds = match_.game().rounds();
    for (std::size_t i = rounds_stored_; i < rounds_after; ++i)
      effects.new_rounds.emplace_back(static_cast<int>(i + 1), rounds[i]);
  }
  std::string events = events_to_store(update.action, std::move(update.events));
  auto action = std::make_shared<const StoredAction>(StoredAction{update.version, std::move(update.action), seat,
                                                                  std::move(update.tokens), std::move(events),
                                                                  now_utc(), std::move(clock_view)});
  if (match_.over()) {
    effects.finished_at = action->at;
    effects.result = match_.result();
    effects.outcomes.resize(static_cast<std::size_t>(match_.game().players()));
    match_.game().outcome(effects.outcomes);
  }
  // The mover's copy, with its request id, is also written before the commit.
  SharedText mover_text = caller ? std::make_shared<const std::string>(protocol::with_id(*text, caller->id)) : nullptr;
  const SteadyTime handed_over = std::chrono::steady_clock::now();
  commit(
      [&](auto done) { services_.storage.append_action(meta_.id, action, effects, std::move(done)); },
      [this, caller, action, rounds_after, clock = std::move(clock)](bool committed) {
        if (!committed) {
          rebuild_from_storage();  // the match ran ahead of the database: take it back
          if (caller) caller->fail_storing("the move could not be stored", services_.storage.trouble());
          return;
        }
        version_ = action->version;
        rounds_stored_ = rounds_after;
        clock_.adopt(clock);
        arm_clock();
        after_update(*action);
      },
      [this, caller, text = std::move(text), mover_text = std::move(mover_text), handed_over] {
        if (caller) services_.metrics.move_commit.observe(std::chrono::steady_clock::now() - handed_over);
        announce(text, mover_text, caller);
      });
}

// Runs on the writer's thread while the gate is held: no step of the room runs meanwhile (they
// wait for the gate), so the members are as they were when the commit began.
void Room::announce(const SharedText& text, const SharedText& mover_text, const std::optional<Caller>& caller) const {
  const Connection* mover = caller ? caller->connection.get() : nullptr;
  members_.send(text, mover);
  if (caller) {
    caller->connection->send(mover_text);
    services_.metrics.move_latency.observe(std::chrono::steady_clock::now() - caller->received);
  }
  ++services_.metrics.moves_applied;
}

void Room::after_update(const StoredAction& action) {
  if (match_.over()) {
    status_ = RoomStatus::finished;
    meta_.finished = action.at;
    claim_timer_.cancel();
    clock_.cancel();
    race_.cancel();
    for (std::size_t i = 0; i < seats_.size(); ++i)
      if (seats_[i] && bots_.level(static_cast<int>(i)) == 0) services_.host.seat_index(seats_[i]->id, meta_.id, false);
    log_info("game_finished", {{"room", meta_.id}, {"version", version_}});
    services_.host.game_finished(meta_.id, match_.result());
    publish();
    if (meta_.rated) refresh_ratings();
    return forget_if_idle();
  }
  open_claim_window();
  let_bot_think();
  tell_absent_player_to_move(action.seat);
}

void Room::tell_absent_player_to_move(std::optional<int> mover) {
  if (!services_.push || !clock_.per_move_at_least(kPushClock)) return;
  const Seat next = match_.game().to_move();
  // Once per move of the opponent: a turn of several decisions tells only when it passes.
  if (next == kNoSeat || (mover && next == *mover) || seat_connected(next)) return;
  const auto& player = seats_[static_cast<std::size_t>(next)];
  if (!player) return;  // a computer player's seat
  const auto& moved = mover ? seats_[static_cast<std::size_t>(*mover)] : nullptr;
  services_.push->notify({player->id, meta_.id, "Your move",
                          (moved ? moved->name : std::string("Your opponent")) + " has moved: it is your turn."});
}

void Room::tell_players_of_rematch(int asker) {
  if (!services_.push || !clock_.per_move_at_least(kPushClock)) return;
  const std::vector<int> asked = rematch_.asked();
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i] && std::find(asked.begin(), asked.end(), static_cast<int>(i)) == asked.end())
      services_.push->notify({seats_[i]->id, meta_.id, "Rematch?",
                              seats_[static_cast<std::size_t>(asker)]->name + " offers you a rematch."});
}

// The ratings the result's commit wrote are read back for the seats (never on the strand),
// and then every member sees them.
void Room::refresh_ratings() {
  services_.readers.run([self = shared_from_this(), players = seats_] {
    std::vector<std::string> rated;
    try {
      for (const auto& player : players) {
        if (!player || !player->account) continue;
        player->ratings->set(self->services_.storage.accounts().ratings_of(player->id));
        rated.push_back(player->id);
      }
    } catch (const std::exception& e) {  // shown after the next restart instead
      log_warn("ratings_not_read", {{"room", self->meta_.id}, {"message", e.what()}});
      return;
    }
    self->services_.host.players_changed(rated);
    self->serially(std::nullopt, [self] {
      self->send_room_to_others(nullptr);
      self->publish();
    });
  });
}

// ---- the claim window ------------------------------------------------------------------

void Room::open_claim_window() {
  const auto rules = match_.claim_window();
  if (!rules || race_.current()) return;
  const auto& window = race_.open(*rules, random_text(kWindowCharacters), std::chrono::steady_clock::now());
  send_to_members(std::make_shared<const std::string>(protocol::write_claim_open(
      rules->name, meta_.id, window.id, rules->length_ms, rules->fallback_seat)));
  claim_timer_.expires_at(window.deadline);
  claim_timer_.async_wait([self = shared_from_this(), id = window.id](const error_code& error) {
    if (error) return;  // cancelled: a claim won, or the server is stopping
    self->serially(std::nullopt, [self, id] {
      if (self->race_.is_open(id)) self->settle_claim(std::nullopt, std::nullopt);
    });
  });
  schedule_bot_claims();
}

void Room::on(const Caller& caller, const protocol::Claim& claim) {
  const auto seat = seated_or_refuse(caller, "only seated players may claim");
  if (!seat) return;
  switch (race_.judge(claim.window)) {
    case ClaimRace::Verdict::lost: return caller.fail(Code::claim_lost, "another claim won this window");
    case ClaimRace::Verdict::unknown: return caller.fail(Code::no_claim_window, "no window with this id is open");
    case ClaimRace::Verdict::open: return settle_claim(caller, *seat);
  }
}

// `claimant` claims the open window; nothing: its deadline passed, the game's fallback applies.
void Room::settle_claim(const std::optional<Caller>& caller, std::optional<int> claimant) {
  Outcome outcome = claimant ? match_.claim(*claimant) : match_.close_claim_window();
  if (!outcome.ok()) {  // e.g. a seat that resigned: refused, the window stays open
    if (caller) fail_with(*caller, *outcome.error);
    else if (claimant) log_info("bot_claim_refused", {{"room", meta_.id}, {"seat", *claimant}});
    else log_error("claim_fallback_refused", {{"room", meta_.id}, {"message", outcome.error->message}});
    return;
  }
  const std::int64_t held_ms = race_.held_ms(std::chrono::steady_clock::now());
  const ClaimWindow rules = race_.close().rules;
  claim_timer_.cancel();
  // The settling event records how long the race took (the game knows nothing of time).
  if (!outcome.events.empty() && outcome.events[0].value("event", "") == rules.result_event)
    outcome.events[0]["latency_ms"] = held_ms;
  commit_update(caller, std::string(claimant ? rules.name : rules.fallback), claimant.value_or(rules.fallback_seat),
                "", std::move(outcome));
}

void Room::rebuild_from_storage() {
  // The read runs on a reader thread; the gate holds every later step until the match is back.
  gate_.hold();
  read_back();
}

// Until the read succeeds the room keeps its gate: its match ran ahead of the database, and no
// step may see that position. Tried again every kReadBackInterval while the database is away,
// so play resumes within that time of its return.
void Room::read_back() {
  services_.readers.run([self = shared_from_this(), meta = meta_] {
    auto rebuilt = std::make_shared<std::optional<std::pair<Match, std::int64_t>>>();
    try {
      const auto actions = self->services_.storage.load_actions(meta.id);
      rebuilt->emplace(replay(meta, actions), actions.empty() ? 0 : actions.back().version);
    } catch (const std::exception& e) {
      log_error("room_rebuild_failed", {{"room", meta.id}, {"message", e.what()}});
    }
    net::post(self->strand_, [self, rebuilt] {
      if (!*rebuilt) {
        self->stalled_ = true;
        self->read_back_timer_.expires_after(kReadBackInterval);
        self->read_back_timer_.async_wait([self](const error_code& error) {
          if (!error) self->read_back();
        });
        return;
      }
      self->stalled_ = false;
      self->gate_.release([&] {
        self->run_step(std::nullopt, [&] {
          self->match_ = std::move((*rebuilt)->first);
          self->version_ = (*rebuilt)->second;
          // A claim or fallback that failed to commit leaves the race to run again.
          self->open_claim_window();
          self->let_bot_think();  // a computer player's move that failed to commit is searched again
        });
      });
    });
  });
}

// ---- the clock -------------------------------------------------------------------------

void Room::arm_clock() {
  if (status() != RoomStatus::playing) return clock_.cancel();
  clock_.arm([weak = weak_from_this()] {
    if (const auto self = weak.lock())
      self->serially(std::nullopt, [self] {
        if (self->status() == RoomStatus::playing && !self->flag_fell()) self->arm_clock();  // woke early
      });
  });
}

// The server commits a timeout itself: no claim is needed. Also checked before judging a
// request, so that a move arriving after the flag fell (but before the timer's step ran)
// finds the game as the timeout left it.
bool Room::flag_fell() {
  const auto seat = clock_.flagged();
  if (!seat || gate_.held()) return false;
  Outcome outcome = match_.timeout(*seat);
  if (!outcome.ok()) {
    log_error("timeout_refused", {{"room", meta_.id}, {"seat", *seat}, {"message", outcome.error->message}});
    return false;
  }
  log_info("clock_timeout", {{"room", meta_.id}, {"seat", *seat}});
  commit_update(std::nullopt, "timeout", *seat, "", std::move(outcome));
  return true;
}

// ---- rematch ---------------------------------------------------------------------------

void Room::on(const Caller& caller, const protocol::Rematch&) {
  const auto seat = seated_or_refuse(caller, "only the players of this game may ask for a rematch");
  if (!seat) return;
  if (status() != RoomStatus::finished)
    return caller.fail(Code::not_allowed, "the game is not over; a rematch can be asked for once it has ended");
  if (auto refusal = rematch_.refusal()) return caller.fail(refusal->code, refusal->message, refusal->details);
  if (const auto gone = person_who_left())
    return caller.fail(Code::not_allowed, seats_[static_cast<std::size_t>(*gone)]->name +
                                              " has left the room, so nobody would play the rematch with you; "
                                              "start a new game from the lobby");
  const bool everyone = rematch_.ask(*seat, bot_levels());
  caller.ok();
  send_to_members(std::make_shared<const std::string>(protocol::write_rematch(meta_.id, rematch_.asked())));
  if (everyone) return start_rematch();
  tell_players_of_rematch(*seat);
}

std::vector<int> Room::bot_levels() const {
  std::vector<int> levels;
  for (int i = 0; i < static_cast<int>(seats_.size()); ++i) levels.push_back(bots_.level(i));
  return levels;
}

std::optional<int> Room::person_who_left() const {
  for (int i = 0; i < static_cast<int>(seats_.size()); ++i)
    if (seats_[static_cast<std::size_t>(i)] && !seat_connected(i)) return i;
  return std::nullopt;
}

void Room::start_rematch() {
  const std::vector<int> levels = bot_levels();
  std::vector<PlayerRef> players;
  for (std::size_t i = 0; i < seats_.size(); ++i) players.push_back(levels[i] > 0 ? nullptr : seats_[i]);
  std::vector<Caller> members;
  for (const auto& m : members_.all())
    members.push_back(Caller{m.connection, m.player, {}, std::chrono::steady_clock::now(), &services_.metrics});
  services_.host.create_rematch(meta_, std::move(players), std::move(levels), std::move(members),
                               [weak = weak_from_this()](std::string room_id) {
                                 if (const auto self = weak.lock())
                                   self->serially(std::nullopt, [self, room_id] { self->rematch_started(room_id); });
                               });
}

void Room::rematch_started(const std::string& room_id) {
  rematch_.set_up(room_id);
  if (room_id.empty()) {
    send_to_members(std::make_shared<const std::string>(protocol::write_error(
        {}, {Code::internal, "the rematch could not be set up; ask for it again", Json{{"room", meta_.id}}})));
    return;
  }
  send_room_to_others(nullptr);  // the old room's message now names the rematch
}

// ---- computer players ------------------------------------------------------------------

void Room::let_bot_think(bool random) {
  if (status() != RoomStatus::playing) return;  // a finished game needs no search
  bots_.think(match_.game(), version_, [weak = weak_from_this()](BotSeats::Result result) {
    // On a pool thread: back to the strand, behind any commit in progress.
    if (const auto self = weak.lock())
      self->serially(std::nullopt, [self, result = std::move(result)] { self->play_bot_move(result); });
  }, random);
}

void Room::play_bot_move(const BotSeats::Result& result) {
  bots_.thought();
  if (flag_fell()) return;  // its time ran out before it answered
  // A result for an older version (someone resigned, a claim race ended meanwhile) is dropped;
  // whoever is to move now is looked at again.
  const bool current = result.version == version_ && status() == RoomStatus::playing &&
                       match_.game().to_move() == result.seat;
  if (!current || result.tokens.empty()) return let_bot_think();
  Outcome outcome = match_.play(result.seat, result.tokens);
  if (!outcome.ok()) {
    log_error("bot_move_refused", {{"room", meta_.id}, {"seat", result.seat}, {"tokens", result.tokens},
                                   {"message", outcome.error->message}});
    return let_bot_think(/*random=*/true);
  }
  ++services_.metrics.bot_moves;
  commit_update(std::nullopt, "move", result.seat, result.tokens, std::move(outcome));
}

void Room::schedule_bot_claims() {
  // Each computer player claims after its reaction time, through the same path as a person's
  // claim; a quicker claim (or the deadline) closes the window first and the late one is void.
  for (const auto& [seat, delay] : bots_.claim_reactions()) {
    auto timer = std::make_shared<net::steady_timer>(strand_, delay);
    timer->async_wait([self = shared_from_this(), timer, seat = seat, id = race_.current()->id](const error_code& error) {
      if (error) return;
      self->serially(std::nullopt, [self, seat, id] {
        if (self->race_.is_open(id)) self->settle_claim(std::nullopt, seat);
      });
    });
  }
}

// ---- chat ------------------------------------------------------------------------------

void Room::on(const Caller& caller, const protocol::Chat& chat) {
  const std::string& text = chat.text;
  if (!may_see(caller) || !members_.find(caller.connection.get()))
    return caller.fail(Code::not_found, "join room " + meta_.id + " to chat in it");
  const bool seated = seat_of(caller.player).has_value();
  if (!seated && !meta_.spectator_chat)
    return caller.fail(Code::not_allowed, "the room's creator turned the spectators' chat off");
  if (auto refusal = chat_.take_turn(caller.player->id, text, std::chrono::steady_clock::now()))
    return caller.fail(Code::rate_limited, *refusal);
  // Whether the line was said during play is settled now, on the strand, and stored with it:
  // who may read it must not depend on how soon after it the game ended.
  StoredChatLine said{{seated ? kPlayersChannel : kSpectatorsChannel, caller.player->id, caller.player->name, text,
                       now_utc(), caller.player->account},
                      status() == RoomStatus::playing};
  // An operator may have silenced the player from the command line: a database read, so on
  // a reader, never on the strand.
  services_.readers.run([self = shared_from_this(), caller, said = std::move(said)]() mutable {
    std::optional<std::string> silenced;
    try {
      silenced = self->services_.storage.chat().silenced_until(said.line.player_id);
    } catch (const std::exception& e) {
      return caller.fail_storing("the message could not be checked", StorageTrouble::unreachable);
    }
    if (silenced) return caller.fail(Code::silenced, "an operator silenced your chat until " + *silenced);
    self->say(caller, std::move(said));
  });
}

// Stored first (the history shows it beside the moves), then sent to the line's channel.
void Room::say(const Caller& caller, StoredChatLine said) {
  services_.storage.chat().append(
      meta_.id, said, [self = shared_from_this(), caller, said](bool stored) {
        if (!stored) return caller.fail_storing("the message could not be stored", self->services_.storage.trouble());
        self->serially(std::nullopt, [self, caller, said] {
          self->chat_.record(said);
          const auto text = std::make_shared<const std::string>(protocol::write_chat(self->meta_.id, said.line));
          for (const auto& m : self->members_.all())
            if (ChatLog::may_read(said, m.seat.has_value())) m.connection->send(text);
          caller.reply(protocol::write_ok(caller.id));
        });
      });
}

void Room::on(const Caller& caller, const protocol::SpectatorChat& setting) {
  if (!visible_or_refuse(caller)) return;
  if (!caller.player || caller.player->id != meta_.host_id)
    return caller.fail(Code::not_allowed, "only the room's creator turns the spectators' chat off or on");
  commit(
      [&](auto done) { services_.storage.chat().set_spectator_chat(meta_.id, setting.on, std::move(done)); },
      [this, caller, on = setting.on](bool committed) {
        if (!committed) return caller.fail_storing("the setting could not be stored", services_.storage.trouble());
        meta_.spectator_chat = on;
        caller.reply(protocol::write_ok(caller.id));
        send_room_to_others(nullptr);
      });
}

void Room::on(const Caller& caller, const protocol::ReportChat& report) {
  const protocol::ChatLine* line =
      members_.find(caller.connection.get()) ? chat_.find(report.player_id, report.at) : nullptr;
  if (!line) return caller.fail(Code::not_found, "no recent message of that player at that time in this room");
  services_.storage.chat().report(meta_.id, *line, caller.player->id, [self = shared_from_this(), caller](bool stored) {
    if (!stored) return caller.fail_storing("the report could not be stored", self->services_.storage.trouble());
    log_info("chat_reported", {{"room", self->meta_.id}, {"reporter", caller.player->id}});
    caller.reply(protocol::write_ok(caller.id));
  });
}

// ---- views -----------------------------------------------------------------------------

bool Room::may_see(const Caller& caller) const {
  if (!meta_.is_private) return true;
  return seat_of(caller.player) || members_.find(caller.connection.get()) != nullptr;
}

bool Room::visible_or_refuse(const Caller& caller) const {
  if (may_see(caller)) return true;
  caller.fail(Code::not_found, "no room " + meta_.id);
  return false;
}

std::optional<int> Room::seated_or_refuse(const Caller& caller, const std::string& refusal) const {
  if (!visible_or_refuse(caller)) return std::nullopt;
  const auto seat = seat_of(caller.player);
  if (!seat) caller.fail(Code::not_a_player, refusal);
  return seat;
}

std::optional<int> Room::seat_of(const PlayerRef& player) const {
  if (!player) return std::nullopt;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i] && seats_[i]->id == player->id) return static_cast<int>(i);
  return std::nullopt;
}

bool Room::seat_connected(int seat) const {
  if (bots_.level(seat) > 0) return true;  // computer players never go away
  return members_.seat_connected(seat);
}

protocol::RoomSummary Room::summary() const {
  // `created` comes from the database after a restart: the room's original time.
  protocol::RoomSummary out{meta_.id, meta_.game, meta_.options, std::string(to_string(status())),
                            {},       0,          clock_.time_control(), meta_.rated, meta_.host_name, meta_.created};
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& player = seats_[i];
    const bool connected = seat_connected(static_cast<int>(i));
    const bool away = player && !connected && status() == RoomStatus::playing;
    protocol::SeatView seat{static_cast<int>(i), player ? player->id : "", player ? player->name : "",
                            connected, bots_.level(static_cast<int>(i)), away ? format_utc(members_.grace_until(static_cast<int>(i))) : ""};
    if (player && player->account) {
      seat.account = true;
      const SeatRating rating = player->ratings->of(meta_.game).value_or(SeatRating{});
      seat.rating = static_cast<int>(std::lround(rating.rating.rating));
      seat.provisional = rating.provisional();
    }
    out.seats.push_back(std::move(seat));
  }
  out.spectators = members_.spectators();
  return out;
}

protocol::RoomView Room::view(bool with_invite, bool seated) const {
  protocol::RoomView out;
  out.summary = summary();
  out.grace_seconds = meta_.grace_seconds;
  out.is_private = meta_.is_private;
  if (with_invite) out.invite = meta_.invite;
  out.version = version_;
  out.clock = clock_.view();
  if (status() != RoomStatus::waiting) out.state = protocol::write_state(match_, out.clock);
  out.rematch = rematch_.room();
  out.host_id = meta_.host_id;
  out.spectator_chat = meta_.spectator_chat;
  out.chat = chat_.visible(seated);
  return out;
}

void Room::reply_room(const Caller& caller) const {
  const bool seated = seat_of(caller.player).has_value();
  caller.reply(protocol::write_room(caller.id, view(meta_.is_private && seated, seated)));
}

void Room::send_room_to_others(const Connection* except) {
  // Two versions of the message at most: a seated player's (with a private room's invite,
  // without the spectators' chat during play) and everyone else's.
  SharedText texts[2];
  for (const auto& m : members_.all()) {
    if (m.connection.get() == except) continue;
    const bool seated = m.seat.has_value();
    auto& text = texts[seated ? 1 : 0];
    if (!text) text = std::make_shared<const std::string>(protocol::write_room({}, view(meta_.is_private && seated, seated)));
    m.connection->send(text);
  }
}

void Room::send_to_members(const SharedText& text, const Connection* except) { members_.send(text, except); }

void Room::send_presence(int seat, bool connected) {
  send_to_members(std::make_shared<const std::string>(protocol::write_presence(
      meta_.id, seat, connected, connected ? "" : format_utc(members_.grace_until(seat)))));
}

void Room::publish() {
  const bool has_free_seat =
      std::any_of(seats_.begin(), seats_.end(), [](const PlayerRef& player) { return !player; });
  const bool listed = !meta_.is_private && !forgotten_ &&
                      (status() == RoomStatus::playing ||
                       (status() == RoomStatus::waiting && has_free_seat));
  services_.host.publish(meta_.id, listed ? std::optional(summary()) : std::nullopt);
}

}  // namespace mancala::server
