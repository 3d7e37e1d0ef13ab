#pragma once
// What the server tests drive: a real mancala-server process and real WebSocket clients.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mancala::testing {

using Json = nlohmann::ordered_json;
using namespace std::chrono_literals;

// What a test's `--db` becomes: by default the SQLite file (or ":memory:") it names. A test
// program may send it elsewhere (postgres_storage.cpp: a server suite on PostgreSQL).
using DatabaseMapper = std::function<std::string(const std::string& db)>;
void map_databases(DatabaseMapper mapper);
std::string test_database(const std::string& db);
// True while databases are mapped: a test of SQLite's own behaviour skips itself then.
bool databases_mapped();

// A mancala-server child process on a free port. Stops it with SIGTERM when destroyed.
class ServerProcess {
 public:
  // `db` is a file path or ":memory:"; `extra` are more flags.
  explicit ServerProcess(std::string db = ":memory:", std::vector<std::string> extra = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  unsigned short port() const { return port_; }
  void kill_hard();        // SIGKILL: no chance to clean up
  int terminate();         // SIGTERM; returns the exit status
  std::string log() const;  // its stderr so far
  bool running();
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  unsigned short port_ = 0;
  std::string log_path_;
};

// Polls `done` until it holds, for what no event reports to a test (a log line, a row, a status
// another process changes): the wait lasts as long as the thing takes, never a fixed time.
// Throws std::runtime_error naming `what` when `timeout` passes first.
void wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout, const std::string& what,
                std::chrono::milliseconds every = 10ms);
// The same as a yes or no, for a helper that reports instead of failing: false when `timeout`
// passed first.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout = 10s,
                std::chrono::milliseconds every = 10ms);

// Runs mancala-server with `args` to completion; returns the exit status (stdout to `out`,
// stderr to `err`).
int run_server_command(const std::vector<std::string>& args, std::string* out = nullptr, std::string* err = nullptr);

// One WebSocket connection. Messages that arrive while waiting for something else are kept in
// arrival order, so nothing is lost between calls.
class Client {
 public:
  struct Options {
    std::string origin{};  // sent as the Origin header when not empty
    std::string host{};    // Host header (default 127.0.0.1:port)
    std::string cookie{};  // sent as the Cookie header when not empty (an account's session)
  };
  Client(unsigned short port, Options options);
  explicit Client(unsigned short port) : Client(port, Options{}) {}
  ~Client();

  void send(const Json& message);
  void send_text(const std::string& text);
  void send_binary(const std::string& bytes);  // one binary frame
  // Sends `message` with a fresh id and waits for the reply carrying it.
  Json request(Json message, std::chrono::milliseconds timeout = 10s);
  // The first message (kept or new) that `match` accepts; it is removed from the inbox.
  Json wait_for(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout = 10s);
  Json wait_for_type(const std::string& type, std::chrono::milliseconds timeout = 10s);
  // True when the server closed the connection within `timeout`; `code` gets the status.
  bool wait_closed(std::chrono::milliseconds timeout, int* code = nullptr);
  // Nothing (new or kept) that `match` accepts arrives within `timeout`.
  bool nothing_matching(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout);
  // A barrier instead of a wait: true when nothing `match` accepts arrives before the reply to
  // the request with this id (sent on this connection), nor is that reply; also true when the
  // server closes the connection first. The server answers a connection's requests in order,
  // and a room answers a `sync` only after everything it sent before, so a `sync` of the room
  // is the barrier for what the room might still send (`sync_barrier`). Throws on a timeout.
  bool nothing_matching_until_reply(const Json& id, const std::function<bool(const Json&)>& match,
                                    std::chrono::milliseconds timeout = 10s);
  bool sync_barrier(const std::string& room, std::int64_t version, const std::function<bool(const Json&)>& match);
  void drop();  // closes the TCP connection without a close handshake

  // hello with a name; returns the welcome.
  Json hello(const std::string& name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int next_id_ = 1;
};

// Thrown when a WebSocket upgrade is refused; carries the HTTP status.
struct UpgradeRefused : std::runtime_error {
  int status;
  UpgradeRefused(int status_code, const std::string& what) : std::runtime_error(what), status(status_code) {}
};

// A plain HTTP GET; returns the status and fills `body`.
int http_get(unsigned short port, const std::string& target, std::string* body,
             const std::string& bearer = "");

// Any HTTP request with a JSON body (empty: none) and more header fields.
struct HttpReply {
  int status = 0;
  Json body;               // null when the body is not JSON
  std::string set_cookie;  // the Set-Cookie field, when there is one
  std::string retry_after;
  std::string text;  // the body as it came
  std::string content_type;
  std::string content_disposition;
  std::map<std::string, std::string> headers;  // every field, by its name in lower case
};
HttpReply http_call(unsigned short port, const std::string& method, const std::string& target,
                    const Json& body = Json(), const std::vector<std::pair<std::string, std::string>>& fields = {});
// The same with a text/plain body (a game record as text).
HttpReply http_text(unsigned short port, const std::string& method, const std::string& target,
                    const std::string& text, const std::vector<std::pair<std::string, std::string>>& fields = {});
// Runs one statement on a server's SQLite database file from a second connection, as an
// operator (or a full disk) might change it under the server.
void execute_on(const std::string& db, const std::string& sql);
// The rows of a query on the server's database file, each column as text ("NULL" for null).
std::vector<std::vector<std::string>> query_on(const std::string& db, const std::string& sql);

// The "name=value" part of a Set-Cookie field, to send back as a Cookie.
std::string cookie_of(const std::string& set_cookie);

// Sends `request` as raw bytes (for requests http_get cannot make) and returns the response's
// status, or 0 when the server closed the connection without answering.
int raw_http(unsigned short port, const std::string& request, std::string* body = nullptr);

// A folder of its own in the temporary directory ($TMPDIR or /tmp) for a test's database files, removed with everything in it.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace mancala::testing
