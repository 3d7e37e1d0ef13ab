#pragma once
// One room: its seats, members (seated players' connections and spectators), its game and its
// claim window, if the game opens one. Everything a room does runs on its own strand, one step
// at a time; a step that writes to the database holds the room's commit gate (later steps wait)
// until the commit is durable, then tells the members. So two moves in one room never race, no lock is held across
// I/O, and nobody hears of a change the database does not have.
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bot_seats.hpp"
#include "claim_race.hpp"
#include "commit_gate.hpp"
#include "connection.hpp"
#include "mancala/match.hpp"
#include "net.hpp"
#include "push_notices.hpp"
#include "chat_log.hpp"
#include "rematch.hpp"
#include "room_clock.hpp"
#include "room_host.hpp"
#include "room_members.hpp"
#include "room_message.hpp"
#include "room_reads.hpp"
#include "room_status.hpp"
#include "room_update.hpp"
#include "room_view.hpp"
#include "seat_rules.hpp"
#include "stored_game.hpp"
#include "time_source.hpp"

namespace mancala::server {

class BotPool;
class ReaderPool;
class Storage;


class Room : public std::enable_shared_from_this<Room> {
 public:
  // How long a change of the spectator count waits for others to go out with it.
  static constexpr auto kCrowdDelay = std::chrono::milliseconds(100);

  struct Services {
    net::io_context& io;
    RoomHost& host;  // the hub, as far as a room may see it
    Storage& storage;
    Metrics& metrics;
    BotPool& bot_pool;
    const TimeSource& time;  // game clocks and grace times run on it
    ReaderPool& readers;     // stored actions are read and replayed there, never on the strand
    PushNotices* push = nullptr;  // tells absent players of their move (Web Push); null: off
  };

  // `meta` as stored; `match` is the game at `version` (the opening one for a new room);
  // `players` holds each seat's player (null for a free seat and for a computer player's, which
  // the room makes from `meta.seats`). `clock_view`: the clock stored with the latest update,
  // when a restart rebuilds a running game (null: the clock starts afresh).
  Room(Services services, GameMeta meta, Match match, std::int64_t version,
       std::vector<PlayerRef> players, const Json& clock_view = Json());

  // Immutable after construction: safe from any thread.
  const std::string& id() const { return meta_.id; }
  const std::string& invite() const { return meta_.invite; }
  RoomStatus status() const { return status_.load(); }

  // Queues `message` as one step on the room's strand, after every earlier step and commit;
  // the reply goes to the caller.
  void handle(Caller caller, RoomMessage message);

  // The room's own steps, which answer nobody:
  void resume_after_restart();
  // The chat said before a restart or a take-over, as stored (oldest first).
  void restore_chat(std::vector<StoredChatLine> lines);
  // A rematch room just created: the old room's members become its members, each told with a
  // `room` message (no reply).
  void welcome_rematch(std::vector<Caller> members);
  void drop(std::shared_ptr<Connection> connection);  // the connection closed
  // Removes the room from the lobby and the database if it still waits for players and was
  // created before `cutoff`; its members hear `room_expired`.
  void expire_if_created_before(SystemTime cutoff);
  // Another process owns the room now (this one was cut off from the database past its lease
  // and the room was taken meanwhile): no step runs here any more, and the members' connections
  // close so that their clients reconnect and reach the room where it is served.
  void give_up();

 private:
  using Step = std::function<void()>;

  // Runs `step` on the strand after every earlier step and commit; exceptions become an
  // `internal` reply to `caller` (when there is one) and a log line.
  void serially(std::optional<Caller> caller, Step step);
  void run_step(const std::optional<Caller>& caller, const Step& step);
  // Holds the room until the write reports, then runs `then(committed)` on the strand. When the
  // write committed, `on_durable` runs first, at once on the writer's thread: it may only send
  // texts prepared before the commit (connections' queues are thread-safe) and must not touch
  // the room's state, which stays the strand's.
  void commit(const std::function<void(std::function<void(bool)>)>& write,
              std::function<void(bool)> then, std::function<void()> on_durable = {});

  // One handler per kind of RoomMessage, on the strand (the game's in room_play.cpp, the
  // chat's in room_chat.cpp, the rest in room.cpp).
  void on(const Caller& caller, const protocol::JoinRoom& join);
  void on(const Caller& caller, const protocol::LeaveRoom& leave);
  void on(const Caller& caller, const protocol::Move& move);
  void on(const Caller& caller, const protocol::Sync& sync);
  void on(const Caller& caller, const protocol::Resign& resign);
  void on(const Caller& caller, const protocol::Special& special);
  void on(const Caller& caller, const protocol::Claim& claim);
  void on(const Caller& caller, const protocol::ClaimAbandon& claim);
  void on(const Caller& caller, const protocol::AddBot& add);
  void on(const Caller& caller, const protocol::Rematch& rematch);
  void on(const Caller& caller, const protocol::Chat& chat);
  void on(const Caller& caller, const protocol::SpectatorChat& setting);
  void on(const Caller& caller, const protocol::ReportChat& report);
  void on(const Caller& caller, const WelcomeCreator& welcome);
  void on(const Caller& caller, const Attach& attach);
  // The refusals most requests start with. True when the caller may see the room (a private
  // room only to its players and members); otherwise the caller heard `not_found`.
  bool visible_or_refuse(const Caller& caller) const;
  // "Seated, or refuse": the caller's seat, when the room is visible to him and he holds one;
  // otherwise he heard `not_found` or `not_a_player` with `refusal` as its message.
  std::optional<int> seated_or_refuse(const Caller& caller, const std::string& refusal) const;
  // True while the game runs; otherwise the caller heard why not (seat_rules.hpp).
  bool playing_or_refuse(const Caller& caller) const;

  // Seats and members (room.cpp).
  void take_seat(const Caller& caller, int seat);
  // When the seat about to be taken is the last free one: the game's start time.
  std::optional<std::string> start_time_if_last_seat() const;
  void fill_seat(int seat, PlayerRef player, const std::optional<std::string>& started_at);
  bool persons_seated() const;
  void remove_connection(const std::shared_ptr<Connection>& connection);
  bool may_see(const Caller& caller) const;
  bool seat_connected(int seat) const;
  // Adds the caller's connection (or updates its seat); true when a seat that had nobody
  // connected has someone again.
  bool add_member(const Caller& caller, std::optional<int> seat);
  void welcome_back(const Caller& caller, int seat);  // a seated player's connection joins
  void tell_open_window(Connection& connection) const;
  void forget_if_idle();

  // Views (room_view.hpp) and sending them.
  RoomSnapshot snapshot() const;
  void reply_room(const Caller& caller) const;
  void send_room_to_others(const Connection* except);
  // A spectator came or went: the others hear the new count kCrowdDelay later at most, once for
  // every change in between (a thousand arriving together are one message each, not a
  // thousand).
  void tell_crowd_changed();
  void send_to_members(const SharedText& text, const Connection* except = nullptr);
  void send_presence(int seat, bool connected);
  void publish();

  // The game side (room_play.cpp): commit an outcome already applied to match_, then announce it.
  void play_special(const Caller& caller, const std::string& kind);  // resign or a game's own
  void commit_update(std::optional<Caller> caller, AppliedAction applied);
  void announce(const PreparedUpdate& update, const std::optional<Caller>& caller) const;
  void after_update(const StoredAction& action);
  void game_finished(const StoredAction& action);
  std::vector<std::string> persons_who_left_unplayed() const;  // see RoomHost::game_finished
  // Web Push (push_decisions.hpp) in games of a day or more per move.
  void send_push(const std::vector<PushNotice>& notices) const;
  void refresh_ratings();
  // The claim window: opened when the game enters one, settled by the first valid claim or,
  // at its deadline, by the game's fallback.
  void open_claim_window();
  void settle_claim(const std::optional<Caller>& caller, std::optional<int> claimant);
  void schedule_bot_claims();
  void rebuild_from_storage();
  void read_back();
  void read_back_done(RoomReads::Rebuilt rebuilt);
  // The clock: wake the room when the running seat's time runs out, and commit the timeout.
  void arm_clock();
  bool flag_fell();  // true when it did: a timeout update is being committed
  // Computer players: a search when one is to move, its result checked like a person's move.
  void let_bot_think(bool random = false);
  void play_bot_move(const BotSeats::Result& result);
  // Rematch.
  std::optional<int> person_who_left() const;  // a seated person with no connection here
  std::vector<int> bot_levels() const;  // each seat's computer player's level, 0 for a person
  void start_rematch();
  void rematch_started(const std::string& room_id);  // empty: it could not be created

  // The chat (room_chat.cpp): stored first, then sent to whoever may read it.
  void say(const Caller& caller, StoredChatLine said);

  Services services_;
  RoomReads reads_;
  Strand strand_;
  GameMeta meta_;
  Match match_;
  std::int64_t version_;
  std::atomic<RoomStatus> status_;
  RoomSeats seats_;
  BotSeats bots_;
  RoomMembers members_;
  std::size_t rounds_stored_;
  CommitGate gate_;
  ClaimRace race_;
  net::steady_timer claim_timer_;
  net::steady_timer read_back_timer_;   // on the strand: the next try to read the game back
  net::steady_timer crowd_timer_;       // on the strand: the coalesced spectator count
  bool crowd_pending_ = false;          // on the strand
  std::atomic<bool> stalled_{false};  // the game could not be read back yet: set on the strand, read anywhere
  bool forgotten_ = false;
  bool given_up_ = false;  // on the strand: see give_up
  RoomClock clock_;
  RematchVotes rematch_;
  ChatLog chat_;
};

}  // namespace mancala::server
