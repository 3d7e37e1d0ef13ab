#pragma once
// Who holds which seat of a room, and the rules for taking one: which seat a join gets (or why
// not), where a computer player may sit, and the refusal of a request the game's state does
// not allow. Pure: the room decides with these on its strand and commits what they chose, so
// a new way into a room (a seek's pairing, a tournament's) reuses the same rules.
#include <optional>
#include <string>
#include <vector>

#include "identity.hpp"
#include "mancala/json.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/errors.hpp"
#include "room_status.hpp"

namespace mancala::server {

class RoomSeats {
 public:
  // Each seat's player; null for a free seat.
  explicit RoomSeats(std::vector<PlayerRef> players) : players_(std::move(players)) {}

  int count() const { return static_cast<int>(players_.size()); }
  const PlayerRef& at(int seat) const { return players_[static_cast<std::size_t>(seat)]; }
  void set(int seat, PlayerRef player) { players_[static_cast<std::size_t>(seat)] = std::move(player); }
  const std::vector<PlayerRef>& players() const { return players_; }
  std::optional<int> seat_of(const PlayerRef& player) const;
  int free_count() const;
  std::optional<int> first_free() const;

 private:
  std::vector<PlayerRef> players_;
};

// A join's seat, decided: the seat to take, or why not; neither means the caller watches.
struct SeatDecision {
  std::optional<int> seat;
  std::optional<protocol::Error> refusal;
};
// For a caller who holds no seat yet. A seat is taken only while the room waits; a rated room
// seats only accounts (anyone may watch it).
SeatDecision choose_seat(const RoomSeats& seats, const protocol::SeatChoice& choice, RoomStatus status, bool rated,
                         bool account);
// Why a computer player may not take `bot.seat` now; nothing when it may.
std::optional<protocol::Error> bot_seat_refusal(const RoomSeats& seats, const protocol::BotSeat& bot,
                                                RoomStatus status, bool rated);
// Why a move (or a resignation, a claim) is refused in a room that is not playing.
std::optional<protocol::Error> not_playing_refusal(RoomStatus status);
// The refusal of a room the caller may not see (a private one he neither sits in nor joined).
protocol::Error not_visible(const std::string& room_id);

// The seats that left a game unplayed: whose resignation or timeout (an abandoned seat is
// resigned for) came before any move of their own, read from a match's record `turns`. Such
// games count toward quick pairing's mild playban (seek_pool.hpp).
std::vector<int> seats_that_left_unplayed(const Json& turns);

}  // namespace mancala::server
