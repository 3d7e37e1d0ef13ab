// The benchmark's reference kernel must play the same Cups as the engine, or its ratio means
// nothing: both are driven by the same random choices and compared after every move.
#include "cups_kernel.hpp"
#include "games/cups.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

TEST(CupsKernel, PlaysTheSameGamesAsTheEngine) {
  for (int n = 3; n <= 10; ++n) {
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
      Cups game(GameSetup{resolve_options(cups_type().options, {{"cups_per_side", n}}), 0});
      cli::CupsKernel kernel;
      kernel.reset(n);
      Random rng(seed);
      DecisionList list;
      int kernel_moves[32];
      while (game.phase() == Phase::play) {
        ASSERT_FALSE(kernel.over);
        game.legal(list);
        ASSERT_EQ(kernel.legal(kernel_moves), list.size());
        const int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())));
        game.apply(list[pick], nullptr);
        kernel.play(kernel_moves[pick]);
        const CupsState& s = game.state();
        for (int p = 0; p < 2; ++p) {
          ASSERT_EQ(s.pot[p], kernel.pot[p]);
          ASSERT_EQ(s.reserve[p], kernel.reserve[p]);
          for (int i = 0; i < n; ++i) ASSERT_EQ(s.cups[p][i], kernel.cups[p][i]);
        }
      }
      EXPECT_TRUE(kernel.over);
    }
  }
}

}  // namespace
}  // namespace mancala
