#pragma once
// Which server process owns which room, kept in PostgreSQL (issue 19). Every process has a row
// in `cluster_processes` with a lease it renews (PostgreSQL's clock decides, so the processes'
// clocks need not agree); every room has a row in `room_owners`. A process whose lease ran out
// is dead to the others: the first survivor to look takes its rooms, and the dead one, should
// it wake up, finds its lease gone (`renew` is false) and must stop serving the rooms that
// were taken (`still_owned` says which are left to it).
// Not thread-safe: one connection, to be used from one thread or strand.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "local_process.hpp"
#include "pg_connection.hpp"

namespace mancala::server {

class ClusterRegistry {
 public:
  // Connects and creates the registry's tables when missing. Throws SqlError.
  ClusterRegistry(const std::string& url, std::string process_id, std::chrono::milliseconds lease);

  const std::string& process_id() const { return process_id_; }
  // Registers this process (again) with a fresh lease and the address clients reach it at.
  void register_self(const std::string& address);
  // Ends at once the leases of processes of this machine that are surely gone (their pid ended
  // or was reused; local_process.hpp), so that their rooms need not wait for the lease to run
  // out. A process that cannot be checked keeps its lease. Their ids.
  std::vector<std::string> end_leases_of_dead_neighbours();
  // Extends the lease. False when it had already run out: the rooms may have moved on.
  bool renew();
  // Makes this process the room's owner unless a live process owns it. True when it is ours.
  bool claim(const std::string& game_id);
  // Makes this process the holder of the seek pool (quick pairing's seeks of the whole cluster)
  // unless a live process holds it, and only while our own lease holds. True when it is ours.
  bool claim_seek_pool();
  static constexpr const char* kSeekPoolName = "seek_pool";  // its cluster_singletons row
  // The live process that owns the room, if any.
  std::optional<std::string> owner_of(const std::string& game_id);
  // Of these rooms, the ones whose owner row still names this process.
  std::vector<std::string> still_owned(const std::vector<std::string>& game_ids);
  // Takes every unfinished room whose owner's lease ran out (only while our own lease holds);
  // their ids.
  std::vector<std::string> take_over_rooms_of_dead_processes();
  // Live processes and their addresses.
  std::vector<std::pair<std::string, std::string>> live_processes();
  // A graceful stop: the row goes, so the others may take the rooms at once.
  void leave();
  // After a PostgreSQL restart or a network cut: the next statement runs on a fresh session.
  void reconnect_if_broken() { db_.reconnect_if_broken(); }

 private:
  PgConnection db_;
  std::string process_id_;
  std::int64_t lease_ms_;
  LocalProcess self_;
};

}  // namespace mancala::server
