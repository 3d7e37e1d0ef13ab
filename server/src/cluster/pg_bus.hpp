#pragma once
// A message bus between server processes over PostgreSQL's LISTEN/NOTIFY: the database the
// processes already share, so no second service to run, secure and watch. One thread listens
// on its own connection and hands each notification to `handler` (on that thread: keep it
// short, or post it elsewhere); another sends what `publish` queued, everything queued at once
// in one transaction and one round trip. Within a channel, messages from one sender arrive in
// the order they were published. PostgreSQL limits a notification to 8000 bytes, so a longer
// message is written to a row of `bus_spill` in the same transaction and the notification
// names the row; the receiver reads and deletes it (rows nobody read go after 10 minutes).
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace mancala::server {

class PgConnection;

class PgBus {
 public:
  using Handler = std::function<void(const std::string& channel, const std::string& payload)>;
  static constexpr std::size_t kMaxPayload = 7900;  // PostgreSQL's 8000 less our sequence prefix
  static constexpr std::size_t kMaxSpilledPayload = 64 << 20;  // longer ones go through bus_spill

  // Connects twice to `url` and listens on `channels` (names of letters, digits and '_').
  // Throws SqlError when PostgreSQL cannot be reached.
  PgBus(const std::string& url, const std::vector<std::string>& channels, Handler handler);
  ~PgBus();  // sends what is queued, then stops both threads
  PgBus(const PgBus&) = delete;
  PgBus& operator=(const PgBus&) = delete;

  // Queues one message. Throws std::length_error above kMaxSpilledPayload bytes.
  void publish(std::string channel, std::string payload);

 private:
  void listen_loop(const std::string& url, const std::vector<std::string>& channels);
  std::unique_ptr<PgConnection> relisten(const std::string& url, const std::vector<std::string>& channels);
  void send_loop(const std::string& url);

  Handler handler_;
  int wake_listener_[2] = {-1, -1};  // a pipe: stops the listener's poll at once
  std::mutex mutex_;
  std::condition_variable wake_sender_;
  std::deque<std::pair<std::string, std::string>> queue_;
  std::uint64_t sequence_ = 0;
  bool stopping_ = false;
  std::string startup_error_;
  bool listening_ = false;
  std::condition_variable started_;
  std::thread listener_;
  std::thread sender_;
};

}  // namespace mancala::server
