// Analysis of positions and games (mancala/analysis.hpp): constructed Cups positions whose best
// move is known, endgames the solver proves (checked against an exhaustive search), a bad move
// marked as a blunder, evaluations that sum to 1 in every game, the marks' thresholds and the
// accuracy formula, determinism for a seed, and stopping early.
#include <numeric>

#include "games/cups.hpp"
#include "mancala/analysis.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using analysis::Budget;
using analysis::GameStep;
using analysis::Mark;
using std::chrono::milliseconds;
using testing::solve;

const Budget kSmall{400, milliseconds(0)};

// Cups with four cups a side; seat 0 to move. r2 lands in its empty cup 2 and takes the five
// beans opposite, and then nobody can move: 5 against 3. r1 takes nothing, and seat 0 ends with
// an empty pot.
Cups capture_position() {
  const std::vector<int> position{0, 0, 0, 0, 0, 2,   // seat 0: cups 1-4, pot, reserve
                                  0, 0, 5, 0, 3, 0};  // seat 1
  return Cups::from_position(Json::object(), position, 0);
}

std::shared_ptr<const Game> after(const Game& game, const std::string& move) {
  auto next = game.clone();
  EXPECT_TRUE(testing::play(*next, move));
  return next;
}

double seat_value(const std::vector<double>& values, Seat seat) {
  return values[static_cast<std::size_t>(seat)];
}

TEST(Analysis, FindsTheForcedCaptureAndProvesTheWin) {
  const Cups game = capture_position();
  ASSERT_EQ(testing::legal_tokens(game), (std::vector<std::string>{"r1", "r2"}));
  int budget = 1'000;
  ASSERT_EQ(seat_value(*solve(*after(game, "r2"), budget), 0), 1.0) << "r2 wins";
  ASSERT_EQ(seat_value(*solve(*after(game, "r1"), budget), 0), 0.0) << "r1 loses";

  const auto result = analysis::analyse_position(game, kSmall, 1);
  EXPECT_EQ(result.to_move, 0);
  EXPECT_EQ(result.best, "r2");
  EXPECT_TRUE(result.exact);
  EXPECT_EQ(result.eval, (std::vector<double>{1.0, 0.0}));
}

// A position where the mover wins at once among other decisions that do not: random Cups games
// of three cups a side are searched for one, and the analysis must show a winning decision.
TEST(Analysis, TakesAnImmediateWin) {
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40 && checked < 5; ++seed) {
    Match m = Match::create("cups", Json::parse(R"({"cups_per_side":3})"), seed);
    Random rng(seed);
    while (!m.over()) {
      const Game& game = m.game();
      const auto winning = testing::winning_tokens(game);
      if (!winning.empty() && winning.size() < testing::legal_tokens(game).size()) {
        const auto result = analysis::analyse_position(game, kSmall, seed);
        EXPECT_NE(std::find(winning.begin(), winning.end(), *result.best), winning.end())
            << "seed " << seed << ": showed " << *result.best;
        EXPECT_TRUE(result.exact);
        EXPECT_EQ(seat_value(result.eval, game.to_move()), 1.0);
        ++checked;
      }
      testing::play_random_token(m, rng);
    }
  }
  EXPECT_GE(checked, 5) << "too few positions with an immediate win to test";
}

// Endgames an exhaustive search settles: the analysis proves them (exact), its evaluation is the
// exact value and its best move keeps it.
TEST(Analysis, ProvesSmallEndgamesExactly) {
  int proven = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Match m = Match::create("cups", Json::parse(R"({"cups_per_side":3})"), seed);
    const auto exact = testing::play_until_solvable(m, seed, 20'000);
    if (!exact || testing::legal_tokens(m.game()).size() < 2) continue;
    const auto result = analysis::analyse_position(m.game(), analysis::default_budget(2), seed);
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_TRUE(result.exact);
    EXPECT_EQ(result.eval, *exact);
    int budget = 20'000;
    const auto kept = solve(*after(m.game(), *result.best), budget);
    const Seat mover = m.game().to_move();
    EXPECT_EQ(seat_value(*kept, mover), seat_value(*exact, mover));
    ++proven;
  }
  EXPECT_GE(proven, 20);
}

TEST(Analysis, MarksTheMoveThatThrowsTheGameAwayAsABlunder) {
  const Cups game = capture_position();
  const std::vector<GameStep> bad{{std::make_shared<Cups>(game), "r1"}, {after(game, "r1"), std::nullopt}};
  const auto analysed = analysis::analyse_game(bad, kSmall, 1);
  ASSERT_EQ(analysed.plies.size(), 2u);
  EXPECT_TRUE(analysed.complete);
  const auto& ply = analysed.plies[0];
  EXPECT_TRUE(ply.played_is_move);
  EXPECT_EQ(ply.drop, 1.0);
  EXPECT_EQ(ply.mark, Mark::blunder);
  EXPECT_EQ(analysed.accuracy[0], 0.0);
  EXPECT_FALSE(analysed.accuracy[1]) << "seat 1 made no move";

  const std::vector<GameStep> good{{std::make_shared<Cups>(game), "r2"}, {after(game, "r2"), std::nullopt}};
  const auto best = analysis::analyse_game(good, kSmall, 1);
  EXPECT_EQ(best.plies[0].mark, Mark::none);
  EXPECT_EQ(best.plies[0].drop, 0.0);
  EXPECT_NEAR(*best.accuracy[0], 100.0, 1e-3);
  // The game is over after r2: its value is the outcome, exact, and nobody has a move.
  const auto& end = best.plies[1].position;
  EXPECT_EQ(end.to_move, kNoSeat);
  EXPECT_FALSE(end.best);
  EXPECT_TRUE(end.exact);
  EXPECT_EQ(end.eval, (std::vector<double>{1.0, 0.0}));
}

TEST(Analysis, MarksAndAccuracyFollowTheDocumentedFormulas) {
  EXPECT_EQ(analysis::mark_for_drop(0.0), Mark::none);
  EXPECT_EQ(analysis::mark_for_drop(0.099), Mark::none);
  EXPECT_EQ(analysis::mark_for_drop(0.10), Mark::inaccuracy);
  EXPECT_EQ(analysis::mark_for_drop(0.2), Mark::mistake);
  EXPECT_EQ(analysis::mark_for_drop(0.3), Mark::blunder);
  EXPECT_EQ(analysis::mark_for_drop(1.0), Mark::blunder);
  EXPECT_EQ(analysis::to_string(Mark::mistake), "mistake");
  EXPECT_NEAR(analysis::move_accuracy(0), 100.0, 1e-3);
  EXPECT_NEAR(analysis::move_accuracy(0.1), 103.1668 * std::exp(-0.4354) - 3.1669, 1e-9);
  EXPECT_EQ(analysis::move_accuracy(1.0), 0.0);
  EXPECT_GT(analysis::move_accuracy(0.05), analysis::move_accuracy(0.1));
}

struct Variant {
  const char* game;
  const char* options;
};

// The positions of a random game of `v` (Plex! windows settled by a random eligible seat), at
// most `limit` of them, each with the line that left it.
std::vector<GameStep> random_game(const Variant& v, std::uint64_t seed, std::size_t limit) {
  Match m = Match::create(v.game, Json::parse(v.options), seed);
  Random rng(seed);
  std::vector<GameStep> steps{{m.game().clone(), std::nullopt}};
  while (!m.over() && steps.size() < limit) {
    if (m.game().phase() == Phase::claim) {
      Seat claimant = 0;
      while (!m.claim_window()->may_claim(claimant)) ++claimant;
      EXPECT_TRUE(m.claim(claimant).ok());
      steps.back().played = "plex " + std::to_string(claimant);
    } else {
      const auto legal = m.legal_tokens();
      const std::string token = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      EXPECT_TRUE(m.play(token).ok());
      steps.back().played = token;
    }
    steps.push_back({m.game().clone(), std::nullopt});
  }
  return steps;
}

// In every game: one share per seat, each in [0, 1], summing to 1; a best move that is a whole
// legal turn of the seat to move wherever someone chooses, and none where nobody does.
TEST(Analysis, EvaluationsAreSharesAndBestMovesAreWholeLegalTurns) {
  for (const Variant& v : {Variant{"cups", "{}"}, Variant{"coin_duel", R"({"stage":3})"},
                           Variant{"oanquan", "{}"}, Variant{"duovallis", "{}"},
                           Variant{"njaka", R"({"players":3})"},
                           Variant{"njaka", R"({"players":4,"plex_mode":"race"})"}}) {
    SCOPED_TRACE(std::string(v.game) + " " + v.options);
    const auto steps = random_game(v, 3, 40);
    const auto analysed = analysis::analyse_game(steps, Budget{150, milliseconds(0)}, 3);
    ASSERT_EQ(analysed.plies.size(), steps.size());
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const Game& game = *steps[k].position;
      const auto& position = analysed.plies[k].position;
      ASSERT_EQ(position.eval.size(), static_cast<std::size_t>(game.players()));
      for (double share : position.eval) {
        EXPECT_GE(share, 0.0);
        EXPECT_LE(share, 1.0);
      }
      EXPECT_NEAR(std::accumulate(position.eval.begin(), position.eval.end(), 0.0), 1.0, 1e-9);
      EXPECT_EQ(position.to_move, game.to_move());
      EXPECT_EQ(position.best.has_value(), game.phase() == Phase::play) << "ply " << k;
      if (!position.best) continue;
      auto turn = game.clone();
      ASSERT_TRUE(testing::play(*turn, *position.best)) << *position.best;
      EXPECT_TRUE(turn->phase() != Phase::play || !turn->mid_turn() || turn->to_move() != game.to_move())
          << "'" << *position.best << "' leaves the turn half played";
    }
  }
}

TEST(Analysis, ClaimWindowsAreValuedWithoutABestMove) {
  int windows = 0;
  for (std::uint64_t seed = 1; seed <= 10 && windows == 0; ++seed) {
    const auto steps = random_game(Variant{"njaka", R"({"players":3,"plex_mode":"race"})"}, seed, 400);
    for (const auto& step : steps) {
      if (step.position->phase() != Phase::claim) continue;
      const auto result = analysis::analyse_position(*step.position, Budget{60, milliseconds(0)}, seed);
      EXPECT_EQ(result.to_move, kNoSeat);
      EXPECT_FALSE(result.best);
      EXPECT_NEAR(std::accumulate(result.eval.begin(), result.eval.end(), 0.0), 1.0, 1e-9);
      ++windows;
    }
  }
  EXPECT_GT(windows, 0) << "no Plex! window in the games searched";
}

TEST(Analysis, SameSeedAndBudgetGiveTheSameAnalysis) {
  const auto steps = random_game(Variant{"cups", "{}"}, 5, 12);
  const auto first = analysis::analyse_game(steps, Budget{800, milliseconds(0)}, 9);
  const auto second = analysis::analyse_game(steps, Budget{800, milliseconds(0)}, 9);
  ASSERT_EQ(first.plies.size(), second.plies.size());
  for (std::size_t k = 0; k < first.plies.size(); ++k) {
    EXPECT_EQ(first.plies[k].position.eval, second.plies[k].position.eval) << "ply " << k;
    EXPECT_EQ(first.plies[k].position.best, second.plies[k].position.best) << "ply " << k;
    EXPECT_EQ(first.plies[k].mark, second.plies[k].mark) << "ply " << k;
  }
  EXPECT_EQ(first.accuracy, second.accuracy);
}

// The server analyses a game one position at a time, in separate jobs, and judges what is
// stored: the same figures as the whole game at once.
TEST(Analysis, OnePositionAtATimeGivesTheWholeGamesFigures) {
  const auto steps = random_game(Variant{"cups", "{}"}, 5, 12);
  const auto whole = analysis::analyse_game(steps, kSmall, 9);
  std::vector<analysis::PlyAnalysis> plies;
  for (std::size_t k = 0; k < steps.size(); ++k) plies.push_back(analysis::analyse_step(steps, k, kSmall, 9));
  const auto judged = analysis::judge_plies(plies, 2, true);
  ASSERT_EQ(judged.plies.size(), whole.plies.size());
  for (std::size_t k = 0; k < whole.plies.size(); ++k) {
    EXPECT_EQ(judged.plies[k].position.eval, whole.plies[k].position.eval) << "ply " << k;
    EXPECT_EQ(judged.plies[k].drop, whole.plies[k].drop) << "ply " << k;
    EXPECT_EQ(judged.plies[k].mark, whole.plies[k].mark) << "ply " << k;
  }
  EXPECT_EQ(judged.accuracy, whole.accuracy);
  plies.resize(4);
  const auto partial = analysis::judge_plies(plies, 2, false);
  EXPECT_FALSE(partial.plies.back().played_is_move) << "the last one done waits for the next position";
  EXPECT_EQ(partial.plies[2].mark, whole.plies[2].mark);
}

TEST(Analysis, ProgressIsReportedAndCanStopTheAnalysis) {
  const auto steps = random_game(Variant{"cups", "{}"}, 6, 10);
  std::vector<std::size_t> seen;
  const auto stopped = analysis::analyse_game(steps, kSmall, 1, [&](std::size_t k, std::size_t n) {
    EXPECT_EQ(n, steps.size());
    seen.push_back(k);
    return k < 3;
  });
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_FALSE(stopped.complete);
  ASSERT_EQ(stopped.plies.size(), 3u);
  EXPECT_FALSE(stopped.plies.back().played_is_move) << "a move with no position after it is not judged";
}

TEST(Analysis, RejectsABudgetWithoutPlayouts) {
  EXPECT_THROW(analysis::analyse_position(capture_position(), Budget{0, milliseconds(0)}, 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace mancala
