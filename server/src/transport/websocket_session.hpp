#pragma once
// One WebSocket client. Reads frames one at a time on the connection's strand, applies the
// size limit, the rate limit and the hello gate, and hands parsed requests to the hub. Frames
// to send wait in a bounded queue; a client that falls too far behind is closed (1008) rather
// than buffered without end.
#include <vector>
#include <memory>
#include <optional>
#include <tuple>

#include "connection.hpp"
#include "net.hpp"

namespace mancala::server {

class Hub;

// The protocol's token bucket: `per_second` messages a second (20), bursts of twice that.
class RateLimiter {
 public:
  explicit RateLimiter(double per_second) : per_second_(per_second), capacity_(2 * per_second), tokens_(capacity_) {}
  bool try_take(SteadyTime now);

 private:
  double per_second_;
  double capacity_;
  double tokens_;
  std::optional<SteadyTime> last_;
};

// When a frame arrived, as near as the server can tell. Frames are read one at a time, so a
// server that is slow (loaded, or a sanitizer build) reads a flood long after it arrived; timing
// the rate limit by reading would grant it the refill of that delay. So when a frame is read,
// the bytes still waiting in the socket are noted: the frames they hold arrived by then, and
// are stamped with that time however late they are read.
class ArrivalClock {
 public:
  static constexpr std::size_t kFrameOverhead = 6;  // a small client frame's header and mask

  // `frame_bytes`: the payload just read; `waiting_bytes`: what the socket holds now.
  SteadyTime stamp(std::size_t frame_bytes, std::size_t waiting_bytes, SteadyTime now);

 private:
  std::size_t backlog_bytes_ = 0;  // known to have arrived by backlog_time_, not yet stamped
  SteadyTime backlog_time_{};
};

class WebSocketSession : public Connection, public std::enable_shared_from_this<WebSocketSession> {
 public:
  static constexpr std::size_t kMaxFrameBytes = 8 * 1024;
  static constexpr std::size_t kMaxQueuedFrames = 512;
  static constexpr int kMaxRefusalsInARow = 40;

  // `session_hash`: the SHA-256 of the account session cookie the upgrade carried (empty: none).
  WebSocketSession(ConnectionSocket&& socket, Hub& hub, Metrics& metrics, int rate_limit, std::string session_hash = "");
  ~WebSocketSession() override;

  // Completes the upgrade the HTTP session read, then starts reading.
  void run(http::request<http::string_body> upgrade);

  void send(SharedText text) override;
  using Connection::send;
  void close(CloseCode code) override;
  const std::string& session_hash() const override { return session_hash_; }

 private:
  using Pending = std::tuple<protocol::RequestId, protocol::ClientMessage, SteadyTime>;

  void on_accept(const error_code& error);
  void read_next();
  void on_read(const error_code& error);
  void handle_frame(std::string_view text, SteadyTime arrived);
  SteadyTime arrival_of(std::size_t frame_bytes);
  void dispatch(protocol::RequestId id, protocol::ClientMessage message, SteadyTime received);
  void on_hello_done(PlayerRef player);
  void reply_error(const protocol::RequestId& id, protocol::Code code, std::string message);
  void enqueue(SharedText text);
  void write_next();
  void on_write(const error_code& error);
  void start_close(websocket::close_code code);
  void finish();

  websocket::stream<ConnectionStream> ws_;
  beast::flat_buffer buffer_;
  Hub& hub_;
  Metrics& metrics_;
  RateLimiter limiter_;
  const std::string session_hash_;  // the account session cookie's, or empty
  ArrivalClock arrivals_;
  int refusals_in_a_row_ = 0;
  enum class Greeting { none, pending, done } greeting_ = Greeting::none;
  PlayerRef player_;
  // Vectors, not deques: an empty std::deque already holds about 600 bytes, twice per idle
  // connection, while these queues are mostly empty or hold a frame or two (taking the front
  // of a short vector is cheap; the write queue is bounded).
  std::vector<Pending> waiting_for_hello_;
  std::vector<SharedText> queue_;
  bool writing_ = false;
  std::optional<websocket::close_code> close_after_writes_;
  bool closing_ = false;
  bool finished_ = false;
};

}  // namespace mancala::server
