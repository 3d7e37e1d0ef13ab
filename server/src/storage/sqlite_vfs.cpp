#include "sqlite_vfs.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mancala::server {
namespace {

// More than a group commit of a few hundred moves needs; a longer run is written as it comes.
constexpr std::size_t kMaxPending = 1 << 20;
// SQLite's unix VFS writes at most this much in one call (it masks a write's length with it),
// and a length that masks to nothing reads as a full disk, so pending bytes go in pieces.
constexpr std::size_t kMaxWrite = 0x1ffff;
// How much of a database file is written before it is sent to the disk and waited for. Chosen
// with 30 s runs of mancala-loadgen (server/bench/NOTEBOOK.md): 64 KiB kept the disk so busy with small
// pieces that more commits were slow; 256 KiB left the fewest moves over 5 ms and nearly no
// stalls of 20 ms and more.
constexpr std::size_t kWritebackBytes = 256 * 1024;

std::atomic<std::uint64_t> g_wal_writes{0};
std::atomic<std::uint64_t> g_wal_appends{0};
std::atomic<std::uint64_t> g_writebacks{0};
sqlite3_vfs* g_base = nullptr;  // the platform's VFS, which does the real work
sqlite3_vfs g_vfs{};

// SQLite hands us `szOsFile` bytes for a file: this struct, then the platform's file.
struct VfsFile {
  sqlite3_file base;  // first, so SQLite's pointer is ours
  sqlite3_file* real = nullptr;
  bool wal = false;
  std::vector<char> pending;  // consecutive appends not yet written
  sqlite3_int64 pending_at = 0;
  bool commit_frame_next = false;  // the next append is a commit's last page
  int writeback_fd = -1;           // a database file's: a descriptor of our own for writeback
  std::size_t not_written_back = 0;  // bytes written since the last writeback
};

constexpr std::size_t kRealOffset = (sizeof(VfsFile) + 15) & ~std::size_t{15};

VfsFile* self(sqlite3_file* file) { return reinterpret_cast<VfsFile*>(file); }
sqlite3_file* real(sqlite3_file* file) { return self(file)->real; }

// Writes what is pending in one call; whatever happens, nothing stays pending.
int flush(VfsFile& file) {
  int result = SQLITE_OK;
  for (std::size_t done = 0; done < file.pending.size() && result == SQLITE_OK; done += kMaxWrite) {
    const std::size_t piece = std::min(kMaxWrite, file.pending.size() - done);
    ++g_wal_writes;
    result = file.real->pMethods->xWrite(file.real, file.pending.data() + done, static_cast<int>(piece),
                                         file.pending_at + static_cast<sqlite3_int64>(done));
  }
  file.pending.clear();
  return result;
}

// SQLite writes a WAL frame as its 24-byte header, then its page. A commit's last frame says
// so in its header (the database's size in pages, where other frames have 0).
constexpr int kFrameHeaderBytes = 24;
bool is_commit_frame_header(const void* data, int amount) {
  if (amount != kFrameHeaderBytes) return false;
  const auto* bytes = static_cast<const unsigned char*>(data);
  return (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
}

// A database file's write, sent to the disk (and waited for) with the ones before it once they
// add up to kWritebackBytes. A failed writeback is not reported: the checkpoint's own sync of
// the file, which must follow, reports any error of the disk.
int write_through(VfsFile& file, const void* data, int amount, sqlite3_int64 offset) {
  const int result = file.real->pMethods->xWrite(file.real, data, amount, offset);
  if (file.writeback_fd < 0) return result;
  file.not_written_back += static_cast<std::size_t>(amount);
  if (file.not_written_back >= kWritebackBytes) {
    file.not_written_back = 0;
    ++g_writebacks;
    ::sync_file_range(file.writeback_fd, 0, 0, SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
  }
  return result;
}

int write(sqlite3_file* handle, const void* data, int amount, sqlite3_int64 offset) {
  VfsFile& file = *self(handle);
  if (!file.wal) return write_through(file, data, amount, offset);
  ++g_wal_appends;
  // The commit is written out with its last page, before SQLite publishes it in the WAL index:
  // other connections read the WAL file itself, whatever the `synchronous` setting.
  const bool ends_commit = std::exchange(file.commit_frame_next, false);
  file.commit_frame_next = is_commit_frame_header(data, amount);
  const auto size = static_cast<std::size_t>(amount);
  const bool follows_on = offset == file.pending_at + static_cast<sqlite3_int64>(file.pending.size());
  if (file.pending.empty() || !follows_on || file.pending.size() + size > kMaxPending) {
    if (const int result = flush(file); result != SQLITE_OK) return result;
    file.pending_at = offset;
  }
  const auto* bytes = static_cast<const char*>(data);
  file.pending.insert(file.pending.end(), bytes, bytes + size);
  return ends_commit ? flush(file) : SQLITE_OK;
}

int close(sqlite3_file* handle) {
  VfsFile& file = *self(handle);
  const int flushed = flush(file);
  const int closed = file.real->pMethods ? file.real->pMethods->xClose(file.real) : SQLITE_OK;
  if (file.writeback_fd >= 0) ::close(file.writeback_fd);
  file.~VfsFile();
  return flushed != SQLITE_OK ? flushed : closed;
}

int read(sqlite3_file* handle, void* data, int amount, sqlite3_int64 offset) {
  if (const int result = flush(*self(handle)); result != SQLITE_OK) return result;
  return real(handle)->pMethods->xRead(real(handle), data, amount, offset);
}

int truncate(sqlite3_file* handle, sqlite3_int64 size) {
  if (const int result = flush(*self(handle)); result != SQLITE_OK) return result;
  return real(handle)->pMethods->xTruncate(real(handle), size);
}

int sync(sqlite3_file* handle, int flags) {
  if (const int result = flush(*self(handle)); result != SQLITE_OK) return result;
  return real(handle)->pMethods->xSync(real(handle), flags);
}

int file_size(sqlite3_file* handle, sqlite3_int64* size) {
  if (const int result = flush(*self(handle)); result != SQLITE_OK) return result;
  return real(handle)->pMethods->xFileSize(real(handle), size);
}

const sqlite3_io_methods kMethods = {
    3,
    close,
    read,
    write,
    truncate,
    sync,
    file_size,
    [](sqlite3_file* f, int lock) { return real(f)->pMethods->xLock(real(f), lock); },
    [](sqlite3_file* f, int lock) { return real(f)->pMethods->xUnlock(real(f), lock); },
    [](sqlite3_file* f, int* out) { return real(f)->pMethods->xCheckReservedLock(real(f), out); },
    [](sqlite3_file* f, int op, void* arg) { return real(f)->pMethods->xFileControl(real(f), op, arg); },
    [](sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); },
    [](sqlite3_file* f) { return real(f)->pMethods->xDeviceCharacteristics(real(f)); },
    [](sqlite3_file* f, int region, int size, int extend, void volatile** out) {
      return real(f)->pMethods->xShmMap(real(f), region, size, extend, out);
    },
    [](sqlite3_file* f, int offset, int count, int flags) {
      return real(f)->pMethods->xShmLock(real(f), offset, count, flags);
    },
    [](sqlite3_file* f) { real(f)->pMethods->xShmBarrier(real(f)); },
    [](sqlite3_file* f, int remove) { return real(f)->pMethods->xShmUnmap(real(f), remove); },
    [](sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
      return real(f)->pMethods->xFetch(real(f), offset, amount, out);
    },
    [](sqlite3_file* f, sqlite3_int64 offset, void* page) {
      return real(f)->pMethods->xUnfetch(real(f), offset, page);
    },
};

int open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* handle, int flags, int* out_flags) {
  auto* file = new (handle) VfsFile{};
  file->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(handle) + kRealOffset);
  file->real->pMethods = nullptr;
  file->wal = (flags & SQLITE_OPEN_WAL) != 0;
  const int result = g_base->xOpen(g_base, name, file->real, flags, out_flags);
  if (result != SQLITE_OK) {
    if (file->real->pMethods) file->real->pMethods->xClose(file->real);
    file->~VfsFile();
    handle->pMethods = nullptr;
    return result;
  }
  // SQLite's own descriptor is not reachable through the VFS; writeback acts on the file's
  // pages whichever descriptor asks. Without one (no such path), pages go as SQLite sends them.
  if ((flags & SQLITE_OPEN_MAIN_DB) && name) file->writeback_fd = ::open(name, O_RDONLY | O_CLOEXEC);
  handle->pMethods = &kMethods;
  return SQLITE_OK;
}

void register_vfs() {
  // Before SQLite initialises (the lookup below does): no memory statistics, which nothing reads
  // and which take a process-wide mutex on every allocation SQLite makes. Refused (and harmless)
  // if something opened a database before this.
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  g_base = sqlite3_vfs_find(nullptr);
  if (!g_base || g_base->iVersion < 3) throw std::runtime_error("SQLite has no default VFS of version 3");
  g_vfs = *g_base;  // every call but opening goes to the platform's VFS, which ignores pVfs's name
  g_vfs.zName = "mancala";
  g_vfs.szOsFile = static_cast<int>(kRealOffset) + g_base->szOsFile;
  g_vfs.pNext = nullptr;
  g_vfs.xOpen = open;
  if (sqlite3_vfs_register(&g_vfs, /*makeDflt=*/0) != SQLITE_OK)
    throw std::runtime_error("cannot register the server's SQLite VFS");
}

}  // namespace

const char* sqlite_vfs() {
  static std::once_flag registered;
  std::call_once(registered, register_vfs);
  return g_vfs.zName;
}

VfsCounts vfs_counts() { return {g_wal_writes.load(), g_wal_appends.load(), g_writebacks.load()}; }

}  // namespace mancala::server
