#pragma once
// Whom a room tells by Web Push, and what: pure decisions on a snapshot of its seats (who sits
// where, who is connected), so the rules are tested without a push service and a new occasion
// (a tournament's pairing, say) is one more function here. The room only hands the notices to
// PushNotices (push_notices.hpp).
#include <chrono>
#include <optional>
#include <vector>

#include "push_notices.hpp"
#include "room_view.hpp"

namespace mancala::server {

// Games with at least this much time per move are left between moves, so their players are
// told by Web Push; in faster games they are at the board, and a notification would be noise.
inline constexpr auto kPushClock = std::chrono::hours(24);

// `mover` (nothing: the server, e.g. a timeout) made an update and `next` is to move now: the
// player of `next` hears it is his move when none of his connections is in the room. Once per
// move of the opponent: a turn of several decisions tells nobody until it passes.
std::vector<PushNotice> turn_notices(const RoomSnapshot& room, std::optional<int> mover, int next);

// `asker` offers a rematch: each player who has not asked yet hears of it. They are connected
// (asking needs every player in the room), but in a game of days a page stays open for days
// without anyone looking at it.
std::vector<PushNotice> rematch_notices(const RoomSnapshot& room, int asker, const std::vector<int>& asked);

}  // namespace mancala::server
