#pragma once
// Everything the server keeps in its database, behind one interface with two implementations:
// SQLite (a file, the default) and PostgreSQL (`--db postgresql://…`, for several server
// processes sharing one database). Writes go to one group-commit writer and report on its
// thread once durable; reads use their own connections, except for a SQLite :memory: database,
// whose reads run on the writer thread. Both keep the same schema, migrated at start.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "accounts.hpp"
#include "analysis_store.hpp"
#include "chat_store.hpp"
#include "push_subscriptions.hpp"
#include "storage_trouble.hpp"
#include "stored_game.hpp"
#include "tournament_store.hpp"

namespace mancala::server {

class Histogram;

// A read or write that could not reach the database (a restart, a failover, a network cut,
// retried once already): the request is answered `unavailable` with a time to retry, not
// `internal`, and nothing is lost.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct GameQuery {
  std::optional<std::string> player_name;
  std::optional<std::string> player_id;
  std::optional<std::string> game;
  std::optional<std::string> status;  // playing | finished; both when absent
  int limit = 20;
  std::optional<std::int64_t> before;  // cursor: games older than this
  std::string viewer_id;               // sees his own private games
};

struct GamePage {
  std::vector<GameMeta> games;
  std::optional<std::int64_t> next;  // cursor of the next page
};

// A new update's effects beyond the action row itself.
struct UpdateEffects {
  std::vector<std::pair<int, Json>> new_rounds;  // (1-based number, round record)
  std::optional<std::string> finished_at;        // set when the update ended the game
  Json result;
  // With finished_at: each seat's Game::outcome, stored for its player's record and, in a
  // rated game, rated in the same transaction (a crash keeps both or neither).
  std::vector<double> outcomes;
};

class Storage {
 public:
  // Called on the writer thread once the write is durable (true) or failed (false): keep it short.
  using Done = std::function<void(bool committed)>;

  // Opens `db` — a SQLite file name, ":memory:", or a postgresql:// URL — and brings its schema
  // up to date. Throws SqlError with what went wrong.
  // `room_owner` (PostgreSQL, several processes; see cluster_registry.hpp): this process's id.
  // Then every game it creates gets an owner row naming it, in the same transaction, and every
  // write to an existing room (a move, a seat taken or freed, the room deleted) checks in its
  // own transaction that the row still names it (the write fence: a process whose rooms moved
  // on cannot change them). The registry creates that table, so it
  // must exist before the first write.
  static std::unique_ptr<Storage> open(const std::string& db, Histogram& commit_latency,
                                       const std::string& room_owner = "");
  // A consistent copy of the SQLite database at `path` into the new file `target` (VACUUM INTO).
  // PostgreSQL has its own tools for that (pg_dump), which the error message names.
  static void backup(const std::string& path, const std::string& target);

  virtual ~Storage() = default;

  virtual void create_player(StoredPlayer player, Done done) = 0;
  // The game row and the seats already in `meta` (the creator's).
  virtual void create_game(GameMeta meta, Done done) = 0;
  // Takes a seat; `started_at` also marks the game as started (the last seat was taken).
  virtual void take_seat(std::string game_id, int seat, std::string player_id,
                         std::optional<std::string> started_at, Done done) = 0;
  // Puts a computer player of `level` on a seat (no player row).
  virtual void take_bot_seat(std::string game_id, int seat, int level, std::optional<std::string> started_at,
                             Done done) = 0;
  virtual void free_seat(std::string game_id, int seat, Done done) = 0;
  virtual void delete_game(std::string game_id, Done done) = 0;
  virtual void append_action(std::string game_id, std::shared_ptr<const StoredAction> action,
                             UpdateEffects effects, Done done) = 0;

  virtual std::vector<StoredPlayer> load_players() = 0;
  // One player by the SHA-256 of his token (hex), when another process created him.
  virtual std::optional<StoredPlayer> load_player_by_token_hash(const std::string& token_hash) = 0;
  virtual std::vector<StoredGame> load_unfinished_games() = 0;
  virtual std::optional<StoredGame> load_game(const std::string& id) = 0;
  // The game a private room's invite opens, if any.
  virtual std::optional<std::string> game_of_invite(const std::string& invite) = 0;
  virtual std::vector<StoredAction> load_actions(const std::string& game_id) = 0;
  // The last time the server noted it was running (ISO 8601 UTC; empty when never): a restart
  // charges running clocks up to then. With several processes each notes it on its own rooms'
  // owner rows too, so that a room taken over is charged up to its own owner's last note, not
  // another process's: `load_last_alive(game_id)` reads that, or the server's note when the
  // room's owner never noted (one process; a room created since).
  virtual void note_alive(std::string at, Done done) = 0;
  virtual std::string load_last_alive(const std::string& game_id = "") = 0;
  virtual GamePage list_games(const GameQuery& query) = 0;
  // Accounts, sessions and ratings (accounts.hpp), in the same database.
  virtual AccountStore& accounts() = 0;
  // Room chat, reports and silences (chat_store.hpp).
  virtual ChatStore& chat() = 0;
  // Web Push subscriptions (push_subscriptions.hpp).
  virtual PushSubscriptions& push_subscriptions() = 0;
  // Game analyses (analysis_store.hpp).
  virtual AnalysisStore& analyses() = 0;
  // Tournaments, their players and pairings (tournament_store.hpp).
  virtual TournamentStore& tournaments() = 0;
  virtual bool healthy() = 0;
  // Why writes fail just now (the last one failed because the database could not be reached
  // or its disk was full); `none` while they succeed.
  virtual StorageTrouble trouble() const = 0;

  // Commits what is queued and closes the writer.
  virtual void stop() = 0;

  // Tests only (`--test-read-delay-ms`): every read waits this long first, so that a test can
  // show that no network thread and no room waits for a read.
  void delay_reads(std::chrono::milliseconds delay) { read_delay_ms_ = delay.count(); }
  // Tests only (`--test-page-limit-file`, SQLite): before each move is stored, the database's
  // size in pages is bounded by the number in `file` (PRAGMA max_page_count), so that a test
  // can run out of room and make room again without filling a disk. Before the writes start.
  void limit_pages_from(std::string file) { page_limit_file_ = std::move(file); }

 protected:
  std::chrono::milliseconds read_delay() const { return std::chrono::milliseconds(read_delay_ms_.load()); }
  std::string page_limit_file_;

 private:
  std::atomic<std::int64_t> read_delay_ms_{0};
};

}  // namespace mancala::server
