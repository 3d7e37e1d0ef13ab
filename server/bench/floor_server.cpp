#include "floor_server.hpp"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "database.hpp"
#include "loopback_listener.hpp"

namespace mancala::bench {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using error_code = beast::error_code;

class Session;

struct Room {
  std::int64_t id = 0;
  std::int64_t version = 0;  // the writer's alone
  std::vector<std::weak_ptr<Session>> members;  // under Rooms' mutex
};

struct Job {
  std::shared_ptr<Room> room;
  std::shared_ptr<Session> mover;
  std::string text;
};

// The update a member gets: the move's text with a filler state, at a Cups update's size;
// the mover's copy keeps the request's id, the other's has none.
std::string update_text(std::string_view move, bool for_mover) {
  std::string text(move.substr(0, move.size() - 1));  // without the closing brace
  if (!for_mover) {
    constexpr std::string_view kId = R"("id":"m",)";
    if (const auto at = text.find(kId); at != std::string::npos) text.erase(at, kId.size());
  }
  text += R"(,"state":")";
  if (text.size() + 2 < FloorServer::kUpdateBytes) text.append(FloorServer::kUpdateBytes - text.size() - 2, 'x');
  text += "\"}";
  return text;
}

class Writer;

class Rooms {
 public:
  std::shared_ptr<Room> join(const std::string& name, const std::shared_ptr<Session>& member) {
    std::lock_guard lock(mutex_);
    auto& room = by_name_[name];
    if (!room) {
      room = std::make_shared<Room>();
      room->id = static_cast<std::int64_t>(by_name_.size());
    }
    room->members.push_back(member);
    return room;
  }
  std::vector<std::shared_ptr<Session>> members(const Room& room) {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<Session>> alive;
    for (const auto& member : room.members)
      if (auto session = member.lock()) alive.push_back(std::move(session));
    return alive;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<Room>> by_name_;
};

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, Rooms& rooms, Writer& writer) : ws_(std::move(socket)), rooms_(rooms), writer_(writer) {}

  void run() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.text(true);
    net::dispatch(ws_.get_executor(), [self = shared_from_this()] {
      self->ws_.async_accept([self](error_code error) {
        if (!error) self->read();
      });
    });
  }

  void send(std::string text) {
    net::dispatch(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
      self->queue_.push_back(std::move(text));
      if (self->queue_.size() == 1) self->write();
    });
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](error_code error, std::size_t) {
      if (error) return;
      const auto data = self->buffer_.cdata();
      self->on_message(std::string_view(static_cast<const char*>(data.data()), data.size()));
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  void on_message(std::string_view text);

  void write() {
    ws_.async_write(net::buffer(queue_.front()), [self = shared_from_this()](error_code error, std::size_t) {
      if (error) return;
      self->queue_.erase(self->queue_.begin());
      if (!self->queue_.empty()) self->write();
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  Rooms& rooms_;
  Writer& writer_;
  std::shared_ptr<Room> room_;
  std::vector<std::string> queue_;
};

// One thread and one SQLite connection: everything that arrives during a commit goes into the
// next one (group commit), and each move is announced only after the commit that holds it.
// The writer never checkpoints (the WAL only grows within a run): copying the WAL back is work
// a move can leave for later, so the floor does not pay for it.
class Writer {
 public:
  Writer(const std::filesystem::path& database, Rooms& rooms, int core) : rooms_(rooms) {
    std::filesystem::remove(database);
    db_.emplace(database.string(), true);
    db_->execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA wal_autocheckpoint = 0");
    db_->execute("CREATE TABLE moves (room INTEGER, version INTEGER, text TEXT NOT NULL, PRIMARY KEY (room, version))");
    thread_ = std::thread([this, core] {
      if (core >= 0) pin_to_core(core);
      loop();
    });
  }
  ~Writer() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  void submit(Job job) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(job));
    }
    wake_.notify_one();
  }

 private:
  void loop() {
    std::vector<Job> batch;
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        batch.swap(queue_);
      }
      commit(batch);
      announce(batch);
      batch.clear();
    }
  }

  void commit(const std::vector<Job>& batch) {
    db_->begin_write();
    for (const Job& job : batch)
      db_->prepare("INSERT INTO moves (room, version, text) VALUES (?1, ?2, ?3)")
          .bind(1, job.room->id)
          .bind(2, ++job.room->version)
          .bind(3, job.text)
          .run();
    db_->prepare("COMMIT").run();
  }

  void announce(const std::vector<Job>& batch) {
    for (const Job& job : batch)
      for (const auto& member : rooms_.members(*job.room))
        member->send(update_text(job.text, member == job.mover));
  }

  Rooms& rooms_;
  std::optional<server::Database> db_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<Job> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

void Session::on_message(std::string_view text) {
  if (text.starts_with(R"({"type":"join")")) {
    constexpr std::string_view kRoom = R"("room":")";
    const auto at = text.find(kRoom);
    if (at == std::string_view::npos) return;
    const auto start = at + kRoom.size();
    room_ = rooms_.join(std::string(text.substr(start, text.find('"', start) - start)), shared_from_this());
    return send(R"({"type":"joined","id":"j"})");
  }
  if (room_) writer_.submit({room_, shared_from_this(), std::string(text)});
}

}  // namespace

struct FloorServer::Impl {
  Impl(int threads, int core, const std::filesystem::path& database)
      : listener(threads, core), writer(database, rooms, core) {
    listener.serve([this](tcp::socket&& socket) { std::make_shared<Session>(std::move(socket), rooms, writer)->run(); });
  }
  // The network threads stop first (nothing submits to the writer after), then the writer lets
  // go of its sessions while their io_context still exists.
  ~Impl() { listener.stop(); }

  Rooms rooms;
  LoopbackListener listener;
  Writer writer;
};

FloorServer::FloorServer(int threads, int core, const std::filesystem::path& database)
    : impl_(std::make_unique<Impl>(threads, core, database)) {}

FloorServer::~FloorServer() = default;

unsigned short FloorServer::port() const { return impl_->listener.port(); }

}  // namespace mancala::bench
