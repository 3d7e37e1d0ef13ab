#pragma once
// This process's part in a cluster of servers sharing one PostgreSQL database (issue 19). It
// registers in the ClusterRegistry, renews its lease every third of the lease on its own thread
// (so a slow room or a full I/O thread cannot let it lapse), and takes over the rooms of
// processes whose lease ran out, or, on the same machine, that are surely no longer running
// (a restart after a crash serves its predecessor's rooms at once). The hub rebuilds those
// rooms (`rooms_taken`).
//
// Cut off is not replaced: a process that could not reach the database for longer than its
// lease (a database restart, a failover, a pause) finds its lease lapsed. It registers again at
// once, so that from then on nobody takes its rooms, and then asks the database which of its
// rooms another process took meanwhile; it gives up those (`rooms_lost`) and keeps the others.
// Nor does a process that was cut off take anyone's rooms for two leases after it is back:
// the others were most likely cut off by the same outage and are registering again. The write
// fence in Storage makes all this safe: every move is appended only while the room's
// owner row names the appending process, read under a lock in the append's own transaction,
// so a room that was taken can never be written by two processes. The process stops only when
// every room it held was taken (it was replaced) or an operator asks.
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
    // On the membership thread: the rooms this process holds (to check after a lapse).
    std::function<std::vector<std::string>()> rooms_held;
    // On the membership thread: these rooms are another process's now; stop serving them.
    std::function<void(const std::vector<std::string>& room_ids)> rooms_lost;
    // Every room this process held was taken: it has been replaced, and stops.
    std::function<void()> replaced;
    // On the membership thread: this process now holds the cluster's seek pool (true: it took
    // it over from a dead process), or no longer does (false: its lease had lapsed meanwhile).
    std::function<void(bool held)> seek_pool_held;
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
  // Only before start(): makes the seek pool ours unless a live process holds it; true when ours.
  // After start() every renewal claims it again, so a survivor takes it from a dead holder.
  bool claim_seek_pool() { return pool_held_ = registry_.claim_seek_pool(); }
  // Records the address clients reach us at and starts renewing and watching.
  void start(const std::string& address, Events events);
  // A graceful stop: the thread ends and the process leaves the registry, so the others may
  // take its rooms at once instead of after the lease.
  void stop();

 private:
  void run();
  void tick();
  // The lease had run out: live again, then keep the rooms the database still says are ours.
  void recover_from_lapse();
  void end_leases_of_dead_neighbours();
  void note_seek_pool(bool held);  // on the thread: tells events_ when it changed
  bool sleep_unless_stopped(std::chrono::milliseconds interval);  // false once stopping

  static constexpr int kCutOffGrace = 2;  // leases after a cut-off before taking anyone's rooms
  ClusterRegistry registry_;
  std::chrono::milliseconds lease_;
  Events events_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::string address_;
  std::chrono::steady_clock::time_point last_cut_off_{};  // on the thread: the last tick that failed or found the lease lapsed
  bool lost_ = false;  // on the thread: replaced, stop renewing
  bool pool_held_ = false;  // the thread's after start()
  std::vector<std::string> not_rebuilt_;  // on the thread: ours, but their rebuild failed
  std::thread thread_;
};

}  // namespace mancala::server
