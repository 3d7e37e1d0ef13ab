#pragma once
// The error codes of the wire protocol. The engine's codes are a subset with the same names, so
// a rule error reaches the client unchanged.
#include <optional>
#include <string>
#include <string_view>

#include "mancala/error.hpp"
#include "mancala/game.hpp"

namespace mancala::protocol {

enum class Code {
  bad_request,
  unknown_type,
  hello_required,
  bad_token,
  bad_name,
  unknown_game,
  bad_option,
  not_found,
  forbidden,
  seat_taken,
  not_a_player,
  not_started,
  game_over,
  not_your_turn,
  stale_version,
  illegal_move,
  not_allowed,
  no_claim_window,  // on the wire "no_plex_window" (Njaka's Plex!, the only claim window)
  claim_lost,       // on the wire "plex_lost"
  not_abandoned,
  rate_limited,
  too_many_rooms,
  room_expired,
  unavailable,  // the database cannot be reached right now; `retry_after_ms` says when to try again
  silenced,     // an operator silenced the player's chat for a while
  too_many_seeks,  // the player holds kMaxSeeksPerPlayer seeks already
  internal,
};
inline constexpr int kCodeCount = static_cast<int>(Code::internal) + 1;

std::string_view to_string(Code code);
std::optional<Code> code_from_string(std::string_view name);
Code from_engine(ErrorCode code);

// An error reply: its code, a sentence a person can act on, and the extra fields some codes
// carry (`version` for stale_version, `token` and `legal` for illegal_move).
struct Error {
  Code code;
  std::string message;
  Json details = Json::object();
};

}  // namespace mancala::protocol
