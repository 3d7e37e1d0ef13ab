#include "mancala/registry.hpp"

#include <vector>

#include "games/coin_duel.hpp"
#include "games/cups.hpp"
#include "games/duovallis.hpp"
#include "games/njaka.hpp"
#include "games/oanquan.hpp"

namespace mancala {

std::span<const GameType> game_types() {
  static const std::vector<GameType> types = {
      cups_type(),
      coin_duel_type(),
      oanquan_type(),
      njaka_type(),
      duovallis_type(),
  };
  return types;
}

const GameType& find_game_type(std::string_view id) {
  for (const auto& type : game_types())
    if (type.id == id) return type;
  std::string known;
  for (const auto& type : game_types()) known += (known.empty() ? "" : ", ") + std::string(type.id);
  throw EngineError(ErrorCode::unknown_game,
                    "unknown game '" + std::string(id) + "' (games: " + known + ")");
}

}  // namespace mancala
