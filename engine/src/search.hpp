#pragma once
// The insides of the computer players (bot.hpp is their public face): how a position is valued,
// the playout policy, the greedy look-ahead of level 2 and the Monte-Carlo tree of levels 3-5.
// Everything goes through the `Game` interface; no game is named here.
#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "mancala/game.hpp"
#include "mancala/match.hpp"

namespace mancala::bots {

using Clock = std::chrono::steady_clock;
using SeatValues = std::array<double, kMaxSeats>;

// Each seat's value of `game` in [0, 1]: its outcome once the game is over, else its expected
// material (Game::expected_material) against every other seat's (averaged pairwise, so 1/2 means
// level): 1/2 plus half the lead over the pair's material, times `sharpness` and cut to [-1, 1].
void evaluate(const Game& game, SeatValues& out, double sharpness = 1);

// Settles an open Plex! window as a race nobody can predict: a random seat still in the match
// wins it. (Handing it always to the mover would teach the search that taking the eleventh set
// wins the twelfth, which is not true against a quick person.)
void resolve_plex_randomly(Game& game, Random& rng);

// How a search plays on from a position it has not expanded.
struct PlayoutStyle {
  double random_share = 0.5;   // the share of decisions made at random, the rest greedily
  int max_decisions = 60;     // then the playout stops and the expected material decides
};
// Plain UCT: uniformly random decisions to the very end.
inline constexpr PlayoutStyle kRandomPlayouts{1.0, 1'000'000};

// The greedy policies. Scratch copies of the game are made once and reused, so choosing a
// decision allocates nothing.
class Policy {
 public:
  explicit Policy(const Game& shape);

  // True when `decision` ends the game with the player to move its (sole) winner.
  bool wins_at_once(const Game& game, Decision decision);
  // The decision of `legal` with the highest immediate gain; ties broken at random.
  Decision greedy(const Game& game, const DecisionList& legal, Random& rng);
  // Level 2: the decision whose turn, finished greedily, leaves the mover best off (wins first,
  // then material); ties broken at random.
  Decision look_ahead(const Game& game, Random& rng);
  // Plays `game` on in `style` and writes each seat's value where it stopped.
  void playout(Game& game, const PlayoutStyle& style, Random& rng, SeatValues& values);

 private:
  double standing(const Game& game, Seat seat);  // the seat's material lead, or a decided result

  std::unique_ptr<Game> scratch_;  // one candidate decision applied
  std::unique_ptr<Game> turn_;     // one candidate turn played out
  DecisionList legal_;
  std::array<int, kMaxSeats> material_{};
  SeatValues outcome_{};
};

// Exact results of small two-seat endgames: alpha-beta over the decisions on the game's outcome,
// within a budget of positions. Scratch copies of the game are kept per depth, so a search
// allocates nothing once they have grown.
class EndgameSolver {
 public:
  // Seat 0's result of `game` under best play by both seats (1 a win, 1/2 a draw, 0 a loss), or
  // nothing when that takes more than `max_positions` positions or the game has other than two
  // seats, or a claim window opens on the way.
  std::optional<double> solve(const Game& game, std::int64_t max_positions);
  // Positions the last `solve` visited.
  std::int64_t positions() const { return used_; }

 private:
  std::optional<double> search(const Game& game, std::size_t depth, double alpha, double beta);

  std::vector<std::unique_ptr<Game>> scratch_;  // by depth
  std::deque<DecisionList> legal_;              // by depth (a deque: frames keep references)
  std::int64_t left_ = 0;
  std::int64_t used_ = 0;
};

// A Monte-Carlo search tree (UCT) over decisions: every decision of a turn is a node, and each
// node keeps the reward of the seat that made its decision, so 3-4 seats work as 2 do. The
// tree lives on between choices: `set_root` keeps the part below the old root that leads to the
// new position.
class Tree {
 public:
  struct Settings {
    double exploration = 0.7;  // UCT's constant for rewards in [0, 1]
    bool decisive_moves = true;  // take immediate wins, shun decisions that allow one
    PlayoutStyle playouts;
    // Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014): each node also
    // keeps a heuristic value per seat, `evaluate` of its position when it was added, backed up
    // max-n style (a node takes the vector of its child best for the child's mover), and
    // selection ranks a child by (1 - weight) * its mean reward + weight * its backed-up
    // heuristic value for its mover. 0 turns it off (nothing is evaluated then).
    double heuristic_weight = 0;
    double heuristic_sharpness = 1;  // `evaluate`'s sharpness for the heuristic values
    // MCTS-Solver: a node whose value is known exactly (the game is over there, every child is
    // known, or a known child gives its mover a sole win) is proven: simulations stop there and
    // back up its exact value, and a proven root ends the search.
    bool solver = false;
    // With the solver in a two-seat game: a new node gets an exact alpha-beta search
    // (EndgameSolver) of at most this many positions, and is proven when it finishes. Without
    // it a decided endgame is proven breadth first (every child looks equally won, so UCT
    // spreads its visits evenly) and endgames that alpha-beta settles in a thousand positions
    // stay unproven after 20,000 simulations. These searches may spend `leaf_solve_share`
    // positions per simulation on average (a node is tried only while that allowance lasts),
    // so the search stays about as fast where nothing can be solved. 0 turns it off.
    std::int64_t leaf_solve_positions = 0;
    std::int64_t leaf_solve_share = 16;
  };

  struct Node {
    double value = 0;            // the rewards of `mover` summed over the visits
    std::uint32_t visits = 0;
    std::uint32_t first = 0;     // children: nodes_[first, first + count)
    std::uint8_t count = 0;
    bool expanded = false;
    Decision decision = 0;
    std::int8_t mover = kNoSeat;      // the seat that made `decision`
    std::int8_t wins_next = kNoSeat;  // the seat to move here can win with its next decision
    bool proven = false;  // with the solver: `heuristic` is the exact value
    // With implicit minimax or the solver: each seat's heuristic value, backed up max-n from
    // the children; the exact value once `proven`.
    std::array<float, kMaxSeats> heuristic{};
  };

  explicit Tree(Settings settings);
  ~Tree();

  // Makes `game` the root. With `reuse`, looks for it a few decisions below the current root
  // and keeps that subtree; otherwise (or when it is not found) starts afresh.
  void set_root(const Game& game, bool reuse);
  // Simulates from the root until it has been visited `visits` times or `deadline` passes.
  // Returns the number of simulations run.
  std::int64_t search(std::int64_t visits, Clock::time_point deadline, Random& rng);
  // The root's best decision: the most visited, never one that lets another seat win at once
  // unless every decision does.
  Decision best() const;
  // Each seat's expected value of the root position (what analysis reports): the exact value once
  // the root is proven; else that of the child `best` chooses: exact when it is proven, else the
  // mean rewards of the simulations through it since the root was set (its backed-up heuristic
  // when none went through it yet). Requires a search that expanded the root.
  void root_values(SeatValues& out) const;
  bool root_proven() const { return nodes_[0].proven; }
  // The decision has been made: its node becomes the root. Forgets the tree when the game has
  // ended or waits for a Plex! race (what follows is not determined by the decisions).
  void advance(Decision decision);
  const Game& root_state() const { return *root_state_; }
  std::size_t size() const { return nodes_.size(); }
  // The nodes, the root first (for tests).
  const std::vector<Node>& nodes() const { return nodes_; }

 private:

  // Per-seat reward sums of the simulations through one child of the root. Nodes keep only
  // their mover's reward (the search needs no more); the root's value for every seat needs them.
  struct SeatTotals {
    SeatValues sum{};
    std::uint32_t runs = 0;
  };

  void check_root();
  void reset_root_totals() { root_totals_.clear(); }
  void count_at_root();
  std::uint32_t best_child() const;
  void simulate(Random& rng);
  std::uint32_t select(const Node& node) const;
  void expand(std::uint32_t index, const Game& state, Random& rng);
  bool lets_another_win(const Node& child) const;
  std::uint32_t find(const Game& game) const;
  void keep_subtree(std::uint32_t index);
  void back_up_heuristic(Node& node);
  void evaluate_children(std::uint32_t index, const Game& state);
  void try_to_prove(Node& child, const Game& position);

  Settings settings_;
  std::vector<Node> nodes_;
  std::unique_ptr<Game> root_state_;
  std::unique_ptr<Game> state_;  // the simulation's working copy
  std::unique_ptr<Policy> policy_;
  std::unique_ptr<Game> scratch_;  // a child's position, to evaluate it
  std::vector<std::uint32_t> path_;
  DecisionList legal_;
  SeatValues values_{};
  std::vector<SeatTotals> root_totals_;  // by child: index - root.first
  EndgameSolver endgames_;
  std::int64_t solve_allowance_ = 0;  // positions the leaf searches may still spend
};

// The tree settings of a bot level (3-5; 0 for plain UCT), for the bots and for analysis.
Tree::Settings search_settings(int level);

}  // namespace mancala::bots
