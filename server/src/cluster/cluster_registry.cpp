#include "cluster_registry.hpp"

#include "local_process.hpp"
#include "schema.hpp"

namespace mancala::server {
namespace {

// The registry's tables are not game data and SQLite never has them, so they are not among the
// numbered migrations; processes starting together create them once, under an advisory lock.
constexpr const char* kTables = R"sql(
  BEGIN;
  SELECT pg_advisory_xact_lock(7358211906);
  CREATE TABLE IF NOT EXISTS cluster_processes (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    lease_until TIMESTAMPTZ NOT NULL
  );
  CREATE TABLE IF NOT EXISTS room_owners (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    process_id TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS room_owners_by_process ON room_owners(process_id);
  -- Which process of which machine it is (local_process.hpp), so that a restart on the same
  -- machine can tell that the process it replaces is gone.
  ALTER TABLE cluster_processes ADD COLUMN IF NOT EXISTS pid_space TEXT NOT NULL DEFAULT '';
  ALTER TABLE cluster_processes ADD COLUMN IF NOT EXISTS pid BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE cluster_processes ADD COLUMN IF NOT EXISTS started BIGINT NOT NULL DEFAULT 0;
  -- The owner's last alive note (Storage::note_alive), kept when the room is taken over.
  ALTER TABLE room_owners ADD COLUMN IF NOT EXISTS alive_at TEXT;
  -- What one process holds for the whole cluster (the seek pool), held as a room is: by a live
  -- process, taken by the first survivor once its holder's lease ran out.
  CREATE TABLE IF NOT EXISTS cluster_singletons (
    name TEXT PRIMARY KEY,
    process_id TEXT NOT NULL
  );
  COMMIT;
)sql";

// The processes whose lease still holds, as a subquery.
constexpr const char* kLive = "(SELECT id FROM cluster_processes WHERE lease_until > now())";

}  // namespace

ClusterRegistry::ClusterRegistry(const std::string& url, std::string process_id, std::chrono::milliseconds lease)
    : db_(url), process_id_(std::move(process_id)), lease_ms_(lease.count()), self_(this_process()) {
  migrate_postgres(db_);  // room_owners refers to games; a no-op when the schema is current
  db_.execute(kTables);
}

void ClusterRegistry::register_self(const std::string& address) {
  db_.prepare(
         "INSERT INTO cluster_processes (id, address, lease_until, pid_space, pid, started) "
         "VALUES (?1, ?2, now() + CAST(?3 AS DOUBLE PRECISION) * INTERVAL '1 millisecond', ?4, ?5, ?6) "
         "ON CONFLICT (id) DO UPDATE SET address = excluded.address, lease_until = excluded.lease_until")
      .bind(1, process_id_)
      .bind(2, address)
      .bind(3, lease_ms_)
      .bind(4, self_.pid_space)
      .bind(5, self_.pid)
      .bind(6, self_.started)
      .run();
}

std::vector<std::string> ClusterRegistry::end_leases_of_dead_neighbours() {
  if (self_.pid_space.empty()) return {};
  std::vector<std::pair<std::string, LocalProcess>> neighbours;
  {
    auto rows = db_.prepare(
        "SELECT id, pid, started FROM cluster_processes WHERE pid_space = ?1 AND id <> ?2 AND lease_until > now()");
    rows.bind(1, self_.pid_space).bind(2, process_id_);
    while (rows.step()) neighbours.push_back({rows.text(0), {self_.pid_space, rows.integer(1), rows.integer(2)}});
  }
  std::vector<std::string> ended;
  for (const auto& [id, process] : neighbours) {
    if (liveness(process) != Liveness::gone) continue;
    db_.prepare("UPDATE cluster_processes SET lease_until = now() WHERE id = ?1").bind(1, id).run();
    ended.push_back(id);
  }
  return ended;
}

bool ClusterRegistry::renew() {
  auto renewed = db_.prepare(
      "UPDATE cluster_processes SET lease_until = now() + CAST(?2 AS DOUBLE PRECISION) * INTERVAL '1 millisecond' "
      "WHERE id = ?1 AND lease_until > now() RETURNING id");
  renewed.bind(1, process_id_).bind(2, lease_ms_);
  return renewed.step();
}

bool ClusterRegistry::claim(const std::string& game_id) {
  // Inserted when nobody owns the room; taken over when its owner is dead; kept when ours.
  auto claimed = db_.prepare(std::string(
      "INSERT INTO room_owners (game_id, process_id) VALUES (?1, ?2) "
      "ON CONFLICT (game_id) DO UPDATE SET process_id = excluded.process_id "
      "WHERE room_owners.process_id = excluded.process_id OR room_owners.process_id NOT IN ") + kLive +
      " RETURNING process_id");
  claimed.bind(1, game_id).bind(2, process_id_);
  return claimed.step();
}

bool ClusterRegistry::claim_seek_pool() {
  // As claim(): inserted when nobody holds it, taken when its holder is dead, kept when ours;
  // never while our own lease has run out (the others may have moved on).
  auto claimed = db_.prepare(std::string(
      "INSERT INTO cluster_singletons (name, process_id) "
      "SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM cluster_processes WHERE id = ?2 AND lease_until > now()) "
      "ON CONFLICT (name) DO UPDATE SET process_id = excluded.process_id "
      "WHERE cluster_singletons.process_id = excluded.process_id OR cluster_singletons.process_id NOT IN ") + kLive +
      " RETURNING process_id");
  claimed.bind(1, kSeekPoolName).bind(2, process_id_);
  return claimed.step();
}

std::optional<std::string> ClusterRegistry::owner_of(const std::string& game_id) {
  auto owner = db_.prepare(std::string("SELECT process_id FROM room_owners WHERE game_id = ?1 AND process_id IN ") +
                           kLive);
  owner.bind(1, game_id);
  if (!owner.step()) return std::nullopt;
  return owner.text(0);
}

std::vector<std::string> ClusterRegistry::take_over_rooms_of_dead_processes() {
  auto taken = db_.prepare(std::string(
      "UPDATE room_owners SET process_id = ?1 WHERE process_id NOT IN ") + kLive +
      // finished games keep their owner row but need no owner any more
      " AND game_id IN (SELECT id FROM games WHERE status <> 'finished')"
      " AND EXISTS (SELECT 1 FROM cluster_processes WHERE id = ?1 AND lease_until > now()) "
      "RETURNING game_id");
  taken.bind(1, process_id_);
  std::vector<std::string> rooms;
  while (taken.step()) rooms.push_back(taken.text(0));
  return rooms;
}

std::vector<std::pair<std::string, std::string>> ClusterRegistry::live_processes() {
  auto rows = db_.prepare("SELECT id, address FROM cluster_processes WHERE lease_until > now() ORDER BY id");
  std::vector<std::pair<std::string, std::string>> processes;
  while (rows.step()) processes.emplace_back(rows.text(0), rows.text(1));
  return processes;
}

std::vector<std::string> ClusterRegistry::still_owned(const std::vector<std::string>& game_ids) {
  std::vector<std::string> owned;
  for (const auto& id : game_ids) {  // a handful of rooms, once per lapse: one query each is fine
    auto row = db_.prepare("SELECT 1 FROM room_owners WHERE game_id = ?1 AND process_id = ?2");
    row.bind(1, id).bind(2, process_id_);
    if (row.step()) owned.push_back(id);
  }
  return owned;
}

void ClusterRegistry::leave() {
  db_.prepare("DELETE FROM cluster_processes WHERE id = ?1").bind(1, process_id_).run();
}

}  // namespace mancala::server
