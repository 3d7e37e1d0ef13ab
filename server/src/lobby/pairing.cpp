#include "pairing.hpp"

#include <algorithm>
#include <random>

#include "log.hpp"
#include "mancala/registry.hpp"
#include "random.hpp"

namespace mancala::server {

using protocol::Code;

namespace {

// The options with the player count a table of `size` needs (games of one size take none).
Json options_for(const GameType& type, Json options, int size) {
  if (type.max_players > type.min_players) options["players"] = size;
  return options;
}

std::vector<int> default_sizes(const GameType& type) {
  std::vector<int> sizes;
  for (int n = type.min_players; n <= type.max_players; ++n) sizes.push_back(n);
  return sizes;
}

// Seek ids: unguessable is not needed (a seek is cancelled only by its player), unrepeated is.
std::string random_seek_prefix() { return "s" + random_text(kRoomIdCharacters) + "-"; }

constexpr auto kSweepEvery = std::chrono::seconds(1);
constexpr auto kBroadcastEvery = std::chrono::seconds(1);

}  // namespace

std::variant<SeekRequest, protocol::Error> check_seek(const protocol::Seek& seek, const Player& player) {
  if (seek.rated && !player.account)
    return protocol::Error{Code::not_allowed, "only players with an account can seek a rated game; sign up or log in", {}};
  SeekRequest request;
  try {
    const GameType& type = find_game_type(seek.game);
    request.seats = seek.seats.empty() ? default_sizes(type) : seek.seats;
    for (const int size : request.seats)
      if (size < type.min_players || size > type.max_players)
        return protocol::Error{Code::bad_option, std::string(type.name) + " is played by " +
                                                     std::to_string(type.min_players) +
                                                     (type.max_players > type.min_players
                                                          ? " to " + std::to_string(type.max_players)
                                                          : std::string()) +
                                                     " players; 'seats' asks for " + std::to_string(size),
                               {}};
    // Every size must take the options (Njaka's advanced variant is for two only); the kind
    // keeps them resolved, so {} and the defaults spelt out are one kind.
    Json resolved;
    for (const int size : request.seats) {
      resolved = Match::create(seek.game, options_for(type, seek.options, size), 0).options();
      resolved.erase("players");
    }
    request.kind = SeekKind{seek.game, std::move(resolved), seek.clock, seek.rated};
  } catch (const EngineError& e) {
    return protocol::Error{protocol::from_engine(e.code()), e.what(), {}};
  }
  if (seek.rated) {  // an account that has not played this game yet rates as a newcomer does
    const auto rating = player.ratings->of(seek.game);
    request.rating = rating ? rating->rating.rating : ratings::Rating{}.rating;
  }
  return request;
}

PairedRoom plan_paired_room(const Table& table, const std::vector<PlayerRef>& players, const RoomDraw& draw) {
  const GameType& type = find_game_type(table.kind.game);
  Match match = Match::create(table.kind.game, options_for(type, table.kind.options, table.seats), draw.seed);
  std::vector<PlayerRef> by_seat = players;
  std::mt19937_64 shuffle(draw.seed);
  std::shuffle(by_seat.begin(), by_seat.end(), shuffle);

  GameMeta meta;
  meta.id = draw.room_id;
  meta.game = table.kind.game;
  meta.options = match.options();
  meta.draws = match.draws();
  meta.rated = table.kind.rated;
  meta.clock = clock_settings(table.kind.clock);
  meta.status = "playing";
  meta.created = draw.created;
  meta.started = draw.started;
  meta.host_id = players.front()->id;  // the oldest seek's: it was answered
  meta.host_name = players.front()->name;
  for (std::size_t seat = 0; seat < by_seat.size(); ++seat)
    meta.seats.push_back({static_cast<int>(seat), by_seat[seat]->id, by_seat[seat]->name, 0, by_seat[seat]->account});
  return PairedRoom{std::move(meta), std::move(match), std::move(by_seat)};
}

Pairing::Pairing(net::io_context& io, Now now, SeatTable seat_table, Playing playing)
    : now_(std::move(now)),
      seat_table_(std::move(seat_table)),
      playing_(std::move(playing)),
      pool_([this] { return now_(); },
            [this](const std::string& player, const std::string& other) {
              const auto it = muted_.find(player);  // asked with mutex_ held, by the pool
              return it != muted_.end() && it->second.contains(other);
            },
            random_seek_prefix()),
      strand_(net::make_strand(io)),
      sweep_timer_(strand_),
      broadcast_timer_(strand_) {}

// ---- connections -----------------------------------------------------------------------

void Pairing::player_connected(const std::shared_ptr<Connection>& connection, const PlayerRef& player) {
  const std::lock_guard lock(mutex_);
  if (!player_of_.emplace(connection.get(), player->id).second) return;  // known already
  connections_[player->id].push_back(connection);
}

void Pairing::connection_closed(const Connection* connection) {
  int ended = 0;
  {
    const std::lock_guard lock(mutex_);
    watchers_.erase(connection);
    const auto player = player_of_.find(connection);
    if (player == player_of_.end()) return;
    const std::string player_id = player->second;
    player_of_.erase(player);
    auto& open = connections_[player_id];
    std::erase_if(open, [connection](const std::weak_ptr<Connection>& weak) {
      const auto locked = weak.lock();
      return !locked || locked.get() == connection;
    });
    if (!open.empty()) return;  // another tab is still here: the seeks stay
    connections_.erase(player_id);
    ended = pool_.cancel_all(player_id);
    muted_.erase(player_id);
  }
  if (ended > 0) changed();
}

std::vector<std::shared_ptr<Connection>> Pairing::connections_of(const std::string& player_id) const {
  std::vector<std::shared_ptr<Connection>> out;
  const std::lock_guard lock(mutex_);
  if (const auto it = connections_.find(player_id); it != connections_.end())
    for (const auto& weak : it->second)
      if (auto connection = weak.lock()) out.push_back(std::move(connection));
  return out;
}

// ---- seeks -----------------------------------------------------------------------------

std::variant<Pairing::SeekMade, protocol::Error> Pairing::seek(const Player& player, SeekRequest request,
                                                         std::set<std::string> muted, const std::string& kept_id) {
  std::optional<Table> table;
  SeekMade made;
  {
    const std::lock_guard lock(mutex_);
    if (!muted.empty()) muted_[player.id] = std::move(muted);
    auto added = pool_.add(player.id, request.kind, std::move(request.seats), request.rating, kept_id);
    if (auto* error = std::get_if<protocol::Error>(&added)) return std::move(*error);
    auto& taken = std::get<SeekPool::Added>(added);
    made = {taken.seek_id, taken.delayed};
    table = std::move(taken.table);
    arm_sweep();
  }
  if (table) seat_all({std::move(*table)});
  changed();
  return made;
}

bool Pairing::cancel(const std::string& player_id, const std::string& seek_id) {
  bool cancelled = false;
  {
    const std::lock_guard lock(mutex_);
    cancelled = pool_.cancel(player_id, seek_id);
  }
  if (cancelled) changed();
  return cancelled;
}

void Pairing::seated_elsewhere(const std::string& player_id) {
  int ended = 0;
  {
    const std::lock_guard lock(mutex_);
    ended = pool_.cancel_all(player_id);
  }
  if (ended > 0) {
    log_info("seeks_ended_seated", {{"player", player_id}, {"seeks", ended}});
    changed();
  }
}

void Pairing::paired_room_opened(const std::string& room_id) {
  const std::lock_guard lock(mutex_);
  paired_rooms_.insert(room_id);
}

void Pairing::paired_game_finished(const std::string& room_id, const std::vector<std::string>& left_unplayed) {
  const std::lock_guard lock(mutex_);
  if (paired_rooms_.erase(room_id) == 0) return;  // not a game this pool paired
  for (const auto& player_id : left_unplayed) {
    pool_.note_unplayed(player_id);
    log_info("paired_game_left_unplayed", {{"room", room_id}, {"player", player_id},
                                           {"delay_s", pool_.playban_delay(player_id).count()}});
  }
}

std::vector<std::string> Pairing::end_every_seek() {
  std::vector<std::string> players;
  {
    const std::lock_guard lock(mutex_);
    players = pool_.cancel_everyone();
    muted_.clear();
  }
  if (!players.empty()) changed();
  return players;
}

void Pairing::seat_all(std::vector<Table> tables) {
  for (auto& table : tables) {
    log_info("seekers_paired", {{"game", table.kind.game}, {"seats", table.seats}});
    seat_table_(std::move(table));
  }
}

// What time makes possible (a wider rating range, a smaller Njaka table) is looked for once a
// second, and only while some kind has seekers of two players: a lone seeker costs no timer.
void Pairing::arm_sweep() {
  if (sweep_armed_ || !pool_.may_pair_later()) return;
  sweep_armed_ = true;
  net::post(strand_, [this] {
    sweep_timer_.expires_after(kSweepEvery);
    sweep_timer_.async_wait([this](const error_code& error) {
      if (!error) sweep();
    });
  });
}

void Pairing::sweep() {
  std::vector<Table> tables;
  {
    const std::lock_guard lock(mutex_);
    sweep_armed_ = false;
    tables = pool_.pair_waiting();
    arm_sweep();
  }
  if (tables.empty()) return;
  seat_all(std::move(tables));
  changed();
}

// ---- who is here -----------------------------------------------------------------------

void Pairing::watch(const std::shared_ptr<Connection>& connection) {
  {
    const std::lock_guard lock(mutex_);
    watchers_[connection.get()] = connection;
  }
  connection->send(seeks_text());
}

std::string Pairing::seeks_text() const {
  std::map<std::string, int> online = playing_();
  std::vector<protocol::SeekListing> listings;
  {
    const std::lock_guard lock(mutex_);
    listings = pool_.listings();
    for (const auto& [game, seekers] : pool_.seekers_by_game()) online[game] += seekers;
  }
  return protocol::write_seeks(listings, {online.begin(), online.end()});
}

// At most one `seeks` a second: a change within a second of the last one waits for the rest of it.
void Pairing::changed() {
  net::post(strand_, [this] {
    {
      const std::lock_guard lock(mutex_);
      if (watchers_.empty()) return;
    }
    if (broadcast_scheduled_) return;
    broadcast_scheduled_ = true;
    const auto due = last_broadcast_ + kBroadcastEvery;
    broadcast_timer_.expires_at(std::max(due, std::chrono::steady_clock::now()));
    broadcast_timer_.async_wait([this](const error_code& error) {
      if (!error) broadcast();
    });
  });
}

void Pairing::broadcast() {
  broadcast_scheduled_ = false;
  last_broadcast_ = std::chrono::steady_clock::now();
  const std::string text = seeks_text();
  if (text == last_text_) return;
  last_text_ = text;
  std::vector<std::shared_ptr<Connection>> open;
  {
    const std::lock_guard lock(mutex_);
    for (const auto& [key, weak] : watchers_)
      if (auto connection = weak.lock()) open.push_back(std::move(connection));
  }
  const auto shared = std::make_shared<const std::string>(text);
  for (const auto& connection : open) connection->send(shared);
}

}  // namespace mancala::server
