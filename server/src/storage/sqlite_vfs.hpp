#pragma once
// The SQLite VFS every connection of the server opens through: the platform's, with two changes
// to how files reach the disk.
//
// A WAL commit in one system call. SQLite appends a commit to the WAL frame by frame, each frame
// as two `pwrite`s (its 24-byte header, then the page), and then syncs. A group commit of 60
// moves is some 300 `pwrite`s, each a trip into the kernel that on a virtual machine costs
// several microseconds. A WAL file's consecutive appends stay in memory until a commit's last
// frame is written (so the whole commit reaches the file before SQLite publishes it in the WAL
// index and syncs: it is durable exactly as before), or until a read, a truncate, a size, a
// close or an append that does not follow on needs them.
//
// A checkpoint's pages sent to the disk as they come. In WAL mode only checkpoints write the
// database file: a second's worth of pages that the checkpoint's final sync would send to the
// disk at once. A commit's WAL sync that comes meanwhile waits for all of them (the disk flushes
// its whole cache), so moves stalled for 20 to over 50 ms. Every kWritebackBytes written to a
// database file are sent and waited for at once, on the checkpoint's thread; a commit then waits
// for at most one such piece.
//
// The journal and the readers' files pass straight through.
#include <cstdint>

namespace mancala::server {

// The VFS's name for `sqlite3_open_v2`; registered (not as the default) on first use.
const char* sqlite_vfs();

// What this process's files have had so far (all only ever grow; for tests and /metrics).
struct VfsCounts {
  std::uint64_t wal_writes = 0;   // `pwrite`s to WAL files
  std::uint64_t wal_appends = 0;  // the appends SQLite asked for, which they carried
  std::uint64_t writebacks = 0;   // waits for a database file's written pages to reach the disk
};
VfsCounts vfs_counts();

}  // namespace mancala::server
