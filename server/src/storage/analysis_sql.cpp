#include <memory>

#include "account_sql.hpp"
#include "clock.hpp"
#include "database.hpp"
#include "pg_connection.hpp"

namespace mancala::server {
namespace {

constexpr const char* kAnalysisColumns =
    "id, game_id, record_text, total, state, created, finished, requested_by, requested_from";

template <class Row>
StoredAnalysis analysis_of(const Row& row) {
  const auto text_or_empty = [&](int column) { return row.is_null(column) ? std::string() : row.text(column); };
  return StoredAnalysis{row.text(0), text_or_empty(1), text_or_empty(2), row.integer(3), row.text(4),
                        row.text(5), text_or_empty(6), row.text(7),     row.text(8)};
}

template <class Connection>
class SqlAnalysisStore final : public AnalysisStore {
 public:
  explicit SqlAnalysisStore(SqlAccess<Connection> access) : db_(std::move(access)) {}

  std::optional<StoredAnalysis> find(const std::string& id) override {
    std::optional<StoredAnalysis> out;
    db_.read([&](Connection& db) {
      auto row = db.prepare(std::string("SELECT ") + kAnalysisColumns + " FROM analyses WHERE id = ?1");
      row.bind(1, id);
      if (row.step()) out = analysis_of(row);
    });
    return out;
  }

  void create(const StoredAnalysis& analysis) override {
    const auto empty_as_null = [](const std::string& text) {
      return text.empty() ? std::nullopt : std::optional<std::string>(text);
    };
    db_.write([&](Connection& db) {
      db.prepare(
            "INSERT INTO analyses (id, game_id, record_text, total, state, created, requested_by, requested_from) "
            "VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7) ON CONFLICT (id) DO NOTHING")
          .bind(1, analysis.id).bind(2, empty_as_null(analysis.game_id))
          .bind(3, empty_as_null(analysis.record_text)).bind(4, analysis.total).bind(5, analysis.created)
          .bind(6, analysis.requested_by).bind(7, analysis.requested_from)
          .run();
    });
  }

  std::vector<std::string> positions(const std::string& id) override {
    std::vector<std::string> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare("SELECT idx, json FROM analysis_positions WHERE analysis_id = ?1 ORDER BY idx");
      rows.bind(1, id);
      while (rows.step() && rows.integer(0) == static_cast<std::int64_t>(out.size())) out.push_back(rows.text(1));
    });
    return out;
  }

  void add_position(std::string id, std::int64_t index, std::string json, bool last, Done done) override {
    db_.submit(
        [id = std::move(id), index, json = std::move(json), last](Connection& db) {
          db.prepare(
                "INSERT INTO analysis_positions (analysis_id, idx, json) "
                "SELECT CAST(?1 AS TEXT), CAST(?2 AS INTEGER), CAST(?3 AS TEXT) "
                "WHERE EXISTS (SELECT 1 FROM analyses WHERE id = ?1 AND state = 'running') "
                "ON CONFLICT (analysis_id, idx) DO NOTHING")
              .bind(1, id).bind(2, index).bind(3, json)
              .run();
          if (last) set_state(db, id, "done");
        },
        std::move(done));
  }

  void mark_failed(std::string id, Done done) override {
    db_.submit([id = std::move(id)](Connection& db) { set_state(db, id, "failed"); }, std::move(done));
  }

  void remove_running(std::string id, Done done) override {
    db_.submit(
        [id = std::move(id)](Connection& db) {
          db.prepare(
                "DELETE FROM analysis_positions WHERE analysis_id = ?1 "
                "AND EXISTS (SELECT 1 FROM analyses WHERE id = ?1 AND state = 'running')")
              .bind(1, id).run();
          db.prepare("DELETE FROM analyses WHERE id = ?1 AND state = 'running'").bind(1, id).run();
        },
        std::move(done));
  }

  std::vector<StoredAnalysis> unfinished() override {
    std::vector<StoredAnalysis> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(std::string("SELECT ") + kAnalysisColumns +
                             " FROM analyses WHERE state = 'running' ORDER BY created, id");
      while (rows.step()) out.push_back(analysis_of(rows));
    });
    return out;
  }

 private:
  // Only a running analysis changes state: a second process finishing it changes nothing. It is
  // done only with all its positions (a cancelled run's last position may come after the same
  // analysis was asked for again).
  static void set_state(Connection& db, const std::string& id, const char* state) {
    db.prepare(
          "UPDATE analyses SET state = ?2, finished = ?3 WHERE id = ?1 AND state = 'running' "
          "AND (?2 <> 'done' OR total = (SELECT COUNT(*) FROM analysis_positions WHERE analysis_id = ?1))")
        .bind(1, id).bind(2, std::string(state)).bind(3, now_utc())
        .run();
  }

  SqlAccess<Connection> db_;
};

}  // namespace

template <class Connection>
std::unique_ptr<AnalysisStore> make_analysis_store(SqlAccess<Connection> access) {
  return std::make_unique<SqlAnalysisStore<Connection>>(std::move(access));
}

template std::unique_ptr<AnalysisStore> make_analysis_store(SqlAccess<Database>);
template std::unique_ptr<AnalysisStore> make_analysis_store(SqlAccess<PgConnection>);

}  // namespace mancala::server
