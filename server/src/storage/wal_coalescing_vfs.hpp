#pragma once
// A SQLite VFS that writes each WAL commit to the disk in one system call.
//
// SQLite appends a commit to the WAL frame by frame, each frame as two `pwrite`s (its 24-byte
// header, then the page), and then syncs. A group commit of 60 moves is some 300 `pwrite`s, each
// a trip into the kernel that on a virtual machine costs several microseconds. This VFS wraps the
// platform's and keeps a WAL file's consecutive appends in memory until a commit's last frame
// is written (so the whole commit reaches the file before SQLite publishes it in the WAL index
// and syncs: it is durable exactly as before), or until a read, a truncate, a size, a close or
// an append that does not follow on needs them. The database file, the journal and the
// readers' files pass straight through.
#include <cstdint>

namespace mancala::server {

// The VFS's name for `sqlite3_open_v2`; registered (not as the default) on first use.
const char* wal_coalescing_vfs();

// How many `pwrite`s this process's WAL files have had so far, and how many appends they
// carried (both only ever grow; for tests and /metrics).
struct WalWriteCounts {
  std::uint64_t writes = 0;
  std::uint64_t appends = 0;
};
WalWriteCounts wal_write_counts();

}  // namespace mancala::server
