#include "harness.hpp"

#include <sqlite3.h>

#include "temp_path.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace mancala::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

// ---- the server process ----------------------------------------------------------------

namespace {

std::string temp_log_path() { return make_temp_file("mancala-server-test"); }

pid_t spawn(const std::vector<std::string>& args, int stdout_fd, int stderr_fd) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(stdout_fd, 1);
    if (stderr_fd >= 0) dup2(stderr_fd, 2);
    std::vector<char*> argv;
    // MANCALA_SERVER in the environment runs the suite against another build of the server.
    const char* chosen = std::getenv("MANCALA_SERVER");
    std::string program = chosen ? chosen : MANCALA_SERVER;
    argv.push_back(program.data());
    std::vector<std::string> copy = args;
    for (auto& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

namespace {
DatabaseMapper& database_mapper() {
  static DatabaseMapper mapper;
  return mapper;
}
}  // namespace

void map_databases(DatabaseMapper mapper) { database_mapper() = std::move(mapper); }
bool databases_mapped() { return static_cast<bool>(database_mapper()); }
std::string test_database(const std::string& db) { return databases_mapped() ? database_mapper()(db) : db; }

ServerProcess::ServerProcess(std::string db, std::vector<std::string> extra) : log_path_(temp_log_path()) {
  int out[2];
  if (pipe(out) != 0) throw std::runtime_error("pipe failed");
  const int err = open(log_path_.c_str(), O_WRONLY | O_TRUNC);
  // Test clients play far faster than people; the flood test sets the protocol's limit back.
  std::vector<std::string> args = {"--port", "0", "--db", test_database(db), "--threads", "2", "--rate-limit", "10000",
                                   "--static", MANCALA_SOURCE_DIR "/web-client"};
  args.insert(args.end(), extra.begin(), extra.end());
  pid_ = spawn(args, out[1], err);
  close(out[1]);
  close(err);
  // The first line says where it listens.
  std::string line;
  char c;
  while (read(out[0], &c, 1) == 1 && c != '\n') line.push_back(c);
  close(out[0]);
  const auto colon = line.rfind(':');
  if (line.rfind("listening on ", 0) != 0 || colon == std::string::npos)
    throw std::runtime_error("mancala-server did not start: '" + line + "'\n" + log());
  port_ = static_cast<unsigned short>(std::stoi(line.substr(colon + 1)));
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) terminate();
  // Under a sanitizer build the server reports data races and memory errors on stderr.
  const std::string text = log();
  for (const char* report : {"WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "runtime error:"})
    if (text.find(report) != std::string::npos) ADD_FAILURE() << "mancala-server reported: " << report;
  // A failing test shows what the server logged; so does one whose body threw (gtest records
  // that failure only after the unwinding that destroys this).
  if (::testing::Test::HasFailure() || std::uncaught_exceptions() > 0) std::cerr << "--- mancala-server log ---\n" << log() << "---\n";
  std::remove(log_path_.c_str());
}

bool ServerProcess::running() { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }

void ServerProcess::kill_hard() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

int ServerProcess::terminate() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string ServerProcess::log() const { return read_text_file(log_path_); }

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds timeout, std::chrono::milliseconds every) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    // The tests' one polling pause: between two looks at something that sends no event.
    std::this_thread::sleep_for(every);
  }
  return true;
}

void wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout, const std::string& what,
                std::chrono::milliseconds every) {
  if (!eventually(done, timeout, every))
    throw std::runtime_error("waited " + std::to_string(timeout.count()) + " ms in vain for " + what);
}

int run_server_command(const std::vector<std::string>& args, std::string* out, std::string* err) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw std::runtime_error("pipe failed");
  // stderr into a file, read at the end: two pipes read one after the other could fill and stall.
  char err_path[] = "/tmp/mancala-stderr-XXXXXX";
  const int err_fd = err ? mkstemp(err_path) : open("/dev/null", O_WRONLY);
  if (err_fd < 0) throw std::runtime_error("cannot open a file for the server's stderr");
  const pid_t pid = spawn(args, pipe_fds[1], err_fd);
  close(pipe_fds[1]);
  close(err_fd);
  std::string text;
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipe_fds[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (out) *out = text;
  if (err) {
    std::ifstream file(err_path);
    err->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    std::remove(err_path);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// ---- the client ------------------------------------------------------------------------

struct Client::Impl {
  net::io_context io;
  websocket::stream<beast::tcp_stream> ws{io};
  beast::flat_buffer buffer;
  std::deque<Json> inbox;
  bool closed = false;
  int close_code = 0;
  std::string end_reason;

  // One read is always pending; whenever the io_context runs, frames land in the inbox.
  void read_continuously() {
    ws.async_read(buffer, [this](beast::error_code error, std::size_t) {
      if (error) {
        closed = true;
        close_code = ws.reason().code;
        end_reason = error.message();
        return;
      }
      inbox.push_back(Json::parse(beast::buffers_to_string(buffer.data())));
      buffer.consume(buffer.size());
      read_continuously();
    });
  }
  // Runs handlers until `done()` or the deadline; false on timeout.
  bool run_until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline) {
    while (!done()) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) return false;
      io.restart();
      io.run_one_for(left);
    }
    return true;
  }
};

Client::Client(unsigned short port, Options options) : impl_(std::make_unique<Impl>()) {
  auto& ws = impl_->ws;
  beast::get_lowest_layer(ws).expires_after(10s);
  beast::get_lowest_layer(ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  beast::get_lowest_layer(ws).expires_never();
  ws.set_option(websocket::stream_base::decorator([origin = options.origin, cookie = options.cookie](websocket::request_type& request) {
    if (!origin.empty()) request.set(http::field::origin, origin);
    if (!cookie.empty()) request.set(http::field::cookie, cookie);
  }));
  const std::string host = options.host.empty() ? "127.0.0.1:" + std::to_string(port) : options.host;
  websocket::response_type response;
  std::optional<beast::error_code> result;
  // The asynchronous handshake keeps the response even when the upgrade is declined.
  ws.async_handshake(response, host, "/ws", [&](beast::error_code error) { result = error; });
  impl_->run_until([&] { return result.has_value(); }, std::chrono::steady_clock::now() + 10s);
  if (!result || *result)
    throw UpgradeRefused(static_cast<int>(response.result_int()),
                         "upgrade refused: " + (result ? result->message() : std::string("timed out")));
  ws.text(true);
  impl_->read_continuously();
}

Client::~Client() {
  if (impl_->closed) return;
  beast::error_code ignored;
  beast::get_lowest_layer(impl_->ws).socket().close(ignored);
}

void Client::send(const Json& message) { send_text(message.dump()); }

void Client::send_text(const std::string& text) {
  if (impl_->closed) throw std::runtime_error("cannot send: the connection is closed");
  std::optional<beast::error_code> result;
  impl_->ws.async_write(net::buffer(text), [&](beast::error_code error, std::size_t) { result = error; });
  if (!impl_->run_until([&] { return result.has_value(); }, std::chrono::steady_clock::now() + 10s) || *result)
    throw std::runtime_error("cannot send: " + (result ? result->message() : std::string("timed out")));
}

void Client::send_binary(const std::string& bytes) {
  impl_->ws.binary(true);
  send_text(bytes);
  impl_->ws.text(true);
}

Json Client::request(Json message, std::chrono::milliseconds timeout) {
  const int id = next_id_++;
  message["id"] = id;
  send(message);
  return wait_for([id](const Json& reply) { return reply.value("id", Json()) == Json(id); }, timeout);
}

Json Client::wait_for(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout) {
  std::optional<Json> found;
  std::size_t checked = 0;
  const auto look = [&] {
    for (; checked < impl_->inbox.size(); ++checked) {
      if (match(impl_->inbox[checked])) {
        found = std::move(impl_->inbox[checked]);
        impl_->inbox.erase(impl_->inbox.begin() + static_cast<std::ptrdiff_t>(checked));
        return true;
      }
    }
    return impl_->closed;
  };
  impl_->run_until(look, std::chrono::steady_clock::now() + timeout);
  if (found) return *found;
  std::string kept;
  for (const auto& m : impl_->inbox) kept += m.dump().substr(0, 300) + "\n";
  throw std::runtime_error(std::string(impl_->closed ? "the connection ended (" + impl_->end_reason + ", status " + std::to_string(impl_->close_code) + ")" : "timed out") +
                           " waiting for a message; kept:\n" + kept);
}

Json Client::wait_for_type(const std::string& type, std::chrono::milliseconds timeout) {
  return wait_for([&](const Json& m) { return m.value("type", "") == type; }, timeout);
}

bool Client::nothing_matching(const std::function<bool(const Json&)>& match, std::chrono::milliseconds timeout) {
  try {
    wait_for(match, timeout);
    return false;
  } catch (const std::runtime_error&) {
    return true;
  }
}

bool Client::nothing_matching_until_reply(const Json& id, const std::function<bool(const Json&)>& match,
                                          std::chrono::milliseconds timeout) {
  std::optional<std::size_t> reply;
  impl_->run_until(
      [&] {
        for (std::size_t i = 0; i < impl_->inbox.size() && !reply; ++i)
          if (impl_->inbox[i].value("id", Json()) == id) reply = i;
        return reply || impl_->closed;
      },
      std::chrono::steady_clock::now() + timeout);
  if (!reply && !impl_->closed) throw std::runtime_error("timed out waiting for the reply to " + id.dump());
  const std::size_t seen = reply ? *reply + 1 : impl_->inbox.size();
  for (std::size_t i = 0; i < seen; ++i)
    if (match(impl_->inbox[i])) return false;
  if (reply) impl_->inbox.erase(impl_->inbox.begin() + static_cast<std::ptrdiff_t>(*reply));
  return true;
}

bool Client::sync_barrier(const std::string& room, std::int64_t version, const std::function<bool(const Json&)>& match) {
  const Json id = "barrier-" + std::to_string(next_id_++);
  send({{"type", "sync"}, {"room", room}, {"since", version}, {"id", id}});
  return nothing_matching_until_reply(id, match);
}

bool Client::wait_closed(std::chrono::milliseconds timeout, int* code) {
  impl_->run_until([&] { return impl_->closed; }, std::chrono::steady_clock::now() + timeout);
  if (code) *code = impl_->close_code;
  return impl_->closed;
}

void Client::drop() {
  beast::error_code ignored;
  beast::get_lowest_layer(impl_->ws).socket().shutdown(tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(impl_->ws).socket().close(ignored);
  impl_->closed = true;
}

Json Client::hello(const std::string& name) {
  return request({{"type", "hello"}, {"name", name}});
}

int http_get(unsigned short port, const std::string& target, std::string* body, const std::string& bearer) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  if (!bearer.empty()) request.set(http::field::authorization, "Bearer " + bearer);
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  if (body) *body = response.body();
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  return static_cast<int>(response.result_int());
}

namespace {

HttpReply http_exchange(unsigned short port, const std::string& method, const std::string& target,
                        const std::string& content_type, const std::string& body,
                        const std::vector<std::pair<std::string, std::string>>& fields) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  stream.expires_after(30s);
  http::request<http::string_body> request{http::string_to_verb(method), target, 11};
  request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  for (const auto& [name, value] : fields) request.set(name, value);
  if (!content_type.empty()) {
    request.set(http::field::content_type, content_type);
    request.body() = body;
  }
  request.prepare_payload();
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response);
  beast::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
  std::map<std::string, std::string> headers;
  for (const auto& field : response) {
    std::string name(field.name_string());
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    headers[name] = std::string(field.value());
  }
  return HttpReply{static_cast<int>(response.result_int()), Json::parse(response.body(), nullptr, false, true),
                   std::string(response[http::field::set_cookie]), std::string(response[http::field::retry_after]),
                   response.body(), std::string(response[http::field::content_type]),
                   std::string(response[http::field::content_disposition]), std::move(headers)};
}

}  // namespace

HttpReply http_call(unsigned short port, const std::string& method, const std::string& target, const Json& body,
                    const std::vector<std::pair<std::string, std::string>>& fields) {
  return body.is_null() ? http_exchange(port, method, target, "", "", fields)
                        : http_exchange(port, method, target, "application/json", body.dump(), fields);
}

HttpReply http_text(unsigned short port, const std::string& method, const std::string& target,
                    const std::string& text, const std::vector<std::pair<std::string, std::string>>& fields) {
  return http_exchange(port, method, target, "text/plain; charset=utf-8", text, fields);
}

// Runs one statement on the server's database file from a second connection, as an operator
// (or a full disk) might change it under the server.
void execute_on(const std::string& db, const std::string& sql) { query_on(db, sql); }

std::vector<std::vector<std::string>> query_on(const std::string& db, const std::string& sql) {
  sqlite3* connection = nullptr;
  if (sqlite3_open(db.c_str(), &connection) != SQLITE_OK) throw std::runtime_error("cannot open " + db);
  sqlite3_busy_timeout(connection, 5000);
  std::vector<std::vector<std::string>> rows;
  const auto add_row = [](void* out, int columns, char** values, char**) {
    auto& table = *static_cast<std::vector<std::vector<std::string>>*>(out);
    table.emplace_back();
    for (int i = 0; i < columns; ++i) table.back().emplace_back(values[i] ? values[i] : "NULL");
    return 0;
  };
  char* error = nullptr;
  const int status = sqlite3_exec(connection, sql.c_str(), add_row, &rows, &error);
  const std::string message = error ? error : "";
  sqlite3_free(error);
  sqlite3_close(connection);
  if (status != SQLITE_OK) throw std::runtime_error(sql + ": " + message);
  return rows;
}

std::string cookie_of(const std::string& set_cookie) { return set_cookie.substr(0, set_cookie.find(';')); }

int raw_http(unsigned short port, const std::string& request, std::string* body) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  stream.expires_after(10s);
  beast::error_code error;
  net::write(stream, net::buffer(request), error);  // the server may stop reading early
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(1 << 20);
  http::read(stream, buffer, parser, error);
  if (error && !parser.is_header_done()) return 0;
  if (body) *body = parser.get().body();
  return static_cast<int>(parser.get().result_int());
}

TempDir::TempDir() : path_(make_temp_dir("mancala-test")) {}

TempDir::~TempDir() { std::filesystem::remove_all(path_); }

}  // namespace mancala::testing
