#include "database.hpp"

#include <sqlite3.h>

#include <utility>

#include "sqlite_vfs.hpp"

namespace mancala::server {

Statement::~Statement() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(statement_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(statement_, index, value) != SQLITE_OK) db_->fail("bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  if (sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK)
    db_->fail("bind");
  return *this;
}

Statement& Statement::bind(int index, std::nullopt_t) {
  if (sqlite3_bind_null(statement_, index) != SQLITE_OK) db_->fail("bind");
  return *this;
}

bool Statement::step() {
  const int result = sqlite3_step(statement_);
  if (result == SQLITE_ROW) return true;
  if (result == SQLITE_DONE) return false;
  db_->fail(sqlite3_sql(statement_));
}

void Statement::run() {
  while (step()) {
  }
}

std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(statement_, column); }

double Statement::real(int column) const { return sqlite3_column_double(statement_, column); }

std::string Statement::text(int column) const {
  const auto* data = sqlite3_column_text(statement_, column);
  const int size = sqlite3_column_bytes(statement_, column);
  return data ? std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size))
              : std::string();
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

Database::Database(const std::string& path, bool create) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_URI |
                    SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, sqlite_vfs()) != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw SqlError("cannot open database '" + path + "': " + message);
  }
  sqlite3_busy_timeout(db_, 5000);
  execute("PRAGMA foreign_keys = ON");
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), cache_(std::move(other.cache_)) {}

Database::~Database() {
  cache_.clear();  // statements first: a connection with live statements does not close
  if (db_) sqlite3_close(db_);
}

void Database::execute(std::string_view sql) {
  const char* rest = sql.data();
  const char* end = sql.data() + sql.size();
  while (rest < end) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, rest, static_cast<int>(end - rest), &statement, &rest) != SQLITE_OK)
      fail(std::string(sql));
    if (!statement) continue;  // whitespace or a comment
    const std::unique_ptr<sqlite3_stmt, Finalize> owner(statement);
    int result;
    while ((result = sqlite3_step(statement)) == SQLITE_ROW) {
    }
    if (result != SQLITE_DONE) fail(sqlite3_sql(statement));
  }
}

Statement Database::prepare(std::string_view sql) {
  auto it = cache_.find(std::string(sql));
  if (it == cache_.end()) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &statement, nullptr) != SQLITE_OK)
      fail(sql);
    it = cache_.emplace(std::string(sql), std::unique_ptr<sqlite3_stmt, Finalize>(statement)).first;
  }
  return Statement(*this, it->second.get());
}

std::int64_t Database::changes() const { return sqlite3_changes64(db_); }

void Database::fail(std::string_view what) const {
  SqlError error(std::string(sqlite3_errmsg(db_)) + " (in: " + std::string(what.substr(0, 120)) + ")");
  error.disk_full = sqlite3_errcode(db_) == SQLITE_FULL;
  throw error;
}

void Database::Finalize::operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }

}  // namespace mancala::server
