#include "cluster_membership.hpp"

#include <unistd.h>

#include <algorithm>

#include "log.hpp"
#include "random.hpp"
#include "thread_name.hpp"

namespace mancala::server {
namespace {

// "host-pid-random": readable in the registry and the logs, and fresh at every start, so a
// restarted process never inherits the lease of the one it replaces.
std::string new_process_id() {
  char host[64] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host[0] ? host : "server") + "-" + std::to_string(getpid()) + "-" + random_text(6);
}

}  // namespace

ClusterMembership::ClusterMembership(const std::string& url, std::chrono::milliseconds lease)
    : registry_(url, new_process_id(), lease), lease_(lease) {
  registry_.register_self("starting");
  log_info("cluster_joined", {{"process", registry_.process_id()}, {"lease_ms", lease.count()}});
  // Before the rooms are restored: a restart takes the rooms of the process it replaces at once.
  end_leases_of_dead_neighbours();
}

void ClusterMembership::end_leases_of_dead_neighbours() {
  for (const auto& id : registry_.end_leases_of_dead_neighbours())
    log_info("process_found_dead", {{"process", id}, {"message", "a process of this machine that is no longer "
                                                                  "running: its rooms are taken without waiting for its lease"}});
}

void ClusterMembership::start(const std::string& address, Events events) {
  address_ = address;
  registry_.register_self(address);
  events_ = std::move(events);
  thread_ = std::thread([this] {
    name_this_thread("membership");
    run();
  });
}

void ClusterMembership::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  try {
    if (!lost_) registry_.leave();
    log_info("cluster_left", {{"process", registry_.process_id()}});
  } catch (const std::exception& e) {
    log_warn("cluster_leave_failed", {{"message", e.what()}});  // the lease runs out instead
  }
}

bool ClusterMembership::sleep_unless_stopped(std::chrono::milliseconds interval) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, interval, [this] { return stopping_; });
}

void ClusterMembership::run() {
  // Three renewals per lease: one failed round trip does not cost the rooms.
  while (!lost_ && sleep_unless_stopped(lease_ / 3)) tick();
}

void ClusterMembership::tick() {
  try {
    registry_.reconnect_if_broken();
    if (!registry_.renew()) {
      note_seek_pool(false);  // first: the others may have taken it, and seeks must not pair twice
      recover_from_lapse();
    }
    if (lost_) return;
    // After this process could not reach the database, the others probably could not either:
    // their leases ran out for the same reason, and they are registering again. Their rooms are
    // taken only once they had two whole leases to do so (one leaves them only two thirds of a
    // lease after their next renewal, which a busy machine can delay that long); a dead
    // process's rooms are taken that much later.
    if (std::chrono::steady_clock::now() - last_cut_off_ < kCutOffGrace * lease_) return;
    end_leases_of_dead_neighbours();
    note_seek_pool(registry_.claim_seek_pool());
    auto taken = registry_.take_over_rooms_of_dead_processes();
    log_debug("take_over_checked", {{"process", registry_.process_id()}, {"rooms", taken.size()}});
    if (!taken.empty()) log_info("rooms_taken_over", {{"process", registry_.process_id()}, {"rooms", taken.size()}});
    taken.insert(taken.end(), not_rebuilt_.begin(), not_rebuilt_.end());
    if (!taken.empty()) not_rebuilt_ = events_.rooms_taken(taken);
  } catch (const std::exception& e) {
    // PostgreSQL unreachable for a moment: the next tick tries again.
    last_cut_off_ = std::chrono::steady_clock::now();
    log_error("cluster_tick_failed", {{"message", e.what()}});
  }
}

void ClusterMembership::note_seek_pool(bool held) {
  if (held == pool_held_) return;
  pool_held_ = held;
  log_info(held ? "seek_pool_taken" : "seek_pool_given_up", {{"process", registry_.process_id()}});
  if (events_.seek_pool_held) events_.seek_pool_held(held);
}

void ClusterMembership::recover_from_lapse() {
  last_cut_off_ = std::chrono::steady_clock::now();
  registry_.register_self(address_);  // first: from now on no process takes our rooms
  const std::vector<std::string> held = events_.rooms_held();
  const std::vector<std::string> kept = registry_.still_owned(held);
  std::vector<std::string> lost;
  for (const auto& id : held)
    if (std::find(kept.begin(), kept.end(), id) == kept.end()) lost.push_back(id);
  log_warn("lease_lapsed", {{"process", registry_.process_id()}, {"rooms_kept", kept.size()}, {"rooms_lost", lost.size()},
                            {"message", "this process was not heard from for longer than its lease (paused, "
                                        "overloaded or cut off from PostgreSQL); it registered again and gives "
                                        "up only the rooms another process took meanwhile"}});
  if (!lost.empty()) events_.rooms_lost(lost);
  if (held.empty() || !kept.empty()) return;
  lost_ = true;
  log_error("lease_lost", {{"process", registry_.process_id()},
                           {"message", "every room of this process is served elsewhere now: it was replaced, so it stops"}});
  events_.replaced();
}

}  // namespace mancala::server
