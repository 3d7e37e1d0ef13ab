#include <memory>

#include "account_sql.hpp"
#include "clock.hpp"
#include "database.hpp"
#include "pg_connection.hpp"

namespace mancala::server {
namespace {

template <class Connection>
class SqlPushSubscriptions final : public PushSubscriptions {
 public:
  explicit SqlPushSubscriptions(SqlAccess<Connection> access) : db_(std::move(access)) {}

  void add(const PushSubscription& subscription) override {
    db_.write([subscription, at = now_utc()](Connection& db) {
      db.prepare("DELETE FROM push_subscriptions WHERE endpoint = ?1").bind(1, subscription.endpoint).run();
      db.prepare("INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, created) VALUES (?1, ?2, ?3, ?4, ?5)")
          .bind(1, subscription.endpoint).bind(2, subscription.player_id).bind(3, subscription.p256dh)
          .bind(4, subscription.auth).bind(5, at)
          .run();
      // The new one stays, with the newest of the others.
      db.prepare(
            "DELETE FROM push_subscriptions WHERE player_id = ?1 AND endpoint <> ?3 AND endpoint NOT IN "
            "(SELECT endpoint FROM push_subscriptions WHERE player_id = ?1 AND endpoint <> ?3 "
            "ORDER BY created DESC, endpoint LIMIT ?2)")
          .bind(1, subscription.player_id).bind(2, kPerPlayer - 1).bind(3, subscription.endpoint)
          .run();
    });
  }

  bool remove(const std::string& player_id, const std::string& endpoint) override {
    bool found = false;
    db_.write([&](Connection& db) {
      auto row = db.prepare("SELECT 1 FROM push_subscriptions WHERE endpoint = ?1 AND player_id = ?2");
      row.bind(1, endpoint).bind(2, player_id);
      found = row.step();
      db.prepare("DELETE FROM push_subscriptions WHERE endpoint = ?1 AND player_id = ?2")
          .bind(1, endpoint).bind(2, player_id).run();
    });
    return found;
  }

  void forget(const std::string& endpoint) override {
    db_.write([endpoint](Connection& db) {
      db.prepare("DELETE FROM push_subscriptions WHERE endpoint = ?1").bind(1, endpoint).run();
    });
  }

  std::vector<PushSubscription> of_player(const std::string& player_id) override {
    std::vector<PushSubscription> out;
    db_.read([&](Connection& db) {
      auto rows = db.prepare(
          "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE player_id = ?1 ORDER BY created, endpoint");
      rows.bind(1, player_id);
      while (rows.step()) out.push_back({rows.text(0), player_id, rows.text(1), rows.text(2)});
    });
    return out;
  }

 private:
  SqlAccess<Connection> db_;
};

}  // namespace

template <class Connection>
std::unique_ptr<PushSubscriptions> make_push_subscriptions(SqlAccess<Connection> access) {
  return std::make_unique<SqlPushSubscriptions<Connection>>(std::move(access));
}

template std::unique_ptr<PushSubscriptions> make_push_subscriptions(SqlAccess<Database>);
template std::unique_ptr<PushSubscriptions> make_push_subscriptions(SqlAccess<PgConnection>);

}  // namespace mancala::server
