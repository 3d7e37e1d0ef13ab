#pragma once
// Copies the write-ahead log back into the database file on its own thread and connection, and
// keeps the log from growing without bound.
//
// SQLite would otherwise checkpoint inside a commit every thousand pages, stalling the writer
// (and every move waiting on it) for a checkpoint's copy and fsync. But SQLite starts the WAL
// over only when a write transaction begins with every frame copied, and under a steady stream
// of commits a background pass never gets there: another commit always lands during it. So once
// the WAL passes `restart_frames`, this class runs catch-up passes in the background until all
// but a few frames are copied, and then the writer copies those few itself, right after a
// commit, when nothing can append; its next transaction then starts the WAL over.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

struct sqlite3;

namespace mancala::server {

class Database;

class WalCheckpointer {
 public:
  struct Limits {
    std::chrono::milliseconds interval = std::chrono::seconds(1);  // a pass at least this often
    // The WAL starts over once it has this many frames: about 270 MB with the server's 1 KiB
    // pages, reached after some 6 s of full load on the development machine. Each start-over
    // holds the writer for the last copy and a database fsync (1-26 ms measured), so it should
    // be rare; with 32,768 frames the half-load p99 rose by about 3 ms, with this it did not.
    int restart_frames = 262144;
    // The most the writer copies itself (its commit's moves wait for it).
    int final_frames = 256;
  };

  // `writer` is the one connection that writes; its commits report the WAL's size here (through
  // SQLite's WAL hook), so it must outlive this object's use by the writer thread.
  WalCheckpointer(std::string path, Database& writer, Limits limits);
  WalCheckpointer(std::string path, Database& writer) : WalCheckpointer(std::move(path), writer, Limits{}) {}
  ~WalCheckpointer();  // one last checkpoint, then the thread ends
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

 private:
  // What the last background pass saw: the WAL's frames then, and how many of them it copied.
  struct Pass {
    unsigned generation = 0;
    int frames = 0;
    int copied = -1;
  };
  void run();
  // One background pass; what it saw becomes last_pass_ if the WAL has not started over since
  // `generation`.
  void pass(Database& db, unsigned generation);
  // On the writer thread, after each commit; `frames` is the WAL's size now.
  void after_commit(sqlite3* writer, int frames);
  bool caught_up(int frames) const;  // with mutex_ held

  std::string path_;
  Limits limits_;
  sqlite3* writer_;
  int writer_frames_ = 0;  // on the writer thread
  std::mutex mutex_;
  std::condition_variable wake_;
  unsigned generation_ = 0;  // how often the WAL started over, as the writer saw it
  Pass last_pass_;
  bool pass_wanted_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace mancala::server
