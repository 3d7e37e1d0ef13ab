#pragma once
// The games this engine knows, in the order of notation.md.
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "mancala/game.hpp"
#include "mancala/options.hpp"

namespace mancala {

struct GameType {
  std::string_view id;
  std::string_view name;
  int min_players;
  int max_players;
  std::span<const OptionSpec> options;
  // Seats for validated options (Njaka: `players`; every other game: 2).
  int (*players)(const Json& options);
  // Builds the opening state. Throws EngineError(bad_option) for contradictory options.
  std::unique_ptr<Game> (*create)(const GameSetup& setup);
  // What the game has beyond moves and resigning, declared once for whoever describes the game
  // without a position at hand (the web client learns them from /api/game-types): the special
  // actions its `special_actions()` may offer, and the names of the claim windows it may open.
  std::span<const SpecialAction> special_actions = {};
  std::span<const std::string_view> claim_windows = {};
};

std::span<const GameType> game_types();
// Throws EngineError(unknown_game), listing the known ids.
const GameType& find_game_type(std::string_view id);

inline int two_players(const Json&) { return 2; }

}  // namespace mancala
