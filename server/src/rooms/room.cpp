#include "room.hpp"

// The room's core: stepping on its strand, its life (creation, restart, expiry, give-up), its
// seats and members, and sending its views. The game's steps are in room_play.cpp, the chat's
// in room_chat.cpp; the rules they use are units of their own (README.md).
#include <cstdio>
#include <ctime>

#include "log.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

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
      reads_(services.readers, services.storage),
      strand_(net::make_strand(services.io)),
      meta_(std::move(meta)),
      match_(std::move(match)),
      version_(version),
      status_(meta_.status == "finished"  ? RoomStatus::finished
              : meta_.status == "playing" ? RoomStatus::playing
                                          : RoomStatus::waiting),
      seats_(std::move(players)),
      bots_(services.bot_pool, services.metrics, strand_, meta_.id, seats_.count()),
      // Every seat starts away (a new room's creator is added as a member at once); after a
      // restart the grace time counts from the restart, not from before it.
      members_(seats_.count(), services.time.now() + std::chrono::seconds(meta_.grace_seconds)),
      rounds_stored_(match_.game().rounds_played()),
      claim_timer_(strand_),
      read_back_timer_(strand_),
      crowd_timer_(strand_),
      clock_(strand_, services.time, meta_.clock, seats_.count()) {
  for (const auto& seat : meta_.seats) {
    if (seat.bot_level == 0) continue;
    if (seat.seat < 0 || seat.seat >= seats_.count())
      throw std::runtime_error("computer player's seat " + std::to_string(seat.seat) + " does not fit the game");
    seats_.set(seat.seat, bots_.add(seat.seat, seat.bot_level));
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
  const auto seat = seats_.seat_of(caller.player);
  if (!seat) return;
  welcome_back(caller, *seat);
  reply_room(caller);
  tell_open_window(*caller.connection);
}

void Room::welcome_rematch(std::vector<Caller> members) {
  serially(std::nullopt, [this, members = std::move(members)] {
    // Everyone joins before anyone hears of the room, so the first message already shows
    // every player of the rematch connected.
    for (const auto& caller : members) add_member(caller, seats_.seat_of(caller.player));
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
             for (const auto& seat : seats_.players())
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
  // Found in the hub just before it expired (or was emptied and deleted).
  if (forgotten_ && status() == RoomStatus::waiting) return caller.fail(Code::not_found, "no room '" + meta_.id + "'");
  const auto seated = seats_.seat_of(caller.player);
  if (meta_.is_private && join.invite.empty() && !seated)
    return caller.fail(Code::forbidden, "room " + meta_.id + " is private; join it with its invite");
  if (seated) {  // joining again is harmless: same seat, same room message
    welcome_back(caller, *seated);
    reply_room(caller);
    return tell_open_window(*caller.connection);
  }
  auto decision = choose_seat(seats_, join.choice, status(), meta_.rated, caller.player->account);
  if (decision.refusal) return caller.fail(std::move(*decision.refusal));
  if (decision.seat) return take_seat(caller, *decision.seat);
  add_member(caller, std::nullopt);  // a spectator
  reply_room(caller);
  tell_open_window(*caller.connection);
  tell_crowd_changed();
}

std::optional<std::string> Room::start_time_if_last_seat() const {
  return seats_.free_count() == 1 ? std::optional(format_utc(services_.time.now())) : std::nullopt;
}

void Room::fill_seat(int seat, PlayerRef player, const std::optional<std::string>& started_at) {
  seats_.set(seat, std::move(player));
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
  if (auto refusal = bot_seat_refusal(seats_, bot, status(), meta_.rated)) return caller.fail(std::move(*refusal));
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
  for (int i = 0; i < seats_.count(); ++i)
    if (seats_.at(i) && bots_.level(i) == 0) return true;
  return false;
}

void Room::on(const Caller& caller, const protocol::LeaveRoom&) {
  if (!visible_or_refuse(caller)) return;
  const auto seat = seats_.seat_of(caller.player);
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
           seats_.set(seat, nullptr);
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
  if (!gone->seat) tell_crowd_changed();
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

// ---- views ----------------------------------------------------------------------------

bool Room::may_see(const Caller& caller) const {
  if (!meta_.is_private) return true;
  return seats_.seat_of(caller.player) || members_.find(caller.connection.get()) != nullptr;
}

bool Room::visible_or_refuse(const Caller& caller) const {
  if (may_see(caller)) return true;
  caller.fail(not_visible(meta_.id));
  return false;
}

std::optional<int> Room::seated_or_refuse(const Caller& caller, const std::string& refusal) const {
  if (!visible_or_refuse(caller)) return std::nullopt;
  const auto seat = seats_.seat_of(caller.player);
  if (!seat) caller.fail(Code::not_a_player, refusal);
  return seat;
}

bool Room::seat_connected(int seat) const {
  if (bots_.level(seat) > 0) return true;  // computer players never go away
  return members_.seat_connected(seat);
}

RoomSnapshot Room::snapshot() const {
  RoomSnapshot out{meta_, status(), {}, members_.spectators(), clock_.time_control(), clock_.view(),
                   version_, match_, rematch_.room(), chat_, forgotten_};
  for (int i = 0; i < seats_.count(); ++i)
    out.seats.push_back({seats_.at(i), seat_connected(i), bots_.level(i), members_.grace_until(i)});
  return out;
}

void Room::reply_room(const Caller& caller) const {
  caller.reply(protocol::write_room(caller.id, room_view(snapshot(), seats_.seat_of(caller.player).has_value())));
}

// Each spectator's arrival sent the room to every member once, so N spectators cost N²/2 room
// messages to arrive (5,000 took 668 s): the count now goes out coalesced, as the lobby's does.
void Room::tell_crowd_changed() {
  if (crowd_pending_) return;
  crowd_pending_ = true;
  crowd_timer_.expires_after(kCrowdDelay);
  crowd_timer_.async_wait([self = shared_from_this()](const error_code&) {
    self->crowd_pending_ = false;
    if (!self->given_up_) self->send_room_to_others(nullptr);
  });
}

void Room::send_room_to_others(const Connection* except) {
  // Two versions of the message at most: a seated player's (with a private room's invite,
  // without the spectators' chat during play) and everyone else's.
  SharedText texts[2];
  std::optional<RoomSnapshot> room;
  for (const auto& m : members_.all()) {
    if (m.connection.get() == except) continue;
    const bool seated = m.seat.has_value();
    auto& text = texts[seated ? 1 : 0];
    if (!room) room.emplace(snapshot());
    if (!text) text = std::make_shared<const std::string>(protocol::write_room({}, room_view(*room, seated)));
    m.connection->send(text);
  }
}

void Room::send_to_members(const SharedText& text, const Connection* except) { members_.send(text, except); }

void Room::send_presence(int seat, bool connected) {
  send_to_members(std::make_shared<const std::string>(protocol::write_presence(
      meta_.id, seat, connected, connected ? "" : format_utc(members_.grace_until(seat)))));
}

void Room::publish() { services_.host.publish(meta_.id, lobby_entry(snapshot())); }

}  // namespace mancala::server
