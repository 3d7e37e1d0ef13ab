#include <memory>

#include "account_sql.hpp"
#include "clock.hpp"
#include "database.hpp"
#include "pg_connection.hpp"

namespace mancala::server {
namespace {

template <class Connection>
class SqlChatStore final : public ChatStore {
 public:
  explicit SqlChatStore(SqlAccess<Connection> access) : db_(std::move(access)) {}

  void append(std::string game_id, StoredChatLine said, Done done) override {
    db_.submit(
        [game_id = std::move(game_id), said = std::move(said)](Connection& db) {
          const auto& line = said.line;
          db.prepare(
                "INSERT INTO chat (game_id, seq, channel, player_id, name, text, at, during_play) VALUES "
                "(?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = ?1), ?2, ?3, ?4, ?5, ?6, ?7)")
              .bind(1, game_id).bind(2, line.channel).bind(3, line.player_id).bind(4, line.name)
              .bind(5, line.text).bind(6, line.at).bind(7, said.during_play ? 1 : 0)
              .run();
        },
        std::move(done));
  }

  std::vector<StoredChatLine> lines(const std::string& game_id) override {
    std::vector<StoredChatLine> out;
    db_.read([&](Connection& db) {
      // Whether the author is an account now: a guest who took one since is the same person.
      auto rows = db.prepare(
          "SELECT c.channel, c.player_id, c.name, c.text, c.at, c.during_play, "
          "CASE WHEN a.player_id IS NULL THEN 0 ELSE 1 END FROM chat c "
          "LEFT JOIN accounts a ON a.player_id = c.player_id WHERE c.game_id = ?1 ORDER BY c.seq");
      rows.bind(1, game_id);
      while (rows.step())
        out.push_back({{rows.text(0), rows.text(1), rows.text(2), rows.text(3), rows.text(4), rows.integer(6) != 0},
                       rows.integer(5) != 0});
    });
    return out;
  }

  void report(std::string game_id, protocol::ChatLine line, std::string reporter_id, Done done) override {
    db_.submit(
        [game_id = std::move(game_id), line = std::move(line), reporter_id = std::move(reporter_id)](Connection& db) {
          db.prepare(
                "INSERT INTO chat_reports (game_id, player_id, text, at, reporter_id, reported) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING")  // reported already: one row
              .bind(1, game_id).bind(2, line.player_id).bind(3, line.text).bind(4, line.at)
              .bind(5, reporter_id).bind(6, now_utc())
              .run();
        },
        std::move(done));
  }

  void set_spectator_chat(std::string game_id, bool on, Done done) override {
    db_.submit(
        [game_id = std::move(game_id), on](Connection& db) {
          db.prepare("UPDATE games SET spectator_chat = ?2 WHERE id = ?1").bind(1, game_id).bind(2, on ? 1 : 0).run();
        },
        std::move(done));
  }

  std::vector<MutedPlayer> mutes(const std::string& player_id) override {
    std::vector<MutedPlayer> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare("SELECT muted_id, name FROM chat_mutes WHERE player_id = ?1 ORDER BY muted_at, muted_id");
      rows.bind(1, player_id);
      while (rows.step()) out.push_back({rows.text(0), rows.text(1)});
    });
    return out;
  }

  void set_muted(const std::string& player_id, const MutedPlayer& other, bool muted) override {
    db_.write([=](Connection& db) {
      db.prepare("DELETE FROM chat_mutes WHERE player_id = ?1 AND muted_id = ?2").bind(1, player_id).bind(2, other.player_id).run();
      if (muted)
        db.prepare("INSERT INTO chat_mutes (player_id, muted_id, name, muted_at) VALUES (?1, ?2, ?3, ?4)")
            .bind(1, player_id).bind(2, other.player_id).bind(3, other.name).bind(4, now_utc())
            .run();
    });
  }

  std::optional<std::string> silenced_until(const std::string& player_id) override {
    std::optional<std::string> until;
    db_.read([&](Connection& db) {
      auto row = db.prepare("SELECT until FROM silences WHERE player_id = ?1 AND until > ?2");
      row.bind(1, player_id).bind(2, now_utc());
      if (row.step()) until = row.text(0);
    });
    return until;
  }

  void silence(const std::string& player_id, const std::string& until) override {
    db_.write([=](Connection& db) {
      db.prepare("DELETE FROM silences WHERE player_id = ?1").bind(1, player_id).run();
      if (!until.empty())
        db.prepare("INSERT INTO silences (player_id, until) VALUES (?1, ?2)").bind(1, player_id).bind(2, until).run();
    });
  }

 private:
  SqlAccess<Connection> db_;
};

}  // namespace

template <class Connection>
std::unique_ptr<ChatStore> make_chat_store(SqlAccess<Connection> access) {
  return std::make_unique<SqlChatStore<Connection>>(std::move(access));
}

template std::unique_ptr<ChatStore> make_chat_store(SqlAccess<Database>);
template std::unique_ptr<ChatStore> make_chat_store(SqlAccess<PgConnection>);

}  // namespace mancala::server
