#include "room.hpp"

#include "game_log.hpp"
#include "hub.hpp"
#include "log.hpp"
#include "random.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

constexpr std::int64_t kMaxSyncUpdates = 500;
constexpr std::int64_t kDefaultPlexWindowMs = 5000;

void fail_with(const Caller& caller, const MoveError& error) {
  Json details = Json::object();
  if (!error.token.empty()) details["token"] = error.token;
  if (error.code == ErrorCode::illegal_move) details["legal"] = error.legal;
  caller.fail(protocol::from_engine(error.code), error.message, std::move(details));
}

std::string seats_text(int count) { return "0.." + std::to_string(count - 1); }

}  // namespace

std::string_view to_string(RoomStatus status) {
  switch (status) {
    case RoomStatus::waiting: return "waiting";
    case RoomStatus::playing: return "playing";
    case RoomStatus::finished: return "finished";
  }
  return "waiting";
}

Room::Room(Services services, GameMeta meta, Match match, std::int64_t version,
           std::vector<PlayerRef> players)
    : services_(services),
      strand_(net::make_strand(services.io)),
      meta_(std::move(meta)),
      match_(std::move(match)),
      version_(version),
      status_(meta_.status == "finished"  ? RoomStatus::finished
              : meta_.status == "playing" ? RoomStatus::playing
                                          : RoomStatus::waiting),
      rounds_stored_(match_.game().rounds().size()),
      plex_timer_(strand_) {
  // Everyone starts away (a new room's creator is added as a member at once); after a restart
  // the grace time counts from the restart, not from before it.
  const SystemTime grace_until =
      std::chrono::system_clock::now() + std::chrono::seconds(meta_.grace_seconds);
  for (auto& player : players) seats_.push_back({std::move(player), grace_until});
}

// ---- stepping --------------------------------------------------------------------------

void Room::serially(std::optional<Caller> caller, Step step) {
  net::post(strand_, [self = shared_from_this(), caller = std::move(caller),
                      step = std::move(step)]() mutable {
    if (self->busy_) self->deferred_.emplace_back(std::move(caller), std::move(step));
    else self->run_step(caller, step);
  });
}

void Room::run_step(const std::optional<Caller>& caller, const Step& step) {
  try {
    step();
  } catch (const std::exception& e) {
    log_error("room_fault", {{"room", meta_.id}, {"message", e.what()}});
    if (caller) caller->fail(Code::internal, "the server could not handle this request");
  }
}

void Room::run_deferred() {
  while (!busy_ && !deferred_.empty()) {
    auto [caller, step] = std::move(deferred_.front());
    deferred_.pop_front();
    run_step(caller, step);
  }
}

void Room::commit(const std::function<void(std::function<void(bool)>)>& write,
                  std::function<void(bool)> then) {
  busy_ = true;
  write([self = shared_from_this(), then = std::move(then)](bool committed) mutable {
    // On the writer thread: hand the result back to the strand at once.
    net::post(self->strand_, [self, then = std::move(then), committed] {
      self->busy_ = false;
      self->run_step(std::nullopt, [&] { then(committed); });
      self->run_deferred();
    });
  });
}

// ---- public entry points ---------------------------------------------------------------

void Room::welcome_creator(Caller caller, std::optional<int> seat) {
  serially(caller, [this, caller, seat] {
    add_member(caller, seat);
    reply_room(caller);
  });
}

void Room::resume_after_restart() {
  serially(std::nullopt, [this] {
    publish();
    // A window that was open when the server stopped is gone: open a new one.
    if (status() == RoomStatus::playing && match_.game().phase() == Phase::plex)
      open_plex_window(plex_mover(services_.storage.load_actions(meta_.id)));
  });
}

void Room::join(Caller caller, protocol::SeatChoice choice, bool by_invite) {
  serially(caller, [this, caller, choice, by_invite] { do_join(caller, choice, by_invite); });
}

void Room::attach(Caller caller) {
  serially(caller, [this, caller] {
    const auto seat = seat_of(caller.player);
    if (!seat) return;
    welcome_back(caller, *seat);
    reply_room(caller);
    tell_open_window(*caller.connection);
  });
}

void Room::leave(Caller caller) {
  serially(caller, [this, caller] { do_leave(caller); });
}

void Room::move(Caller caller, protocol::Move move) {
  serially(caller, [this, caller, move = std::move(move)] { do_move(caller, move); });
}

void Room::sync(Caller caller, std::int64_t since) {
  serially(caller, [this, caller, since] { do_sync(caller, since); });
}

void Room::resign(Caller caller) {
  serially(caller, [this, caller] { do_special(caller, "resign"); });
}

void Room::concede(Caller caller) {
  serially(caller, [this, caller] { do_special(caller, "concede"); });
}

void Room::plex(Caller caller, std::string window) {
  serially(caller, [this, caller, window = std::move(window)] { do_plex(caller, window); });
}

void Room::claim_abandon(Caller caller) {
  serially(caller, [this, caller] { do_claim_abandon(caller); });
}

void Room::drop(std::shared_ptr<Connection> connection) {
  serially(std::nullopt, [this, connection = std::move(connection)] {
    remove_connection(connection);
    forget_if_idle();
  });
}

// ---- seats and members -----------------------------------------------------------------

void Room::do_join(const Caller& caller, protocol::SeatChoice choice, bool by_invite) {
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
  std::optional<int> target;
  if (choice.seat) {
    if (seats_[static_cast<std::size_t>(*choice.seat)].player || status() != RoomStatus::waiting)
      return caller.fail(Code::seat_taken, "seat " + std::to_string(*choice.seat) + " is taken");
    target = choice.seat;
  } else if (!choice.spectate && status() == RoomStatus::waiting) {
    for (int i = 0; i < count && !target; ++i)
      if (!seats_[static_cast<std::size_t>(i)].player) target = i;
  }
  if (target) return take_seat(caller, *target);
  add_member(caller, std::nullopt);  // a spectator
  reply_room(caller);
  tell_open_window(*caller.connection);
  send_room_to_others(caller.connection.get());
}

void Room::take_seat(const Caller& caller, int seat) {
  const auto free_seats = std::count_if(seats_.begin(), seats_.end(), [](const SeatState& s) { return !s.player; });
  const bool starts = free_seats == 1;
  const std::optional<std::string> started_at = starts ? std::optional(now_utc()) : std::nullopt;
  commit(
      [&](auto done) {
        services_.storage.take_seat(meta_.id, seat, caller.player->id, started_at, std::move(done));
      },
      [this, caller, seat, started_at](bool committed) {
        if (!committed) return caller.fail(Code::internal, "the seat could not be stored; try again");
        seats_[static_cast<std::size_t>(seat)] = {caller.player, std::chrono::system_clock::now() +
                                                                     std::chrono::seconds(meta_.grace_seconds)};
        services_.hub.seat_index(caller.player->id, meta_.id, true);
        if (started_at) {
          meta_.started = *started_at;
          status_ = RoomStatus::playing;
          log_info("game_started", {{"room", meta_.id}, {"game", meta_.game}});
        }
        add_member(caller, seat);
        reply_room(caller);
        send_room_to_others(caller.connection.get());
        publish();
      });
}

void Room::do_leave(const Caller& caller) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  const auto seat = seat_of(caller.player);
  const bool was_member = member(caller.connection.get()) != nullptr;
  remove_connection(caller.connection);
  if (!seat || status() != RoomStatus::waiting) {
    caller.ok();
    // A spectator's leaving is announced by remove_connection; a seated player's here.
    if (was_member && seat) send_room_to_others(nullptr);
    return forget_if_idle();
  }
  // Before the game starts, leaving gives the seat back.
  for (auto it = members_.begin(); it != members_.end();) {  // every connection of this player
    if (it->player && it->player->id == caller.player->id) {
      it->connection->left(this);
      it = members_.erase(it);
    } else {
      ++it;
    }
  }
  commit([&](auto done) { services_.storage.free_seat(meta_.id, *seat, std::move(done)); },
         [this, caller, seat = *seat](bool committed) {
           if (!committed) return caller.fail(Code::internal, "the seat could not be freed; try again");
           seats_[static_cast<std::size_t>(seat)].player = nullptr;
           services_.hub.seat_index(caller.player->id, meta_.id, false);
           caller.ok();
           send_room_to_others(nullptr);
           publish();
           forget_if_idle();
         });
}

void Room::remove_connection(const std::shared_ptr<Connection>& connection) {
  const auto it = std::find_if(members_.begin(), members_.end(),
                               [&](const Member& m) { return m.connection == connection; });
  if (it == members_.end()) return;
  const auto seat = it->seat;
  connection->left(this);
  members_.erase(it);
  if (!seat) {
    send_room_to_others(nullptr);  // the spectator count changed
  } else if (!seat_connected(*seat)) {
    seats_[static_cast<std::size_t>(*seat)].grace_until =
        std::chrono::system_clock::now() + std::chrono::seconds(meta_.grace_seconds);
    send_presence(*seat, false);
  }
  publish();
}

void Room::forget_if_idle() {
  if (forgotten_ || !members_.empty()) return;
  const bool nobody_seated =
      std::none_of(seats_.begin(), seats_.end(), [](const SeatState& s) { return s.player != nullptr; });
  if (status() == RoomStatus::finished) {
    forgotten_ = true;  // stays in the database for the history API
    services_.hub.forget(meta_.id);
  } else if (status() == RoomStatus::waiting && nobody_seated) {
    forgotten_ = true;  // a room nobody sits in or watches is of no use to anyone
    services_.hub.forget(meta_.id);
    services_.storage.delete_game(meta_.id, [id = meta_.id](bool deleted) {
      if (!deleted) log_warn("empty_room_not_deleted", {{"room", id}});
    });
  }
}

bool Room::add_member(const Caller& caller, std::optional<int> seat) {
  const bool returning = seat && !seat_connected(*seat);
  if (Member* existing = member(caller.connection.get())) {
    existing->seat = seat;
  } else if (caller.connection->joined(shared_from_this())) {
    members_.push_back({caller.connection, caller.player, seat});
  } else {
    return false;  // it closed meanwhile; the reply goes nowhere
  }
  publish();
  return returning;
}

void Room::tell_open_window(Connection& connection) const {
  if (!window_) return;
  // Someone arriving during a Plex! race (a reconnection, a restart) learns the window too,
  // with the time that is left.
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      window_->deadline - std::chrono::steady_clock::now());
  connection.send(protocol::write_plex_open(meta_.id, window_->id,
                                            std::max<std::int64_t>(0, left.count()), window_->mover));
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

void Room::do_move(const Caller& caller, const protocol::Move& move) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  const auto seat = seat_of(caller.player);
  if (!seat) return caller.fail(Code::not_a_player, "only seated players move; you are watching");
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
  Outcome outcome = match_.play(*seat, move.tokens);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  commit_update(caller, "move", *seat, move.tokens, std::move(outcome));
}

void Room::resend_or_refuse(const Caller& caller, const protocol::Move& move, int seat) {
  auto actions = services_.storage.load_actions(meta_.id);
  const auto applied = static_cast<std::size_t>(move.expected_version);  // index of version+1
  if (applied < actions.size() && actions[applied].kind == "move" &&
      actions[applied].seat == seat && actions[applied].tokens == move.tokens) {
    // The same move again (a client that lost the reply): the stored update, to it alone.
    actions.resize(applied + 1);
    const Match then = replay(meta_, actions);
    return caller.reply(protocol::write_update(caller.id, make_update(meta_.id, actions.back(), then.state())));
  }
  caller.fail(Code::stale_version,
              "expected_version " + std::to_string(move.expected_version) +
                  " is not the current version " + std::to_string(version_) + "; sync first",
              {{"version", version_}});
}

void Room::do_special(const Caller& caller, std::string_view kind) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  const auto seat = seat_of(caller.player);
  if (!seat) return caller.fail(Code::not_a_player, "only seated players may " + std::string(kind));
  if (!check_playing(caller)) return;
  const bool was_plex = match_.game().phase() == Phase::plex;
  Outcome outcome = apply_action(match_, kind, *seat, "");
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  if (was_plex && window_) {  // a resignation during the race ends the race
    closed_window_ = window_->id;
    window_.reset();
    plex_timer_.cancel();
  }
  commit_update(caller, std::string(kind), *seat, "", std::move(outcome));
}

void Room::do_claim_abandon(const Caller& caller) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  const auto seat = seat_of(caller.player);
  if (!seat) return caller.fail(Code::not_a_player, "only seated players may claim an abandoned game");
  if (!check_playing(caller)) return;
  const Seat absent = match_.game().to_move();
  if (absent == kNoSeat) return caller.fail(Code::not_abandoned, "nobody is to move right now");
  if (absent == *seat) return caller.fail(Code::not_abandoned, "you are the player to move");
  if (seat_connected(absent))
    return caller.fail(Code::not_abandoned, "seat " + std::to_string(absent) + " is connected");
  const auto& grace_until = seats_[static_cast<std::size_t>(absent)].grace_until;
  if (std::chrono::system_clock::now() < grace_until)
    return caller.fail(Code::not_abandoned,
                       "seat " + std::to_string(absent) + " may come back until " + format_utc(grace_until));
  Outcome outcome = match_.resign(absent);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  commit_update(caller, "abandon", absent, "", std::move(outcome));
}

void Room::do_sync(const Caller& caller, std::int64_t since) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  if (version_ - since > kMaxSyncUpdates)
    return reply_room(caller);
  std::vector<protocol::Update> updates;
  if (since < version_) {
    replay(meta_, services_.storage.load_actions(meta_.id),
           [&](const Match& match, const StoredAction& action) {
             if (action.version > since) updates.push_back(make_update(meta_.id, action, match.state()));
           });
  }
  caller.reply(protocol::write_updates(caller.id, meta_.id, updates));
}

void Room::commit_update(std::optional<Caller> caller, std::string kind, int seat,
                         std::string tokens, Outcome outcome) {
  auto action = std::make_shared<const StoredAction>(StoredAction{
      version_ + 1, std::move(kind), seat, std::move(tokens), Json(std::move(outcome.events)), now_utc()});
  UpdateEffects effects;
  const Json rounds = match_.game().rounds();
  for (std::size_t i = rounds_stored_; i < rounds.size(); ++i)
    effects.new_rounds.emplace_back(static_cast<int>(i + 1), rounds[i]);
  if (match_.over()) {
    effects.finished_at = action->at;
    effects.result = match_.game().result();
  }
  const std::size_t rounds_after = rounds.size();
  commit(
      [&](auto done) { services_.storage.append_action(meta_.id, action, effects, std::move(done)); },
      [this, caller = std::move(caller), action, rounds_after](bool committed) {
        if (!committed) {
          rebuild_from_storage();  // the match ran ahead of the database: take it back
          if (caller) caller->fail(Code::internal, "the move could not be stored; try again");
          return;
        }
        version_ = action->version;
        rounds_stored_ = rounds_after;
        announce(*action, caller);
        after_update(*action);
      });
}

void Room::announce(const StoredAction& action, const std::optional<Caller>& caller) {
  const auto text =
      std::make_shared<const std::string>(protocol::write_update({}, make_update(meta_.id, action, match_.state())));
  const Connection* mover = caller ? caller->connection.get() : nullptr;
  send_to_members(text, mover);
  if (caller) {
    caller->reply(protocol::with_id(*text, caller->id));
    services_.metrics.move_latency.observe(std::chrono::steady_clock::now() - caller->received);
  }
  ++services_.metrics.moves_applied;
}

void Room::after_update(const StoredAction& action) {
  if (match_.over()) {
    status_ = RoomStatus::finished;
    meta_.finished = action.at;
    plex_timer_.cancel();
    window_.reset();
    for (const auto& seat : seats_)
      if (seat.player) services_.hub.seat_index(seat.player->id, meta_.id, false);
    log_info("game_finished", {{"room", meta_.id}, {"version", version_}});
    publish();
    return forget_if_idle();
  }
  if (match_.game().phase() == Phase::plex && !window_) open_plex_window(plex_mover({action}));
}

int Room::plex_mover(const std::vector<StoredAction>& actions) {
  // The update that opened the window says whose move captured the eleventh set.
  for (auto action = actions.rbegin(); action != actions.rend(); ++action)
    for (const auto& event : action->events)
      if (event.value("event", "") == "plex_open") return event.value("mover", 0);
  return 0;
}

// ---- the Plex race ---------------------------------------------------------------------

void Room::open_plex_window(int mover) {
  if (meta_.options.value("plex_mode", "race") == "mover") {
    const auto now = std::chrono::steady_clock::now();
    window_ = PlexWindow{random_text(kWindowCharacters), now, now, mover};
    return resolve_plex(std::nullopt, std::nullopt);  // no race: the set goes to the mover
  }
  const std::int64_t deadline_ms = meta_.options.value("plex_window_ms", kDefaultPlexWindowMs);
  const auto now = std::chrono::steady_clock::now();
  window_ = PlexWindow{random_text(kWindowCharacters), now, now + std::chrono::milliseconds(deadline_ms), mover};
  send_to_members(std::make_shared<const std::string>(
      protocol::write_plex_open(meta_.id, window_->id, deadline_ms, mover)));
  plex_timer_.expires_at(window_->deadline);
  plex_timer_.async_wait([self = shared_from_this(), id = window_->id](const error_code& error) {
    if (error) return;  // cancelled: a claim won, or the server is stopping
    self->serially(std::nullopt, [self, id] {
      if (self->window_ && self->window_->id == id) self->resolve_plex(std::nullopt, std::nullopt);
    });
  });
}

void Room::do_plex(const Caller& caller, const std::string& window) {
  if (!may_see(caller)) return caller.fail(Code::not_found, "no room " + meta_.id);
  const auto seat = seat_of(caller.player);
  if (!seat) return caller.fail(Code::not_a_player, "only seated players may claim Plex!");
  if (!window.empty() && window == closed_window_)
    return caller.fail(Code::plex_lost, "another claim won this Plex! window");
  if (!window_ || window_->id != window)
    return caller.fail(Code::no_plex_window, "no Plex! window with this id is open");
  resolve_plex(caller, *seat);
}

void Room::resolve_plex(const std::optional<Caller>& caller, std::optional<int> claimant) {
  Outcome outcome = claimant ? match_.claim_plex(*claimant) : match_.plex_timeout();
  if (!outcome.ok()) {  // e.g. a seat that resigned: refused, the window stays open
    if (caller) fail_with(*caller, *outcome.error);
    else log_error("plex_fallback_refused", {{"room", meta_.id}, {"message", outcome.error->message}});
    return;
  }
  const PlexWindow window = *window_;
  closed_window_ = window.id;
  window_.reset();
  plex_timer_.cancel();
  int winner = claimant.value_or(window.mover);
  if (!outcome.events.empty() && outcome.events[0].value("event", "") == "plex_result") {
    outcome.events[0]["latency_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(
                                          std::chrono::steady_clock::now() - window.opened)
                                          .count();
    winner = outcome.events[0].value("winner", winner);
  }
  commit_update(caller, claimant ? "plex" : "plex_timeout", winner, "", std::move(outcome));
}

void Room::rebuild_from_storage() {
  try {
    const auto actions = services_.storage.load_actions(meta_.id);
    match_ = replay(meta_, actions);
    version_ = actions.empty() ? 0 : actions.back().version;
    // A Plex resolution that failed to commit leaves the race to run again.
    if (match_.game().phase() == Phase::plex && !window_) open_plex_window(plex_mover(actions));
  } catch (const std::exception& e) {
    log_error("room_rebuild_failed", {{"room", meta_.id}, {"message", e.what()}});
  }
}

// ---- views -----------------------------------------------------------------------------

bool Room::may_see(const Caller& caller) const {
  if (!meta_.is_private) return true;
  return seat_of(caller.player) || std::any_of(members_.begin(), members_.end(), [&](const Member& m) {
           return m.connection == caller.connection;
         });
}

std::optional<int> Room::seat_of(const PlayerRef& player) const {
  if (!player) return std::nullopt;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].player && seats_[i].player->id == player->id) return static_cast<int>(i);
  return std::nullopt;
}

bool Room::seat_connected(int seat) const {
  return std::any_of(members_.begin(), members_.end(),
                     [seat](const Member& m) { return m.seat == seat; });
}

Room::Member* Room::member(const Connection* connection) {
  for (auto& m : members_)
    if (m.connection.get() == connection) return &m;
  return nullptr;
}

protocol::RoomSummary Room::summary() const {
  protocol::RoomSummary out{meta_.id, meta_.game, meta_.options, std::string(to_string(status())), {}, 0};
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& player = seats_[i].player;
    const bool connected = seat_connected(static_cast<int>(i));
    const bool away = player && !connected && status() == RoomStatus::playing;
    out.seats.push_back({static_cast<int>(i), player ? player->id : "", player ? player->name : "",
                         connected, false, away ? format_utc(seats_[i].grace_until) : ""});
  }
  out.spectators = static_cast<int>(
      std::count_if(members_.begin(), members_.end(), [](const Member& m) { return !m.seat; }));
  return out;
}

protocol::RoomView Room::view(bool with_invite) const {
  protocol::RoomView out;
  out.summary = summary();
  out.grace_seconds = meta_.grace_seconds;
  out.is_private = meta_.is_private;
  if (with_invite) out.invite = meta_.invite;
  out.version = version_;
  out.state = status() == RoomStatus::waiting ? Json() : match_.state();
  return out;
}

void Room::reply_room(const Caller& caller) const {
  caller.reply(protocol::write_room(caller.id, view(meta_.is_private && seat_of(caller.player))));
}

void Room::send_room_to_others(const Connection* except) {
  // At most two versions of the message: with the invite (seated players of a private room)
  // and without.
  SharedText texts[2];
  for (const auto& m : members_) {
    if (m.connection.get() == except) continue;
    const bool with_invite = meta_.is_private && m.seat.has_value();
    auto& text = texts[with_invite ? 1 : 0];
    if (!text) text = std::make_shared<const std::string>(protocol::write_room({}, view(with_invite)));
    m.connection->send(text);
  }
}

void Room::send_to_members(const SharedText& text, const Connection* except) {
  for (const auto& m : members_)
    if (m.connection.get() != except) m.connection->send(text);
}

void Room::send_presence(int seat, bool connected) {
  const auto& grace_until = seats_[static_cast<std::size_t>(seat)].grace_until;
  send_to_members(std::make_shared<const std::string>(protocol::write_presence(
      meta_.id, seat, connected, connected ? "" : format_utc(grace_until))));
}

void Room::publish() {
  const bool has_free_seat =
      std::any_of(seats_.begin(), seats_.end(), [](const SeatState& s) { return !s.player; });
  const bool listed = !meta_.is_private && !forgotten_ &&
                      (status() == RoomStatus::playing ||
                       (status() == RoomStatus::waiting && has_free_seat));
  services_.hub.publish(meta_.id, listed ? std::optional(summary()) : std::nullopt);
}

}  // namespace mancala::server
