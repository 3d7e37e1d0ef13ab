#pragma once
// A throwaway PostgreSQL server for tests: initdb in a temporary folder, started with pg_ctl on a
// free loopback port, stopped and removed at the end. PostgreSQL refuses to run as root, so when
// the tests run as root (CI) its commands run as the user `nobody`, which owns the folder.
// Binaries: $MANCALA_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian's
// `postgresql` package, which ./test.sh installs).
#include <string>

namespace mancala::testing {

class TempPostgres {
 public:
  TempPostgres();  // throws std::runtime_error saying what is missing or what failed (with the log)
  ~TempPostgres();
  TempPostgres(const TempPostgres&) = delete;
  TempPostgres& operator=(const TempPostgres&) = delete;

  // A fresh, empty database on this server; its postgresql:// URL.
  std::string create_database();
  std::string url(const std::string& database) const;
  // The server's log (for a failing test's output).
  std::string log() const;

  // One server for the whole test program, started on first use.
  static TempPostgres& shared();

  // What an operator's restart or a failover does to the clients: a fast shutdown (every
  // connection is cut, the data stays), then the server again on the same port.
  void stop_server();
  void start_server();

 private:
  bool start_on(unsigned short port);  // pg_ctl start; false when it did not come up
  std::string template_data() const;   // an initdb'd data folder to copy (made once per machine)
  void hand_to_owner(const std::string& folder) const;  // to `nobody` when we run as root
  std::string run_as_owner(const std::string& command) const;  // the command line to run
  std::string stop_command() const;  // stops the server at once and removes the folder
  void start_watchdog();


  std::string bin_;
  std::string dir_;
  int port_ = 0;
  bool as_nobody_ = false;
  int databases_ = 0;
  int watchdog_ = -1;  // a child that stops the server if this process dies without cleaning up
};

}  // namespace mancala::testing
