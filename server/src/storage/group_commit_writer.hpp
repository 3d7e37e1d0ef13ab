#pragma once
// The one thread that writes to the database. Jobs queue up while a commit (and its fsync) is
// running; the next transaction takes all of them at once, so a thousand moves cost about one
// fsync instead of a thousand. A failing job is undone and reported alone; the others still
// commit. `done(true)` is called only after the commit
// is durable, which is what lets the server acknowledge a move. The same writer serves SQLite
// (`Database`) and PostgreSQL (`PgConnection`): both speak BEGIN, SAVEPOINT and COMMIT.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "database.hpp"
#include "pg_connection.hpp"

namespace mancala::server {

class Histogram;

template <class Connection>
class BasicGroupCommitWriter {
 public:
  using Job = std::function<void(Connection&)>;  // throws SqlError (or anything) on failure
  using Done = std::function<void(bool committed)>;  // called on the writer thread: keep it short

  BasicGroupCommitWriter(Connection db, Histogram& commit_latency);
  ~BasicGroupCommitWriter();

  void submit(Job job, Done done);
  // Runs `job` on the writer thread and waits for it (reads of a :memory: database, which has
  // no second connection). Rethrows what the job threw.
  void run_and_wait(const Job& job);
  // Commits everything already queued, then ends the thread. Later submits fail at once.
  void stop();

 private:
  struct Entry {
    Job job;
    Done done;
  };
  void run();
  void commit_batch(std::deque<Entry>& batch);
  enum class Attempt { committed, job_failed, commit_failed };
  Attempt run_batch(std::deque<Entry>& batch, std::vector<bool>& succeeded, bool savepoints);

  Connection db_;
  Histogram& commit_latency_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Entry> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

using GroupCommitWriter = BasicGroupCommitWriter<Database>;
using PgGroupCommitWriter = BasicGroupCommitWriter<PgConnection>;

}  // namespace mancala::server
