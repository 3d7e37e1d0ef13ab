// The computer players (bot.hpp) and the per-seat views they rely on (Game::outcome, material,
// expected_material): every level plays legal full turns in every game, seeded choices repeat,
// the tree survives a whole game, level 2 beats level 1, a search takes an immediate win, the
// outcome agrees with result() over random games of every game and option set, the games'
// expected material foresees the winner better than their material; and the search's implicit minimax
// backups (max-n over the children) and solver (exact values of small Cups endgames).
#include <optional>
#include <set>

#include "mancala/bot.hpp"
#include "src/search.hpp"
#include "test_support.hpp"

namespace mancala {
namespace {

using testing::outcome_of;
using testing::solve;
using bots::Bot;
using bots::Budget;
using std::chrono::milliseconds;

struct Variant {
  const char* game;
  const char* options;
};

// Every game, and the options that change what a player must handle: board sizes, coin stages
// (multi-decision turns, rounds), single rounds and chains, 2-4 seats, Plex! races and the
// advanced layout.
const Variant kVariants[] = {
    {"cups", "{}"},
    {"cups", R"({"cups_per_side":7})"},
    {"coin_duel", R"({"stage":1})"},
    {"coin_duel", R"({"stage":2})"},
    {"coin_duel", R"({"stage":3})"},
    {"oanquan", "{}"},
    {"oanquan", R"({"match_mode":"single","chain_captures":false})"},
    {"njaka", R"({"players":2})"},
    {"njaka", R"({"players":2,"advanced":true})"},
    {"njaka", R"({"players":3})"},
    {"njaka", R"({"players":4,"plex_mode":"mover"})"},
    {"duovallis", "{}"},
};

std::string label(const Variant& v) { return std::string(v.game) + " " + v.options; }

Match create(const Variant& v, std::uint64_t seed) {
  return Match::create(v.game, Json::parse(v.options), seed);
}

// A Plex! window settled as a race a random seat still in the match wins.
void settle_plex(Match& m, Random& rng) {
  std::vector<Seat> seats;
  for (Seat q = 0; q < m.game().players(); ++q)
    if (m.claim_window()->may_claim(q)) seats.push_back(q);
  ASSERT_TRUE(m.claim(seats[rng.below(static_cast<std::uint32_t>(seats.size()))]).ok());
}

// Plays a whole game with one bot per seat; every choice must be accepted as one full turn.
void play_bots(Match& m, std::vector<Bot>& seats, std::uint64_t seed) {
  Random rng(seed);
  while (!m.over()) {
    if (m.game().phase() == Phase::claim) {
      ASSERT_NO_FATAL_FAILURE(settle_plex(m, rng));
      continue;
    }
    const Seat mover = m.game().to_move();
    const bots::Choice choice = seats[static_cast<std::size_t>(mover)].choose(m.game());
    ASSERT_FALSE(choice.decisions.empty());
    const Outcome outcome = m.play(choice.tokens);
    ASSERT_TRUE(outcome.ok()) << "'" << choice.tokens << "': " << outcome.error->message;
    ASSERT_TRUE(m.pending().empty()) << "'" << choice.tokens << "' left the turn half played";
  }
}

// The outcome result() implies: the winner 1, a loser 0, a draw 1/2 each; with 3-4 seats, the
// share of the other seats ranked below (result's `ranking` groups; a shared group counts half).
std::vector<double> expected_outcome(const Json& result, int players) {
  std::vector<double> out(static_cast<std::size_t>(players), 0.5);
  if (result.contains("ranking")) {
    std::vector<int> group(static_cast<std::size_t>(players));
    for (std::size_t g = 0; g < result["ranking"].size(); ++g)
      for (const Json& seat : result["ranking"][g]) group[seat.get<std::size_t>()] = static_cast<int>(g);
    for (int p = 0; p < players; ++p) {
      double ahead = 0;
      for (int q = 0; q < players; ++q)
        if (q != p) {
          const int a = group[static_cast<std::size_t>(p)], b = group[static_cast<std::size_t>(q)];
          ahead += a < b ? 1.0 : a == b ? 0.5 : 0.0;
        }
      out[static_cast<std::size_t>(p)] = ahead / (players - 1);
    }
    return out;
  }
  if (!result["winner"].is_null())
    for (int p = 0; p < players; ++p) out[static_cast<std::size_t>(p)] = p == result["winner"] ? 1.0 : 0.0;
  return out;
}

// --- the per-seat views ------------------------------------------------------------------

TEST(BotViews, OutcomeAgreesWithResultOverRandomGames) {
  // Random games, some ended by a resignation or settled Plex! races, in every variant and in
  // options that end matches by other rules (max rounds, the stall limit).
  std::vector<Variant> variants(std::begin(kVariants), std::end(kVariants));
  variants.push_back({"oanquan", R"({"max_rounds":2})"});
  variants.push_back({"njaka", R"({"players":3,"max_rounds":1})"});
  variants.push_back({"njaka", R"({"players":4,"max_rounds":2})"});
  variants.push_back({"duovallis", R"({"stall_limit":50})"});
  for (const Variant& v : variants) {
    std::set<std::string> winners;
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
      SCOPED_TRACE(label(v) + " seed " + std::to_string(seed));
      Match m = create(v, seed);
      testing::RandomPlay how;
      how.step = [](Match& match, Random& rng) {
        if (match.game().phase() == Phase::claim) return settle_plex(match, rng);
        if (rng.below(400) == 0 && !match.game().mid_turn()) {
          ASSERT_TRUE(match.resign(match.game().to_move()).ok());
          return;
        }
        testing::play_random_token(match, rng);
      };
      ASSERT_NO_FATAL_FAILURE(testing::play_randomly(m, seed, how));
      const Json result = m.game().result();
      EXPECT_EQ(outcome_of(m.game()), expected_outcome(result, m.game().players()));
      winners.insert(result["winner"].dump());
      std::vector<int> material(static_cast<std::size_t>(m.game().players()));
      m.game().material(material);
    }
    EXPECT_GE(winners.size(), 2u) << label(v) << ": the games should not all end alike";
  }
}

// How often a view of each position (the seat ahead in it is the winner) foresees who wins, in
// games played as the search's playouts play (half at random, half greedily), with seeds the
// estimates were not fitted on; a level view counts half. Games ending in a draw are left out.
struct Foresight {
  double by_estimate = 0, by_material = 0;
  int positions = 0;
  double by_estimate_when_level = 0;  // over the positions whose material is level
  int level = 0;
};
Foresight foresight(const Variant& v) {
  Foresight out;
  for (std::uint64_t seed = 1'000; seed < 1'400; ++seed) {
    auto game = create(v, seed).game().clone();
    bots::Policy policy(*game);
    Random rng(seed);
    std::vector<std::array<double, 2>> estimates, materials;
    DecisionList legal;
    while (game->phase() == Phase::play) {
      std::array<double, 2> estimate{};
      std::array<int, 2> material{};
      game->expected_material(estimate);
      game->material(material);
      estimates.push_back(estimate);
      materials.push_back({static_cast<double>(material[0]), static_cast<double>(material[1])});
      game->legal(legal);
      game->apply(rng.below(2) == 0 ? legal[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal.size())))]
                                    : policy.greedy(*game, legal, rng),
                  nullptr);
    }
    std::array<double, 2> outcome{};
    game->outcome(outcome);
    if (outcome[0] == 0.5) continue;
    const auto foresees = [&](const std::array<double, 2>& view) {
      if (view[0] == view[1]) return 0.5;
      return (view[0] > view[1]) == (outcome[0] == 1.0) ? 1.0 : 0.0;
    };
    for (std::size_t i = 0; i < estimates.size(); ++i) {
      out.by_estimate += foresees(estimates[i]);
      out.by_material += foresees(materials[i]);
      ++out.positions;
      if (materials[i][0] == materials[i][1]) {
        out.by_estimate_when_level += foresees(estimates[i]);
        ++out.level;
      }
    }
  }
  out.by_estimate /= out.positions;
  out.by_material /= out.positions;
  out.by_estimate_when_level /= out.level;
  return out;
}

// The games with an estimate of their own must foresee the winner with it at least as well as
// with the material alone, and, where the material is level (Cups before any bean reaches a pot;
// Duovallis whenever the stones balance), clearly better than a coin: Cups, whose material (the
// pots) fills late, by where the beans lie; Duovallis, lost by the first player without a move,
// by the playable holes too. (Fixed seeds: 1,500 to 2,600 level positions a game.)
TEST(BotViews, ExpectedMaterialForeseesTheWinnerBetterThanMaterial) {
  for (const auto& [variant, when_level] : {std::pair{Variant{"cups", "{}"}, 0.57},
                                            std::pair{Variant{"cups", R"({"cups_per_side":6})"}, 0.57},
                                            std::pair{Variant{"duovallis", "{}"}, 0.53}}) {
    SCOPED_TRACE(label(variant));
    const Foresight seen = foresight(variant);
    ASSERT_GT(seen.level, 1'000);
    EXPECT_GE(seen.by_estimate, seen.by_material);
    EXPECT_GT(seen.by_estimate_when_level, when_level) << "of " << seen.level << " level positions";
  }
}

TEST(BotViews, AssignCopiesAGame) {
  for (const Variant& v : kVariants) {
    Match m = create(v, 3);
    Random rng(3);
    for (int i = 0; i < 25 && !m.over(); ++i) {
      if (m.game().phase() == Phase::claim) settle_plex(m, rng);
      else testing::play_random_token(m, rng);
    }
    auto copy = Match::create(v.game, Json::parse(v.options), 9).game().clone();
    copy->assign(m.game());
    EXPECT_EQ(copy->position(), m.game().position()) << label(v);
    EXPECT_EQ(copy->board(), m.game().board()) << label(v);
  }
}

// --- the players -------------------------------------------------------------------------

TEST(Bot, EveryLevelPlaysWholeGamesOfLegalFullTurns) {
  // Small budgets: legality, not strength. The bots keep their trees for the whole game.
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(label(v));
    Match m = create(v, 11);
    std::vector<Bot> seats;
    const int levels[] = {5, 3, 4, 2};
    for (Seat q = 0; q < m.game().players(); ++q)
      seats.emplace_back(levels[q], 100 + static_cast<std::uint64_t>(q), Budget{40, milliseconds(0)});
    ASSERT_NO_FATAL_FAILURE(play_bots(m, seats, 11));
  }
}

TEST(Bot, LevelsOneAndTwoPlayWholeGames) {
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(label(v));
    Match m = create(v, 12);
    std::vector<Bot> seats;
    for (Seat q = 0; q < m.game().players(); ++q) seats.emplace_back(1 + q % 2, 7 + static_cast<std::uint64_t>(q));
    ASSERT_NO_FATAL_FAILURE(play_bots(m, seats, 12));
  }
}

TEST(Bot, SameSeedAndBudgetGiveTheSameChoice) {
  for (const Variant& v : kVariants) {
    Match m = create(v, 5);
    Random rng(5);
    for (int i = 0; i < 12 && !m.over(); ++i) {
      if (m.game().phase() == Phase::claim) settle_plex(m, rng);
      else testing::play_random_token(m, rng);
    }
    if (m.over() || m.game().phase() != Phase::play) continue;
    for (int level = bots::kMinLevel; level <= bots::kMaxLevel; ++level) {
      const Budget budget{150, milliseconds(0)};
      const bots::Choice first = Bot(level, 42, budget).choose(m.game());
      const bots::Choice second = Bot(level, 42, budget).choose(m.game());
      EXPECT_EQ(first.tokens, second.tokens) << label(v) << " level " << level;
      EXPECT_EQ(first.playouts, second.playouts) << label(v) << " level " << level;
    }
  }
}

TEST(Bot, KeepsItsTreeBetweenChoices) {
  // After its own move and the reply, a bot finds the new position in its tree, so it needs
  // fewer fresh simulations than its budget for at least some choices.
  Match m = Match::create("cups", Json::object(), 1);
  Bot searcher(5, 1, Budget{2'000, milliseconds(0)});
  Bot other(2, 2);
  int reused = 0;
  while (!m.over()) {
    Bot& bot = m.game().to_move() == 0 ? searcher : other;
    const bots::Choice choice = bot.choose(m.game());
    if (&bot == &searcher && choice.playouts > 0 && choice.playouts < 2'000) ++reused;
    ASSERT_TRUE(m.play(choice.tokens).ok());
  }
  EXPECT_GT(reused, 0);
}

TEST(Bot, WallClockCapBoundsAChoice) {
  Match m = Match::create("coin_duel", Json::parse(R"({"stage":3})"), 1);
  Bot bot(5, 1, Budget{1'000'000'000, milliseconds(60)});
  const bots::Choice choice = bot.choose(m.game());
  EXPECT_LT(choice.think_ms, 600.0);
  EXPECT_GT(choice.playouts, 0);
  EXPECT_TRUE(m.play(choice.tokens).ok());
}

TEST(Bot, BudgetShareScalesTheSearch) {
  Match m = Match::create("cups", Json::object(), 1);
  const Budget budget{2'000, milliseconds(0)};
  const bots::Choice whole = Bot(5, 9, budget).choose(m.game());
  const bots::Choice tenth = Bot(5, 9, budget).choose(m.game(), 0.1);
  EXPECT_GE(whole.playouts, 2'000);
  EXPECT_GT(tenth.playouts, 0);
  EXPECT_LT(tenth.playouts, whole.playouts / 4);
  EXPECT_EQ(Bot(5, 9, budget).choose(m.game(), 0.1).tokens, tenth.tokens);  // still deterministic
  EXPECT_TRUE(m.play(tenth.tokens).ok());
  EXPECT_THROW(Bot(5, 9, budget).choose(m.game(), 0.0), std::invalid_argument);
  EXPECT_THROW(Bot(5, 9, budget).choose(m.game(), 1.5), std::invalid_argument);
}

TEST(Bot, LevelsThreeAndFourSearchLessWithMoreSeats) {
  // A bot made without a budget takes its level's budget for the game it is asked about.
  for (const int level : {3, 4}) {
    const Match two = Match::create("njaka", Json::parse(R"({"players":2})"), 1);
    const Match four = Match::create("njaka", Json::parse(R"({"players":4})"), 1);
    const bots::Choice in_two = Bot(level, 1).choose(two.game());
    const bots::Choice in_four = Bot(level, 1).choose(four.game());
    EXPECT_EQ(in_two.playouts, bots::default_budget(level, 2).playouts) << level;
    EXPECT_EQ(in_four.playouts, bots::default_budget(level, 4).playouts) << level;
    EXPECT_LT(in_four.playouts, in_two.playouts) << level;
  }
  EXPECT_EQ(bots::default_budget(5, 4).playouts, bots::default_budget(5, 2).playouts);
}

TEST(Bot, PlainUctPlaysLegalTurns) {
  Match m = Match::create("oanquan", Json::object(), 1);
  Bot uct = Bot::plain_uct(3, Budget{50, milliseconds(0)});
  EXPECT_EQ(uct.level(), 0);
  for (int i = 0; i < 6 && !m.over(); ++i) ASSERT_TRUE(m.play(uct.choose(m.game()).tokens).ok());
}

TEST(Bot, RejectsLevelsOutsideOneToFive) {
  EXPECT_THROW(Bot(0, 1), std::invalid_argument);
  EXPECT_THROW(Bot(6, 1), std::invalid_argument);
  EXPECT_EQ(bots::display_name(3), "Computer, level 3");
  EXPECT_GE(bots::claim_reaction(5, 0).count(), 300);
}

// Score of seat `a` playing `level_a` against `level_b` over seeded games, seats alternating.
double score_rate(const Variant& v, int level_a, int level_b, int games) {
  double score = 0;
  for (int g = 0; g < games; ++g) {
    Match m = create(v, 1000 + static_cast<std::uint64_t>(g));
    const Seat seat_a = g % m.game().players();
    std::vector<Bot> seats;
    for (Seat q = 0; q < m.game().players(); ++q)
      seats.emplace_back(q == seat_a ? level_a : level_b, 50 + static_cast<std::uint64_t>(g * 7 + q));
    play_bots(m, seats, static_cast<std::uint64_t>(g));
    score += outcome_of(m.game())[static_cast<std::size_t>(seat_a)];
  }
  return score / games;
}

TEST(Bot, LevelTwoBeatsLevelOne) {
  for (const Variant& v : {Variant{"cups", "{}"}, Variant{"coin_duel", R"({"stage":1})"},
                           Variant{"oanquan", "{}"}, Variant{"njaka", R"({"players":2})"},
                           Variant{"duovallis", "{}"}}) {
    EXPECT_GE(score_rate(v, 2, 1, 20), 0.75) << label(v);
  }
}

// Positions from random games where the mover has both a decision that wins at once and one
// that does not: a search, however small its budget, must take the win.
TEST(Bot, SearchTakesAnImmediateWin) {
  int checked = 0;
  for (const Variant& v : {Variant{"cups", R"({"cups_per_side":3})"}, Variant{"duovallis", "{}"},
                           Variant{"njaka", R"({"players":2,"plex_mode":"mover"})"}}) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      Match m = create(v, seed);
      Random rng(seed);
      while (!m.over()) {
        const Game& game = m.game();
        const auto winning = testing::winning_tokens(game);
        if (!winning.empty() && winning.size() < testing::legal_tokens(game).size()) {
          const std::string choice = Bot(3, seed, Budget{8, milliseconds(0)}).choose(game).tokens;
          EXPECT_NE(std::find(winning.begin(), winning.end(), choice), winning.end())
              << label(v) << " seed " << seed << ": chose " << choice;
          ++checked;
        }
        testing::play_random_token(m, rng);
      }
    }
  }
  EXPECT_GE(checked, 5) << "too few positions with an immediate win to test";
}

// Implicit minimax backups: after a search, every unexpanded node's heuristic is `evaluate` of
// its position, and every expanded node's is the vector of its child best for that child's
// mover (max-n), in two- and three-seat games; the root's is one of its children's.
TEST(Search, HeuristicValuesAreBackedUpMaxN) {
  for (const Variant& v : {Variant{"cups", "{}"}, Variant{"njaka", R"({"players":3})"},
                           Variant{"duovallis", "{}"}, Variant{"coin_duel", R"({"stage":3})"}}) {
    SCOPED_TRACE(label(v));
    Match m = create(v, 4);
    Random rng(4);
    for (int i = 0; i < 10 && !m.over(); ++i) {
      if (m.game().phase() == Phase::claim) settle_plex(m, rng);
      else testing::play_random_token(m, rng);
    }
    ASSERT_EQ(m.game().phase(), Phase::play);
    bots::Tree::Settings settings;
    settings.heuristic_weight = 0.4;
    bots::Tree tree(settings);
    tree.set_root(m.game(), false);
    tree.search(3'000, bots::Clock::time_point::max(), rng);
    const auto& nodes = tree.nodes();
    ASSERT_GT(nodes.size(), 100u);
    // Replays each node's decisions from the root, depth first.
    struct Frame {
      std::uint32_t index;
      std::unique_ptr<Game> state;
    };
    std::vector<Frame> stack;
    stack.push_back({0, m.game().clone()});
    int leaves = 0, inner = 0;
    while (!stack.empty()) {
      Frame frame = std::move(stack.back());
      stack.pop_back();
      const auto& node = nodes[frame.index];
      if (!node.expanded) {
        if (frame.index == 0) continue;
        bots::SeatValues values{};
        bots::evaluate(*frame.state, values);
        for (int q = 0; q < m.game().players(); ++q)
          EXPECT_EQ(node.heuristic[static_cast<std::size_t>(q)], static_cast<float>(values[static_cast<std::size_t>(q)]));
        ++leaves;
        continue;
      }
      const Seat mover = frame.state->to_move();
      float best = -1;
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c) {
        EXPECT_EQ(nodes[c].mover, mover);
        best = std::max(best, nodes[c].heuristic[static_cast<std::size_t>(mover)]);
        auto next = frame.state->clone();
        next->apply(nodes[c].decision, nullptr);
        stack.push_back({c, std::move(next)});
      }
      // The node's vector is a child's whose value for the mover is the highest.
      EXPECT_EQ(node.heuristic[static_cast<std::size_t>(mover)], best);
      bool found = false;
      for (std::uint32_t c = node.first; c < node.first + node.count; ++c)
        found = found || nodes[c].heuristic == node.heuristic;
      EXPECT_TRUE(found);
      ++inner;
    }
    EXPECT_GT(leaves, 50);
    EXPECT_GT(inner, 10);
  }
}

// MCTS-Solver: in Cups endgames small enough to solve exhaustively, a search with the solver
// proves the root, stops early, backs up the exact value and chooses a decision that keeps it.
TEST(Search, SolverProvesEndgamesAndChoosesAProvenBest) {
  int proven = 0, wins_kept = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Match m = Match::create("cups", Json::parse(R"({"cups_per_side":3})"), seed);
    Random rng(seed);
    // Random play until an exhaustive search of the rest is small.
    const auto exact = testing::play_until_solvable(m, seed, 20'000);
    if (!exact) continue;
    DecisionList legal;
    m.game().legal(legal);
    if (legal.size() < 2) continue;
    bots::Tree::Settings settings;
    settings.solver = true;
    bots::Tree tree(settings);
    tree.set_root(m.game(), false);
    const std::int64_t runs = tree.search(1'000'000, bots::Clock::time_point::max(), rng);
    const auto& root = tree.nodes()[0];
    ASSERT_TRUE(root.proven) << "seed " << seed << ": not proven after " << runs << " simulations";
    EXPECT_LT(runs, 1'000'000);
    const auto mover = static_cast<std::size_t>(m.game().to_move());
    for (std::size_t q = 0; q < 2; ++q) EXPECT_EQ(root.heuristic[q], static_cast<float>((*exact)[q])) << "seed " << seed;
    // The chosen decision is worth the root's exact value to the mover.
    auto next = m.game().clone();
    next->apply(tree.best(), nullptr);
    int budget = 20'000;
    const auto chosen = solve(*next, budget);
    ASSERT_TRUE(chosen);
    EXPECT_EQ((*chosen)[mover], (*exact)[mover]) << "seed " << seed;
    ++proven;
    if ((*exact)[mover] == 1.0) ++wins_kept;
  }
  EXPECT_GE(proven, 20);
  EXPECT_GE(wins_kept, 3);
}

// The endgame search the solver's leaves use agrees with the exhaustive search on every position
// both finish, gives up (nothing) past its budget, and refuses games of more than two seats.
TEST(Search, EndgameSolverAgreesWithExhaustiveSearch) {
  bots::EndgameSolver endgames;
  int compared = 0, given_up = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Match m = Match::create("cups", Json::parse(R"({"cups_per_side":3})"), seed);
    Random rng(seed);
    while (!m.over()) {
      int budget = 20'000;
      const auto exact = solve(m.game(), budget);
      const auto fast = endgames.solve(m.game(), 20'000);
      if (exact && fast) {
        EXPECT_EQ(*fast, (*exact)[0]) << "seed " << seed;
        ++compared;
      }
      if (!fast) {
        EXPECT_GE(endgames.positions(), 20'000) << "it gives up only past its budget";
        ++given_up;
      }
      testing::play_random_token(m, rng);
    }
  }
  EXPECT_GE(compared, 100);
  EXPECT_GE(given_up, 10);
  const Match njaka = Match::create("njaka", Json::parse(R"({"players":3})"), 1);
  EXPECT_FALSE(endgames.solve(njaka.game(), 1'000'000));
}

}  // namespace
}  // namespace mancala
