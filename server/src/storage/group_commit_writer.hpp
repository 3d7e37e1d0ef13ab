#pragma once
// The one thread that writes to the database. Jobs queue up while a commit (and its fsync) is
// running; the next transaction takes all of them at once, so a thousand moves cost about one
// fsync instead of a thousand. A failing job is undone and reported alone; the others still
// commit. `done(true)` is called only after the commit
// is durable, which is what lets the server acknowledge a move. The same writer serves SQLite
// (`Database`) and PostgreSQL (`PgConnection`): both speak BEGIN, SAVEPOINT and COMMIT.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "clock.hpp"
#include "log_throttle.hpp"
#include "database.hpp"
#include "storage_trouble.hpp"
#include "pg_connection.hpp"

namespace mancala::server {

class Histogram;

template <class Connection>
class BasicGroupCommitWriter {
 public:
  using Job = std::function<void(Connection&)>;  // throws SqlError (or anything) on failure
  using Done = std::function<void(bool committed)>;  // called on the writer thread: keep it short

  // What the writer reads the time from to measure a commit and space its log lines: the real
  // steady clock, or a test's clock that moves only when the test moves it.
  using SteadyNow = std::function<SteadyTime()>;

  BasicGroupCommitWriter(Connection db, Histogram& commit_latency,
                         SteadyNow steady_now = [] { return std::chrono::steady_clock::now(); });
  ~BasicGroupCommitWriter();

  void submit(Job job, Done done);
  // Runs `job` on the writer thread and waits for it (reads of a :memory: database, which has
  // no second connection). Rethrows what the job threw.
  void run_and_wait(const Job& job);
  // Commits everything already queued, then ends the thread. Later submits fail at once.
  void stop();
  // Why the last transaction failed, while it is the last one: the database could not be
  // reached, or its disk was full (its jobs were reported failed). `none` again once one
  // commits. Any thread.
  StorageTrouble trouble() const { return trouble_.load(); }

 private:
  struct Entry {
    Job job;
    Done done;
  };
  void run();
  void commit_batch(std::deque<Entry>& batch);
  // connection_lost: the connection broke before COMMIT was sent, so nothing of the batch took
  // effect and it may run again, once, on a fresh connection. disk_full: no job can be written
  // until there is room again, so none is tried alone.
  enum class Attempt { committed, job_failed, connection_lost, disk_full, commit_failed };
  Attempt run_batch(std::deque<Entry>& batch, std::vector<bool>& succeeded, bool savepoints);
  void log_failure(const std::exception& e, std::size_t jobs);
  void log_if_slow(std::chrono::steady_clock::duration took, std::size_t jobs);

  Connection db_;
  Histogram& commit_latency_;
  SteadyNow steady_now_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry> queue_;
  bool stopping_ = false;
  StorageTrouble failed_for_ = StorageTrouble::none;  // on the writer thread: the last attempt
  LogThrottle disk_full_log_{std::chrono::minutes(1)};  // on the writer thread: once a minute
  LogThrottle slow_commit_log_;                          // on the writer thread: once a second
  std::atomic<StorageTrouble> trouble_{StorageTrouble::none};
  std::thread thread_;
};

using GroupCommitWriter = BasicGroupCommitWriter<Database>;
using PgGroupCommitWriter = BasicGroupCommitWriter<PgConnection>;

}  // namespace mancala::server
