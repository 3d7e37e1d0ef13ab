#pragma once
// Error values shared by the engine, the protocol and the command line. The names are the
// error codes of the wire protocol, so a rule error travels to a client unchanged.
#include <stdexcept>
#include <string>
#include <string_view>

namespace mancala {

enum class ErrorCode {
  bad_request,     // input that is not well formed (e.g. tokens not separated by single spaces)
  unknown_game,    // a game id the engine does not know
  bad_option,      // an unknown option, a value out of range, contradictory options
  not_allowed,     // an action this game does not have (concede outside Coin Duel stage 3)
  game_over,       // any action after the game ended
  not_your_turn,   // a move from a seat that is not to move (or while nobody is)
  illegal_move,    // a token that is not a token of this game, or not legal at that point
  no_claim_window,  // a claim while no claim window is open
};

std::string_view to_string(ErrorCode code);

// Thrown where a failure has no useful partial result (creating a game, bad options).
// Moves report errors as values instead (see match.hpp).
class EngineError : public std::runtime_error {
 public:
  EngineError(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace mancala
