#pragma once
// This process's part in a cluster of servers sharing one PostgreSQL database (issue 19). It
// registers in the ClusterRegistry, renews its lease every third of the lease on its own thread
// (so a slow room or a full I/O thread cannot let it lapse), and takes over the rooms of
// processes whose lease ran out. The hub rebuilds those rooms (`rooms_taken`). A lease found
// lapsed means our rooms may already be served elsewhere, so the process stops (`lease_lost`);
// the write fence in Storage keeps it from adding moves meanwhile.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cluster_registry.hpp"

namespace mancala::server {

class ClusterMembership {
 public:
  struct Events {
    // On the membership thread; returns the rooms that could not be rebuilt, tried again next time.
    std::function<std::vector<std::string>(const std::vector<std::string>& room_ids)> rooms_taken;
    std::function<void()> lease_lost;
  };

  // Connects, creates the registry's tables and registers a fresh process id with a lease.
  // Throws SqlError.
  ClusterMembership(const std::string& url, std::chrono::milliseconds lease);
  ~ClusterMembership() { stop(); }
  ClusterMembership(const ClusterMembership&) = delete;
  ClusterMembership& operator=(const ClusterMembership&) = delete;

  const std::string& process_id() const { return registry_.process_id(); }
  // Only before start() (the registry is single-threaded): makes the room ours unless a live
  // process owns it. Used when restoring rooms at start.
  bool claim(const std::string& game_id) { return registry_.claim(game_id); }
  // Records the address clients reach us at and starts renewing and watching.
  void start(const std::string& address, Events events);
  // A graceful stop: the thread ends and the process leaves the registry, so the others may
  // take its rooms at once instead of after the lease.
  void stop();

 private:
  void run();
  void tick();
  bool sleep_unless_stopped(std::chrono::milliseconds interval);  // false once stopping

  ClusterRegistry registry_;
  std::chrono::milliseconds lease_;
  Events events_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool lost_ = false;  // on the thread: the lease lapsed, stop renewing
  std::vector<std::string> not_rebuilt_;  // on the thread: ours, but their rebuild failed
  std::thread thread_;
};

}  // namespace mancala::server
