#pragma once
// The schema in PostgreSQL: the same tables, columns and constraints as SQLite's (storage.cpp),
// numbered the same way. Several server processes may start at once; an advisory lock lets one
// of them migrate while the others wait.
namespace mancala::server {

class PgConnection;

// Brings the database's schema up to date. Throws SqlError (also when the database is newer
// than this server).
void migrate_postgres(PgConnection& db);

}  // namespace mancala::server
