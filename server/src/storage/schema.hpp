#pragma once
// The schema's numbered migrations, written once for SQLite and PostgreSQL (schema.cpp), and
// the two ways of running them. Several server processes may start on one PostgreSQL at once;
// an advisory lock lets one of them migrate while the others wait.
#include <string>
#include <vector>

namespace mancala::server {

class Database;
class PgConnection;

enum class Dialect { sqlite, postgresql };

struct MigrationStep {
  const char* what;
  std::string sql;
  bool fills_name_skeletons;  // then fill_name_skeletons runs in the same transaction
};

// The steps `dialect` runs, in order: step N brings a database from version N to N + 1.
std::vector<MigrationStep> migrations(Dialect dialect);

// Bring the database's schema up to date. Throw SqlError (also when the database is newer than
// this server).
void migrate_sqlite(Database& db);
void migrate_postgres(PgConnection& db);

}  // namespace mancala::server
