#pragma once
// The computer players of one room: which seats they hold and at which level, their searches,
// and how quickly they claim an open claim window. The room calls it on its strand only. Searches run on the
// BotPool on a copy of the game; each result comes back through the room's `Deliver`, and the
// room checks and commits it exactly like a person's move (a result for an old version is
// dropped). One search at a time per room: only one seat is ever to move, and a bot's tree is
// never touched by two searches at once.
//
// Rematch: computer players accept at once. The room's rematch handling counts every seat with
// `level(seat) > 0` as having asked, and the new room gets the same levels on the rotated seats.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "identity.hpp"
#include "mancala/bot.hpp"
#include "net.hpp"

namespace mancala::server {

class BotPool;
class Metrics;

class BotSeats {
 public:
  // What a search found, handed to the room on its strand.
  struct Result {
    int seat = 0;
    std::int64_t version = 0;  // the version the bot thought about
    std::string tokens;        // the rest of its turn; empty when the pool was full (think again)
  };
  using Deliver = std::function<void(Result)>;

  BotSeats(BotPool& pool, Metrics& metrics, net::any_io_executor strand, std::string room_id,
           int seat_count);

  // Puts a computer player of `level` (1-5) on `seat`; returns the player that holds it there:
  // id "bot-<seat>" (no person's id has a '-'), the level's display name, no token.
  PlayerRef add(int seat, int level);
  int level(int seat) const;  // 0 for a person's seat or a free one

  // Starts a search when a computer player is to move in `game` at `version` and no search of
  // this room is running. `random` asks for a uniformly random turn (after the engine refused
  // a searched one, so that a faulty search cannot stall the game).
  void think(const Game& game, std::int64_t version, const Deliver& deliver, bool random = false);
  // Called by the room with each result, before acting on it.
  void thought() { thinking_ = false; }

  // The bot seats and how long each waits before claiming an open window (fresh draws each race).
  std::vector<std::pair<int, std::chrono::milliseconds>> claim_reactions() const;

 private:
  std::uint64_t seed(int seat) const;

  BotPool& pool_;
  Metrics& metrics_;
  std::string room_id_;
  std::vector<int> levels_;
  std::vector<std::shared_ptr<bots::Bot>> bots_;  // shared with the search that uses one
  bool thinking_ = false;
  net::steady_timer retry_timer_;  // when the pool's queue was full
};

}  // namespace mancala::server
