// The room's game side, on its strand: moves and the game's own actions, the claim window, the
// clock's timeout, computer players, the end of the game and the rematch. Every change goes
// through commit_update: applied to the match, prepared (room_update.hpp), committed, announced.
#include "log.hpp"
#include "push_decisions.hpp"
#include "random.hpp"
#include "room.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

constexpr std::int64_t kMaxSyncUpdates = 500;
constexpr auto kReadBackInterval = std::chrono::milliseconds(250);

void fail_with(const Caller& caller, const MoveError& error) {
  Json details = Json::object();
  if (!error.token.empty()) details["token"] = error.token;
  if (error.code == ErrorCode::illegal_move) details["legal"] = error.legal;
  caller.fail(protocol::from_engine(error.code), error.message, std::move(details));
}

}  // namespace

bool Room::playing_or_refuse(const Caller& caller) const {
  auto refusal = not_playing_refusal(status());
  if (refusal) caller.fail(std::move(*refusal));
  return !refusal;
}

// ---- moves and the game's own actions ----------------------------------------------------

void Room::on(const Caller& caller, const protocol::Move& move) {
  const auto seat = seated_or_refuse(caller, "only seated players move; you are watching");
  if (!seat) return;
  if (status() == RoomStatus::waiting) {
    playing_or_refuse(caller);
    return;
  }
  if (move.expected_version < version_) return reads_.resend_or_refuse(caller, meta_, move, *seat, version_);
  if (move.expected_version > version_)
    return caller.fail(Code::stale_version,
                       "expected_version " + std::to_string(move.expected_version) +
                           " is ahead of the game, which is at version " + std::to_string(version_),
                       {{"version", version_}});
  if (!playing_or_refuse(caller)) return;
  if (flag_fell()) return handle(caller, move);  // judged after the timeout's update
  Outcome outcome = match_.play(*seat, move.tokens);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  commit_update(caller, {"move", *seat, move.tokens, std::move(outcome)});
}

void Room::on(const Caller& caller, const protocol::Resign&) { play_special(caller, "resign"); }

void Room::on(const Caller& caller, const protocol::Special& special) { play_special(caller, special.action); }

void Room::play_special(const Caller& caller, const std::string& kind) {
  const auto seat = seated_or_refuse(caller, "only seated players may " + kind);
  if (!seat) return;
  if (!playing_or_refuse(caller)) return;
  if (flag_fell()) return serially(caller, [this, caller, kind] { play_special(caller, kind); });
  Outcome outcome = kind == "resign" ? match_.resign(*seat) : match_.special_action(kind, *seat);
  if (!outcome.ok()) return fail_with(caller, *outcome.error);
  if (race_.current()) {  // a resignation during the race ends the race
    race_.close();
    claim_timer_.cancel();
  }
  commit_update(caller, {kind, *seat, "", std::move(outcome)});
}

void Room::on(const Caller& caller, const protocol::ClaimAbandon& claim) {
  const auto seat = seated_or_refuse(caller, "only seated players may claim an abandoned game");
  if (!seat) return;
  if (!playing_or_refuse(caller)) return;
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
  commit_update(caller, {"abandon", absent, "", std::move(outcome)});
}

void Room::on(const Caller& caller, const protocol::Sync& sync) {
  const std::int64_t since = sync.since;
  if (!visible_or_refuse(caller)) return;
  if (version_ - since > kMaxSyncUpdates) return reply_room(caller);
  if (since >= version_) return caller.reply(protocol::write_updates(caller.id, meta_.id, {}));
  // The updates up to this version, as of this request; later ones reach the caller as updates.
  reads_.send_updates(caller, meta_, since, version_);
}

// ---- committing an update ----------------------------------------------------------------

void Room::commit_update(std::optional<Caller> caller, AppliedAction applied) {
  // The clock as this update leaves it is stored with it, and adopted once it is committed.
  const SystemTime now = clock_.now();
  std::optional<GameClock> clock = clock_.next(match_, applied.kind, applied.seat, now);
  Json clock_view = clock ? clock->view(now) : Json();
  auto update = std::make_shared<const PreparedUpdate>(
      prepare_update(meta_.id, version_, match_, std::move(applied), std::move(clock_view), rounds_stored_,
                     caller ? std::optional(caller->id) : std::nullopt, now_utc()));
  const SteadyTime handed_over = std::chrono::steady_clock::now();
  commit(
      [&](auto done) { services_.storage.append_action(meta_.id, update->action, update->effects, std::move(done)); },
      [this, caller, update, clock = std::move(clock)](bool committed) {
        if (!committed) {
          rebuild_from_storage();  // the match ran ahead of the database: take it back
          if (caller) caller->fail_storing("the move could not be stored", services_.storage.trouble());
          return;
        }
        version_ = update->action->version;
        rounds_stored_ = update->rounds_after;
        clock_.adopt(clock);
        arm_clock();
        after_update(*update->action);
      },
      [this, caller, update, handed_over] {
        if (caller) services_.metrics.move_commit.observe(std::chrono::steady_clock::now() - handed_over);
        announce(*update, caller);
      });
}

// Runs on the writer's thread while the gate is held: no step of the room runs meanwhile (they
// wait for the gate), so the members are as they were when the commit began.
void Room::announce(const PreparedUpdate& update, const std::optional<Caller>& caller) const {
  const Connection* mover = caller ? caller->connection.get() : nullptr;
  members_.send(update.text, mover);
  if (caller) {
    caller->connection->send(update.mover_text);
    services_.metrics.move_latency.observe(std::chrono::steady_clock::now() - caller->received);
  }
  ++services_.metrics.moves_applied;
}

void Room::after_update(const StoredAction& action) {
  if (match_.over()) return game_finished(action);
  open_claim_window();
  let_bot_think();
  if (services_.push && clock_.per_move_at_least(kPushClock))
    send_push(turn_notices(snapshot(), action.seat, match_.game().to_move()));
}

void Room::game_finished(const StoredAction& action) {
  status_ = RoomStatus::finished;
  meta_.finished = action.at;
  claim_timer_.cancel();
  clock_.cancel();
  race_.cancel();
  for (int i = 0; i < seats_.count(); ++i)
    if (seats_.at(i) && bots_.level(i) == 0) services_.host.seat_index(seats_.at(i)->id, meta_.id, false);
  log_info("game_finished", {{"room", meta_.id}, {"version", version_}});
  services_.host.game_finished(meta_.id, match_.result(), persons_who_left_unplayed());
  publish();
  if (meta_.rated) refresh_ratings();
  forget_if_idle();
}

std::vector<std::string> Room::persons_who_left_unplayed() const {
  std::vector<std::string> persons;
  for (const int seat : seats_that_left_unplayed(match_.record().value("turns", Json::array())))
    if (seat >= 0 && seat < seats_.count() && seats_.at(seat) && bots_.level(seat) == 0)
      persons.push_back(seats_.at(seat)->id);
  return persons;
}

void Room::send_push(const std::vector<PushNotice>& notices) const {
  for (const auto& notice : notices) services_.push->notify(notice);
}

// The ratings the result's commit wrote are read back for the seats (never on the strand),
// and then every member sees them.
void Room::refresh_ratings() {
  reads_.read_ratings(meta_.id, seats_.players(), [self = shared_from_this()](std::vector<std::string> rated) {
    self->services_.host.players_changed(rated);
    self->serially(std::nullopt, [self] {
      self->send_room_to_others(nullptr);
      self->publish();
    });
  });
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
  reads_.read_back(meta_, [self = shared_from_this()](RoomReads::Rebuilt rebuilt) {
    net::post(self->strand_, [self, rebuilt = std::make_shared<RoomReads::Rebuilt>(std::move(rebuilt))] {
      self->read_back_done(std::move(*rebuilt));
    });
  });
}

void Room::read_back_done(RoomReads::Rebuilt rebuilt) {
  if (!rebuilt) {
    stalled_ = true;
    read_back_timer_.expires_after(kReadBackInterval);
    read_back_timer_.async_wait([self = shared_from_this()](const error_code& error) {
      if (!error) self->read_back();
    });
    return;
  }
  stalled_ = false;
  gate_.release([&] {
    run_step(std::nullopt, [&] {
      match_ = std::move(rebuilt->first);
      version_ = rebuilt->second;
      // A claim or fallback that failed to commit leaves the race to run again.
      open_claim_window();
      let_bot_think();  // a computer player's move that failed to commit is searched again
    });
  });
}

// ---- the claim window --------------------------------------------------------------------

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
  commit_update(caller, {std::string(claimant ? rules.name : rules.fallback), claimant.value_or(rules.fallback_seat),
                         "", std::move(outcome)});
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

// ---- the clock ---------------------------------------------------------------------------

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
  commit_update(std::nullopt, {"timeout", *seat, "", std::move(outcome)});
  return true;
}

// ---- computer players --------------------------------------------------------------------

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
  commit_update(std::nullopt, {"move", result.seat, result.tokens, std::move(outcome)});
}

// ---- rematch -----------------------------------------------------------------------------

void Room::on(const Caller& caller, const protocol::Rematch&) {
  const auto seat = seated_or_refuse(caller, "only the players of this game may ask for a rematch");
  if (!seat) return;
  if (status() != RoomStatus::finished)
    return caller.fail(Code::not_allowed, "the game is not over; a rematch can be asked for once it has ended");
  if (auto refusal = rematch_.refusal()) return caller.fail(std::move(*refusal));
  if (const auto gone = person_who_left())
    return caller.fail(Code::not_allowed, seats_.at(*gone)->name +
                                              " has left the room, so nobody would play the rematch with you; "
                                              "start a new game from the lobby");
  const bool everyone = rematch_.ask(*seat, bot_levels());
  caller.ok();
  send_to_members(std::make_shared<const std::string>(protocol::write_rematch(meta_.id, rematch_.asked())));
  if (everyone) return start_rematch();
  if (services_.push && clock_.per_move_at_least(kPushClock))
    send_push(rematch_notices(snapshot(), *seat, rematch_.asked()));
}

std::vector<int> Room::bot_levels() const {
  std::vector<int> levels;
  for (int i = 0; i < seats_.count(); ++i) levels.push_back(bots_.level(i));
  return levels;
}

std::optional<int> Room::person_who_left() const {
  for (int i = 0; i < seats_.count(); ++i)
    if (seats_.at(i) && !seat_connected(i)) return i;
  return std::nullopt;
}

void Room::start_rematch() {
  const std::vector<int> levels = bot_levels();
  std::vector<PlayerRef> players;
  for (int i = 0; i < seats_.count(); ++i) players.push_back(levels[static_cast<std::size_t>(i)] > 0 ? nullptr : seats_.at(i));
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

}  // namespace mancala::server
