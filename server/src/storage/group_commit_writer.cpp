#include "group_commit_writer.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <utility>

#include "log.hpp"
#include "log_throttle.hpp"
#include "metrics.hpp"
#include "thread_name.hpp"

namespace mancala::server {
namespace {

// Every move waits for the commit in flight, so a commit this slow shows in every room (the
// capacity goal allows a p99 of 50 ms). The log says so: a disk in trouble shows, and a stall
// seen by a client can be told apart from one outside the writer.
constexpr auto kSlowCommit = std::chrono::milliseconds(50);

StorageTrouble trouble_of(const std::exception& e) {
  const auto* sql = dynamic_cast<const SqlError*>(&e);
  if (sql && sql->connection_lost) return StorageTrouble::unreachable;
  if (sql && sql->disk_full) return StorageTrouble::disk_full;
  return StorageTrouble::none;
}

}  // namespace

template <class Connection>
BasicGroupCommitWriter<Connection>::BasicGroupCommitWriter(Connection db, Histogram& commit_latency,
                                                           SteadyNow steady_now)
    : db_(std::move(db)), commit_latency_(commit_latency), steady_now_(std::move(steady_now)), thread_([this] {
        name_this_thread("db-writer");
        run();
      }) {}

template <class Connection>
BasicGroupCommitWriter<Connection>::~BasicGroupCommitWriter() { stop(); }

template <class Connection>
void BasicGroupCommitWriter<Connection>::submit(Job job, Done done) {
  {
    const std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back({std::move(job), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  log_error("write_after_stop", {{"message", "a write arrived after the database was closed"}});
  done(false);
}

template <class Connection>
void BasicGroupCommitWriter<Connection>::run_and_wait(const Job& job) {
  std::promise<void> finished;
  std::exception_ptr failure;
  submit(
      [&](Connection& db) {
        try {
          job(db);
        } catch (...) {
          failure = std::current_exception();
        }
      },
      [&](bool) { finished.set_value(); });
  finished.get_future().wait();
  if (failure) std::rethrow_exception(failure);
}

template <class Connection>
void BasicGroupCommitWriter<Connection>::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
    wake_.notify_one();
  }
  thread_.join();
}

template <class Connection>
void BasicGroupCommitWriter<Connection>::run() {
  while (true) {
    std::deque<Entry> batch;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued has been committed
      batch.swap(queue_);
    }
    commit_batch(batch);
  }
}

template <class Connection>
void BasicGroupCommitWriter<Connection>::commit_batch(std::deque<Entry>& batch) {
  const auto started = steady_now_();
  // Jobs rarely fail, so the batch is first tried as one plain transaction. Only when a job
  // fails is it run again with a savepoint per job, so that the failing job is undone alone
  // and the others still commit.
  std::vector<bool> succeeded(batch.size(), false);
  Attempt attempt = run_batch(batch, succeeded, /*savepoints=*/false);
  // A connection PostgreSQL closed (a restart, a terminated backend) is found out at its next
  // statement; the batch runs again on a fresh one, so nobody's move fails for it.
  if (attempt == Attempt::connection_lost) attempt = run_batch(batch, succeeded, /*savepoints=*/false);
  if (attempt == Attempt::job_failed) attempt = run_batch(batch, succeeded, /*savepoints=*/true);
  const auto took = steady_now_() - started;
  commit_latency_.observe(took);
  log_if_slow(took, batch.size());
  const bool committed = attempt == Attempt::committed;
  trouble_ = committed ? StorageTrouble::none : failed_for_;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    try {
      batch[i].done(committed && succeeded[i]);
    } catch (const std::exception& e) {
      // A report must not take the writer thread down with it.
      log_error("commit_report_failed", {{"message", e.what()}});
    }
  }
}

template <class Connection>
auto BasicGroupCommitWriter<Connection>::run_batch(std::deque<Entry>& batch, std::vector<bool>& succeeded,
                                                  bool savepoints) -> Attempt {
  bool job_failed = false;
  bool commit_sent = false;
  failed_for_ = StorageTrouble::none;
  try {
    db_.begin_write();
    // PostgreSQL: the batch's statements travel together, one round trip instead of one each.
    // A job's failure then shows only at the end; the batch runs again with savepoints, one
    // statement at a time, to find it.
    if constexpr (std::is_same_v<Connection, PgConnection>)
      if (!savepoints) db_.start_pipeline();
    for (std::size_t i = 0; i < batch.size() && !job_failed; ++i) {
      if (savepoints) db_.prepare("SAVEPOINT job").run();
      try {
        batch[i].job(db_);
        succeeded[i] = true;
      } catch (const std::exception& e) {
        succeeded[i] = false;
        if (trouble_of(e) != StorageTrouble::none) throw;  // not the job's fault: the batch's
        if (savepoints) {
          log_error("write_failed", {{"message", e.what()}});
          db_.prepare("ROLLBACK TO job").run();
        } else {
          job_failed = true;
        }
      }
      if (savepoints) db_.prepare("RELEASE job").run();
    }
    if (!job_failed) {
      commit_sent = true;
      db_.prepare("COMMIT").run();
      if constexpr (std::is_same_v<Connection, PgConnection>) db_.finish_pipeline();
      return Attempt::committed;
    }
  } catch (const std::exception& e) {
    failed_for_ = trouble_of(e);
    const auto* sql = dynamic_cast<const SqlError*>(&e);
    if (sql && sql->deferred && failed_for_ == StorageTrouble::none) {
      job_failed = true;  // PostgreSQL skipped the rest, the COMMIT included: nothing took effect
      std::fill(succeeded.begin(), succeeded.end(), false);
    } else {
      log_failure(e, batch.size());
    }
  }
  if constexpr (std::is_same_v<Connection, PgConnection>) {
    try {
      db_.finish_pipeline();  // a job that threw left answers unread
    } catch (const std::exception&) {
      // The rollback below undoes what they did.
    }
  }
  // Before COMMIT was sent, a lost connection took nothing with it: the batch may run again.
  // Whether a COMMIT that lost its connection took effect is unknown: its jobs are reported
  // failed, and a room whose move failed reads back what the database has.
  if (failed_for_ == StorageTrouble::unreachable)
    return commit_sent ? Attempt::commit_failed : Attempt::connection_lost;
  try {
    db_.execute("ROLLBACK");
  } catch (const std::exception&) {
    // Nothing was open to roll back (SQLite undoes a transaction that ran out of room itself).
  }
  if (failed_for_ == StorageTrouble::disk_full) return Attempt::disk_full;
  return job_failed ? Attempt::job_failed : Attempt::commit_failed;
}

// A full disk fails every batch until there is room again: said once a minute, not per move.
template <class Connection>
void BasicGroupCommitWriter<Connection>::log_failure(const std::exception& e, std::size_t jobs) {
  if (failed_for_ != StorageTrouble::disk_full) {
    log_error("commit_failed", {{"message", e.what()}, {"jobs", jobs},
                                {"connection_lost", failed_for_ == StorageTrouble::unreachable}});
    return;
  }
  const auto left_out = disk_full_log_.admit(steady_now_());
  if (!left_out) return;
  log_error("disk_full", {{"message", e.what()},
                          {"not_logged", *left_out},
                          {"effect", "moves and other writes are refused until there is room again; "
                                     "nothing already acknowledged is affected"}});
}

// At most one line a second; the next one counts those left out meanwhile (log_throttle.hpp).
template <class Connection>
void BasicGroupCommitWriter<Connection>::log_if_slow(std::chrono::steady_clock::duration took, std::size_t jobs) {
  if (took < kSlowCommit) return;
  const auto left_out = slow_commit_log_.admit(steady_now_());
  if (!left_out) return;
  log_warn("slow_commit", {{"ms", std::chrono::duration_cast<std::chrono::milliseconds>(took).count()},
                           {"jobs", jobs},
                           {"not_logged", *left_out},
                           {"effect", "every move waited for this commit"}});
}

template class BasicGroupCommitWriter<Database>;
template class BasicGroupCommitWriter<PgConnection>;

}  // namespace mancala::server
