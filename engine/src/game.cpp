#include "mancala/game.hpp"

namespace mancala {

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::play: return "play";
    case Phase::plex: return "plex";
    case Phase::over: return "over";
  }
  return "over";
}

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::bad_request: return "bad_request";
    case ErrorCode::unknown_game: return "unknown_game";
    case ErrorCode::bad_option: return "bad_option";
    case ErrorCode::not_allowed: return "not_allowed";
    case ErrorCode::game_over: return "game_over";
    case ErrorCode::not_your_turn: return "not_your_turn";
    case ErrorCode::illegal_move: return "illegal_move";
    case ErrorCode::no_plex_window: return "no_plex_window";
  }
  return "internal";
}

void Game::concede(Seat, Events*) {
  throw EngineError(ErrorCode::not_allowed,
                    "conceding a round exists only in Coin Duel stage 3; use resign to give up");
}

void Game::resolve_plex(std::optional<Seat>, Events*) {
  throw EngineError(ErrorCode::no_plex_window, "this game has no Plex! race");
}

void two_seat_outcome(Seat winner, std::span<double> out) {
  for (Seat p = 0; p < 2; ++p)
    out[static_cast<std::size_t>(p)] = winner == kNoSeat ? 0.5 : p == winner ? 1.0 : 0.0;
}

}  // namespace mancala
