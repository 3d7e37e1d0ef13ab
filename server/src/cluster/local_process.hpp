#pragma once
// Whether a process of this machine is still running, for a restarted server that finds rooms
// owned by the process it replaces (cluster_registry.hpp). A pid alone cannot say so: the same
// number means another process in another container or after a reboot, and pids are reused.
// So a process is named by the pid space it runs in (host name, boot and pid namespace), its
// pid and its start time; only a process of our own pid space can be checked, and only a pid
// that is gone, or now runs a process started at another time, is surely dead.
#include <cstdint>
#include <string>

namespace mancala::server {

struct LocalProcess {
  std::string pid_space;  // "" when it could not be read: such a process is never judged
  std::int64_t pid = 0;
  std::int64_t started = 0;  // clock ticks after boot (/proc/<pid>/stat); 0 when unknown
};

enum class Liveness { running, gone, unknown };

// This process, as another one of this machine would check it.
LocalProcess this_process();
// `gone` only when the process surely ended; `unknown` when it belongs to another pid space or
// cannot be checked.
Liveness liveness(const LocalProcess& process);

}  // namespace mancala::server
