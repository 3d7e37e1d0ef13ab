// Positions of Cups games played as the search's playouts play (each decision at random or
// greedily, half and half), one line each: the mover, each seat's pot, reserve and cups, and
// the game's final pots. scripts/fit_cups_worth.py fits Cups::expected_material's weights to
// them. Usage: mancala-cups-positions GAMES [CUPS_PER_SIDE] [SEED] > positions.txt
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "games/cups.hpp"
#include "mancala/match.hpp"
#include "src/search.hpp"

int main(int argc, char** argv) {
  using namespace mancala;
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GAMES [CUPS_PER_SIDE] [SEED]\n", argv[0]);
    return 2;
  }
  const long games = std::atol(argv[1]);
  const int cups = argc > 2 ? std::atoi(argv[2]) : 4;
  const std::uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  const Json options = Json::parse("{\"cups_per_side\":" + std::to_string(cups) + "}");
  Random rng(seed);
  DecisionList legal;
  for (long g = 0; g < games; ++g) {
    auto game = Match::create("cups", options, seed * 1'000'003ULL + static_cast<std::uint64_t>(g)).game().clone();
    const auto& state = dynamic_cast<const Cups&>(*game).state();
    bots::Policy policy(*game);
    std::vector<std::string> lines;
    while (game->phase() == Phase::play) {
      std::string line = std::to_string(state.to_move);
      for (std::size_t p = 0; p < 2; ++p) {
        line += ' ' + std::to_string(state.pot[p]) + ' ' + std::to_string(state.reserve[p]);
        for (int i = 0; i < cups; ++i) line += ' ' + std::to_string(state.cups[p][static_cast<std::size_t>(i)]);
      }
      lines.push_back(std::move(line));
      game->legal(legal);
      const bool at_random = rng.below(2) == 0;
      game->apply(at_random ? legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))]
                            : policy.greedy(*game, legal, rng),
                  nullptr);
    }
    for (const std::string& line : lines) std::printf("%s %d %d\n", line.c_str(), state.pot[0], state.pot[1]);
  }
}
