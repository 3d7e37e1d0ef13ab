#pragma once
// A thin RAII layer over libpq with the same shape as `Database` (SQLite), so that the storage
// code is written once for both: prepare(sql).bind(1, x).step() / run(), then integer/text/
// is_null per column. SQL is written with SQLite's numbered parameters (?1, ?2 …); they become
// PostgreSQL's $1, $2 … here. Each statement is prepared once per connection (by its text),
// values travel as text and PostgreSQL infers their types from where they are used.
// Failures throw SqlError with PostgreSQL's message.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "database.hpp"  // SqlError

struct pg_conn;
struct pg_result;

namespace mancala::server {

class PgConnection;

// "postgresql://…" or "postgres://…": a libpq connection URI rather than a SQLite file name.
bool is_postgres_url(std::string_view db);

// The URL with any password replaced by "***", for logs.
std::string without_password(std::string_view db);

// "?1 … ?12" -> "$1 … $12". Our SQL has no '?' inside string literals.
std::string to_postgres_parameters(std::string_view sql);

class PgStatement {
 public:
  PgStatement(PgConnection& connection, const std::string& sql, std::string name, int parameters);
  PgStatement(const PgStatement&) = delete;
  PgStatement& operator=(const PgStatement&) = delete;
  ~PgStatement();

  PgStatement& bind(int index, std::int64_t value) { return set(index, std::to_string(value)); }
  PgStatement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  PgStatement& bind(int index, double value);
  PgStatement& bind(int index, std::string_view text) { return set(index, std::string(text)); }
  PgStatement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  PgStatement& bind(int index, const std::string& text) { return set(index, text); }
  PgStatement& bind(int index, std::nullopt_t) { return set(index, std::nullopt); }
  template <class T>
  PgStatement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }

  bool step();  // runs the statement on the first call; true while there is a row to read
  void run();   // runs it, ignoring any rows

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool is_null(int column) const;

 private:
  PgStatement& set(int index, std::optional<std::string> value);
  void execute();
  void execute_now(const std::vector<const char*>& values);

  PgConnection* connection_;
  const std::string* sql_;  // for error messages; the connection's cache keeps it
  std::string name_;
  std::vector<std::optional<std::string>> values_;
  pg_result* result_ = nullptr;
  int row_ = -1;
  int rows_ = 0;
};

class PgConnection {
 public:
  // Connects to `url` (a libpq URI such as postgresql://user@host:5432/db). Throws SqlError.
  explicit PgConnection(const std::string& url);
  PgConnection(PgConnection&&) noexcept;
  PgConnection& operator=(PgConnection&&) = delete;
  ~PgConnection();

  // Statements with no values bound (settings, migrations); several may be separated by ';'.
  void execute(std::string_view sql);
  PgStatement prepare(std::string_view sql);
  // The writer's transaction: a plain BEGIN (SQLite needs BEGIN IMMEDIATE).
  void begin_write() {
    reconnect_if_broken();
    execute("BEGIN");
  }

  // A group commit's statements in one round trip (libpq's pipeline mode). From
  // `start_pipeline()` on, `run()` sends a statement without waiting for its answer; a
  // statement that reads rows, a new prepare and `finish_pipeline()` first wait for every
  // answer. A failure then surfaces there as a SqlError marked `deferred`: PostgreSQL skipped
  // what followed the failing statement, so the transaction is rolled back whole and the
  // writer finds the failing job by running the jobs again one by one.
  void start_pipeline();
  // Waits for every answer and leaves pipeline mode (also when it throws the first failure).
  void finish_pipeline();
  bool pipelined() const { return pipelined_; }

  [[noreturn]] void fail(std::string_view what, pg_result* result = nullptr) const;
  pg_conn* handle() const { return connection_; }
  // Reconnects when the server closed the connection (a restart, a network cut): the next
  // statement then runs on a fresh session. Prepared statements are prepared again.
  void reconnect_if_broken();
  // Runs `work(*this)`; when the connection turns out lost on the way (a closed connection is
  // only found out by its next statement), reconnects and runs it once more. Only for work
  // that commits nothing, or is a single statement that failed before it ran: reads.
  template <class Work>
  auto retrying(Work&& work) {
    reconnect_if_broken();
    try {
      return work(*this);
    } catch (const SqlError& e) {
      if (!e.connection_lost) throw;
      reconnect_if_broken();
      return work(*this);
    }
  }

 private:
  friend class PgStatement;
  struct Prepared {
    std::string name;
    int parameters = 0;
  };
  void apply_session_settings();
  // In pipeline mode: reads the answers of everything sent; throws the first failure.
  void settle();
  void resume_pipeline() noexcept;  // start_pipeline() after a statement that had to wait
  // Sends a prepared statement in pipeline mode (its answer is read by `settle`).
  void send(const std::string& name, const std::vector<const char*>& values, std::string_view sql);
  SqlError error_of(std::string_view what, pg_result* result) const;

  std::string url_;
  bool pipelined_ = false;
  int unanswered_ = 0;  // statements sent in pipeline mode whose answers are not read yet
  std::string first_unanswered_sql_;
  pg_conn* connection_ = nullptr;
  std::unordered_map<std::string, Prepared> prepared_;  // SQL text -> server-side statement
};

}  // namespace mancala::server
