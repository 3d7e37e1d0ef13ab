#include "pg_connection.hpp"

#include <cstdio>
#include <cstdlib>

#include <libpq-fe.h>

#include <cctype>
#include <optional>
#include <utility>

namespace mancala::server {

bool is_postgres_url(std::string_view db) {
  return db.starts_with("postgresql://") || db.starts_with("postgres://");
}

std::string without_password(std::string_view db) {
  if (!is_postgres_url(db)) return std::string(db);
  const auto scheme_end = db.find("://") + 3;
  const auto at = db.find('@', scheme_end);
  const auto colon = db.find(':', scheme_end);
  if (at == std::string_view::npos || colon == std::string_view::npos || colon > at) return std::string(db);
  return std::string(db.substr(0, colon + 1)) + "***" + std::string(db.substr(at));
}

std::string to_postgres_parameters(std::string_view sql) {
  std::string out;
  out.reserve(sql.size());
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const bool numbered = sql[i] == '?' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1]));
    out += numbered ? '$' : sql[i];
  }
  return out;
}

namespace {

// The highest $N in `sql`: how many values the statement takes.
int count_parameters(const std::string& sql) {
  int highest = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] != '$') continue;
    int number = 0;
    while (i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1])))
      number = number * 10 + (sql[++i] - '0');
    highest = std::max(highest, number);
  }
  return highest;
}

bool succeeded(const PGresult* result) {
  const auto status = PQresultStatus(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

}  // namespace

// ---- statements --------------------------------------------------------------------------

PgStatement::PgStatement(PgConnection& connection, const std::string& sql, std::string name, int parameters)
    : connection_(&connection), sql_(&sql), name_(std::move(name)), values_(static_cast<std::size_t>(parameters)) {}

PgStatement::~PgStatement() { PQclear(result_); }

PgStatement& PgStatement::set(int index, std::optional<std::string> value) {
  if (index < 1 || static_cast<std::size_t>(index) > values_.size())
    throw SqlError("parameter ?" + std::to_string(index) + " is not in: " + *sql_);
  values_[static_cast<std::size_t>(index - 1)] = std::move(value);
  return *this;
}

void PgStatement::execute() {
  std::vector<const char*> pointers;
  pointers.reserve(values_.size());
  for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
  if (connection_->pipelined()) {
    // A statement that reads rows needs its answer now, and so everything sent before it.
    connection_->finish_pipeline();
    struct Resume {
      PgConnection* connection;
      ~Resume() { connection->resume_pipeline(); }
    } resume{connection_};
    return execute_now(pointers);
  }
  execute_now(pointers);
}

void PgStatement::execute_now(const std::vector<const char*>& pointers) {
  result_ = PQexecPrepared(connection_->handle(), name_.c_str(), static_cast<int>(pointers.size()),
                           pointers.data(), nullptr, nullptr, 0);
  if (!succeeded(result_)) {
    PGresult* failed = std::exchange(result_, nullptr);
    connection_->fail(*sql_, failed);
  }
  rows_ = PQntuples(result_);
}

bool PgStatement::step() {
  if (!result_) execute();
  return ++row_ < rows_;
}

void PgStatement::run() {
  if (result_) return;
  if (!connection_->pipelined()) return execute();
  std::vector<const char*> pointers;
  pointers.reserve(values_.size());
  for (const auto& value : values_) pointers.push_back(value ? value->c_str() : nullptr);
  connection_->send(name_, pointers, *sql_);
}

std::int64_t PgStatement::integer(int column) const {
  return std::stoll(PQgetvalue(result_, row_, column));
}

// Parameters travel as text: 17 significant digits bring a double back exactly.
PgStatement& PgStatement::bind(int index, double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return set(index, std::string(text));
}

double PgStatement::real(int column) const { return std::strtod(PQgetvalue(result_, row_, column), nullptr); }

std::string PgStatement::text(int column) const {
  return std::string(PQgetvalue(result_, row_, column),
                     static_cast<std::size_t>(PQgetlength(result_, row_, column)));
}

bool PgStatement::is_null(int column) const { return PQgetisnull(result_, row_, column) != 0; }

// ---- connections -------------------------------------------------------------------------

PgConnection::PgConnection(const std::string& url) : url_(url) {
  connection_ = PQconnectdb(url.c_str());
  if (PQstatus(connection_) != CONNECTION_OK) {
    const std::string message = connection_ ? PQerrorMessage(connection_) : "out of memory";
    PQfinish(connection_);
    connection_ = nullptr;
    SqlError error("cannot connect to PostgreSQL: " + message);
    error.connection_lost = true;  // a later attempt may succeed
    throw error;
  }
  apply_session_settings();
}

PgConnection::PgConnection(PgConnection&& other) noexcept
    : url_(std::move(other.url_)),
      connection_(std::exchange(other.connection_, nullptr)),
      prepared_(std::move(other.prepared_)) {}

PgConnection::~PgConnection() {
  if (connection_) PQfinish(connection_);
}

void PgConnection::apply_session_settings() {
  // The guarantee the server's acknowledgements rest on: COMMIT returns only once the commit
  // is flushed to disk (and to synchronous standbys, if the operator configured any), whatever
  // the server's default says. Quiet notices keep libpq from printing to stderr.
  execute("SET synchronous_commit = on; SET client_min_messages = warning");
}

void PgConnection::reconnect_if_broken() {
  if (PQstatus(connection_) == CONNECTION_OK) return;
  PQreset(connection_);
  if (PQstatus(connection_) != CONNECTION_OK) fail("reconnect");
  prepared_.clear();  // prepared statements belong to the old session
  apply_session_settings();
}

void PgConnection::start_pipeline() {
  if (pipelined_) return;
  if (PQenterPipelineMode(connection_) != 1) fail("entering pipeline mode");
  pipelined_ = true;
}

void PgConnection::resume_pipeline() noexcept {
  // Should libpq refuse (a broken connection), statements simply run one by one from here on.
  pipelined_ = PQenterPipelineMode(connection_) == 1;
}

void PgConnection::finish_pipeline() {
  if (!pipelined_) return;
  struct Leave {
    PgConnection* self;
    ~Leave() {
      self->unanswered_ = 0;
      self->pipelined_ = false;
      PQexitPipelineMode(self->connection_);  // fails only on a broken connection
    }
  } leave{this};
  settle();
}

void PgConnection::send(const std::string& name, const std::vector<const char*>& values, std::string_view sql) {
  if (PQsendQueryPrepared(connection_, name.c_str(), static_cast<int>(values.size()), values.data(), nullptr,
                          nullptr, 0) != 1)
    fail(sql);
  if (unanswered_++ == 0) first_unanswered_sql_ = std::string(sql.substr(0, 120));
}

void PgConnection::settle() {
  if (unanswered_ == 0) return;
  if (PQpipelineSync(connection_) != 1) fail("pipeline sync");
  std::optional<SqlError> failure;
  // Each statement's answer ends with a null result; the sync's answer ends the pipeline.
  for (int nulls_in_a_row = 0; nulls_in_a_row < 2;) {
    PGresult* result = PQgetResult(connection_);
    if (!result) {
      if (PQstatus(connection_) == CONNECTION_BAD) break;
      ++nulls_in_a_row;
      continue;
    }
    nulls_in_a_row = 0;
    const ExecStatusType status = PQresultStatus(result);
    if (status == PGRES_PIPELINE_SYNC) {
      PQclear(result);
      unanswered_ = 0;
      if (failure) throw *failure;
      return;
    }
    if (status == PGRES_FATAL_ERROR && !failure)
      failure = error_of("one of the statements sent from: " + first_unanswered_sql_, result);
    PQclear(result);
  }
  unanswered_ = 0;
  SqlError lost = failure ? *failure : error_of("pipeline", nullptr);
  lost.connection_lost = PQstatus(connection_) == CONNECTION_BAD;
  throw lost;
}

void PgConnection::execute(std::string_view sql) {
  PGresult* result = PQexec(connection_, std::string(sql).c_str());
  if (!succeeded(result)) fail(sql, result);
  PQclear(result);
}

PgStatement PgConnection::prepare(std::string_view sql) {
  auto it = prepared_.find(std::string(sql));
  if (it == prepared_.end()) {
    if (pipelined_) {
      // PQprepare waits for its answer, which pipeline mode does not allow: once per statement
      // and connection, the pipeline is settled and resumed around it.
      finish_pipeline();
      struct Resume {
        PgConnection* self;
        ~Resume() { self->resume_pipeline(); }
      } resume{this};
      return prepare(sql);
    }
    const std::string text = to_postgres_parameters(sql);
    Prepared prepared{"s" + std::to_string(prepared_.size() + 1), count_parameters(text)};
    PGresult* result = PQprepare(connection_, prepared.name.c_str(), text.c_str(), 0, nullptr);
    if (!succeeded(result)) fail(sql, result);
    PQclear(result);
    it = prepared_.emplace(std::string(sql), std::move(prepared)).first;
  }
  return PgStatement(*this, it->first, it->second.name, it->second.parameters);
}

SqlError PgConnection::error_of(std::string_view what, pg_result* result) const {
  std::string message = result ? PQresultErrorMessage(result) : "";
  if (message.empty()) message = PQerrorMessage(connection_);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  SqlError error("PostgreSQL: " + message + " (in: " + std::string(what.substr(0, 160)) + ")");
  error.connection_lost = PQstatus(connection_) == CONNECTION_BAD;
  error.deferred = pipelined_;
  return error;
}

void PgConnection::fail(std::string_view what, pg_result* result) const {
  SqlError error = error_of(what, result);
  PQclear(result);
  throw error;
}

}  // namespace mancala::server
