#pragma once
// The shared state of the server (Beast's websocket-chat-multi calls it shared_state): who is
// connected and which rooms exist. It routes each request to its room (or to the process that
// owns it) and answers the ones that need no room. Its parts are classes of their own: the
// rooms by id, invite and seated player (room_index.hpp), the lobby (lobby.hpp), the checks of
// a new room (room_plan.hpp) and the rebuilding of stored rooms (room_restorer.hpp). Each
// guards its maps with its own mutex, held only for lookups and updates, never across I/O or
// a room's work.
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "connection.hpp"
#include "greeter.hpp"
#include "lobby.hpp"
#include "net.hpp"
#include "other_processes.hpp"
#include "pairing.hpp"
#include "reader_pool.hpp"
#include "room.hpp"
#include "room_host.hpp"
#include "room_index.hpp"
#include "room_routing.hpp"
#include "time_source.hpp"

namespace mancala::server {

class BotPool;
class Storage;
class PlayerDirectory;

class Hub final : public RoomHost {
 public:
  Hub(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics,
      BotPool& bot_pool);

  // Rebuilds every unfinished game from the database (at start, before listening). With
  // several processes, only the rooms `take` accepts (it claims them for this process).
  void restore_rooms(const std::function<bool(const std::string& room_id)>& take = nullptr);
  // The rooms this process serves, and giving up those another process took (cluster_membership.hpp).
  std::vector<std::string> room_ids() const { return rooms_.ids(); }
  void give_up_rooms(const std::vector<std::string>& room_ids);
  // Rebuilds rooms this process just took over from a dead one, exactly as restore_rooms does.
  // Any thread. Returns the ones that could not be read from the database (to try again).
  std::vector<std::string> take_over_rooms(const std::vector<std::string>& room_ids);
  // Game clocks and grace times run `speed` times faster (tests only); before restore_rooms.
  void set_clock_speed(double speed) { time_ = TimeSource(speed); }
  // Where rooms send their notices for absent players (Web Push); null: nowhere. Before the start.
  void set_push_notices(PushNotices* push) { push_ = push; }
  // Where rooms and the history API read from the database (see reader_pool.hpp).
  ReaderPool& readers() { return readers_; }
  // Other processes share the database (PostgreSQL cluster): tokens unknown here are looked up.
  void share_database_with_other_processes() { greeter_.share_database_with_other_processes(); }
  // Notes in the database that the server runs, now and every `interval` (a restart charges
  // running clocks up to the last note); note_alive once more when stopping.
  void note_alive_every(std::chrono::seconds interval);
  void note_alive();

  // The player with this token; with other processes on the database, also one made there
  // (a database read). Null when none.
  PlayerRef player_by_token(const std::string& token) { return greeter_.player_by_token(token); }
  // A connection's `hello` (greeter.hpp); `session_hash` is that of the account's session cookie its upgrade
  // carried (empty: none), which makes it that account whatever the hello says. `done`
  // receives the player (null on failure) after the reply was queued; it may run on any thread.
  void hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
             const protocol::Hello& hello, const std::string& session_hash, std::function<void(PlayerRef)> done);
  // Every other message of a connection that said hello. With other processes, a message for a
  // room another process owns goes there.
  void handle(Caller caller, protocol::ClientMessage message);

  // Several processes (other_processes.hpp): set before restore_rooms and listening.
  void set_other_processes(OtherProcesses* others) {
    others_ = others;
    greeter_.set_other_processes(others);
    routing_.set_other_processes(others);
  }
  // A message for this process's rooms from a client of another (never forwarded again).
  void handle_here(Caller caller, protocol::ClientMessage message);
  // A seated player's connection on another process, back in the room (as after hello here).
  void attach_here(const std::string& room_id, Caller caller);
  // The lobby entry of a room another process owns (nullopt: it left the lobby).
  void remote_summary(const std::string& room_id, std::optional<protocol::RoomSummary> summary);
  // Quick pairing across processes (cluster_router.hpp): a seek taken over from the seek pool's
  // previous holder, kept under its id and not answered; players seated on another process,
  // whose seeks end; this process took the pool (true) or gave it up (false: every seek here
  // ends, and its players are told to seek again).
  void restore_seek(Caller caller, protocol::Seek wanted, const std::string& seek_id);
  void end_seeks_of_seated(const std::vector<std::string>& player_ids);
  void seek_pool_held(bool held);
  // This process's own lobby entries, for a process that just started.
  std::vector<std::pair<std::string, protocol::RoomSummary>> local_listings() const;

  void connected(const std::shared_ptr<Connection>& connection);
  void disconnected(const std::shared_ptr<Connection>& connection);
  void close_all(CloseCode code);
  // Closes the connections opened with these account sessions, which have just ended (a log
  // out, a new password), here and on the other processes: their browsers reconnect and are
  // told to log in again. A guest token's hash in the list closes the connections that said
  // hello with that token (the guest just took an account).
  void close_sessions(const std::vector<std::string>& session_hashes);
  // The same for this process's connections only (another process ended the sessions).
  void close_sessions_here(const std::vector<std::string>& session_hashes);
  // Every `interval` (on the rooms' clock), closes this process's connections whose account
  // session is no longer live, as close_sessions_here: one that reached its absolute lifetime
  // (kSessionLifetimeDays) while its sockets stayed open, or ended unseen. After set_clock_speed.
  void close_ended_sessions_every(std::chrono::seconds interval);
  // Another process changed these players' accounts in the database: those known here are read
  // again (a claimed guest's token stops working here too; ratings show their new values).
  void reread_players_here(const std::vector<std::string>& player_ids);

  // RoomHost (room_host.hpp): what rooms ask of the hub.
  void publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary) override;
  void seat_index(const std::string& player_id, const std::string& room_id, bool seated) override;
  void forget(const std::string& room_id) override;
  void create_rematch(const GameMeta& old, std::vector<PlayerRef> players, std::vector<int> bot_levels,
                      std::vector<Caller> members, std::function<void(std::string)> done) override;
  void players_changed(const std::vector<std::string>& player_ids) override;
  void game_finished(const std::string& room_id, const Json& result,
                     const std::vector<std::string>& left_unplayed) override;
  // Who hears of every game that ends here (tournaments); set before the start.
  using GameFinished = std::function<void(const std::string& room_id, const Json& result)>;
  void on_game_finished(GameFinished listener) { game_finished_ = std::move(listener); }
  // Who answers `watch_tournament` (tournaments, a layer above); set before the start.
  using TournamentWatch = std::function<void(const Caller& caller, const std::string& tournament)>;
  void on_watch_tournament(TournamentWatch watch) { watch_tournament_ = std::move(watch); }
  // Opens a room for the table's players, as for a paired seek (each of their connections gets
  // an unsolicited `room`); `opened` gets the room's id and its players by seat once it is
  // stored, or "" when it could not be made. Any thread.
  using RoomOpened = std::function<void(const std::string& room_id, const std::vector<std::string>& players_by_seat)>;
  void open_paired_room(Table table, RoomOpened opened) {
    seat_paired_table(std::move(table), std::move(opened));
  }

  RoomCounts room_counts() const;

  // Waiting rooms one player may hold (created or seated in) before create_room is refused.
  static constexpr int kMaxWaitingRoomsPerPlayer = 5;
  // Starts removing rooms that have waited longer than `ttl` for their players.
  void expire_waiting_rooms_after(std::chrono::seconds ttl);

 private:
  // One stored game as a live room; null (logged) when it cannot be rebuilt.
  std::shared_ptr<Room> restore_room(const StoredGame& stored, const std::string& last_alive);
  // Sends the room to its seated players connected here (after a take-over).
  void attach_connected_players(const std::shared_ptr<Room>& room);
  void create_room(Caller caller, protocol::CreateRoom create);
  // Quick pairing's messages (pairing.hpp).
  // `seek_id` not empty: restore_seek's.
  void seek(Caller caller, protocol::Seek wanted, std::string seek_id);
  void cancel_seek(const Caller& caller, const protocol::CancelSeek& cancel);
  void watch_seeks(const Caller& caller);
  void add_seek(const Caller& caller, SeekRequest request, std::set<std::string> muted, const std::string& seek_id);
  // A seat taken in a room here: the player's seeks end, here and at the pool's holder.
  void seated_here(const std::string& player_id);
  // Makes and stores the room of seekers the pool seated together; each hears of it as a joiner would.
  void seat_paired_table(Table table, RoomOpened opened = nullptr);
  void tell_paired_players(const std::vector<PlayerRef>& players, protocol::Code code, const std::string& message);
  std::map<std::string, int> playing_by_game() const;
  void sweep_expired_rooms();
  void sweep_ended_sessions();
  void join_room(Caller caller, const protocol::JoinRoom& join);
  std::shared_ptr<Room> find_room(const std::string& id) const { return rooms_.find(id); }
  // A new or rebuilt room joins the hub: found by its id and invite, and by its seated players.
  void add_room(const std::shared_ptr<Room>& room, const std::vector<PlayerRef>& seated);
  Room::Services services();
  std::function<void(bool)> on_io(std::function<void(bool)> then);  // a write's completion, posted

  net::io_context& io_;
  ReaderPool readers_;  // reads that may wait on the disk, off the network threads
  Storage& storage_;
  PlayerDirectory& players_;
  Metrics& metrics_;
  BotPool& bot_pool_;
  TimeSource time_;
  PushNotices* push_ = nullptr;
  GameFinished game_finished_;
  TournamentWatch watch_tournament_;
  OtherProcesses* others_ = nullptr;
  Lobby lobby_;
  Pairing pairing_;  // quick pairing's seeks (after lobby_, which it counts players from)

  RoomIndex<Room> rooms_;
  Greeter greeter_;
  RoomRouting routing_;  // after rooms_ and readers_, which it uses

  mutable std::mutex mutex_;  // connections_
  std::unordered_map<const Connection*, std::weak_ptr<Connection>> connections_;

  Strand timer_strand_;             // the three timers below
  net::steady_timer expiry_timer_;
  net::steady_timer alive_timer_;
  net::steady_timer session_timer_;
  std::chrono::seconds waiting_room_ttl_{0};
  std::chrono::seconds session_sweep_interval_{60};
};

}  // namespace mancala::server
