#pragma once
// What mancala-loadgen's in-process servers (the echo, the floor) share: a listener on
// 127.0.0.1 at a free port, and the threads that run its io_context, pinned to one core when
// the run is pinned.
#include <sched.h>

#include <functional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio.hpp>

namespace mancala::bench {

// Pins the calling thread (and the threads it starts later) to one core.
inline void pin_to_core(int core) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) throw std::runtime_error("sched_setaffinity failed");
}

class LoopbackListener {
 public:
  using Socket = boost::asio::ip::tcp::socket;

  LoopbackListener(int threads, int core)
      : threads_(threads), core_(core), io_(threads), acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {}
  ~LoopbackListener() { stop(); }
  LoopbackListener(const LoopbackListener&) = delete;
  LoopbackListener& operator=(const LoopbackListener&) = delete;

  // Starts the threads; each accepted socket (no Nagle delay, on a strand of its own) goes to
  // `serve`.
  void serve(std::function<void(Socket&&)> serve) {
    serve_ = std::move(serve);
    accept();
    for (int i = 0; i < threads_; ++i)
      workers_.emplace_back([this] {
        if (core_ >= 0) pin_to_core(core_);
        io_.run();
      });
  }
  // Stops the threads; the io_context, and what its handlers hold, lives on until destruction.
  void stop() {
    io_.stop();
    for (auto& worker : workers_)
      if (worker.joinable()) worker.join();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

 private:
  void accept() {
    acceptor_.async_accept(boost::asio::make_strand(io_), [this](boost::system::error_code error, Socket socket) {
      if (error) return;
      socket.set_option(boost::asio::ip::tcp::no_delay(true));
      serve_(std::move(socket));
      accept();
    });
  }

  int threads_;
  int core_;
  boost::asio::io_context io_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::function<void(Socket&&)> serve_;
  std::vector<std::thread> workers_;
};

}  // namespace mancala::bench
