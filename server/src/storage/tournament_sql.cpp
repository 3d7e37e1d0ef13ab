#include <memory>

#include "account_sql.hpp"
#include "database.hpp"
#include "pg_connection.hpp"

namespace mancala::server {
namespace {

constexpr const char* kTournamentColumns =
    "id, name, game, options, clock, kind, rated, status, starts_at, minutes, ends_at, created_by, created";

std::vector<std::string> ids_of(const std::string& json_text) {
  return Json::parse(json_text).get<std::vector<std::string>>();
}

template <class Row>
StoredTournament tournament_of(const Row& row) {
  StoredTournament t;
  t.id = row.text(0);
  t.name = row.text(1);
  t.game = row.text(2);
  t.options = Json::parse(row.text(3));
  t.clock = Json::parse(row.text(4));
  t.kind = row.text(5);
  t.rated = row.integer(6) != 0;
  t.status = row.text(7);
  t.starts_at = row.text(8);
  t.minutes = static_cast<int>(row.integer(9));
  t.ends_at = row.text(10);
  t.created_by = row.text(11);
  t.created = row.text(12);
  return t;
}

template <class Connection>
void upsert_entrant(Connection& db, const std::string& tournament_id, const StoredEntrant& e) {
  db.prepare(
        "INSERT INTO tournament_players (tournament_id, player_id, name, joined, score, streak, games, paused, "
        "last_opponent) VALUES (?1, ?2, ?3, (SELECT COALESCE(MAX(joined), 0) + 1 FROM tournament_players "
        "WHERE tournament_id = ?1), ?4, ?5, ?6, ?7, ?8) ON CONFLICT (tournament_id, player_id) DO UPDATE SET "
        "score = excluded.score, streak = excluded.streak, games = excluded.games, paused = excluded.paused, "
        "last_opponent = excluded.last_opponent")
      .bind(1, tournament_id).bind(2, e.player_id).bind(3, e.name).bind(4, e.score).bind(5, e.streak)
      .bind(6, e.games).bind(7, e.paused ? 1 : 0).bind(8, e.last_opponent)
      .run();
}

template <class Connection>
class SqlTournamentStore final : public TournamentStore {
 public:
  explicit SqlTournamentStore(SqlAccess<Connection> access) : db_(std::move(access)) {}

  void create(const StoredTournament& t) override {
    db_.write([t](Connection& db) {
      db.prepare(std::string("INSERT INTO tournaments (") + kTournamentColumns +
                 ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")
          .bind(1, t.id).bind(2, t.name).bind(3, t.game).bind(4, t.options.dump()).bind(5, t.clock.dump())
          .bind(6, t.kind).bind(7, t.rated ? 1 : 0).bind(8, t.status).bind(9, t.starts_at).bind(10, t.minutes)
          .bind(11, t.ends_at).bind(12, t.created_by).bind(13, t.created)
          .run();
    });
  }

  std::optional<StoredTournament> find(const std::string& id) override {
    std::optional<StoredTournament> out;
    db_.read([&](Connection& db) {
      auto row = db.prepare(std::string("SELECT ") + kTournamentColumns + " FROM tournaments WHERE id = ?1");
      row.bind(1, id);
      if (row.step()) out = tournament_of(row);
    });
    return out;
  }

  std::vector<StoredTournament> list(const std::string& status, int limit) override {
    std::vector<StoredTournament> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(std::string("SELECT ") + kTournamentColumns +
                             " FROM tournaments WHERE (?1 = '' OR status = ?1) ORDER BY starts_at, id LIMIT ?2");
      rows.bind(1, status).bind(2, limit);
      while (rows.step()) out.push_back(tournament_of(rows));
    });
    return out;
  }

  std::vector<StoredTournament> won_by(const std::string& player_id, int limit) override {
    std::vector<StoredTournament> out;
    db_.read([&](Connection& db) {
      // The rank is not stored: first is the best score, computed from the stored ones.
      auto rows = db.prepare(std::string("SELECT ") + kTournamentColumns +
                             " FROM tournaments WHERE status = 'finished' AND id IN (SELECT p.tournament_id FROM "
                             "tournament_players p WHERE p.player_id = ?1 AND p.score > 0 AND p.score >= (SELECT "
                             "MAX(q.score) FROM tournament_players q WHERE q.tournament_id = p.tournament_id)) "
                             "ORDER BY ends_at DESC, id LIMIT ?2");
      rows.bind(1, player_id).bind(2, limit);
      while (rows.step()) out.push_back(tournament_of(rows));
    });
    return out;
  }

  void set_status(const std::string& id, const std::string& status, const std::string& ends_at) override {
    db_.write([=](Connection& db) {
      db.prepare("UPDATE tournaments SET status = ?2, ends_at = ?3 WHERE id = ?1")
          .bind(1, id).bind(2, status).bind(3, ends_at).run();
    });
  }

  void save_entrant(const std::string& tournament_id, const StoredEntrant& entrant) override {
    db_.write([=](Connection& db) { upsert_entrant(db, tournament_id, entrant); });
  }

  bool remove_entrant(const std::string& tournament_id, const std::string& player_id) override {
    bool found = false;
    db_.write([&](Connection& db) {
      auto row = db.prepare("SELECT 1 FROM tournament_players WHERE tournament_id = ?1 AND player_id = ?2");
      row.bind(1, tournament_id).bind(2, player_id);
      found = row.step();
      db.prepare("DELETE FROM tournament_players WHERE tournament_id = ?1 AND player_id = ?2")
          .bind(1, tournament_id).bind(2, player_id).run();
    });
    return found;
  }

  std::vector<StoredEntrant> entrants(const std::string& tournament_id) override {
    std::vector<StoredEntrant> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(
          "SELECT player_id, name, score, streak, games, paused, last_opponent FROM tournament_players "
          "WHERE tournament_id = ?1 ORDER BY joined");
      rows.bind(1, tournament_id);
      while (rows.step())
        out.push_back({rows.text(0), rows.text(1), rows.real(2), static_cast<int>(rows.integer(3)),
                       static_cast<int>(rows.integer(4)), rows.integer(5) != 0, rows.text(6)});
    });
    return out;
  }

  void add_pairing(const std::string& tournament_id, const StoredPairing& pairing) override {
    db_.write([=](Connection& db) {
      db.prepare("INSERT INTO tournament_pairings (tournament_id, room_id, players, finished, opened) VALUES (?1, ?2, ?3, ?4, "
                 "(SELECT COALESCE(MAX(opened), 0) + 1 FROM tournament_pairings WHERE tournament_id = ?1))")
          .bind(1, tournament_id).bind(2, pairing.room_id).bind(3, Json(pairing.players).dump())
          .bind(4, pairing.finished ? 1 : 0).run();
    });
  }

  void finish_pairing(const std::string& tournament_id, const std::string& room_id,
                      const std::vector<StoredEntrant>& standings) override {
    db_.write([=](Connection& db) {
      db.prepare("UPDATE tournament_pairings SET finished = 1 WHERE tournament_id = ?1 AND room_id = ?2")
          .bind(1, tournament_id).bind(2, room_id).run();
      for (const auto& entrant : standings) upsert_entrant(db, tournament_id, entrant);
    });
  }

  std::vector<StoredPairing> pairings(const std::string& tournament_id) override {
    std::vector<StoredPairing> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(
          "SELECT room_id, players, finished FROM tournament_pairings WHERE tournament_id = ?1 ORDER BY opened");
      rows.bind(1, tournament_id);
      while (rows.step())
        out.push_back({rows.text(0), ids_of(rows.text(1)), rows.integer(2) != 0});
    });
    return out;
  }

 private:
  SqlAccess<Connection> db_;
};

}  // namespace

template <class Connection>
std::unique_ptr<TournamentStore> make_tournament_store(SqlAccess<Connection> access) {
  return std::make_unique<SqlTournamentStore<Connection>>(std::move(access));
}

template std::unique_ptr<TournamentStore> make_tournament_store(SqlAccess<Database>);
template std::unique_ptr<TournamentStore> make_tournament_store(SqlAccess<PgConnection>);

}  // namespace mancala::server
