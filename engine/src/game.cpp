#include "mancala/game.hpp"

namespace mancala {

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::play: return "play";
    case Phase::claim: return "claim";  // Match::state names it after the open window
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
    // Named for the only game with a claim window (Njaka's Plex!), as clients know it.
    case ErrorCode::no_claim_window: return "no_plex_window";
  }
  return "internal";
}

void Game::special(std::string_view name, Seat, Events*) {
  throw EngineError(ErrorCode::not_allowed,
                    "this game has no action '" + std::string(name) + "'; use resign to give up");
}

void Game::resolve_claim(std::optional<Seat>, Events*) {
  throw EngineError(ErrorCode::no_claim_window, "no claim window is open");
}

void Game::expected_material(std::span<double> out) const {
  std::array<int, kMaxSeats> material_now{};
  material(std::span<int>(material_now.data(), out.size()));
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = material_now[q];
}

void two_seat_outcome(Seat winner, std::span<double> out) {
  for (Seat p = 0; p < 2; ++p)
    out[static_cast<std::size_t>(p)] = winner == kNoSeat ? 0.5 : p == winner ? 1.0 : 0.0;
}

}  // namespace mancala
