#pragma once
// The floor: the least a durable move of a two-player room needs, as a server of its own, so
// that mancala-loadgen can say what this machine allows rather than only what the echo does.
// One read, one group commit (SQLite, WAL, synchronous=FULL, one row a move under a
// (room, version) key, as mancala-server's `moves`), and one send to each of the room's two
// members, padded to the size of a Cups update. No engine, no protocol, no state: whatever
// mancala-server spends beyond this is its own, whatever this spends is the machine's.
//
// Its wire: `{"type":"join","id":"j","room":"R"}` puts a connection in room R (answered
// `{"type":"joined","id":"j"}`); any other text is a move: stored, then sent back to its
// sender and, without its `"id":"m",`, to the room's other member.
#include <filesystem>
#include <memory>

namespace mancala::bench {

class FloorServer {
 public:
  // `threads` network threads and one writer, all on `core` (-1: any); the database is created
  // at `database` (any file there is replaced).
  FloorServer(int threads, int core, const std::filesystem::path& database);
  ~FloorServer();
  FloorServer(const FloorServer&) = delete;
  FloorServer& operator=(const FloorServer&) = delete;

  unsigned short port() const;

  static constexpr std::size_t kUpdateBytes = 600;  // a Cups update's text, about

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mancala::bench
