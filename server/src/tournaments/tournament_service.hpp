#pragma once
// Tournaments in the server (issue 48, protocol "Tournaments"): created and joined through the
// HTTP API, stored (storage/tournament_store.hpp), and each arena run on this process: at
// starts_at it starts and pairs its free players, every table a room the hub opens as for a
// paired seek (each player hears an unsolicited `room`), every ended game scored
// (Hub::on_game_finished) and its players paired again, until ends_at; a game still being
// played then counts when it ends, and the arena is finished with its last game.
//
// The rules are the pure Arena's (arena.hpp); this class holds one per tournament not yet
// finished, behind one mutex held only for them, never across I/O. Database writes after a
// game or a start run on the hub's readers, never on a network thread; the HTTP calls below
// already run on a reader and write directly.
//
// A restart reloads what is stored (scores, open pairings, whose games the hub restores); a
// game whose end was stored but whose points were not yet (the process killed between the two
// writes) is scored then from the stored game's result. Not yet: one process only (no take-over).
#include <chrono>
#include <deque>
#include <optional>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena.hpp"
#include "connection.hpp"
#include "identity.hpp"
#include "net.hpp"
#include "push_notices.hpp"
#include "schedule.hpp"
#include "seek_pool.hpp"
#include "tournament_store.hpp"

namespace mancala::server {

class Hub;
class Storage;

// A request the tournaments refuse; the HTTP API answers it with its status.
struct TournamentRefusal : std::runtime_error {
  enum class Kind { bad_request, not_found, conflict, not_allowed };
  TournamentRefusal(Kind kind_, std::string code_, const std::string& message)
      : std::runtime_error(message), kind(kind_), code(std::move(code_)) {}
  Kind kind;
  std::string code;
};

class Tournaments {
 public:
  using Now = std::function<SystemTime()>;
  // `minute`: how long an arena's minute lasts (a minute; tests make it short).
  Tournaments(net::io_context& io, Storage& storage, Hub& hub, Now now, std::chrono::milliseconds minute);
  ~Tournaments();

  // Loads the tournaments not finished, arms their starts and ends, and listens to the hub for
  // ended games. Before listening.
  void start();
  void stop();
  // Tests only (`--test-tournament-write-delay-ms`): each write after a game, a start or a
  // pairing waits this long first, so that a test can kill the process before it lands.
  void delay_writes(std::chrono::milliseconds delay) { write_delay_ = delay; }
  // The operator's schedule (--tournament-schedule), before start(): each entry's next start is
  // kept registered ahead. Throws ScheduleError naming an entry that is not a valid tournament.
  void follow(std::vector<ScheduledTournament> schedule);
  // Where reminders go, ten (arena) minutes before a start; null: none (no --vapid-key).
  void set_push_notices(PushNotices* push) { push_ = push; }

  // The HTTP API's calls, on a reader thread; they throw TournamentRefusal.
  // A new tournament from the POST body, by the account `creator`: its GET body.
  Json create(const Json& body, const Player& creator);
  Json list(const std::string& status);
  Json view(const std::string& id);
  void join(const std::string& id, const PlayerRef& player);
  void leave(const std::string& id, const std::string& player_id);
  // `watch_tournament`: ok, then the GET body as `tournament`, pushed again at most once a second
  // while it changes. Only a tournament this process runs (else not_found).
  void watch(const Caller& caller, const std::string& id);

 private:
  struct Live;
  StoredTournament checked_tournament(const Json& body, const Player& creator) const;
  void store_and_hold(StoredTournament& meta);  // gives it an id
  static Json body_starting(const ScheduledTournament& entry, SystemTime start);
  void register_next_starts();
  Json view_of(const Live& live) const;  // with mutex_ held
  void replay_ended_games(const std::vector<StoredPairing>& pairings);
  void hold(StoredTournament meta, std::vector<StoredEntrant> entrants, std::vector<StoredPairing> pairings);
  void arm(const std::shared_ptr<Live>& live);  // the next start or end
  void on_timer(const std::string& id);
  SystemTime reminder_at(const StoredTournament& meta) const;
  void remind(Live& live);
  void pair(const std::string& id);
  void opened(const std::string& id, const std::vector<std::string>& table, const std::string& room_id,
              const std::vector<std::string>& by_seat);
  void game_finished(const std::string& room_id, const Json& result);
  void finish_if_over(const std::shared_ptr<Live>& live);  // with mutex_ held
  void changed(const std::shared_ptr<Live>& live);  // with mutex_ held: a push to its watchers soon
  void push(const std::string& id);
  std::shared_ptr<Live> find(const std::string& id) const;
  SystemTime ends_at(const StoredTournament& meta) const;
  void later(std::function<void()> write);  // a database write on a reader, in order
  void drain_writes();

  net::io_context& io_;
  Storage& storage_;
  Hub& hub_;
  Now now_;
  std::chrono::milliseconds minute_;
  std::chrono::milliseconds write_delay_{0};
  std::vector<ScheduledTournament> schedule_;
  PushNotices* push_ = nullptr;

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Live>> live_;   // not finished, by id
  std::map<std::string, std::string> tournament_of_;     // room id -> tournament id
  bool stopped_ = false;
  int pending_opens_ = 0;                  // tables handed to the hub, not yet opened
  std::map<std::string, Json> ended_early_;  // room id -> result, while some are pending

  std::mutex writes_mutex_;
  std::deque<std::function<void()>> writes_;
  bool draining_ = false;
};

}  // namespace mancala::server
