#include "cluster_membership.hpp"

#include <unistd.h>

#include "log.hpp"
#include "random.hpp"

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
}

void ClusterMembership::start(const std::string& address, Events events) {
  registry_.register_self(address);
  events_ = std::move(events);
  thread_ = std::thread([this] { run(); });
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
      lost_ = true;
      log_error("lease_lost", {{"process", registry_.process_id()},
                               {"message", "this process was not heard from for longer than its lease "
                                           "(paused, overloaded or cut off from PostgreSQL); its rooms "
                                           "may be served elsewhere now, so it stops"}});
      events_.lease_lost();
      return;
    }
    auto taken = registry_.take_over_rooms_of_dead_processes();
    if (!taken.empty()) log_info("rooms_taken_over", {{"process", registry_.process_id()}, {"rooms", taken.size()}});
    taken.insert(taken.end(), not_rebuilt_.begin(), not_rebuilt_.end());
    if (!taken.empty()) not_rebuilt_ = events_.rooms_taken(taken);
  } catch (const std::exception& e) {
    // PostgreSQL unreachable for a moment: the next tick tries again while the lease holds.
    log_error("cluster_tick_failed", {{"message", e.what()}});
  }
}

}  // namespace mancala::server
