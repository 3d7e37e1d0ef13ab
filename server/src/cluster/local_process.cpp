#include "local_process.hpp"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <sstream>

namespace mancala::server {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string pid_namespace() {
  char target[128] = {};
  const auto length = readlink("/proc/self/ns/pid", target, sizeof target - 1);
  return length > 0 ? std::string(target, static_cast<std::size_t>(length)) : "";
}

std::string pid_space() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "";
  const std::string boot = first_line("/proc/sys/kernel/random/boot_id");
  const std::string space = pid_namespace();
  if (boot.empty() || space.empty()) return "";
  return std::string(host) + "/" + boot + "/" + space;
}

struct Stat {
  char state = '?';
  std::int64_t started = 0;  // 0 when the process could not be read
};

// Fields 3 (state) and 22 (start time) of /proc/<pid>/stat; the command name before them
// (field 2) may hold spaces and parentheses, so counting starts after its last ')'.
Stat read_stat(std::int64_t pid) {
  const std::string stat = first_line("/proc/" + std::to_string(pid) + "/stat");
  const auto name_end = stat.rfind(')');
  if (name_end == std::string::npos) return {};
  std::istringstream fields(stat.substr(name_end + 1));
  Stat out;
  std::string field;
  for (int number = 3; number <= 22 && fields >> field; ++number) {
    if (number == 3) out.state = field[0];
    if (number == 22) out.started = std::stoll(field);
  }
  return out;
}

}  // namespace

LocalProcess this_process() {
  const auto pid = static_cast<std::int64_t>(getpid());
  return {pid_space(), pid, read_stat(pid).started};
}

Liveness liveness(const LocalProcess& process) {
  if (process.pid_space.empty() || process.pid <= 0 || process.pid_space != pid_space()) return Liveness::unknown;
  if (kill(static_cast<pid_t>(process.pid), 0) != 0 && errno == ESRCH) return Liveness::gone;
  // The pid is in use: by the same process, unless it started at another moment (the pid was
  // reused) or it is a zombie (it ended; its parent has not collected it yet).
  const Stat now = read_stat(process.pid);
  if (process.started == 0 || now.started == 0) return Liveness::unknown;
  if (now.started != process.started || now.state == 'Z' || now.state == 'X') return Liveness::gone;
  return Liveness::running;
}

}  // namespace mancala::server
