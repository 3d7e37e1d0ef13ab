#pragma once
// What crosses server processes that share one PostgreSQL database (issue 19, stages B and C),
// over the LISTEN/NOTIFY bus (pg_bus.hpp). Each process listens on its own channel and on the
// lobby channel.
//
// The lobby: every process mirrors its public rooms' summaries on the lobby channel, and keeps
// the others' in the hub's lobby, so `list_rooms` and `watch_lobby` show every process's rooms.
// (Pushed rather than read from the database: a watcher hears of a change as soon as it happens,
// with no polling and no query per `list_rooms`.) A process that starts asks the others to send
// theirs again.
//
// Forwarding: a room message for a room another process owns goes to the owner's channel with
// the client's connection number and player ("req"). The owner keeps a `ProxyConnection` per
// remote client, so its rooms treat it as any other member; whatever the room sends it goes
// back on the client's process's channel ("frame") and out on the client's WebSocket. A client
// that says hello on one process is sent the rooms it sits in on others ("attach"); one that
// closes is dropped from them ("gone"). When a process takes over a dead one's rooms it says
// so on the lobby channel ("taken"), and every process sends its clients of those rooms to the
// new owner. Every lease, the router forgets processes whose lease ran out: their clients'
// proxies leave our rooms (their seats' grace time starts), and their rooms are looked up again.
//
// No request goes unanswered: one forwarded to an owner that does not answer within
// `kOwnerAnswerDeadline` (it died and its lease has not run out yet, or it is paused) is
// answered `unavailable` with a time to retry, and its room is looked up again next time.
//
// Quick pairing (issue 47): seek, cancel_seek and watch_seeks go to the holder of the seek
// pool (kSeekPoolRoom, a row in cluster_singletons) as room messages go to a room's owner, so
// that every seeker of the cluster waits in one pool and no seek can be paired twice. The
// holder's rooms, `seeks` listings and replies come back as frames. Each process remembers its
// clients' seeks that are open at another process (from the `seeking` replies; forgotten when
// cancelled, paired, or the client closes), so that when the holder dies the survivor that
// takes the pool over ("pool") is sent them again ("reseek", same ids) and its watchers too.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "bus_messages.hpp"
#include "other_processes.hpp"
#include "pg_connection.hpp"

namespace mancala::server {

class Hub;
class PgBus;

// The bus channel a process listens on: a valid, lower-case PostgreSQL identifier.
std::string channel_of_process(const std::string& process_id);

class ClusterRouter final : public OtherProcesses {
 public:
  static constexpr std::chrono::milliseconds kOwnerAnswerDeadline{3000};

  // Connects to `url` (a lookup connection and the bus's two). Throws SqlError. Looks for dead
  // processes every `lease`.
  ClusterRouter(const std::string& url, std::string process_id, std::chrono::milliseconds lease, Hub& hub,
                PlayerDirectory& players, Metrics& metrics);
  ~ClusterRouter();
  ClusterRouter(const ClusterRouter&) = delete;
  ClusterRouter& operator=(const ClusterRouter&) = delete;

  // Asks the other processes for their lobby entries (once this one is ready to list them).
  void start();
  // Tests only (--test-read-delay-ms): every lookup of an owner, an invite or a player's rooms
  // waits this long first, so that a lookup on a network thread would show.
  void delay_lookups(std::chrono::milliseconds delay) { lookup_delay_ms_ = delay.count(); }

  // OtherProcesses (other_processes.hpp): the client side looks up a room's or an invite's
  // owner in the database; the owner side mirrors lobby entries and take-overs on the bus.
  bool forward(const Caller& caller, const protocol::ClientMessage& message, const std::string& room) override;
  bool owner_known(const std::string& room) override;
  std::string room_of_invite(const std::string& invite) override;
  void attach_remote_rooms(const std::shared_ptr<Connection>& connection, const PlayerRef& player) override;
  void connection_closed(const std::shared_ptr<Connection>& connection) override;
  void publish_summary(const std::string& room_id, const std::optional<protocol::RoomSummary>& summary) override;
  void announce_taken(const std::vector<std::string>& room_ids) override;
  void announce_ended_sessions(const std::vector<std::string>& session_hashes) override;
  void announce_players_changed(const std::vector<std::string>& player_ids) override;
  void seek_pool_held(bool held) override;
  void announce_seated(const std::vector<std::string>& player_ids) override;

 private:
  // A forwarded request whose answer has not come back yet.
  struct AwaitedAnswer {
    std::uint64_t number = 0;  // the client's
    protocol::RequestId id;
    std::string room;
    std::chrono::steady_clock::time_point deadline;
  };

  struct RemoteClient {  // a client of this process talking to rooms of others
    std::uint64_t number = 0;
    PlayerRef player;
    std::set<std::string> rooms;   // rooms elsewhere it joined, sits in or sent messages to
    std::set<std::string> owners;  // processes that may hold a proxy for it
    // Quick pairing at another process: seeks sent and not answered yet (request id, message),
    // the open ones (seek id -> message), and whether it watches the seeks.
    std::vector<std::pair<protocol::RequestId, std::string>> seeks_asked;
    std::map<std::string, std::string> open_seeks;
    bool watches_seeks = false;
  };

  void on_message(const std::string& channel, const std::string& payload);
  void on(const bus::Request& message);
  void on(const bus::Attach& message);
  void on(const bus::Gone& message);
  void on(const bus::Summary& message);
  void on(const bus::LobbyHello& message);
  void on(const bus::Taken& message);
  void on(const bus::SessionsEnded& message);
  void on(const bus::PlayersChanged& message);
  void on(const bus::PoolTaken& message);
  void on(const bus::Reseek& message);
  void on(const bus::Seated& message);
  // Client side of quick pairing: what a message to the pool's holder, or a frame from it, says
  // of the client's open seeks (with mutex_ held).
  static void note_pool_message(RemoteClient& client, const protocol::ClientMessage& message, const std::string& text,
                                const protocol::RequestId& id);
  static void note_pool_frame(RemoteClient& client, const std::string& text);
  // The pool has a new holder: our clients' open seeks and watches go to it.
  void send_seeks_to(const std::string& holder);
  std::optional<std::string> holder_of_seek_pool();
  void on_request(const std::string& from, std::uint64_t number, const std::string& player_id,
                  const bus::Who& who, const std::string& text);
  void on_attach(const std::string& from, std::uint64_t number, const std::string& player_id,
                 const bus::Who& who, const std::string& room);
  void on_gone(const std::string& from, std::uint64_t number);
  void on_frame(std::uint64_t number, const std::string& text);
  void on_taken(const std::string& from, const std::vector<std::string>& rooms);

  // Client side: the client's entry (made on first use) with the room and its owner noted.
  std::uint64_t note_remote_room(const std::shared_ptr<Connection>& connection, const PlayerRef& player,
                                 const std::string& room, const std::string& owner);
  void send_attach(const std::string& owner, std::uint64_t number, const PlayerRef& player,
                   const std::string& room);
  // The live owner of a room, remembered once looked up; nullopt when no live process owns it.
  std::optional<std::string> owner_of(const std::string& room);
  // Owner side: the proxy of a client of `from`, made on first use.
  std::shared_ptr<Connection> proxy_for(const std::string& from, std::uint64_t number);
  PlayerRef player_by_id(const std::string& player_id);
  // The player as his own process knows him (an account, its ratings): the database's players
  // row does not say.
  PlayerRef player_as(const std::string& player_id, const bus::Who& who);
  void publish(const std::string& channel, const bus::Message& message);
  void await_answer(std::uint64_t number, const protocol::RequestId& id, const std::string& room);
  void note_answer(std::uint64_t number, const std::string& text);
  void answer_overdue_requests();
  // These rooms have a new owner: requests that waited for the old one are answered at once.
  void stop_awaiting_old_owners_of(const std::vector<std::string>& room_ids);
  void sweep_every(std::chrono::milliseconds lease);
  void forget_dead_processes();

  std::string process_id_;
  std::string channel_;
  Hub& hub_;
  PlayerDirectory& players_;
  Metrics& metrics_;

  // Lookups are short; one connection serves them in turn. Runs `lookup` with it.
  template <class Lookup>
  auto look_up(Lookup lookup);
  std::mutex db_mutex_;
  PgConnection db_;
  std::atomic<std::int64_t> lookup_delay_ms_{0};

  std::mutex mutex_;
  std::uint64_t next_number_ = 1;
  std::unordered_map<const Connection*, RemoteClient> remote_clients_;
  std::unordered_map<std::uint64_t, std::weak_ptr<Connection>> by_number_;
  std::unordered_map<std::string, std::string> owners_;  // room -> owner, as last looked up
  std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<Connection>> proxies_;
  std::vector<AwaitedAnswer> awaited_;  // in the order sent, so deadlines come in order

  std::shared_ptr<PgBus> bus_;  // after the members its listener uses

  std::mutex sweep_mutex_;
  std::condition_variable sweep_wake_;
  bool stopping_ = false;
  std::thread sweeper_;  // last: it uses everything above (dead processes, overdue answers)
};

}  // namespace mancala::server
