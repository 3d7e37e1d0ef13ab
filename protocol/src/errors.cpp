#include "mancala/protocol/errors.hpp"

#include <array>

namespace mancala::protocol {
namespace {

constexpr std::array<std::string_view, kCodeCount> kNames = {
    "bad_request", "unknown_type",   "hello_required", "bad_token",     "bad_name",
    "unknown_game", "bad_option",    "not_found",      "forbidden",     "seat_taken",
    "not_a_player", "not_started",   "game_over",      "not_your_turn", "stale_version",
    "illegal_move", "not_allowed",   "no_plex_window", "plex_lost",     "not_abandoned",
    "rate_limited", "too_many_rooms", "room_expired", "unavailable", "silenced", "too_many_seeks", "internal",
};

}  // namespace

std::string_view to_string(Code code) { return kNames[static_cast<std::size_t>(code)]; }

std::optional<Code> code_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Code>(i);
  return std::nullopt;
}

Code from_engine(ErrorCode code) {
  // The engine's names are protocol names by design; anything unexpected is our fault.
  return code_from_string(mancala::to_string(code)).value_or(Code::internal);
}

}  // namespace mancala::protocol
