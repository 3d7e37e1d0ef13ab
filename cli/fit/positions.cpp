// Positions of games played as the search's playouts play (each decision at random or greedily,
// half and half; Plex! races to a random seat), one JSON line each: the seat to move, the
// position vector of notation.md, and how the game ended for each seat (its outcome and its
// material). scripts/fit_worth.py fits a game's expected_material to them.
// Usage: mancala-positions GAME GAMES [OPTIONS_JSON] [SEED] > positions.jsonl
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mancala/match.hpp"
#include "src/search.hpp"

int main(int argc, char** argv) {
  using namespace mancala;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s GAME GAMES [OPTIONS_JSON] [SEED]\n", argv[0]);
    return 2;
  }
  const std::string game_id = argv[1];
  const long games = std::atol(argv[2]);
  const Json options = Json::parse(argc > 3 ? argv[3] : "{}");
  const std::uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  Random rng(seed);
  DecisionList legal;
  for (long g = 0; g < games; ++g) {
    auto game = Match::create(game_id, options, seed * 1'000'003ULL + static_cast<std::uint64_t>(g)).game().clone();
    bots::Policy policy(*game);
    std::vector<std::string> positions;
    while (game->phase() != Phase::over) {
      if (game->phase() == Phase::claim) {
        bots::resolve_plex_randomly(*game, rng);
        continue;
      }
      positions.push_back("{\"to_move\":" + std::to_string(game->to_move()) +
                          ",\"position\":" + Json(game->position()).dump());
      game->legal(legal);
      const bool at_random = rng.below(2) == 0;
      game->apply(at_random ? legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))]
                            : policy.greedy(*game, legal, rng),
                  nullptr);
    }
    const auto seats = static_cast<std::size_t>(game->players());
    std::vector<double> outcome(seats);
    std::vector<int> material(seats);
    game->outcome(outcome);
    game->material(material);
    const std::string end = ",\"outcome\":" + Json(outcome).dump() + ",\"material\":" + Json(material).dump() + "}";
    for (const std::string& position : positions) std::printf("%s%s\n", position.c_str(), end.c_str());
  }
}
