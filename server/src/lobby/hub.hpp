#pragma once
// The shared state of the server (Beast's websocket-chat-multi calls it shared_state): who is
// connected, which rooms exist, the lobby and its watchers. It routes each request to its room
// and answers the ones that need no room. Its maps are guarded by one mutex, held only for
// lookups and updates, never across I/O or a room's work.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "connection.hpp"
#include "net.hpp"
#include "reader_pool.hpp"
#include "room.hpp"
#include "time_source.hpp"

namespace mancala::server {

class BotPool;
class ClusterRouter;
class Storage;
class PlayerDirectory;

class Hub {
 public:
  Hub(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics,
      BotPool& bot_pool);

  // Rebuilds every unfinished game from the database (at start, before listening). With
  // several processes, only the rooms `take` accepts (it claims them for this process).
  void restore_rooms(const std::function<bool(const std::string& room_id)>& take = nullptr);
  // Rebuilds rooms this process just took over from a dead one, exactly as restore_rooms does.
  // Any thread. Returns the ones that could not be read from the database (to try again).
  std::vector<std::string> take_over_rooms(const std::vector<std::string>& room_ids);
  // Game clocks and grace times run `speed` times faster (tests only); before restore_rooms.
  void set_clock_speed(double speed) { time_ = TimeSource(speed); }
  // Where rooms and the history API read from the database (see reader_pool.hpp).
  ReaderPool& readers() { return readers_; }
  // Other processes share the database (PostgreSQL cluster): tokens unknown here are looked up.
  void share_database_with_other_processes() { shared_database_ = true; }
  // Notes in the database that the server runs, now and every `interval` (a restart charges
  // running clocks up to the last note); note_alive once more when stopping.
  void note_alive_every(std::chrono::seconds interval);
  void note_alive();

  // The player with this token; with other processes on the database, also one made there
  // (a database read). Null when none.
  PlayerRef player_by_token(const std::string& token);
  // A connection's `hello`. `done` receives the player (null on failure) after the reply was
  // queued; it may run on any thread.
  void hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
             const protocol::Hello& hello, std::function<void(PlayerRef)> done);
  // Every other message of a connection that said hello. With a router, a message for a room
  // another process owns goes there.
  void handle(Caller caller, protocol::ClientMessage message);

  // Several processes (cluster_router.hpp): set before restore_rooms and listening.
  void set_router(ClusterRouter* router) { router_ = router; }
  // A message for this process's rooms from a client of another (never forwarded again).
  void handle_here(Caller caller, protocol::ClientMessage message);
  // A seated player's connection on another process, back in the room (as after hello here).
  void attach_here(const std::string& room_id, Caller caller);
  // The lobby entry of a room another process owns (nullopt: it left the lobby).
  void remote_summary(const std::string& room_id, std::optional<protocol::RoomSummary> summary);
  // This process's own lobby entries, for a process that just started.
  std::vector<std::pair<std::string, protocol::RoomSummary>> local_listings() const;

  void connected(const std::shared_ptr<Connection>& connection);
  void disconnected(const std::shared_ptr<Connection>& connection);
  void close_all(CloseCode code);

  // Called by rooms.
  void publish(const std::string& room_id, std::optional<protocol::RoomSummary> summary);
  void seat_index(const std::string& player_id, const std::string& room_id, bool seated);
  void forget(const std::string& room_id);
  // Creates the rematch of the finished game `old` (see rematch.hpp) and makes `members` its
  // members; `done` gets the new room's id, or "" when it could not be stored.
  void create_rematch(const GameMeta& old, std::vector<PlayerRef> players, std::vector<int> bot_levels,
                      std::vector<Caller> members, std::function<void(std::string)> done);

  RoomCounts room_counts() const;

  // Waiting rooms one player may hold (created or seated in) before create_room is refused.
  static constexpr int kMaxWaitingRoomsPerPlayer = 5;
  // Starts removing rooms that have waited longer than `ttl` for their players.
  void expire_waiting_rooms_after(std::chrono::seconds ttl);

 private:
  // One stored game as a live room; null (logged) when it cannot be rebuilt.
  std::shared_ptr<Room> restore_room(const StoredGame& stored, const std::string& last_alive);
  // A player another process created after this one loaded its players (null if none).
  PlayerRef load_player_by_token(const std::string& token);
  void load_missing_players(const StoredGame& stored);
  // Sends the room to its seated players connected here (after a take-over).
  void attach_connected_players(const std::shared_ptr<Room>& room);
  void create_room(Caller caller, protocol::CreateRoom create);
  bool reserve_room_for(const std::string& player_id);  // false at the cap
  // The creation reserve_room_for allowed is over; `created_room` is null when it failed.
  void end_reservation(const std::string& player_id, const std::string* created_room);
  void sweep_expired_rooms();
  void join_room(Caller caller, const protocol::JoinRoom& join);
  void watch_lobby(const Caller& caller);
  std::shared_ptr<Room> find_room(const std::string& id) const;
  void add_room(const std::shared_ptr<Room>& room);
  std::vector<protocol::RoomSummary> lobby() const;
  // Puts the entry in the lobby (nullopt: takes it out): whether it changed, and whether
  // watchers must hear of it.
  struct ListingChange {
    bool entry = false;
    bool tell_watchers = false;
  };
  ListingChange list(const std::string& room_id, std::optional<protocol::RoomSummary> summary);
  // The room a message names, resolving an invite this process does not know ("" for none).
  std::string room_for_routing(const protocol::ClientMessage& message) const;
  void schedule_lobby_broadcast();
  void broadcast_lobby();
  Room::Services services();
  std::function<void(bool)> on_io(std::function<void(bool)> then);  // a write's completion, posted

  net::io_context& io_;
  ReaderPool readers_;  // reads that may wait on the disk, off the network threads
  Storage& storage_;
  PlayerDirectory& players_;
  Metrics& metrics_;
  BotPool& bot_pool_;
  TimeSource time_;
  bool shared_database_ = false;
  ClusterRouter* router_ = nullptr;

  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  std::unordered_map<std::string, std::string> invites_;                  // invite -> room id
  std::unordered_map<std::string, std::set<std::string>> seated_rooms_;  // player -> rooms
  std::unordered_map<std::string, std::set<std::string>> created_rooms_;  // player -> rooms
  std::unordered_map<std::string, std::string> creator_of_;              // room -> player
  std::unordered_map<std::string, int> rooms_being_created_;             // player -> count
  std::map<std::string, std::pair<std::uint64_t, protocol::RoomSummary>> listed_;  // id -> (order, summary)
  std::uint64_t next_listing_ = 0;
  std::unordered_map<const Connection*, std::weak_ptr<Connection>> connections_;
  std::unordered_map<const Connection*, std::weak_ptr<Connection>> lobby_watchers_;
  // Several processes: who said hello on which connection, so that a room taken over from a
  // dead process reaches its players who reconnected here before the take-over.
  std::unordered_map<const Connection*, std::pair<std::weak_ptr<Connection>, PlayerRef>> hello_players_;

  // Lobby broadcasts are coalesced: changes within kLobbyDelay go out as one `rooms` message.
  Strand lobby_strand_;
  net::steady_timer lobby_timer_;
  bool lobby_scheduled_ = false;  // on lobby_strand_
  std::string last_lobby_text_;    // on lobby_strand_

  net::steady_timer expiry_timer_;  // on lobby_strand_
  net::steady_timer alive_timer_;   // on lobby_strand_
  std::chrono::seconds waiting_room_ttl_{0};
};

}  // namespace mancala::server
