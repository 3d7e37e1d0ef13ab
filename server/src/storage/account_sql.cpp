#include "account_sql.hpp"

#include <chrono>

#include "clock.hpp"
#include "database.hpp"
#include "mancala/protocol/names.hpp"
#include "pg_connection.hpp"
#include "text.hpp"

namespace mancala::server {
namespace {

// Outcomes are shares in [0, 1]; a sole first place is 1 and a sole last place 0.
constexpr double kEpsilon = 1e-6;

std::string days_ago(int days) {
  return format_utc(std::chrono::system_clock::now() - std::chrono::hours(24) * days);
}

template <class Row>
SeatRating read_rating(const Row& row, int first) {
  return SeatRating{{row.real(first), row.real(first + 1), row.real(first + 2)},
                    static_cast<int>(row.integer(first + 3))};
}

template <class Connection>
class SqlAccountStore final : public AccountStore {
 public:
  explicit SqlAccountStore(SqlAccess<Connection> access) : db_(std::move(access)) {}

  void create_account(const NewAccount& account) override {
    // Checked first on a reader, so that the usual refusal costs no failed write; the check
    // in the transaction stays for two sign-ups racing for one name.
    if (auto like = account_name_like(account.name)) throw NameTaken(*like);
    db_.write([account, skeleton = protocol::name_skeleton(account.name)](Connection& db) {
      if (auto like = name_with_skeleton(db, skeleton)) throw NameTaken(*like);
      if (account.new_player)
        db.prepare("INSERT INTO players (id, name, token_hash, created) VALUES (?1, ?2, ?3, ?4)")
            .bind(1, account.player_id).bind(2, account.name).bind(3, account.revoked_token_hash).bind(4, now_utc())
            .run();
      else
        db.prepare("UPDATE players SET name = ?2, token_hash = ?3 WHERE id = ?1")
            .bind(1, account.player_id).bind(2, account.name).bind(3, account.revoked_token_hash)
            .run();
      db.prepare(
            "INSERT INTO accounts (player_id, name_key, name_skeleton, password_hash, created) "
            "VALUES (?1, ?2, ?3, ?4, ?5)")
          .bind(1, account.player_id).bind(2, lower_case(account.name)).bind(3, skeleton)
          .bind(4, account.password_hash).bind(5, now_utc())
          .run();
      insert_session(db, account.session_hash, account.player_id);
    });
  }

  std::optional<std::string> account_name_like(const std::string& name) override {
    std::optional<std::string> out;
    db_.read([&, skeleton = protocol::name_skeleton(name)](Connection& db) { out = name_with_skeleton(db, skeleton); });
    return out;
  }

  std::optional<AccountRecord> find_account(const std::string& name) override {
    return account_where("a.name_key = ?1", lower_case(name));
  }

  std::optional<AccountRecord> account_of(const std::string& player_id) override {
    return account_where("a.player_id = ?1", player_id);
  }

  std::vector<std::string> add_session(const std::string& hash, const std::string& player_id) override {
    std::vector<std::string> ended;
    db_.write([&, hash, player_id](Connection& db) {
      ended.clear();  // a batch may run again
      insert_session(db, hash, player_id);
      auto rows = db.prepare("SELECT hash FROM sessions WHERE player_id = ?1 ORDER BY created DESC, hash DESC");
      rows.bind(1, player_id);
      for (std::size_t kept = 0; rows.step();)
        if (const std::string each = rows.text(0); each != hash && ++kept >= kMaxSessionsPerAccount)
          ended.push_back(each);
      for (const auto& each : ended) db.prepare("DELETE FROM sessions WHERE hash = ?1").bind(1, each).run();
    });
    return ended;
  }

  std::optional<std::string> session_player(const std::string& hash) override {
    std::optional<SessionRecord> found;
    std::string player;
    db_.read([&](Connection& db) {
      auto row = db.prepare("SELECT player_id, created, last_used FROM sessions WHERE hash = ?1");
      row.bind(1, hash);
      if (row.step()) {
        player = row.text(0);
        found = SessionRecord{hash, row.text(1), row.text(2)};
      }
    });
    if (!found) return std::nullopt;
    // ISO 8601 UTC text sorts as time.
    if (found->last_used < days_ago(kSessionIdleDays) || found->created < days_ago(kSessionLifetimeDays)) {
      end_session(hash);
      return std::nullopt;
    }
    // Marked at most once an hour: a reload does not cost a commit.
    const std::string now = now_utc();
    if (found->last_used < format_utc(std::chrono::system_clock::now() - std::chrono::hours(1)))
      db_.write([=](Connection& db) {
        db.prepare("UPDATE sessions SET last_used = ?2 WHERE hash = ?1").bind(1, hash).bind(2, now).run();
      });
    return player;
  }

  void end_session(const std::string& hash) override {
    db_.write([=](Connection& db) { db.prepare("DELETE FROM sessions WHERE hash = ?1").bind(1, hash).run(); });
  }

  std::vector<std::string> ended_sessions(const std::vector<std::string>& hashes) override {
    std::vector<std::string> ended;
    db_.read([&](Connection& db) {
      ended.clear();
      const std::string idle = days_ago(kSessionIdleDays), made = days_ago(kSessionLifetimeDays);
      for (const auto& hash : hashes) {
        auto row = db.prepare("SELECT 1 FROM sessions WHERE hash = ?1 AND last_used >= ?2 AND created >= ?3");
        row.bind(1, hash).bind(2, idle).bind(3, made);
        if (!row.step()) ended.push_back(hash);
      }
    });
    return ended;
  }

  void end_sessions(const std::string& player_id, const std::string& keep) override {
    db_.write([=](Connection& db) {
      db.prepare("DELETE FROM sessions WHERE player_id = ?1 AND hash <> ?2").bind(1, player_id).bind(2, keep).run();
    });
  }

  std::vector<SessionRecord> sessions(const std::string& player_id) override {
    std::vector<SessionRecord> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(
          "SELECT hash, created, last_used FROM sessions WHERE player_id = ?1 AND last_used >= ?2 "
          "AND created >= ?3 ORDER BY last_used DESC");
      rows.bind(1, player_id).bind(2, days_ago(kSessionIdleDays)).bind(3, days_ago(kSessionLifetimeDays));
      while (rows.step()) out.push_back({rows.text(0), rows.text(1), rows.text(2)});
    });
    return out;
  }

  void set_password(const std::string& player_id, const std::string& password_hash) override {
    db_.write([=](Connection& db) {
      db.prepare("UPDATE accounts SET password_hash = ?2 WHERE player_id = ?1").bind(1, player_id).bind(2, password_hash).run();
    });
  }

  void set_language(const std::string& player_id, const std::string& language) override {
    db_.write([=](Connection& db) {
      db.prepare("UPDATE accounts SET language = ?2 WHERE player_id = ?1").bind(1, player_id).bind(2, language).run();
    });
  }

  void add_password_reset(const std::string& hash, const std::string& player_id, const std::string& expires) override {
    db_.write([=](Connection& db) {
      db.prepare("DELETE FROM password_resets WHERE player_id = ?1").bind(1, player_id).run();  // the newest link only
      db.prepare("INSERT INTO password_resets (hash, player_id, expires) VALUES (?1, ?2, ?3)")
          .bind(1, hash).bind(2, player_id).bind(3, expires).run();
    });
  }

  std::optional<std::string> take_password_reset(const std::string& hash) override {
    std::optional<std::string> player;
    db_.write([&, hash, now = now_utc()](Connection& db) {
      player.reset();  // a batch may run again
      auto row = db.prepare("DELETE FROM password_resets WHERE hash = ?1 RETURNING player_id, expires");
      row.bind(1, hash);
      if (row.step() && row.text(1) > now) player = row.text(0);
    });
    return player;
  }

  std::optional<std::string> password_reset_player(const std::string& hash) override {
    std::optional<std::string> player;
    db_.read([&](Connection& db) {
      auto row = db.prepare("SELECT player_id FROM password_resets WHERE hash = ?1 AND expires > ?2");
      row.bind(1, hash).bind(2, now_utc());
      if (row.step()) player = row.text(0);
    });
    return player;
  }

  std::optional<PlayerProfile> profile(const std::string& name_or_id) override {
    std::optional<PlayerProfile> out;
    db_.read([&](Connection& db) {
      auto who = db.prepare(
          "SELECT p.id, p.name, CASE WHEN a.player_id IS NULL THEN 0 ELSE 1 END FROM players p "
          "LEFT JOIN accounts a ON a.player_id = p.id "
          "WHERE a.name_key = ?1 OR p.id = ?2 ORDER BY a.name_key IS NULL LIMIT 1");
      who.bind(1, lower_case(name_or_id)).bind(2, name_or_id);
      if (!who.step()) return;
      out = PlayerProfile{who.text(0), who.text(1), who.integer(2) != 0, {}, 0, 0, 0, 0, {}};
      read_profile(db, *out);
    });
    return out;
  }

  std::vector<LeaderboardEntry> leaderboard(const std::string& game, int limit) override {
    std::vector<LeaderboardEntry> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(
          "SELECT r.player_id, p.name, r.rating, r.deviation, r.volatility, r.games FROM ratings r "
          "JOIN accounts a ON a.player_id = r.player_id JOIN players p ON p.id = r.player_id "
          "WHERE r.game = ?1 AND r.deviation < ?2 ORDER BY r.rating DESC, r.games DESC LIMIT ?3");
      rows.bind(1, game).bind(2, ratings::Settings{}.provisional_deviation).bind(3, limit);
      while (rows.step()) out.push_back({rows.text(0), rows.text(1), read_rating(rows, 2)});
    });
    return out;
  }

  std::map<std::string, std::map<std::string, SeatRating>> all_ratings() override {
    std::map<std::string, std::map<std::string, SeatRating>> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare("SELECT player_id, game, rating, deviation, volatility, games FROM ratings");
      while (rows.step()) out[rows.text(0)][rows.text(1)] = read_rating(rows, 2);
    });
    return out;
  }

  std::map<std::string, SeatRating> ratings_of(const std::string& player_id) override {
    std::map<std::string, SeatRating> out;
    db_.read([&](Connection& db) { out = read_ratings(db, player_id); });
    return out;
  }

 private:
  static std::optional<std::string> name_with_skeleton(Connection& db, const std::string& skeleton) {
    auto row = db.prepare(
        "SELECT p.name FROM accounts a JOIN players p ON p.id = a.player_id WHERE a.name_skeleton = ?1 LIMIT 1");
    row.bind(1, skeleton);
    if (!row.step()) return std::nullopt;
    return row.text(0);
  }

  static void insert_session(Connection& db, const std::string& hash, const std::string& player_id) {
    const std::string now = now_utc();
    db.prepare("INSERT INTO sessions (hash, player_id, created, last_used) VALUES (?1, ?2, ?3, ?3)")
        .bind(1, hash).bind(2, player_id).bind(3, now).run();
  }

  std::optional<AccountRecord> account_where(const char* condition, const std::string& value) {
    std::optional<AccountRecord> out;
    db_.read([&](Connection& db) {
      auto row = db.prepare(std::string("SELECT a.player_id, p.name, a.password_hash, a.language FROM accounts a "
                                        "JOIN players p ON p.id = a.player_id WHERE ") + condition);
      row.bind(1, value);
      if (row.step()) out = AccountRecord{row.text(0), row.text(1), row.text(2), row.text(3)};
    });
    return out;
  }

  static std::map<std::string, SeatRating> read_ratings(Connection& db, const std::string& player_id) {
    std::map<std::string, SeatRating> out;
    auto rows = db.prepare("SELECT game, rating, deviation, volatility, games FROM ratings WHERE player_id = ?1");
    rows.bind(1, player_id);
    while (rows.step()) out[rows.text(0)] = read_rating(rows, 1);
    return out;
  }

  static void read_profile(Connection& db, PlayerProfile& out) {
    out.ratings = read_ratings(db, out.player_id);
    auto record = db.prepare(
        "SELECT COUNT(*), "
        "  COALESCE(SUM(CASE WHEN s.outcome >= ?2 THEN 1 ELSE 0 END), 0), "
        "  COALESCE(SUM(CASE WHEN s.outcome > ?3 AND s.outcome < ?2 THEN 1 ELSE 0 END), 0), "
        "  COALESCE(SUM(CASE WHEN s.outcome <= ?3 THEN 1 ELSE 0 END), 0) "
        "FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ?1 AND g.status = 'finished'");
    record.bind(1, out.player_id).bind(2, 1.0 - kEpsilon).bind(3, kEpsilon);
    if (record.step()) {
      out.played = record.integer(0);
      out.won = record.integer(1);
      out.drawn = record.integer(2);
      out.lost = record.integer(3);
    }
    auto history = db.prepare(
        "SELECT game, game_id, at, rating, deviation FROM rating_history WHERE player_id = ?1 ORDER BY at, game_id");
    history.bind(1, out.player_id);
    while (history.step())
      out.history.push_back({history.text(0), history.text(1), history.text(2), history.real(3), history.real(4)});
  }

  SqlAccess<Connection> db_;
};

template <class Connection>
SeatRating rating_before(Connection& db, const std::string& player_id, const std::string& game) {
  auto row = db.prepare("SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = ?1 AND game = ?2");
  row.bind(1, player_id).bind(2, game);
  return row.step() ? read_rating(row, 0) : SeatRating{};
}

template <class Connection>
void rate(Connection& db, const std::string& game_id, const std::string& game,
          const std::vector<std::string>& players, const std::vector<double>& outcomes, const std::string& at) {
  auto counted = db.prepare("SELECT 1 FROM rating_history WHERE game_id = ?1");
  counted.bind(1, game_id);
  if (counted.step()) return;
  std::vector<SeatRating> before;
  std::vector<ratings::Rating> ratings_before;
  for (const auto& player : players) {
    before.push_back(rating_before(db, player, game));
    ratings_before.push_back(before.back().rating);
  }
  const auto after = ratings::rate_game(ratings_before, outcomes);
  for (std::size_t seat = 0; seat < players.size(); ++seat) {
    db.prepare(
          "INSERT INTO ratings (player_id, game, rating, deviation, volatility, games) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
          "ON CONFLICT (player_id, game) DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, "
          "volatility = excluded.volatility, games = excluded.games")
        .bind(1, players[seat]).bind(2, game).bind(3, after[seat].rating).bind(4, after[seat].deviation)
        .bind(5, after[seat].volatility).bind(6, before[seat].games + 1)
        .run();
    db.prepare(
          "INSERT INTO rating_history (game_id, player_id, game, rating, deviation, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        .bind(1, game_id).bind(2, players[seat]).bind(3, game).bind(4, after[seat].rating)
        .bind(5, after[seat].deviation).bind(6, at)
        .run();
  }
}

}  // namespace

template <class Connection>
std::unique_ptr<AccountStore> make_account_store(SqlAccess<Connection> access) {
  return std::make_unique<SqlAccountStore<Connection>>(std::move(access));
}

template <class Connection>
void record_outcomes(Connection& db, const std::string& game_id, const std::vector<double>& outcomes,
                     const std::string& at) {
  std::string game;
  bool rated = false;
  {
    auto row = db.prepare("SELECT game, rated FROM games WHERE id = ?1");
    row.bind(1, game_id);
    if (!row.step()) return;
    game = row.text(0);
    rated = row.integer(1) != 0;
  }
  std::vector<std::string> players(outcomes.size());
  {
    auto seats = db.prepare("SELECT seat, player_id FROM seats WHERE game_id = ?1 AND player_id IS NOT NULL");
    seats.bind(1, game_id);
    while (seats.step()) {
      const auto seat = static_cast<std::size_t>(seats.integer(0));
      if (seat < players.size()) players[seat] = seats.text(1);
    }
  }
  for (std::size_t seat = 0; seat < players.size(); ++seat)
    if (!players[seat].empty())
      db.prepare("UPDATE seats SET outcome = ?3 WHERE game_id = ?1 AND seat = ?2")
          .bind(1, game_id).bind(2, static_cast<int>(seat)).bind(3, outcomes[seat]).run();
  // A rated room seats accounts only (the room refuses guests and computer players).
  const bool everyone_seated = std::none_of(players.begin(), players.end(), [](const auto& p) { return p.empty(); });
  if (rated && everyone_seated && players.size() >= 2) rate(db, game_id, game, players, outcomes, at);
}

template <class Connection>
void fill_name_skeletons(Connection& db) {
  std::vector<std::pair<std::string, std::string>> accounts;  // id, name: read whole before writing
  {
    auto rows = db.prepare("SELECT a.player_id, p.name FROM accounts a JOIN players p ON p.id = a.player_id");
    while (rows.step()) accounts.emplace_back(rows.text(0), rows.text(1));
  }
  for (const auto& [id, name] : accounts)
    db.prepare("UPDATE accounts SET name_skeleton = ?2 WHERE player_id = ?1")
        .bind(1, id).bind(2, protocol::name_skeleton(name)).run();
}

template void fill_name_skeletons(Database&);
template void fill_name_skeletons(PgConnection&);
template std::unique_ptr<AccountStore> make_account_store(SqlAccess<Database>);
template std::unique_ptr<AccountStore> make_account_store(SqlAccess<PgConnection>);
template void record_outcomes(Database&, const std::string&, const std::vector<double>&, const std::string&);
template void record_outcomes(PgConnection&, const std::string&, const std::vector<double>&, const std::string&);

}  // namespace mancala::server
