#include "storage.hpp"

#include <filesystem>
#include <future>
#include <mutex>
#include <fstream>
#include <thread>
#include <type_traits>

#include "account_sql.hpp"
#include "database.hpp"
#include "group_commit_writer.hpp"
#include "pg_connection.hpp"
#include "game_rows.hpp"
#include "schema.hpp"
#include "wal_checkpointer.hpp"

#include "clock.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "log.hpp"

namespace mancala::server {
namespace {

using namespace game_rows;

Database open_writer(const std::string& path) {
  Database db(path, /*create=*/true);
  if (path != ":memory:") {
    // Small pages: a commit dirties a few index and table pages per move, and each dirty page
    // is written whole to the WAL. (Takes effect only when the database is created.)
    db.execute("PRAGMA page_size = 1024");
    db.execute("PRAGMA journal_mode = WAL");
    db.execute("PRAGMA wal_autocheckpoint = 0");  // the WalCheckpointer's job
  }
  db.execute("PRAGMA synchronous = FULL");
  migrate_sqlite(db);
  return db;
}

// Refuses a write unless the row it depends on exists, and locks that row until the commit, so
// that whatever would remove it (a take-over, a delete) waits for this write. `in_pipeline` is
// `plain` as a statement that fails without the row: in a group commit's pipeline nothing waits
// for rows, so the division fails the pipeline when the row is gone, and the writer runs the
// batch again job by job, where `plain` finds no row and the refusal says which and why.
template <class Connection, class Refusal>
void require_row(Connection& db, const char* plain, const char* in_pipeline,
                 std::initializer_list<std::string_view> values, Refusal refusal) {
  const auto bind_values = [&](auto& statement) {
    int index = 0;
    for (const auto value : values) statement.bind(++index, value);
  };
  if constexpr (std::is_same_v<Connection, PgConnection>) {
    if (db.pipelined()) {
      auto fence = db.prepare(in_pipeline);
      bind_values(fence);
      return fence.run();
    }
  }
  auto row = db.prepare(plain);
  bind_values(row);
  if (!row.step()) throw SqlError(refusal());
}

// The write fence (several processes): the owner row must still name this process, for every
// write to a room that exists (a move, a seat taken or freed, the room deleted). A survivor's
// take-over (an UPDATE of that row) waits for this write and then rebuilds the room with it; a
// process that already lost the room writes nothing.
template <class Connection>
void check_still_owner(Connection& db, const std::string& game_id, const std::string& owner) {
  require_row(db, "SELECT 1 FROM room_owners WHERE game_id = ?1 AND process_id = ?2 FOR SHARE",
              "SELECT 1 / count(*) FROM (SELECT 1 FROM room_owners WHERE game_id = ?1 AND process_id = ?2 "
              "FOR SHARE) AS still_owner",
              {game_id, owner}, [&] {
                return "room " + game_id + " is no longer owned by process " + owner +
                       " (its lease ran out and another process took the room); the change is refused";
              });
}

// A move's game must exist. SQLite's foreign key says so; PostgreSQL's moves have none
// (schema.cpp, "moves without a foreign key"), and the owner row, which refers to the game, stands in for it:
// check_still_owner when there is an owner, this otherwise (the operator's commands, tests).
template <class Connection>
void check_game_exists(Connection& db, const std::string& game_id) {
  if constexpr (std::is_same_v<Connection, PgConnection>) {
    require_row(db, "SELECT 1 FROM games WHERE id = ?1 FOR KEY SHARE",
                "SELECT 1 / count(*) FROM (SELECT 1 FROM games WHERE id = ?1 FOR KEY SHARE) AS game",
                {game_id}, [&] { return "there is no game " + game_id + " to add a move to"; });
  }
}

// What differs between the two databases: opening and migrating the writer, opening readers.
struct SqliteDialect {
  using Connection = Database;
  static Database open_writer(const std::string& path) { return mancala::server::open_writer(path); }
  static Database open_reader(const std::string& path) { return Database(path, /*create=*/false); }
};

struct PostgresDialect {
  using Connection = PgConnection;
  static PgConnection open_writer(const std::string& url) {
    PgConnection db(url);
    migrate_postgres(db);
    return db;
  }
  static PgConnection open_reader(const std::string& url) { return PgConnection(url); }
};

// The storage itself, written once: the SQL is the same for both (numbered ?N parameters,
// which PgConnection turns into $N).
template <class Dialect>
class SqlStorage final : public Storage {
 public:
  using Connection = typename Dialect::Connection;

  SqlStorage(const std::string& path, Histogram& commit_latency, std::string room_owner);
  ~SqlStorage() override { stop(); }

  void create_player(StoredPlayer player, Done done) override;
  void create_game(GameMeta meta, Done done) override;
  void take_seat(std::string game_id, int seat, std::string player_id,
                 std::optional<std::string> started_at, Done done) override;
  void take_bot_seat(std::string game_id, int seat, int level, std::optional<std::string> started_at,
                     Done done) override;
  void free_seat(std::string game_id, int seat, Done done) override;
  void delete_game(std::string game_id, Done done) override;
  void append_action(std::string game_id, std::shared_ptr<const StoredAction> action,
                     UpdateEffects effects, Done done) override;
  std::vector<StoredPlayer> load_players() override;
  std::optional<StoredPlayer> load_player_by_token_hash(const std::string& token_hash) override;
  std::vector<StoredGame> load_unfinished_games() override;
  std::optional<StoredGame> load_game(const std::string& id) override;
  std::optional<std::string> game_of_invite(const std::string& invite) override;
  std::vector<StoredAction> load_actions(const std::string& game_id) override;
  void note_alive(std::string at, Done done) override;
  std::string load_last_alive(const std::string& game_id) override;
  GamePage list_games(const GameQuery& query) override;
  AccountStore& accounts() override { return *accounts_; }
  ChatStore& chat() override { return *chat_; }
  PushSubscriptions& push_subscriptions() override { return *push_subscriptions_; }
  AnalysisStore& analyses() override { return *analyses_; }
  TournamentStore& tournaments() override { return *tournaments_; }
  bool healthy() override;
  StorageTrouble trouble() const override { return writer_->trouble(); }
  void stop() override;

 private:
  void take_seat(std::string game_id, StoredSeat seat, std::optional<std::string> started_at, Done done);
  // Runs `read` with a reader connection (or on the writer thread for :memory:).
  void read(const std::function<void(Connection&)>& read);
  // Runs `job` in a write transaction and waits for its commit (accounts.hpp's calls).
  void write_and_wait(std::function<void(Connection&)> job);

  std::string path_;
  std::string room_owner_;  // empty: one process, no owner rows and no fence
  bool in_memory_;
  std::unique_ptr<WalCheckpointer> checkpointer_;  // SQLite files only; the writer reports to it
  std::unique_ptr<BasicGroupCommitWriter<Connection>> writer_;
  std::mutex readers_mutex_;
  std::vector<std::unique_ptr<Connection>> idle_readers_;
  std::unique_ptr<AccountStore> accounts_;
  std::unique_ptr<ChatStore> chat_;
  std::unique_ptr<PushSubscriptions> push_subscriptions_;
  std::unique_ptr<AnalysisStore> analyses_;
  std::unique_ptr<TournamentStore> tournaments_;
};

template <class Dialect>
SqlStorage<Dialect>::SqlStorage(const std::string& path, Histogram& commit_latency, std::string room_owner)
    : path_(path),
      room_owner_(std::move(room_owner)),
      in_memory_(path == ":memory:") {
  Connection writer = Dialect::open_writer(path);
  if constexpr (std::is_same_v<Connection, Database>)
    if (!in_memory_) checkpointer_ = std::make_unique<WalCheckpointer>(path, writer);
  writer_ = std::make_unique<BasicGroupCommitWriter<Connection>>(std::move(writer), commit_latency);
  const SqlAccess<Connection> access{
      [this](const std::function<void(Connection&)>& job) { read(job); },
      [this](std::function<void(Connection&)> job) { write_and_wait(std::move(job)); },
      [this](std::function<void(Connection&)> job, std::function<void(bool)> done) {
        writer_->submit(std::move(job), std::move(done));
      }};
  accounts_ = make_account_store<Connection>(access);
  chat_ = make_chat_store<Connection>(access);
  push_subscriptions_ = make_push_subscriptions<Connection>(access);
  analyses_ = make_analysis_store<Connection>(access);
  tournaments_ = make_tournament_store<Connection>(access);
}

template <class Dialect>
void SqlStorage<Dialect>::write_and_wait(std::function<void(Connection&)> job) {
  // The writer reports only whether a job committed; what the job threw is kept here.
  auto thrown = std::make_shared<std::exception_ptr>();
  std::promise<bool> committed;
  auto outcome = committed.get_future();
  writer_->submit(
      [job = std::move(job), thrown](Connection& db) {
        *thrown = nullptr;  // a batch may run again
        try {
          job(db);
        } catch (...) {
          *thrown = std::current_exception();
          throw;
        }
      },
      [&committed](bool ok) { committed.set_value(ok); });
  if (outcome.get()) return;
  if (*thrown) std::rethrow_exception(*thrown);
  throw Unavailable("the database did not store the change; try again shortly");
}

template <class Dialect>
void SqlStorage<Dialect>::stop() {
  writer_->stop();
  checkpointer_.reset();
}

// Tests only: see Storage::limit_pages_from.
void apply_page_limit(Database& db, const std::string& file) {
  std::ifstream in(file);
  long long pages = 0;
  if (in >> pages && pages > 0) db.execute("PRAGMA max_page_count = " + std::to_string(pages));
}

template <class Dialect>
void SqlStorage<Dialect>::read(const std::function<void(Connection&)>& read) {
  if (const auto delay = read_delay(); delay.count() > 0) std::this_thread::sleep_for(delay);  // tests only
  if (in_memory_) {
    writer_->run_and_wait(read);
    return;
  }
  std::unique_ptr<Connection> reader;
  {
    const std::lock_guard lock(readers_mutex_);
    if (!idle_readers_.empty()) {
      reader = std::move(idle_readers_.back());
      idle_readers_.pop_back();
    }
  }
  try {
    if (!reader) reader = std::make_unique<Connection>(Dialect::open_reader(path_));
    read(*reader);  // on an exception the connection is simply closed
  } catch (const SqlError& e) {
    if (!e.connection_lost) throw;
    // A pooled connection PostgreSQL closed (a restart, a terminated backend) is found out by
    // its next statement: a read is retried once on a fresh one. Failing again, it is
    // Unavailable: the database cannot be reached.
    try {
      reader = std::make_unique<Connection>(Dialect::open_reader(path_));
      read(*reader);
    } catch (const SqlError& again) {
      if (again.connection_lost) throw Unavailable(again.what());
      throw;
    }
  }
  const std::lock_guard lock(readers_mutex_);
  idle_readers_.push_back(std::move(reader));
}

template <class Dialect>
void SqlStorage<Dialect>::create_player(StoredPlayer player, Done done) {
  writer_->submit(
      [player = std::move(player)](Connection& db) {
        db.prepare("INSERT INTO players (id, name, token_hash, created) VALUES (?1, ?2, ?3, ?4)")
            .bind(1, player.id)
            .bind(2, player.name)
            .bind(3, player.token_hash)
            .bind(4, now_utc())
            .run();
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::create_game(GameMeta meta, Done done) {
  writer_->submit(
      [meta = std::move(meta), owner = room_owner_](Connection& db) {
        db.prepare(
              "INSERT INTO games (id, game, options, draws, private, invite, grace_seconds, "
              "status, created, started, clock, host, rated) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
            .bind(1, meta.id)
            .bind(2, meta.game)
            .bind(3, to_json_text(meta.options))
            .bind(4, to_json_text(meta.draws))
            .bind(5, meta.is_private ? 1 : 0)
            .bind(6, meta.invite.empty() ? std::optional<std::string>() : meta.invite)
            .bind(7, meta.grace_seconds)
            .bind(8, meta.status)  // 'playing' when computer players took every other seat
            .bind(9, meta.created)
            .bind(10, meta.started.empty() ? std::optional<std::string>() : meta.started)
            .bind(11, meta.clock.is_null() ? std::optional<std::string>() : to_json_text(meta.clock))
            .bind(12, meta.host_id.empty() ? std::optional<std::string>() : meta.host_id)
            .bind(13, meta.rated ? 1 : 0)
            .run();
        for (const auto& seat : meta.seats) insert_seat(db, meta.id, seat);
        if (!owner.empty())  // the room is this process's from its first moment
          db.prepare("INSERT INTO room_owners (game_id, process_id) VALUES (?1, ?2)").bind(1, meta.id).bind(2, owner).run();
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::take_seat(std::string game_id, int seat, std::string player_id,
                        std::optional<std::string> started_at, Done done) {
  take_seat(std::move(game_id), StoredSeat{seat, std::move(player_id), "", 0}, std::move(started_at),
            std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::take_bot_seat(std::string game_id, int seat, int level,
                            std::optional<std::string> started_at, Done done) {
  take_seat(std::move(game_id), StoredSeat{seat, "", "", level}, std::move(started_at), std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::take_seat(std::string game_id, StoredSeat seat, std::optional<std::string> started_at,
                        Done done) {
  writer_->submit(
      [=, owner = room_owner_](Connection& db) {
        if (!owner.empty()) check_still_owner(db, game_id, owner);
        insert_seat(db, game_id, seat);
        if (started_at)
          db.prepare("UPDATE games SET status = 'playing', started = ?2 WHERE id = ?1")
              .bind(1, game_id)
              .bind(2, *started_at)
              .run();
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::free_seat(std::string game_id, int seat, Done done) {
  writer_->submit(
      [=, owner = room_owner_](Connection& db) {
        if (!owner.empty()) check_still_owner(db, game_id, owner);
        db.prepare("DELETE FROM seats WHERE game_id = ?1 AND seat = ?2").bind(1, game_id).bind(2, seat).run();
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::delete_game(std::string game_id, Done done) {
  writer_->submit(
      [=, owner = room_owner_](Connection& db) {
        if (!owner.empty()) check_still_owner(db, game_id, owner);
        // PostgreSQL's moves have no foreign key to cascade along (schema.cpp, "moves without a foreign key").
        db.prepare("DELETE FROM moves WHERE game_id = ?1").bind(1, game_id).run();
        db.prepare("DELETE FROM games WHERE id = ?1").bind(1, game_id).run();
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::append_action(std::string game_id, std::shared_ptr<const StoredAction> shared,
                            UpdateEffects effects, Done done) {
  writer_->submit(
      [game_id = std::move(game_id), shared = std::move(shared), effects = std::move(effects),
       owner = room_owner_, page_limit_file = page_limit_file_](Connection& db) {
        if (!owner.empty()) check_still_owner(db, game_id, owner);
        else check_game_exists(db, game_id);
        if constexpr (std::is_same_v<Connection, Database>)
          if (!page_limit_file.empty()) apply_page_limit(db, page_limit_file);
        const StoredAction& action = *shared;
        // UNIQUE (game_id, version) makes a second write of one version impossible. Rows are
        // appended in commit order, so a commit dirties few table pages.
        db.prepare(
              "INSERT INTO moves (game_id, version, kind, seat, tokens, events, at, clock) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")
            .bind(1, game_id)
            .bind(2, action.version)
            .bind(3, action.kind)
            .bind(4, action.seat)
            .bind(5, action.tokens)
            .bind(6, action.events)
            .bind(7, action.at)
            .bind(8, action.clock.is_null() ? std::optional<std::string>() : to_json_text(action.clock))
            .run();
        for (const auto& [number, record] : effects.new_rounds)
          db.prepare("INSERT INTO rounds (game_id, number, record) VALUES (?1, ?2, ?3)")
              .bind(1, game_id)
              .bind(2, number)
              .bind(3, to_json_text(record))
              .run();
        if (effects.finished_at) {
          db.prepare(
                "UPDATE games SET status = 'finished', finished = ?2, result = ?3 WHERE id = ?1")
              .bind(1, game_id)
              .bind(2, *effects.finished_at)
              .bind(3, to_json_text(effects.result))
              .run();
          if (!effects.outcomes.empty()) record_outcomes(db, game_id, effects.outcomes, *effects.finished_at);
        }
      },
      std::move(done));
}

template <class Dialect>
void SqlStorage<Dialect>::note_alive(std::string at, Done done) {
  writer_->submit(
      [at = std::move(at), owner = room_owner_](Connection& db) {
        // An upsert both databases understand (SQLite since 3.24).
        db.prepare("INSERT INTO server_alive (id, at) VALUES (1, ?1) "
                   "ON CONFLICT (id) DO UPDATE SET at = excluded.at")
            .bind(1, at)
            .run();
        if (!owner.empty())
          db.prepare("UPDATE room_owners SET alive_at = ?1 WHERE process_id = ?2").bind(1, at).bind(2, owner).run();
      },
      std::move(done));
}

template <class Dialect>
std::string SqlStorage<Dialect>::load_last_alive(const std::string& game_id) {
  std::string at;
  read([&](Connection& db) {
    at.clear();
    if (!room_owner_.empty() && !game_id.empty()) {
      auto owner_noted = db.prepare("SELECT alive_at FROM room_owners WHERE game_id = ?1 AND alive_at IS NOT NULL");
      owner_noted.bind(1, game_id);
      if (owner_noted.step()) {
        at = owner_noted.text(0);
        return;
      }
    }
    auto row = db.prepare("SELECT at FROM server_alive WHERE id = 1");
    if (row.step()) at = row.text(0);
  });
  return at;
}

template <class Dialect>
std::vector<StoredPlayer> SqlStorage<Dialect>::load_players() {
  std::vector<StoredPlayer> players;
  read([&](Connection& db) {
    auto rows = db.prepare(
        "SELECT p.id, p.name, p.token_hash, CASE WHEN a.player_id IS NULL THEN 0 ELSE 1 END FROM players p "
        "LEFT JOIN accounts a ON a.player_id = p.id");
    while (rows.step()) players.push_back({rows.text(0), rows.text(1), rows.text(2), rows.integer(3) != 0});
  });
  return players;
}

template <class Dialect>
std::optional<StoredPlayer> SqlStorage<Dialect>::load_player_by_token_hash(const std::string& token_hash) {
  std::optional<StoredPlayer> player;
  read([&](Connection& db) {
    auto row = db.prepare("SELECT id, name, token_hash FROM players WHERE token_hash = ?1");
    row.bind(1, token_hash);
    if (row.step()) player = StoredPlayer{row.text(0), row.text(1), row.text(2)};
  });
  return player;
}

template <class Dialect>
std::vector<StoredGame> SqlStorage<Dialect>::load_unfinished_games() {
  std::vector<StoredGame> games;
  read([&](Connection& db) {
    auto rows = db.prepare(std::string("SELECT ") + kGameColumns +
                           " FROM games g WHERE g.status IN ('waiting', 'playing') ORDER BY g.seq");
    while (rows.step()) games.push_back({read_meta(rows), {}});
    for (auto& game : games) {
      read_seats(db, game.meta);
      game.actions = read_actions(db, game.meta.id);
    }
  });
  return games;
}

template <class Dialect>
std::optional<StoredGame> SqlStorage<Dialect>::load_game(const std::string& id) {
  std::optional<StoredGame> game;
  read([&](Connection& db) {
    auto row = db.prepare(std::string("SELECT ") + kGameColumns + " FROM games g WHERE g.id = ?1");
    row.bind(1, id);
    if (!row.step()) return;
    game = StoredGame{read_meta(row), {}};
    read_seats(db, game->meta);
    game->actions = read_actions(db, id);
  });
  return game;
}

template <class Dialect>
std::optional<std::string> SqlStorage<Dialect>::game_of_invite(const std::string& invite) {
  std::optional<std::string> id;
  read([&](Connection& db) {
    auto row = db.prepare("SELECT id FROM games WHERE invite = ?1");
    row.bind(1, invite);
    if (row.step()) id = row.text(0);
  });
  return id;
}

template <class Dialect>
std::vector<StoredAction> SqlStorage<Dialect>::load_actions(const std::string& game_id) {
  std::vector<StoredAction> actions;
  read([&](Connection& db) { actions = read_actions(db, game_id); });
  return actions;
}

template <class Dialect>
GamePage SqlStorage<Dialect>::list_games(const GameQuery& query) {
  GamePage page;
  read([&](Connection& db) {
    // An absent filter is bound as NULL; the casts tell PostgreSQL its type (SQLite needs none).
    auto rows = db.prepare(
        std::string("SELECT ") + kGameColumns + ", g.seq FROM games g "
        "WHERE g.status IN ('playing', 'finished') "
        "  AND (CAST(?1 AS TEXT) IS NULL OR g.game = ?1) "
        "  AND (CAST(?2 AS TEXT) IS NULL OR g.status = ?2) "
        "  AND (CAST(?3 AS BIGINT) IS NULL OR g.seq < ?3) "
        "  AND (CAST(?4 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM seats s JOIN players p ON p.id = s.player_id "
        "                             WHERE s.game_id = g.id AND p.name = ?4)) "
        "  AND (g.private = 0 OR EXISTS (SELECT 1 FROM seats s "
        "                                WHERE s.game_id = g.id AND s.player_id = ?5)) "
        "  AND (CAST(?7 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM seats s "
        "                                WHERE s.game_id = g.id AND s.player_id = ?7)) "
        "ORDER BY g.seq DESC LIMIT ?6");
    rows.bind(1, query.game)
        .bind(2, query.status)
        .bind(3, query.before)
        .bind(4, query.player_name)
        .bind(5, query.viewer_id)
        .bind(6, query.limit + 1)  // one more tells whether there is a next page
        .bind(7, query.player_id);
    std::vector<std::int64_t> sequence;
    while (rows.step()) {
      page.games.push_back(read_meta(rows));
      sequence.push_back(rows.integer(kGameColumnCount));
    }
    if (page.games.size() > static_cast<std::size_t>(query.limit)) {
      page.games.pop_back();
      page.next = sequence[page.games.size() - 1];
    }
    for (auto& meta : page.games) read_seats(db, meta);
  });
  return page;
}

template <class Dialect>
bool SqlStorage<Dialect>::healthy() {
  try {
    bool answered = false;
    read([&](Connection& db) { answered = db.prepare("SELECT 1").step(); });
    return answered;
  } catch (const std::exception& e) {
    log_error("health_check_failed", {{"message", e.what()}});
    return false;
  }
}

}  // namespace

std::unique_ptr<Storage> Storage::open(const std::string& db, Histogram& commit_latency,
                                       const std::string& room_owner) {
  if (is_postgres_url(db)) return std::make_unique<SqlStorage<PostgresDialect>>(db, commit_latency, room_owner);
  if (!room_owner.empty()) throw SqlError("several processes need PostgreSQL; a SQLite file has one server");
  return std::make_unique<SqlStorage<SqliteDialect>>(db, commit_latency, "");
}

void Storage::backup(const std::string& path, const std::string& target) {
  if (is_postgres_url(path))
    throw SqlError("--backup copies a SQLite file; back up PostgreSQL with its own tools "
                   "(pg_dump, or pg_basebackup for a whole cluster)");
  if (!std::filesystem::exists(path)) throw SqlError("there is no database at '" + path + "'");
  if (std::filesystem::exists(target))
    throw SqlError("'" + target + "' already exists; the backup needs a new file");
  Database db(path, /*create=*/false);
  // VACUUM INTO reads one consistent snapshot, even while a server is writing.
  db.prepare("VACUUM INTO ?1").bind(1, target).run();
}

}  // namespace mancala::server
