#include "websocket_session.hpp"

#include "hub.hpp"
#include "log.hpp"
#include "log_throttle.hpp"

namespace mancala::server {

using protocol::Code;

bool RateLimiter::try_take(SteadyTime now) {
  if (last_) {
    const double elapsed = std::chrono::duration<double>(now - *last_).count();
    tokens_ = std::min(capacity_, tokens_ + elapsed * per_second_);
  }
  last_ = now;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

SteadyTime ArrivalClock::stamp(std::size_t frame_bytes, std::size_t waiting_bytes, SteadyTime now) {
  SteadyTime arrived = now;
  if (backlog_bytes_ > 0) {
    arrived = backlog_time_;
    backlog_bytes_ -= std::min(backlog_bytes_, frame_bytes + kFrameOverhead);
  }
  if (backlog_bytes_ == 0) {
    backlog_bytes_ = waiting_bytes;
    backlog_time_ = now;
  }
  return arrived;
}

WebSocketSession::WebSocketSession(ConnectionSocket&& socket, Hub& hub, Metrics& metrics, int rate_limit,
                                   std::string session_hash)
    : ws_(std::move(socket)), hub_(hub), metrics_(metrics), limiter_(rate_limit), session_hash_(std::move(session_hash)) {}

WebSocketSession::~WebSocketSession() = default;

void WebSocketSession::run(http::request<http::string_body> upgrade) {
  beast::get_lowest_layer(ws_).expires_never();  // the websocket's own timeouts take over
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
    response.set(http::field::server, "mancala-server");
  }));
  ws_.read_message_max(kMaxFrameBytes);
  ws_.text(true);
  // The accept runs on the connection's strand like every later step. Beast builds its
  // response from the request at once, so the request need not outlive the call.
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), upgrade = std::move(upgrade)] {
    self->ws_.async_accept(upgrade, [self](const error_code& error) { self->on_accept(error); });
  });
}

void WebSocketSession::on_accept(const error_code& error) {
  if (error) return log_io_error(error, "websocket accept");
  ++metrics_.connections;
  ++metrics_.connections_total;
  hub_.connected(shared_from_this());
  read_next();
}

void WebSocketSession::read_next() {
  ws_.async_read(buffer_, [self = shared_from_this()](const error_code& error, std::size_t) {
    self->on_read(error);
  });
}

void WebSocketSession::on_read(const error_code& error) {
  if (error) {
    // Beast has already answered a frame over the limit with close status 1009.
    if (error == websocket::error::message_too_big)
      log_info_throttled("frame_too_big", {{"limit_bytes", kMaxFrameBytes}});
    else log_io_error(error, "websocket read");
    return finish();
  }
  const auto data = buffer_.cdata();
  const SteadyTime arrived = arrival_of(data.size());
  // Frames that arrive after we started closing are read (the close handshake needs a
  // reader) but not handled.
  if (!closing_ && !close_after_writes_) {
    if (!ws_.got_text()) {
      // The protocol is JSON text; a binary frame is refused as protocol.md says (1003).
      log_info_throttled("binary_frame_refused", {{"player", player_ ? player_->id : ""}});
      const auto status = websocket::close_code::unknown_data;
      if (writing_ || !queue_.empty()) close_after_writes_ = status;  // replies already queued go first
      else start_close(status);
    } else {
      try {
        handle_frame(std::string_view(static_cast<const char*>(data.data()), data.size()), arrived);
      } catch (const std::exception& e) {
        // No exception may leave a completion handler: it would end the whole process.
        log_error("session_fault", {{"message", e.what()}});
        reply_error({}, Code::internal, "the server could not handle this message");
      }
    }
  }
  buffer_.consume(buffer_.size());
  read_next();
}

SteadyTime WebSocketSession::arrival_of(std::size_t frame_bytes) {
  error_code error;
  const std::size_t waiting = beast::get_lowest_layer(ws_).socket().available(error);
  return arrivals_.stamp(frame_bytes, error ? 0 : waiting, std::chrono::steady_clock::now());
}

void WebSocketSession::handle_frame(std::string_view text, SteadyTime received) {
  ++metrics_.messages_received;
  protocol::Parsed parsed = protocol::parse_client_message(text);
  if (!limiter_.try_take(received)) {
    reply_error(parsed.id, Code::rate_limited, "too many messages a second; slow down");
    if (++refusals_in_a_row_ >= kMaxRefusalsInARow) {
      log_info_throttled("closed_for_flooding", {{"player", player_ ? player_->id : ""}});
      close(CloseCode::policy_violation);
    }
    return;
  }
  refusals_in_a_row_ = 0;
  if (auto* error = std::get_if<protocol::Error>(&parsed.body)) {
    metrics_.count_error(error->code);
    return send(protocol::write_error(parsed.id, *error));
  }
  dispatch(std::move(parsed.id), std::move(std::get<protocol::ClientMessage>(parsed.body)), received);
}

void WebSocketSession::dispatch(protocol::RequestId id, protocol::ClientMessage message,
                                SteadyTime received) {
  if (greeting_ == Greeting::pending) {
    // A client may send on without waiting for `welcome`; these wait for the hello's outcome.
    waiting_for_hello_.emplace_back(std::move(id), std::move(message), received);
    return;
  }
  if (auto* hello = std::get_if<protocol::Hello>(&message)) {
    if (greeting_ == Greeting::done)
      return reply_error(id, Code::bad_request, "this connection already said hello");
    greeting_ = Greeting::pending;
    auto self = shared_from_this();
    hub_.hello(self, id, *hello, session_hash_, [self](PlayerRef player) {
      net::post(self->ws_.get_executor(), [self, player = std::move(player)] { self->on_hello_done(player); });
    });
    return;
  }
  if (greeting_ == Greeting::none)
    return reply_error(id, Code::hello_required, "say hello first: {\"type\":\"hello\",\"name\":\"…\"}");
  hub_.handle(Caller{shared_from_this(), player_, std::move(id), received, &metrics_}, std::move(message));
}

void WebSocketSession::on_hello_done(PlayerRef player) {
  greeting_ = player ? Greeting::done : Greeting::none;
  player_ = std::move(player);
  while (!waiting_for_hello_.empty() && greeting_ != Greeting::pending) {
    auto [id, message, received] = std::move(waiting_for_hello_.front());
    waiting_for_hello_.erase(waiting_for_hello_.begin());
    try {
      dispatch(id, std::move(message), received);
    } catch (const std::exception& e) {  // a completion handler: nothing may escape
      log_error("session_fault", {{"message", e.what()}});
      reply_error(id, Code::internal, "the server could not handle this message");
    }
  }
}

void WebSocketSession::reply_error(const protocol::RequestId& id, Code code, std::string message) {
  metrics_.count_error(code);
  send(protocol::write_error(id, {code, std::move(message), {}}));
}

// ---- writing ---------------------------------------------------------------------------

void WebSocketSession::send(SharedText text) {
  // Inline when already on this connection's strand (replies from the session itself).
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), text = std::move(text)]() mutable {
    self->enqueue(std::move(text));
  });
}

void WebSocketSession::enqueue(SharedText text) {
  if (closing_ || finished_ || close_after_writes_) return;
  if (queue_.size() >= kMaxQueuedFrames) {
    log_warn_throttled("slow_client_closed", {{"queued_frames", queue_.size()}});
    // Keep only the frame being written; then close.
    if (writing_) queue_.erase(queue_.begin() + 1, queue_.end());
    else queue_.clear();
    close_after_writes_ = websocket::close_code::policy_error;
    if (!writing_) start_close(*close_after_writes_);
    return;
  }
  queue_.push_back(std::move(text));
  if (!writing_) write_next();
}

void WebSocketSession::write_next() {
  writing_ = true;
  ws_.async_write(net::buffer(*queue_.front()),
                  [self = shared_from_this()](const error_code& error, std::size_t) { self->on_write(error); });
}

void WebSocketSession::on_write(const error_code& error) {
  writing_ = false;
  if (error) {
    log_io_error(error, "websocket write");
    queue_.clear();
    return;  // the pending read fails too and finishes the session
  }
  queue_.erase(queue_.begin());
  if (!queue_.empty()) return write_next();
  if (close_after_writes_) start_close(*close_after_writes_);
}

void WebSocketSession::close(CloseCode code) {
  net::post(ws_.get_executor(), [self = shared_from_this(), code] {
    if (self->closing_ || self->finished_) return;
    const auto status = static_cast<websocket::close_code>(static_cast<std::uint16_t>(code));
    if (self->writing_ || !self->queue_.empty()) self->close_after_writes_ = status;
    else self->start_close(status);
  });
}

void WebSocketSession::start_close(websocket::close_code code) {
  if (closing_ || finished_) return;
  closing_ = true;
  ws_.async_close(code, [self = shared_from_this()](const error_code& error) {
    if (error) log_io_error(error, "websocket close");
  });
}

void WebSocketSession::finish() {
  if (finished_) return;
  finished_ = true;
  --metrics_.connections;
  hub_.disconnected(shared_from_this());
}

}  // namespace mancala::server
