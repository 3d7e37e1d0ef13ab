// Analysis of positions and games (analysis.hpp) on the computer players' search tree.
#include "mancala/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "mancala/bot.hpp"
#include "mancala/match.hpp"
#include "src/search.hpp"

namespace mancala::analysis {
namespace {

using bots::Clock;
using bots::SeatValues;
using bots::Tree;

// Level 5's search with the MCTS-Solver on: the solver is what makes small endgames exact, and
// a proven root ends the search early, so exact positions are also the cheap ones. The leaf
// searches prove two-seat endgames depth first: with 2,000 positions each and 64 a simulation,
// 1,121 of 1,121 Cups positions that alpha-beta settles in 300-5,000 positions were proven
// within 20,000 simulations (without them, 20,000 simulations left many of 1,000-5,000 unproven).
Tree::Settings analysis_settings() {
  Tree::Settings settings = bots::search_settings(bots::kMaxLevel);
  settings.solver = true;
  settings.leaf_solve_positions = 2'000;
  settings.leaf_solve_share = 64;
  return settings;
}

// Search values and outcomes give each seat a score; with n seats the scores sum to n/2.
std::vector<double> shares(const SeatValues& scores, int players) {
  std::vector<double> out(static_cast<std::size_t>(players));
  for (std::size_t q = 0; q < out.size(); ++q) out[q] = scores[q] * 2 / players;
  return out;
}

std::uint64_t position_seed(std::uint64_t seed, std::size_t index) {
  return Random(seed ^ (0x9E3779B97F4A7C15ULL * (index + 1))).next();
}

PositionAnalysis finished(const Game& game) {
  SeatValues scores{};
  game.outcome(std::span<double>(scores.data(), static_cast<std::size_t>(game.players())));
  PositionAnalysis out;
  out.eval = shares(scores, game.players());
  out.exact = true;
  return out;
}

// Nobody chooses while a claim window is open: the first eligible seat to claim wins it, and
// nobody can say who will be quickest, so (as the search assumes in its playouts) each eligible
// seat is equally likely. The value is the mean over the ways it can be settled.
PositionAnalysis claim_window_open(const Game& game, const Budget& budget, std::uint64_t seed) {
  std::vector<std::optional<Seat>> settlements;
  const auto window = game.claim_window();
  for (Seat q = 0; q < game.players(); ++q)
    if (window && window->may_claim(q)) settlements.emplace_back(q);
  if (settlements.empty()) settlements.emplace_back(std::nullopt);
  const Budget each{std::max<std::int64_t>(1, budget.playouts / static_cast<std::int64_t>(settlements.size())),
                    budget.time / static_cast<int>(settlements.size())};
  PositionAnalysis out;
  out.eval.assign(static_cast<std::size_t>(game.players()), 0.0);
  out.exact = true;
  Random draws(seed);
  for (const auto& claimant : settlements) {
    auto settled = game.clone();
    settled->resolve_claim(claimant, nullptr);
    const PositionAnalysis part = analyse_position(*settled, each, draws.next());
    for (std::size_t q = 0; q < out.eval.size(); ++q)
      out.eval[q] += part.eval[q] / static_cast<double>(settlements.size());
    out.exact = out.exact && part.exact;
    out.playouts += part.playouts;
  }
  return out;
}

// The whole turn from the searched root, as Bot::choose completes one: each decision after the
// first tops up the subtree it inherits to a quarter of the budget.
void complete_turn(Tree& tree, Game& state, const Budget& budget, Clock::time_point deadline,
                   Random& rng, PositionAnalysis& out) {
  const Seat mover = state.to_move();
  const std::int64_t later = std::max<std::int64_t>(budget.playouts / 4, 1);
  DecisionList legal;
  do {
    state.legal(legal);
    if (legal.empty()) break;
    if (!out.best_decisions.empty() && legal.size() > 1) out.playouts += tree.search(later, deadline, rng);
    const Decision d = legal.size() == 1 ? legal[0] : tree.best();
    out.best_decisions.push_back(d);
    *out.best += (out.best->empty() ? "" : " ") + state.token(d);
    state.apply(d, nullptr);
    tree.advance(d);
  } while (state.phase() == Phase::play && state.mid_turn() && state.to_move() == mover);
}

PositionAnalysis searched(const Game& game, const Budget& budget, std::uint64_t seed) {
  Random rng(seed);
  const auto deadline = budget.time.count() > 0 ? Clock::now() + budget.time : Clock::time_point::max();
  Tree tree(analysis_settings());
  tree.set_root(game, false);
  PositionAnalysis out;
  out.to_move = game.to_move();
  out.playouts = tree.search(budget.playouts, deadline, rng);
  SeatValues scores{};
  tree.root_values(scores);
  out.eval = shares(scores, game.players());
  out.exact = tree.root_proven();
  out.best = "";
  auto state = game.clone();
  complete_turn(tree, *state, budget, deadline, rng, out);
  return out;
}

bool is_move_of_mover(const Game& game, const std::optional<std::string>& played) {
  if (!played || game.phase() != Phase::play) return false;
  const auto tokens = split_tokens(*played);
  return tokens && game.parse_token(tokens->front()).has_value();
}

// Marks and accuracy need the next position's value; they are filled in once it is known.
void judge_move(PlyAnalysis& ply, const PositionAnalysis& next) {
  if (!ply.played_is_move || ply.played == ply.position.best) return;
  const Seat mover = ply.position.to_move;
  ply.drop = std::max(0.0, expected_score(ply.position.eval, mover) - expected_score(next.eval, mover));
  ply.mark = mark_for_drop(ply.drop);
}

std::vector<std::optional<double>> accuracy_by_seat(const std::vector<PlyAnalysis>& plies, int players) {
  std::vector<double> sum(static_cast<std::size_t>(players), 0.0);
  std::vector<int> moves(static_cast<std::size_t>(players), 0);
  for (const PlyAnalysis& ply : plies) {
    if (!ply.played_is_move) continue;
    const auto seat = static_cast<std::size_t>(ply.position.to_move);
    sum[seat] += move_accuracy(ply.drop);
    ++moves[seat];
  }
  std::vector<std::optional<double>> out(static_cast<std::size_t>(players));
  for (std::size_t q = 0; q < out.size(); ++q)
    if (moves[q] > 0) out[q] = sum[q] / moves[q];
  return out;
}

}  // namespace

std::string_view to_string(Mark mark) {
  switch (mark) {
    case Mark::none: return "";
    case Mark::inaccuracy: return "inaccuracy";
    case Mark::mistake: return "mistake";
    case Mark::blunder: return "blunder";
  }
  return "";
}

std::optional<Mark> mark_from_name(std::string_view name) {
  for (Mark mark : {Mark::inaccuracy, Mark::mistake, Mark::blunder})
    if (to_string(mark) == name) return mark;
  return std::nullopt;
}

Mark mark_for_drop(double drop) {
  if (drop >= kBlunderDrop) return Mark::blunder;
  if (drop >= kMistakeDrop) return Mark::mistake;
  if (drop >= kInaccuracyDrop) return Mark::inaccuracy;
  return Mark::none;
}

double move_accuracy(double drop) {
  return std::clamp(103.1668 * std::exp(-0.04354 * (100 * drop)) - 3.1669, 0.0, 100.0);
}

// The goals: a Cups game of 60 moves in at most 10 s on one core, Njaka of four seats in at
// most 60 s. 20,000 playouts took 6.7 s of CPU for the Cups game of the benchmark
// (cli/analysis_bench.cpp; docs/analysis.md keeps the figures); a four-seat Njaka game has
// five times the positions and dearer simulations: 3,000 playouts took 19 s for 336
// positions, so 5,000 stay inside the goal with room for a longer game.
Budget default_budget(int players) {
  return Budget{players > 2 ? 5'000 : 20'000, std::chrono::milliseconds(0)};
}

double expected_score(const std::vector<double>& eval, Seat seat) {
  return eval.at(static_cast<std::size_t>(seat)) * static_cast<double>(eval.size()) / 2;
}

PositionAnalysis analyse_position(const Game& game, const Budget& budget, std::uint64_t seed) {
  if (budget.playouts < 1)
    throw std::invalid_argument("an analysis needs a budget of at least 1 playout, not " +
                                std::to_string(budget.playouts));
  switch (game.phase()) {
    case Phase::over: return finished(game);
    case Phase::claim: return claim_window_open(game, budget, seed);
    case Phase::play: break;
  }
  return searched(game, budget, seed);
}

PlyAnalysis analyse_step(const std::vector<GameStep>& steps, std::size_t k, const Budget& budget,
                         std::uint64_t seed) {
  const Game& game = *steps.at(k).position;
  return PlyAnalysis{analyse_position(game, budget, position_seed(seed, k)), steps[k].played,
                     is_move_of_mover(game, steps[k].played), 0, Mark::none};
}

GameAnalysis judge_plies(std::vector<PlyAnalysis> plies, int players, bool complete) {
  GameAnalysis out;
  out.plies = std::move(plies);
  out.complete = complete;
  for (std::size_t k = 0; k + 1 < out.plies.size(); ++k) judge_move(out.plies[k], out.plies[k + 1].position);
  // Without a position after it (the game's last, or stopped early) a move cannot be judged;
  // it counts for nothing then.
  if (!out.plies.empty()) out.plies.back().played_is_move = false;
  out.accuracy = accuracy_by_seat(out.plies, players);
  return out;
}

GameAnalysis analyse_game(const std::vector<GameStep>& steps, const Budget& budget,
                          std::uint64_t seed, const Progress& progress) {
  std::vector<PlyAnalysis> plies;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (progress && !progress(k, steps.size())) break;
    plies.push_back(analyse_step(steps, k, budget, seed));
  }
  const bool complete = plies.size() == steps.size();
  const int players = steps.empty() ? 0 : steps.front().position->players();
  return judge_plies(std::move(plies), players, complete);
}

}  // namespace mancala::analysis
