#include "temp_postgres.hpp"

#include "../server/temp_path.hpp"

#include <pwd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "loopback_port.hpp"
#include "pg_connection.hpp"

namespace mancala::testing {
namespace {

namespace fs = std::filesystem;

std::string find_bin() {
  if (const char* bin = std::getenv("MANCALA_PG_BIN"); bin && *bin) return bin;
  std::string best;
  int best_version = 0;
  const fs::path root = "/usr/lib/postgresql";
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    const int version = std::atoi(entry.path().filename().c_str());
    if (version > best_version && fs::exists(entry.path() / "bin" / "initdb")) {
      best_version = version;
      best = (entry.path() / "bin").string();
    }
  }
  if (best.empty())
    throw std::runtime_error(
        "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install Debian's "
        "`postgresql` package (./test.sh does) or set MANCALA_PG_BIN to the folder with initdb");
  return best;
}

}  // namespace

TempPostgres::TempPostgres() : bin_(find_bin()) {
  dir_ = make_temp_dir("mancala-pg");
  as_nobody_ = ::geteuid() == 0;
  hand_to_owner(dir_);
  start_watchdog();  // from here on the folder (and later the server) goes away with us
  const std::string copy = "cp -a " + template_data() + " " + dir_ + "/data";
  if (std::system((copy + " > " + dir_ + "/copy.log 2>&1").c_str()) != 0)
    throw std::runtime_error("cannot copy the template cluster:\n" + read_text_file(dir_ + "/copy.log"));
  // A port taken before PostgreSQL binds it stops PostgreSQL at once; then a new one is tried.
  port_ = start_on_free_port([this](unsigned short port) { return start_on(port); },
                             [&] { return read_text_file(dir_ + "/pg_ctl.log") + log(); }, "PostgreSQL");
}

// initdb takes seconds, and every test program needs a cluster of its own: the first program of
// this machine makes a template, never started, that the others copy in a fraction of that. It
// appears whole or not at all (a rename), so programs starting together cannot see half of one.
std::string TempPostgres::template_data() const {
  const std::string version = fs::path(bin_).parent_path().filename().string();
  const fs::path kept = fs::temp_directory_path() / ("mancala-pg-template-" + version + "-" + std::to_string(::geteuid()));
  if (fs::exists(kept / "data" / "PG_VERSION")) return (kept / "data").string();
  const std::string fresh = make_temp_dir("mancala-pg-template-new");
  hand_to_owner(fresh);
  const std::string init = run_as_owner(bin_ + "/initdb -D " + fresh + "/data -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8");
  if (std::system((init + " > " + fresh + "/initdb.log 2>&1").c_str()) != 0) {
    const std::string log = read_text_file(fresh + "/initdb.log");
    fs::remove_all(fresh);
    throw std::runtime_error("initdb failed:\n" + log);
  }
  std::error_code error;
  fs::rename(fresh, kept, error);  // fails when another program was first: its copy serves
  if (error) fs::remove_all(fresh, error);
  return (kept / "data").string();
}

void TempPostgres::hand_to_owner(const std::string& folder) const {
  if (!as_nobody_) return;
  const passwd* nobody = ::getpwnam("nobody");
  if (!nobody || ::chown(folder.c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
    throw std::runtime_error("running as root, but cannot hand " + folder + " to the user nobody");
}

bool TempPostgres::start_on(unsigned short port) {
  const std::string options = "-p " + std::to_string(port) + " -k " + dir_ +
                              " -c listen_addresses=127.0.0.1 -c max_connections=200";
  const std::string command = run_as_owner(bin_ + "/pg_ctl start -w -t 60 -D " + dir_ + "/data -l " + dir_ +
                                           "/server.log -o '" + options + "'");
  return std::system((command + " > " + dir_ + "/pg_ctl.log 2>&1").c_str()) == 0;
}

void TempPostgres::stop_server() {
  const std::string command = run_as_owner(bin_ + "/pg_ctl stop -w -m fast -D " + dir_ + "/data");
  if (std::system((command + " >> " + dir_ + "/pg_ctl.log 2>&1").c_str()) != 0)
    throw std::runtime_error("PostgreSQL did not stop:\n" + read_text_file(dir_ + "/pg_ctl.log"));
}

void TempPostgres::start_server() {
  if (!start_on(static_cast<unsigned short>(port_)))
    throw std::runtime_error("PostgreSQL did not start again:\n" + read_text_file(dir_ + "/pg_ctl.log") + log());
}

TempPostgres::~TempPostgres() {
  [[maybe_unused]] const int status = std::system(stop_command().c_str());
  if (watchdog_ > 0) {
    ::kill(watchdog_, SIGKILL);
    ::waitpid(watchdog_, nullptr, 0);
  }
}

std::string TempPostgres::stop_command() const {
  return run_as_owner(bin_ + "/pg_ctl stop -m immediate -D " + dir_ + "/data") + " > /dev/null 2>&1; rm -rf " + dir_;
}

// A test that times out or crashes runs no destructors, and its PostgreSQL would run on. So a
// child process waits for this one to end (the kernel signals it, PR_SET_PDEATHSIG) and then
// stops the server. Everything it needs is prepared before fork; after it, only
// async-signal-safe calls.
void TempPostgres::start_watchdog() {
  const std::string command = stop_command();
  const pid_t parent = ::getpid();
  sigset_t wake;
  sigemptyset(&wake);
  sigaddset(&wake, SIGUSR1);
  const pid_t child = ::fork();
  if (child != 0) {
    watchdog_ = child;
    return;
  }
  ::sigprocmask(SIG_BLOCK, &wake, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  if (::getppid() == parent) {
    int signal = 0;
    ::sigwait(&wake, &signal);
  }
  ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
  ::_exit(127);
}

std::string TempPostgres::run_as_owner(const std::string& command) const {
  // runuser (util-linux) switches user without a password or a login shell.
  return as_nobody_ ? "runuser -u nobody -- " + command : command;
}

std::string TempPostgres::url(const std::string& database) const {
  return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

std::string TempPostgres::create_database() {
  const std::string name = "test" + std::to_string(++databases_);
  server::PgConnection admin(url("postgres"));
  admin.execute("CREATE DATABASE " + name);  // our own name, not input
  return url(name);
}

std::string TempPostgres::log() const { return read_text_file(dir_ + "/server.log"); }

TempPostgres& TempPostgres::shared() {
  static TempPostgres server;
  return server;
}

}  // namespace mancala::testing
