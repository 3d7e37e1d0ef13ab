#pragma once
// Analysis of a position or of a whole game for reviewing it afterwards: each seat's expected
// score, the engine's best whole turn, and for every move played a mark by how much it lost.
// Built on the computer players' search (Monte-Carlo tree search with implicit minimax backups
// and the MCTS-Solver, src/search.hpp), through the `Game` interface only.
//
// Figures (docs/analysis.md says the same for players):
// - `eval`: each seat's expected share of the game's result, 0-1, summing to 1. With two seats it
//   is the seat's expected score (a win 1, a draw 1/2). With three or four seats a seat's score
//   is Game::outcome's (the share of the other seats it finishes ahead of), and the scores of all
//   seats sum to seats/2, so `eval` is the score times 2/seats.
// - A move's drop: the mover's expected score before the move minus the same seat's after it
//   (the next position's), never below 0; 0 for a move equal to the engine's best. Scores, not
//   shares, so that a drop means the same with any number of seats.
// - Marks: a drop of at least 0.10 is an inaccuracy, 0.20 a mistake, 0.30 a blunder.
// - Accuracy of a seat (0-100): the mean over the seat's moves of
//   clamp(103.1668 * exp(-0.04354 * drop_percent) - 3.1669, 0, 100), drop_percent = 100 * drop
//   (lichess's curve from win-percent losses to move accuracy); none for a seat without moves.
// - `exact`: the value was proven by the solver (or the game is over), not estimated.
//
// Deterministic for a given seed and budget when the budget has no time cap.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mancala/game.hpp"

namespace mancala::analysis {

enum class Mark : std::uint8_t { none, inaccuracy, mistake, blunder };
std::string_view to_string(Mark mark);  // "inaccuracy", "mistake", "blunder"; "" for none
std::optional<Mark> mark_from_name(std::string_view name);  // nothing for "" or an unknown name

inline constexpr double kInaccuracyDrop = 0.10;
inline constexpr double kMistakeDrop = 0.20;
inline constexpr double kBlunderDrop = 0.30;
Mark mark_for_drop(double drop);
// One move's accuracy (0-100) for a drop in expected score (0-1), by the formula above.
double move_accuracy(double drop);

// What the search may spend on one position: about `playouts` simulations for the turn's first
// decision (each later decision of the same turn tops its subtree up to a quarter of that), and
// at most `time` per position (0 = no cap: the result depends only on the seed).
struct Budget {
  std::int64_t playouts = 0;
  std::chrono::milliseconds time{0};
};
// The budget analysis uses unless told otherwise, for a game of `players` seats.
Budget default_budget(int players);

struct PositionAnalysis {
  Seat to_move = kNoSeat;             // kNoSeat while nobody chooses (a claim window, the end)
  std::vector<double> eval;           // each seat's expected share (see above)
  std::optional<std::string> best;    // the best whole turn as notation tokens; none when nobody chooses
  std::vector<Decision> best_decisions;
  bool exact = false;
  std::int64_t playouts = 0;          // simulations spent on this position
};

// Analyses one position. Throws std::invalid_argument for a budget without playouts.
PositionAnalysis analyse_position(const Game& game, const Budget& budget, std::uint64_t seed);

// Each seat's expected score (Game::outcome's scale) from an `eval` of shares.
double expected_score(const std::vector<double>& eval, Seat seat);

// One position of a game and what the game went on with from it.
struct GameStep {
  std::shared_ptr<const Game> position;
  // The action taken here as its line of text: tokens (`c3 R Q D`), or an action that is not
  // a move (`resign 1`, `plex 2`); none at the last position.
  std::optional<std::string> played;
};

struct PlyAnalysis {
  PositionAnalysis position;
  std::optional<std::string> played;
  bool played_is_move = false;  // tokens of the seat to move (only moves are marked and counted)
  double drop = 0;              // for a move: the mover's loss in expected score
  Mark mark = Mark::none;
};

struct GameAnalysis {
  std::vector<PlyAnalysis> plies;
  std::vector<std::optional<double>> accuracy;  // by seat; none for a seat that made no move
  bool complete = false;  // false when the progress callback stopped it early
};

// Called before each position is analysed with its index (0-based) and the number of positions;
// returning false stops the analysis there (what is done so far is returned, `complete` false).
using Progress = std::function<bool(std::size_t position, std::size_t positions)>;

// Analyses every position of a game, in order. Position k is searched with a seed drawn from
// `seed` and k, so each position's figures depend only on it, the seed and the budget.
GameAnalysis analyse_game(const std::vector<GameStep>& steps, const Budget& budget,
                          std::uint64_t seed, const Progress& progress = {});

// The same one position at a time (the server analyses a game as jobs, one per position, and
// keeps each as it is done): position k of `steps` as analyse_game analyses it, unjudged.
PlyAnalysis analyse_step(const std::vector<GameStep>& steps, std::size_t k, const Budget& budget,
                         std::uint64_t seed);
// The first positions of a game, analysed in order by analyse_step, judged as analyse_game
// judges them: each move's drop and mark once the next position is known, the last one's not,
// and each seat's accuracy over the judged moves. `complete` says whether these are all.
GameAnalysis judge_plies(std::vector<PlyAnalysis> plies, int players, bool complete);

}  // namespace mancala::analysis
