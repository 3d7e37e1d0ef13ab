#include "tournament_service.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>
#include <thread>

#include "hub.hpp"
#include "log.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/server_messages.hpp"
#include "pairing.hpp"
#include "random.hpp"
#include "storage.hpp"

namespace mancala::server {

using Refusal = TournamentRefusal;

namespace {

constexpr int kMaxNameBytes = 80;
constexpr int kMaxMinutes = 24 * 60;
constexpr int kListLimit = 100;
constexpr int kCorrespondenceSeconds = 24 * 60 * 60;
// A start a little in the past is taken (a clock a few seconds behind), not a day ago.
constexpr auto kStartSlack = std::chrono::minutes(1);
// The registered players are reminded this many (arena) minutes before the start.
constexpr int kReminderMinutes = 10;

Refusal bad(const std::string& message) { return Refusal(Refusal::Kind::bad_request, "bad_request", message); }

// The engine's checks of the game, its options and the clock, as for a seek (check_seek).
SeekRequest checked_kind(const Json& body, const Player& creator) {
  Json seek{{"type", "seek"}, {"game", body.value("game", Json())}, {"options", body.value("options", Json::object())},
            {"rated", body.value("rated", false)}};
  if (body.contains("clock") && !body["clock"].is_null()) seek["clock"] = body["clock"];
  auto parsed = protocol::parse_client_message(seek.dump());
  if (const auto* error = std::get_if<protocol::Error>(&parsed.body)) throw bad(error->message);
  const auto* message = std::get_if<protocol::Seek>(&std::get<protocol::ClientMessage>(parsed.body));
  if (!message) throw bad("the tournament's game could not be read");
  auto checked = check_seek(*message, creator);
  if (const auto* error = std::get_if<protocol::Error>(&checked))
    throw Refusal(error->code == protocol::Code::not_allowed ? Refusal::Kind::not_allowed : Refusal::Kind::bad_request,
                  std::string(protocol::to_string(error->code)), error->message);
  return std::get<SeekRequest>(std::move(checked));
}

TournamentPlayer player_of(const StoredEntrant& e) {
  TournamentPlayer p;
  p.player_id = e.player_id;
  p.name = e.name;
  p.score = e.score;
  p.streak = e.streak;
  p.games = e.games;
  p.paused = e.paused;
  p.last_opponent = e.last_opponent;
  return p;
}

StoredEntrant entrant_of(const TournamentPlayer& p) {
  return {p.player_id, p.name, p.score, p.streak, p.games, p.paused, p.last_opponent};
}

}  // namespace

struct Tournaments::Live {
  Live(net::io_context& io, StoredTournament meta_, SeekKind kind_, std::vector<int> sizes, const Now& now,
       SystemTime starts, SystemTime ends)
      : meta(std::move(meta_)), kind(std::move(kind_)), arena(now, starts, ends, std::move(sizes)), timer(io) {}
  StoredTournament meta;
  SeekKind kind;  // what every room of it is: game, resolved options, clock, rated
  Arena arena;
  net::steady_timer timer;
  // Watchers of its standings (watch_tournament), pushed at most once a second.
  std::map<const Connection*, std::weak_ptr<Connection>> watchers;
  net::steady_timer push_timer{timer.get_executor()};
  std::chrono::steady_clock::time_point last_push{};
  bool push_scheduled = false;
  std::string last_text;
  bool reminded = false;  // its players were told of the start (Web Push), or it was too late to
};

Tournaments::Tournaments(net::io_context& io, Storage& storage, Hub& hub, Now now, std::chrono::milliseconds minute)
    : io_(io), storage_(storage), hub_(hub), now_(std::move(now)), minute_(minute) {}

Tournaments::~Tournaments() { stop(); }

SystemTime Tournaments::ends_at(const StoredTournament& meta) const {
  const auto starts = parse_iso_utc(meta.starts_at).value_or(now_());
  return starts + std::chrono::duration_cast<SystemTime::duration>(minute_ * meta.minutes);
}

void Tournaments::start() {
  hub_.on_game_finished([this](const std::string& room_id, const Json& result) { game_finished(room_id, result); });
  hub_.on_watch_tournament([this](const Caller& caller, const std::string& id) { watch(caller, id); });
  auto& store = storage_.tournaments();
  int held = 0;
  for (const char* status : {"upcoming", "running"})
    for (auto& meta : store.list(status, kListLimit)) {
      auto entrants = store.entrants(meta.id);
      auto pairings = store.pairings(meta.id);
      replay_ended_games(pairings);
      // A round robin's tables not all opened before a restart: the rest are opened now.
      if (meta.kind == "round_robin" && meta.status == "running") net::post(io_, [this, id = meta.id] { pair(id); });
      hold(std::move(meta), std::move(entrants), std::move(pairings));
      ++held;
    }
  log_info("tournaments_loaded", {{"tournaments", held}});
  register_next_starts();
}

// A game whose end was stored but whose points were not (the process died between the two
// writes): its result is in the stored game, so it is scored now as if it had just ended. The
// score is thus derived from what the game's own transaction stored, never lost.
void Tournaments::replay_ended_games(const std::vector<StoredPairing>& pairings) {
  for (const auto& pairing : pairings) {
    if (pairing.finished) continue;
    const auto game = storage_.load_game(pairing.room_id);
    if (!game || game->meta.status != "finished" || game->meta.result.is_null()) continue;
    log_info("tournament_game_replayed", {{"room", pairing.room_id}});
    net::post(io_, [this, room_id = pairing.room_id, result = game->meta.result] { game_finished(room_id, result); });
  }
}

void Tournaments::stop() {
  std::lock_guard lock(mutex_);
  stopped_ = true;
  for (auto& [id, live] : live_) {
    live->timer.cancel();
    live->push_timer.cancel();
  }
}

void Tournaments::hold(StoredTournament meta, std::vector<StoredEntrant> entrants, std::vector<StoredPairing> pairings) {
  const auto starts = parse_iso_utc(meta.starts_at).value_or(now_());
  SeekKind kind{meta.game, meta.options, std::nullopt, meta.rated};
  if (meta.clock.is_object()) {
    protocol::ClockChoice clock;
    clock.initial_s = meta.clock.value("initial_s", 0);
    clock.increment_s = meta.clock.value("increment_s", 0);
    clock.per_move_s = meta.clock.value("per_move_s", 0);
    kind.clock = clock;
  }
  std::vector<int> sizes{2};
  if (meta.game == "njaka") sizes = {2, 3, 4};  // the game's table sizes, as a seek's default
  auto live = std::make_shared<Live>(io_, meta, kind, sizes, now_, starts, ends_at(meta));
  // Made or reloaded after its reminder's time: not reminded (a restart never reminds twice).
  live->reminded = now_() >= reminder_at(meta);
  if (meta.kind == "round_robin") live->arena.run_as_round_robin();
  for (const auto& entrant : entrants) live->arena.restore(player_of(entrant));
  std::lock_guard lock(mutex_);
  for (const auto& pairing : pairings)
    if (pairing.finished) {
      live->arena.met(pairing.players);
    } else {
      live->arena.opened(pairing.room_id, pairing.players);
      tournament_of_[pairing.room_id] = meta.id;
    }
  live_[meta.id] = live;
  arm(live);
}

void Tournaments::arm(const std::shared_ptr<Live>& live) {
  if (stopped_ || live->meta.status == "finished") return;
  const auto now = now_();
  const auto starts = parse_iso_utc(live->meta.starts_at).value_or(now);
  if (!live->arena.timed() && now >= starts) return;  // a round robin ends with its last game
  auto target = now < starts ? starts : live->arena.ends_at();
  if (!live->reminded && now < reminder_at(live->meta)) target = reminder_at(live->meta);
  if (now >= target && live->meta.status == "running") return;  // ended: the last game finishes it
  live->timer.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(target - now));
  live->timer.async_wait([this, id = live->meta.id](const boost::system::error_code& error) {
    if (!error) on_timer(id);
  });
}

SystemTime Tournaments::reminder_at(const StoredTournament& meta) const {
  const auto starts = parse_iso_utc(meta.starts_at).value_or(now_());
  return starts - std::chrono::duration_cast<SystemTime::duration>(minute_ * kReminderMinutes);
}

// Each registered player who allows notices (a Web Push subscription) is told; with mutex_ held.
void Tournaments::remind(Live& live) {
  live.reminded = true;
  if (!push_) return;
  const auto& m = live.meta;
  for (const auto& player : live.arena.players())
    push_->notify({player.player_id, "tournament-" + m.id, "A tournament starts soon",
                   "\"" + m.name + "\" starts in " + std::to_string(kReminderMinutes) + " minutes: come and play.",
                   "#/tournaments/" + m.id});
  log_info("tournament_reminded", {{"tournament", m.id}, {"players", live.arena.players().size()}});
}

void Tournaments::on_timer(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(id);
    if (stopped_ || it == live_.end()) return;
    const auto& live = it->second;
    if (!live->reminded && now_() >= reminder_at(live->meta)) remind(*live);
    if (live->meta.status == "upcoming" && live->arena.started()) {
      live->meta.status = "running";
      if (live->arena.timed()) live->meta.ends_at = format_utc(live->arena.ends_at());
      log_info("tournament_started", {{"tournament", id}, {"players", live->arena.players().size()}});
      later([this, id, ends = live->meta.ends_at] { storage_.tournaments().set_status(id, "running", ends); });
      later([this] { register_next_starts(); });  // a scheduled one's next start
    }
    finish_if_over(live);
    changed(live);
    arm(live);
  }
  pair(id);
}

void Tournaments::pair(const std::string& id) {
  std::vector<std::vector<std::string>> tables;
  SeekKind kind;
  {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(id);
    if (stopped_ || it == live_.end()) return;
    tables = it->second->arena.pair_free();
    kind = it->second->kind;
    pending_opens_ += static_cast<int>(tables.size());
  }
  for (const auto& table : tables) {
    Table seated{kind, static_cast<int>(table.size()), {}};
    for (const auto& player_id : table) seated.seekers.push_back({"", player_id, {seated.seats}, 0, now_()});
    hub_.open_paired_room(std::move(seated), [this, id, table](const std::string& room_id,
                                                                const std::vector<std::string>& by_seat) {
      opened(id, table, room_id, by_seat);
    });
  }
}

void Tournaments::opened(const std::string& id, const std::vector<std::string>& table, const std::string& room_id,
                         const std::vector<std::string>& by_seat) {
  std::optional<Json> early;  // the game ended before this ran (a resignation at once)
  {
    std::lock_guard lock(mutex_);
    --pending_opens_;
    const auto it = live_.find(id);
    if (it == live_.end()) return;
    if (room_id.empty()) {
      log_warn("tournament_room_not_opened", {{"tournament", id}});
      it->second->arena.not_opened(table);
      return;
    }
    it->second->arena.opened(room_id, by_seat);
    tournament_of_[room_id] = id;
    changed(it->second);
    if (const auto found = ended_early_.find(room_id); found != ended_early_.end()) early = found->second;
    if (pending_opens_ == 0) ended_early_.clear();
  }
  later([this, id, pairing = StoredPairing{room_id, by_seat, false}] {
    storage_.tournaments().add_pairing(id, pairing);
  });
  if (early) game_finished(room_id, *early);
}

void Tournaments::game_finished(const std::string& room_id, const Json& result) {
  std::string id;
  {
    std::lock_guard lock(mutex_);
    const auto owner = tournament_of_.find(room_id);
    if (owner == tournament_of_.end()) {
      if (pending_opens_ > 0) ended_early_[room_id] = result;
      return;
    }
    id = owner->second;
    tournament_of_.erase(owner);
    const auto it = live_.find(id);
    if (it == live_.end()) return;
    const auto& live = it->second;
    std::vector<StoredEntrant> standings;
    for (const auto& player_id : live->arena.finished(room_id, result))
      if (const auto* player = live->arena.find(player_id)) standings.push_back(entrant_of(*player));
    later([this, id, room_id, standings] { storage_.tournaments().finish_pairing(id, room_id, standings); });
    finish_if_over(live);
    changed(live);
  }
  pair(id);
}

void Tournaments::finish_if_over(const std::shared_ptr<Live>& live) {
  if (live->meta.status != "running" || !live->arena.over()) return;
  live->meta.status = "finished";
  if (!live->arena.timed()) live->meta.ends_at = format_utc(now_());  // a round robin's last game
  log_info("tournament_finished", {{"tournament", live->meta.id}});
  later([this, id = live->meta.id, ends = live->meta.ends_at] {
    storage_.tournaments().set_status(id, "finished", ends);
  });
}

void Tournaments::later(std::function<void()> write) {
  {
    std::lock_guard lock(writes_mutex_);
    writes_.push_back(std::move(write));
    if (draining_) return;
    draining_ = true;
  }
  hub_.readers().run([this] { drain_writes(); });
}

// One reader writes them all, in order: a standing stored later is never overwritten by an older one.
void Tournaments::drain_writes() {
  for (;;) {
    std::function<void()> write;
    {
      std::lock_guard lock(writes_mutex_);
      if (writes_.empty()) {
        draining_ = false;
        return;
      }
      write = std::move(writes_.front());
      writes_.pop_front();
    }
    if (write_delay_.count() > 0) std::this_thread::sleep_for(write_delay_);  // tests only
    try {
      write();
    } catch (const std::exception& e) {
      log_error("tournament_not_stored", {{"message", e.what()}});
    }
  }
}

std::shared_ptr<Tournaments::Live> Tournaments::find(const std::string& id) const {
  const auto it = live_.find(id);
  return it == live_.end() ? nullptr : it->second;
}

// ---- the HTTP API's calls -----------------------------------------------------------------

// The tournament a POST body describes, checked (its start may be past: create() says so).
StoredTournament Tournaments::checked_tournament(const Json& body, const Player& creator) const {
  if (!body.is_object()) throw bad("the body must be a JSON object");
  StoredTournament meta;
  meta.name = body.value("name", Json()).is_string() ? body["name"].get<std::string>() : "";
  if (meta.name.empty() || meta.name.size() > kMaxNameBytes)
    throw bad("'name' must be a text of 1 to " + std::to_string(kMaxNameBytes) + " bytes");
  meta.kind = body.value("kind", Json("arena")).is_string() ? body.value("kind", std::string("arena")) : "";
  if (meta.kind != "arena" && meta.kind != "round_robin") throw bad("'kind' must be \"arena\" or \"round_robin\"");
  const Json rated = body.value("rated", Json(false));
  if (!rated.is_boolean()) throw bad("'rated' must be true or false");
  Json kind_body = body;
  if (meta.kind == "round_robin" && kind_body.value("clock", Json()).is_null())
    kind_body["clock"] = {{"per_move_s", kCorrespondenceSeconds}};  // a day per move unless told
  const auto checked = checked_kind(kind_body, creator);
  const Json starts = body.value("starts_at", Json());
  const auto starts_at = starts.is_string() ? parse_iso_utc(starts.get<std::string>()) : std::nullopt;
  if (!starts_at) throw bad("'starts_at' must be a UTC time in ISO 8601, such as \"2026-01-01T18:00:00Z\"");
  const Json minutes = body.value("minutes", Json(60));
  if (!minutes.is_number_integer() || minutes.get<int>() < 1 || minutes.get<int>() > kMaxMinutes)
    throw bad("'minutes' must be an integer from 1 to " + std::to_string(kMaxMinutes));
  meta.game = checked.kind.game;
  meta.options = checked.kind.options;
  meta.clock = checked.kind.clock ? protocol::clock_json(*checked.kind.clock) : Json();
  meta.rated = rated.get<bool>();
  meta.starts_at = format_utc(*starts_at);
  meta.minutes = minutes.get<int>();
  meta.ends_at = meta.kind == "arena" ? format_utc(ends_at(meta)) : "";
  return meta;
}

Json Tournaments::create(const Json& body, const Player& creator) {
  StoredTournament meta = checked_tournament(body, creator);
  if (*parse_iso_utc(meta.starts_at) < now_() - kStartSlack) throw bad("'starts_at' is in the past");
  meta.created_by = creator.id;
  store_and_hold(meta);
  return view(meta.id);
}

void Tournaments::store_and_hold(StoredTournament& meta) {
  meta.id = random_text(kRoomIdCharacters);
  meta.created = format_utc(now_());
  storage_.tournaments().create(meta);
  log_info("tournament_created", {{"tournament", meta.id}, {"game", meta.game}, {"kind", meta.kind},
                                  {"scheduled", meta.created_by.empty()}});
  hold(meta, {}, {});
}

// ---- the operator's schedule ----------------------------------------------------------------

namespace {
// The schedule's tournaments are the house's (no creator); rated ones are allowed, as for an account.
const Player& house() {
  static const Player player = [] {
    Player p;
    p.account = true;
    return p;
  }();
  return player;
}
}  // namespace

Json Tournaments::body_starting(const ScheduledTournament& entry, SystemTime start) {
  Json body = entry.body;
  body["starts_at"] = format_utc(start);
  return body;
}

void Tournaments::follow(std::vector<ScheduledTournament> schedule) {
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    try {
      checked_tournament(body_starting(schedule[i], schedule[i].first), house());
    } catch (const TournamentRefusal& refusal) {
      throw ScheduleError("tournament schedule, entry " + std::to_string(i + 1) + " ('" + schedule[i].name() +
                          "'): " + refusal.what());
    }
  }
  schedule_ = std::move(schedule);
}

// Each entry's next start is registered ahead: made when it is not among the tournaments not
// yet finished. Run at the start-up and after each tournament's start, on one thread at a time.
void Tournaments::register_next_starts() {
  if (schedule_.empty()) return;
  std::set<std::pair<std::string, std::string>> known;  // (name, starts_at) of the house's
  for (const char* status : {"upcoming", "running"})
    for (const auto& meta : storage_.tournaments().list(status, kListLimit))
      if (meta.created_by.empty()) known.emplace(meta.name, meta.starts_at);
  for (const auto& entry : schedule_) {
    const auto start = next_start(entry, now_());
    if (!start || known.count({entry.name(), format_utc(*start)})) continue;
    StoredTournament meta = checked_tournament(body_starting(entry, *start), house());
    store_and_hold(meta);
  }
}

Json Tournaments::view_of(const Live& live) const {
  Json players = Json::array();
  for (const auto& standing : rank_players(live.arena.players())) {
    const auto& p = *standing.player;
    players.push_back({{"player_id", p.player_id}, {"name", p.name}, {"rank", standing.rank}, {"score", p.score},
                       {"games", p.games}, {"playing", live.arena.playing(p.player_id)}, {"streak", p.streak},
                       {"paused", p.paused}});
  }
  const auto& m = live.meta;
  return {{"id", m.id}, {"name", m.name}, {"game", m.game}, {"options", m.options}, {"clock", m.clock},
          {"kind", m.kind}, {"status", m.status}, {"rated", m.rated}, {"minutes", m.minutes},
          {"starts_at", m.starts_at}, {"ends_at", m.ends_at}, {"players", std::move(players)},
          {"rooms", live.arena.rooms()}};
}

Json Tournaments::view(const std::string& id) {
  {
    std::lock_guard lock(mutex_);
    if (const auto live = find(id)) return view_of(*live);
  }
  const auto meta = storage_.tournaments().find(id);
  if (!meta) throw Refusal(Refusal::Kind::not_found, "not_found", "no tournament '" + id + "'");
  // Not held here (finished before this process started): from the database.
  Live shown(io_, *meta, {}, {2}, now_, parse_iso_utc(meta->starts_at).value_or(now_()), ends_at(*meta));
  for (const auto& entrant : storage_.tournaments().entrants(id)) shown.arena.restore(player_of(entrant));
  for (const auto& pairing : storage_.tournaments().pairings(id))
    if (!pairing.finished) shown.arena.opened(pairing.room_id, pairing.players);
  return view_of(shown);
}

Json Tournaments::list(const std::string& status) {
  if (!status.empty() && status != "upcoming" && status != "running" && status != "finished")
    throw bad("'status' must be upcoming, running or finished");
  Json out = Json::array();
  for (const auto& meta : storage_.tournaments().list(status, kListLimit)) {
    std::lock_guard lock(mutex_);
    const auto live = find(meta.id);
    const auto& m = live ? live->meta : meta;
    if (!status.empty() && m.status != status) continue;  // stored a moment before it changed here
    out.push_back({{"id", m.id}, {"name", m.name}, {"game", m.game}, {"options", m.options}, {"clock", m.clock},
                   {"kind", m.kind}, {"status", m.status}, {"rated", m.rated}, {"minutes", m.minutes},
                   {"starts_at", m.starts_at}, {"ends_at", m.ends_at},
                   {"entrants", live ? live->arena.players().size() : 0}});
  }
  return Json{{"tournaments", std::move(out)}};
}

// Not held here: finished, or none at all.
[[noreturn]] static void refuse_not_held(Storage& storage, const std::string& id) {
  if (storage.tournaments().find(id))
    throw Refusal(Refusal::Kind::conflict, "tournament_closed", "tournament '" + id + "' takes no players now");
  throw Refusal(Refusal::Kind::not_found, "not_found", "no tournament '" + id + "'");
}

void Tournaments::join(const std::string& id, const PlayerRef& player) {
  StoredEntrant entrant;
  {
    std::unique_lock lock(mutex_);
    const auto live = find(id);
    if (!live) {
      lock.unlock();
      refuse_not_held(storage_, id);
    }
    if (live->meta.rated && !player->account)
      throw Refusal(Refusal::Kind::not_allowed, "not_allowed",
                    "only players with an account can play a rated tournament; sign up or log in");
    TournamentPlayer joining;
    joining.player_id = player->id;
    joining.name = player->name;
    if (const auto rating = player->ratings->of(live->meta.game)) joining.rating = rating->rating.rating;
    if (!live->arena.join(joining))
      throw Refusal(Refusal::Kind::conflict, "tournament_closed", "tournament '" + id + "' has ended");
    entrant = entrant_of(*live->arena.find(player->id));
    changed(live);
  }
  storage_.tournaments().save_entrant(id, entrant);
  pair(id);
}

void Tournaments::leave(const std::string& id, const std::string& player_id) {
  std::optional<StoredEntrant> paused;
  {
    std::unique_lock lock(mutex_);
    const auto live = find(id);
    if (!live) {
      lock.unlock();
      refuse_not_held(storage_, id);
    }
    if (!live->arena.leave(player_id))
      throw Refusal(Refusal::Kind::not_found, "not_found", "you are not a player of tournament '" + id + "'");
    if (const auto* player = live->arena.find(player_id)) paused = entrant_of(*player);
    changed(live);
  }
  if (paused)
    storage_.tournaments().save_entrant(id, *paused);
  else
    storage_.tournaments().remove_entrant(id, player_id);
}

// ---- watchers ------------------------------------------------------------------------------

void Tournaments::watch(const Caller& caller, const std::string& id) {
  std::string text;
  {
    std::lock_guard lock(mutex_);
    const auto live = find(id);
    if (!live) return caller.fail(protocol::Code::not_found, "no tournament '" + id + "' is run here");
    live->watchers[caller.connection.get()] = caller.connection;
    // Its own copy; last_text stays what the others were last sent, so a push already on its
    // way (a change they have not seen yet) still goes to them.
    text = protocol::write_tournament(view_of(*live));
  }
  caller.ok();
  caller.reply(std::move(text));
}

// At most one push a second (lichess's lesson: standings pushed, never polled, never flooded):
// a change within a second of the last push waits for the rest of it, and joins what follows.
void Tournaments::changed(const std::shared_ptr<Live>& live) {
  if (stopped_ || live->watchers.empty() || live->push_scheduled) return;
  live->push_scheduled = true;
  constexpr auto kPushEvery = std::chrono::seconds(1);
  live->push_timer.expires_at(std::max(live->last_push + kPushEvery, std::chrono::steady_clock::now()));
  live->push_timer.async_wait([this, id = live->meta.id](const boost::system::error_code& error) {
    if (!error) push(id);
  });
}

void Tournaments::push(const std::string& id) {
  std::vector<std::shared_ptr<Connection>> open;
  std::string text;
  {
    std::lock_guard lock(mutex_);
    const auto live = find(id);
    if (!live) return;
    live->push_scheduled = false;
    live->last_push = std::chrono::steady_clock::now();
    text = protocol::write_tournament(view_of(*live));
    if (text == live->last_text) return;
    live->last_text = text;
    for (auto it = live->watchers.begin(); it != live->watchers.end();) {
      if (auto connection = it->second.lock()) {
        open.push_back(std::move(connection));
        ++it;
      } else {
        it = live->watchers.erase(it);  // closed
      }
    }
  }
  const auto shared = std::make_shared<const std::string>(std::move(text));
  for (const auto& connection : open) connection->send(shared);
}

}  // namespace mancala::server
