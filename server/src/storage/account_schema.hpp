#pragma once
// Migrations 5 (accounts and ratings, issue 31), 6 (chat), 7 (Web Push), 8 (analyses), who asked
// for an analysis, and the name skeletons (11 in SQLite, 12 in PostgreSQL), in SQL that SQLite and
// PostgreSQL both read alike, so both migration lists name these texts.

namespace mancala::server {

inline constexpr const char* kAccountsMigration = R"sql(
  -- A player who took a name and a password. name_key is the name in lower case: names are
  -- unique whatever their case. The guest token of such a player no longer works.
  CREATE TABLE accounts (
    player_id TEXT PRIMARY KEY REFERENCES players(id),
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created TEXT NOT NULL
  );
  -- Sessions and password resets by the SHA-256 of their secret: the database never holds a
  -- usable proof.
  CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    created TEXT NOT NULL,
    last_used TEXT NOT NULL
  );
  CREATE INDEX sessions_by_player ON sessions(player_id);
  CREATE TABLE password_resets (
    hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    expires TEXT NOT NULL
  );
  -- Glicko-2 per player and game, and every rated game's effect (a game counts once: the key).
  CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players(id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (player_id, game)
  );
  CREATE INDEX ratings_by_game ON ratings(game, rating);
  CREATE TABLE rating_history (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player_id TEXT NOT NULL REFERENCES players(id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
  );
  CREATE INDEX rating_history_by_player ON rating_history(player_id, game, at);
  ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
  -- Each person's result once the game ended (Game::outcome: 1 won, 0 lost, between: a draw
  -- or a middle place); NULL before, and for games that ended before this migration.
  ALTER TABLE seats ADD COLUMN outcome DOUBLE PRECISION;
)sql";

// Migration 6 (room chat, issue 33), the same for both databases: every line with its game,
// what members reported, whom an account muted, players an operator silenced, and whether a
// room's spectators may chat.
inline constexpr const char* kChatMigration = R"sql(
  CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('players', 'spectators')),
    player_id TEXT NOT NULL REFERENCES players(id),
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    during_play INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
  );
  CREATE TABLE chat_reports (
    game_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reported TEXT NOT NULL
  );
  CREATE TABLE chat_mutes (
    player_id TEXT NOT NULL REFERENCES players(id),
    muted_id TEXT NOT NULL,
    name TEXT NOT NULL,
    muted_at TEXT NOT NULL,
    PRIMARY KEY (player_id, muted_id)
  );
  CREATE TABLE silences (
    player_id TEXT PRIMARY KEY REFERENCES players(id),
    until TEXT NOT NULL
  );
  ALTER TABLE games ADD COLUMN spectator_chat INTEGER NOT NULL DEFAULT 1;
)sql";

// Migration 7 (Web Push, issue 33), the same for both databases: the browsers that asked to be
// told when it is their player's move. The endpoint is the push service's address for one
// browser; p256dh and auth (base64url) are what its messages are encrypted for. Deleted when
// the player unsubscribes or the push service says the subscription is gone (404, 410).
inline constexpr const char* kPushMigration = R"sql(
  CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created TEXT NOT NULL
  );
  CREATE INDEX push_subscriptions_by_player ON push_subscriptions(player_id, created);
)sql";

// 8: game analyses (analysis_store.hpp). `id` is the analysis's key; positions are JSON texts.
inline constexpr const char* kAnalysisMigration = R"sql(
  CREATE TABLE analyses (
    id TEXT PRIMARY KEY,
    game_id TEXT,
    record_text TEXT,
    total INTEGER NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
    created TEXT NOT NULL,
    finished TEXT
  );
  CREATE INDEX analyses_running ON analyses(state);
  CREATE TABLE analysis_positions (
    analysis_id TEXT NOT NULL REFERENCES analyses(id),
    idx INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (analysis_id, idx)
  );
)sql";

// 11 in SQLite, 12 in PostgreSQL (issue 46): each account's name skeleton (protocol::name_skeleton),
// by which a new name is compared with the accounts', so that `cаrol` with a Cyrillic `а`
// cannot pass for `carol`. Not unique: accounts made before it may share one. The rows already
// there are filled by fill_name_skeletons (account_sql.hpp) in the same transaction.
inline constexpr const char* kNameSkeletonMigration = R"sql(
  ALTER TABLE accounts ADD COLUMN name_skeleton TEXT NOT NULL DEFAULT '';
  CREATE INDEX accounts_by_skeleton ON accounts(name_skeleton);
)sql";

// Who asked for each analysis (issue 46), the same for both databases: the player (empty for
// nobody known) and the address, so that the queue limits per player and per address hold
// after a restart too, and only the one who asked may cancel it. Older rows keep ''.
inline constexpr const char* kAnalysisAskerMigration = R"sql(
  ALTER TABLE analyses ADD COLUMN requested_by TEXT NOT NULL DEFAULT '';
  ALTER TABLE analyses ADD COLUMN requested_from TEXT NOT NULL DEFAULT '';
)sql";

}  // namespace mancala::server
