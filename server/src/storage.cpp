#include "storage.hpp"

#include <filesystem>

#include "clock.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "log.hpp"

namespace mancala::server {
namespace {

// Schema migrations, numbered by their position (PRAGMA user_version = how many have run).
// Never edit one that has shipped; add the next.
const char* const kMigrations[] = {
    // 1: players, games (one per room), seats, every committed action, round records.
    R"sql(
      CREATE TABLE players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created TEXT NOT NULL
      );
      CREATE INDEX players_by_name ON players(name);
      CREATE TABLE games (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        draws TEXT NOT NULL,
        private INTEGER NOT NULL,
        invite TEXT UNIQUE,
        grace_seconds INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
        created TEXT NOT NULL,
        started TEXT,
        finished TEXT,
        result TEXT
      );
      CREATE INDEX games_by_status ON games(status, seq);
      CREATE TABLE seats (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player_id TEXT NOT NULL REFERENCES players(id),
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, player_id)
      );
      CREATE INDEX seats_by_player ON seats(player_id);
      CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version INTEGER NOT NULL CHECK (version > 0),
        kind TEXT NOT NULL,
        seat INTEGER,
        tokens TEXT NOT NULL,
        events TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (game_id, version)
      );
      CREATE TABLE rounds (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
      ) WITHOUT ROWID;
    )sql",
};

void migrate(Database& db) {
  std::int64_t applied = 0;
  {
    auto version = db.prepare("PRAGMA user_version");
    if (version.step()) applied = version.integer(0);
  }
  const auto known = static_cast<std::int64_t>(std::size(kMigrations));
  if (applied > known)
    throw SqlError("the database has schema version " + std::to_string(applied) +
                   " but this server knows only " + std::to_string(known) + "; use a newer server");
  for (auto number = applied; number < known; ++number) {
    db.execute("BEGIN IMMEDIATE");
    try {
      db.execute(kMigrations[number]);
      // PRAGMA takes no bound parameters; the number is ours, not input.
      db.execute("PRAGMA user_version = " + std::to_string(number + 1));
      db.execute("COMMIT");
    } catch (...) {
      db.execute("ROLLBACK");
      throw;
    }
    log_info("migrated", {{"schema_version", number + 1}});
  }
}

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
  migrate(db);
  return db;
}

// Columns 0..11 of kGameColumns.
constexpr const char* kGameColumns =
    "g.id, g.game, g.options, g.draws, g.private, g.invite, g.grace_seconds, g.status, g.created, "
    "g.started, g.finished, g.result";

GameMeta read_meta(const Statement& row) {
  GameMeta meta;
  meta.id = row.text(0);
  meta.game = row.text(1);
  meta.options = Json::parse(row.text(2));
  meta.draws = Json::parse(row.text(3));
  meta.is_private = row.integer(4) != 0;
  meta.invite = row.text(5);
  meta.grace_seconds = static_cast<int>(row.integer(6));
  meta.status = row.text(7);
  meta.created = row.text(8);
  meta.started = row.text(9);
  meta.finished = row.text(10);
  meta.result = row.is_null(11) ? Json() : Json::parse(row.text(11));
  return meta;
}

void read_seats(Database& db, GameMeta& meta) {
  auto seats = db.prepare(
      "SELECT s.seat, s.player_id, p.name FROM seats s JOIN players p ON p.id = s.player_id "
      "WHERE s.game_id = ?1 ORDER BY s.seat");
  seats.bind(1, meta.id);
  while (seats.step())
    meta.seats.push_back({static_cast<int>(seats.integer(0)), seats.text(1), seats.text(2)});
}

std::vector<StoredAction> read_actions(Database& db, const std::string& game_id) {
  auto rows = db.prepare(
      "SELECT version, kind, seat, tokens, events, at FROM moves WHERE game_id = ?1 "
      "ORDER BY version");
  rows.bind(1, game_id);
  std::vector<StoredAction> actions;
  while (rows.step()) {
    StoredAction action;
    action.version = rows.integer(0);
    action.kind = rows.text(1);
    if (!rows.is_null(2)) action.seat = static_cast<int>(rows.integer(2));
    action.tokens = rows.text(3);
    action.events = Json::parse(rows.text(4));
    action.at = rows.text(5);
    actions.push_back(std::move(action));
  }
  return actions;
}

}  // namespace

Storage::Storage(const std::string& path, Histogram& commit_latency)
    : path_(path),
      in_memory_(path == ":memory:"),
      writer_(std::make_unique<GroupCommitWriter>(open_writer(path), commit_latency)) {
  if (!in_memory_) checkpointer_ = std::make_unique<WalCheckpointer>(path);
}

Storage::~Storage() { stop(); }

void Storage::stop() {
  writer_->stop();
  checkpointer_.reset();
}

void Storage::backup(const std::string& path, const std::string& target) {
  if (!std::filesystem::exists(path)) throw SqlError("there is no database at '" + path + "'");
  if (std::filesystem::exists(target))
    throw SqlError("'" + target + "' already exists; the backup needs a new file");
  Database db(path, /*create=*/false);
  // VACUUM INTO reads one consistent snapshot, even while a server is writing.
  db.prepare("VACUUM INTO ?1").bind(1, target).run();
}

void Storage::read(const std::function<void(Database&)>& read) {
  if (in_memory_) {
    writer_->run_and_wait(read);
    return;
  }
  std::unique_ptr<Database> reader;
  {
    const std::lock_guard lock(readers_mutex_);
    if (!idle_readers_.empty()) {
      reader = std::move(idle_readers_.back());
      idle_readers_.pop_back();
    }
  }
  if (!reader) reader = std::make_unique<Database>(path_, /*create=*/false);
  read(*reader);  // on an exception the connection is simply closed
  const std::lock_guard lock(readers_mutex_);
  idle_readers_.push_back(std::move(reader));
}

void Storage::create_player(StoredPlayer player, Done done) {
  writer_->submit(
      [player = std::move(player)](Database& db) {
        db.prepare("INSERT INTO players (id, name, token_hash, created) VALUES (?1, ?2, ?3, ?4)")
            .bind(1, player.id)
            .bind(2, player.name)
            .bind(3, player.token_hash)
            .bind(4, now_utc())
            .run();
      },
      std::move(done));
}

void Storage::create_game(GameMeta meta, Done done) {
  writer_->submit(
      [meta = std::move(meta)](Database& db) {
        db.prepare(
              "INSERT INTO games (id, game, options, draws, private, invite, grace_seconds, "
              "status, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'waiting', ?8)")
            .bind(1, meta.id)
            .bind(2, meta.game)
            .bind(3, to_json_text(meta.options))
            .bind(4, to_json_text(meta.draws))
            .bind(5, meta.is_private ? 1 : 0)
            .bind(6, meta.invite.empty() ? std::optional<std::string>() : meta.invite)
            .bind(7, meta.grace_seconds)
            .bind(8, meta.created)
            .run();
        for (const auto& seat : meta.seats)
          db.prepare("INSERT INTO seats (game_id, seat, player_id) VALUES (?1, ?2, ?3)")
              .bind(1, meta.id)
              .bind(2, seat.seat)
              .bind(3, seat.player_id)
              .run();
      },
      std::move(done));
}

void Storage::take_seat(std::string game_id, int seat, std::string player_id,
                        std::optional<std::string> started_at, Done done) {
  writer_->submit(
      [=](Database& db) {
        db.prepare("INSERT INTO seats (game_id, seat, player_id) VALUES (?1, ?2, ?3)")
            .bind(1, game_id)
            .bind(2, seat)
            .bind(3, player_id)
            .run();
        if (started_at)
          db.prepare("UPDATE games SET status = 'playing', started = ?2 WHERE id = ?1")
              .bind(1, game_id)
              .bind(2, *started_at)
              .run();
      },
      std::move(done));
}

void Storage::free_seat(std::string game_id, int seat, Done done) {
  writer_->submit(
      [=](Database& db) {
        db.prepare("DELETE FROM seats WHERE game_id = ?1 AND seat = ?2").bind(1, game_id).bind(2, seat).run();
      },
      std::move(done));
}

void Storage::delete_game(std::string game_id, Done done) {
  writer_->submit(
      [=](Database& db) { db.prepare("DELETE FROM games WHERE id = ?1").bind(1, game_id).run(); },
      std::move(done));
}

void Storage::append_action(std::string game_id, std::shared_ptr<const StoredAction> shared,
                            UpdateEffects effects, Done done) {
  writer_->submit(
      [game_id = std::move(game_id), shared = std::move(shared),
       effects = std::move(effects)](Database& db) {
        const StoredAction& action = *shared;
        // UNIQUE (game_id, version) makes a second write of one version impossible. Rows are
        // appended in commit order, so a commit dirties few table pages.
        db.prepare(
              "INSERT INTO moves (game_id, version, kind, seat, tokens, events, at) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
            .bind(1, game_id)
            .bind(2, action.version)
            .bind(3, action.kind)
            .bind(4, action.seat)
            .bind(5, action.tokens)
            .bind(6, to_json_text(action.events))
            .bind(7, action.at)
            .run();
        for (const auto& [number, record] : effects.new_rounds)
          db.prepare("INSERT INTO rounds (game_id, number, record) VALUES (?1, ?2, ?3)")
              .bind(1, game_id)
              .bind(2, number)
              .bind(3, to_json_text(record))
              .run();
        if (effects.finished_at)
          db.prepare(
                "UPDATE games SET status = 'finished', finished = ?2, result = ?3 WHERE id = ?1")
              .bind(1, game_id)
              .bind(2, *effects.finished_at)
              .bind(3, to_json_text(effects.result))
              .run();
      },
      std::move(done));
}

std::vector<StoredPlayer> Storage::load_players() {
  std::vector<StoredPlayer> players;
  read([&](Database& db) {
    auto rows = db.prepare("SELECT id, name, token_hash FROM players");
    while (rows.step()) players.push_back({rows.text(0), rows.text(1), rows.text(2)});
  });
  return players;
}

std::vector<StoredGame> Storage::load_unfinished_games() {
  std::vector<StoredGame> games;
  read([&](Database& db) {
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

std::optional<StoredGame> Storage::load_game(const std::string& id) {
  std::optional<StoredGame> game;
  read([&](Database& db) {
    auto row = db.prepare(std::string("SELECT ") + kGameColumns + " FROM games g WHERE g.id = ?1");
    row.bind(1, id);
    if (!row.step()) return;
    game = StoredGame{read_meta(row), {}};
    read_seats(db, game->meta);
    game->actions = read_actions(db, id);
  });
  return game;
}

std::vector<StoredAction> Storage::load_actions(const std::string& game_id) {
  std::vector<StoredAction> actions;
  read([&](Database& db) { actions = read_actions(db, game_id); });
  return actions;
}

GamePage Storage::list_games(const GameQuery& query) {
  GamePage page;
  read([&](Database& db) {
    auto rows = db.prepare(
        std::string("SELECT ") + kGameColumns + ", g.seq FROM games g "
        "WHERE g.status IN ('playing', 'finished') "
        "  AND (?1 IS NULL OR g.game = ?1) "
        "  AND (?2 IS NULL OR g.status = ?2) "
        "  AND (?3 IS NULL OR g.seq < ?3) "
        "  AND (?4 IS NULL OR EXISTS (SELECT 1 FROM seats s JOIN players p ON p.id = s.player_id "
        "                             WHERE s.game_id = g.id AND p.name = ?4)) "
        "  AND (g.private = 0 OR EXISTS (SELECT 1 FROM seats s "
        "                                WHERE s.game_id = g.id AND s.player_id = ?5)) "
        "ORDER BY g.seq DESC LIMIT ?6");
    rows.bind(1, query.game)
        .bind(2, query.status)
        .bind(3, query.before)
        .bind(4, query.player_name)
        .bind(5, query.viewer_id)
        .bind(6, query.limit + 1);  // one more tells whether there is a next page
    std::vector<std::int64_t> sequence;
    while (rows.step()) {
      page.games.push_back(read_meta(rows));
      sequence.push_back(rows.integer(12));
    }
    if (page.games.size() > static_cast<std::size_t>(query.limit)) {
      page.games.pop_back();
      page.next = sequence[page.games.size() - 1];
    }
    for (auto& meta : page.games) read_seats(db, meta);
  });
  return page;
}

bool Storage::healthy() {
  try {
    bool answered = false;
    read([&](Database& db) { answered = db.prepare("SELECT 1").step(); });
    return answered;
  } catch (const std::exception& e) {
    log_error("health_check_failed", {{"message", e.what()}});
    return false;
  }
}

}  // namespace mancala::server
