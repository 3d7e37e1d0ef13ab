#pragma once
// A thin RAII layer over SQLite: one connection, prepared statements cached by their SQL text.
// Every value reaches SQL through a bound parameter. Failures throw SqlError with SQLite's
// message, which callers turn into a log line and an `internal` reply.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace mancala::server {

struct SqlError : std::runtime_error {
  using std::runtime_error::runtime_error;
  // The connection itself is gone (PostgreSQL restarted, a failover, the backend terminated):
  // nothing of the statement took effect unless it was a COMMIT, and a fresh connection may
  // succeed where this one failed.
  bool connection_lost = false;
  // SQLite's SQLITE_FULL: the disk (or the page limit) has no room for what was written; the
  // transaction is undone, and the same write succeeds once there is room again.
  bool disk_full = false;
  // Reported after the statement ran, with others sent behind it (PostgreSQL's pipeline mode,
  // see pg_connection.hpp): which job's statement failed is not known, and nothing after it ran.
  bool deferred = false;
};

class Database;

// A prepared statement in use: bind, step through rows, read columns. Resets and clears its
// bindings when it goes out of scope, so the cached statement is ready for the next use.
class Statement {
 public:
  Statement(Database& db, sqlite3_stmt* statement) : db_(&db), statement_(statement) {}
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, std::nullopt_t);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }

  bool step();  // true while there is a row to read
  void run();   // steps to the end (statements without rows)

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool is_null(int column) const;

 private:
  Database* db_;
  sqlite3_stmt* statement_;
};

class Database {
 public:
  // Opens (creating when `create`) with foreign keys on and a busy timeout. `path` may be a
  // file name or a "file:" URI.
  Database(const std::string& path, bool create);
  Database(Database&&) noexcept;
  Database& operator=(Database&&) = delete;
  ~Database();

  // Statements with no values bound (PRAGMAs, migrations); several may be separated by ';'.
  void execute(std::string_view sql);
  // A cached prepared statement for `sql` (literal text: the cache is keyed by it).
  Statement prepare(std::string_view sql);
  std::int64_t changes() const;
  // The writer's transaction: IMMEDIATE takes the write lock at once, so a commit never has to
  // upgrade a read lock (and fail with SQLITE_BUSY) halfway through.
  void begin_write() { prepare("BEGIN IMMEDIATE").run(); }

  [[noreturn]] void fail(std::string_view what) const;
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  struct Finalize {
    void operator()(sqlite3_stmt* statement) const;
  };
  std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, Finalize>> cache_;
};

}  // namespace mancala::server
