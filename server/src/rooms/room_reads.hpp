#pragma once
// What a room reads from the database, always on a reader thread and never on its strand (a
// read may wait on a slow disk or a far database): a move sent again with an old
// expected_version, `sync`'s updates, the game read back after a failed commit, the ratings a
// result moved, whether an operator silenced a player's chat. Each read that answers a caller
// answers it itself (`unavailable` or `internal` when the read fails); the others hand their
// result to the room, which goes back to its strand with it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "mancala/match.hpp"
#include "stored_game.hpp"

namespace mancala::server {

class ReaderPool;
class Storage;

class RoomReads {
 public:
  RoomReads(ReaderPool& readers, Storage& storage) : readers_(readers), storage_(storage) {}

  // A move whose expected_version is behind the game's `version`: the stored update again, to
  // the caller alone, when it is the same move by the same seat (a client that lost the reply);
  // `stale_version` otherwise.
  void resend_or_refuse(const Caller& caller, const GameMeta& meta, const protocol::Move& move, int seat,
                        std::int64_t version) const;
  // `sync`'s answer: the updates after `since` up to `until` (the version when it was asked).
  void send_updates(const Caller& caller, const GameMeta& meta, std::int64_t since, std::int64_t until) const;

  // The game as stored, replayed, and its version; nothing when it could not be read (logged).
  using Rebuilt = std::optional<std::pair<Match, std::int64_t>>;
  void read_back(const GameMeta& meta, std::function<void(Rebuilt)> done) const;
  // Reads the players' ratings into them (the accounts among them); `done` gets the ids read.
  // A failed read is logged and `done` is not called: the ratings show after the next restart.
  void read_ratings(const std::string& room_id, std::vector<PlayerRef> players,
                    std::function<void(std::vector<std::string>)> done) const;
  // Runs `allowed` (on the reader) unless an operator silenced `player_id`'s chat, which the
  // caller hears (`silenced`, with until when).
  void unless_silenced(const Caller& caller, const std::string& player_id, std::function<void()> allowed) const;

 private:
  // Runs `read` on a reader with a copy of `meta`; the caller hears `unavailable` or `internal`
  // when it throws.
  void read_for(const Caller& caller, const GameMeta& meta, std::function<void(const GameMeta&, Storage&)> read) const;

  ReaderPool& readers_;
  Storage& storage_;
};

}  // namespace mancala::server
