// The Monte-Carlo search tree of levels 3-5 and of the plain UCT baseline (search.hpp).
#include <cmath>
#include <limits>
#include <tuple>

#include "src/search.hpp"

namespace mancala::bots {
namespace {

// Beyond this the tree stops growing and simulations play out from its leaves: about 80 MB,
// far more than the largest budget needs, but a bound all the same.
constexpr std::size_t kMaxNodes = 2'000'000;
// How far below the old root `set_root` looks for the new position, and how many nodes it
// examines at most: a few turns of the other seats.
constexpr int kReuseDepth = 16;
constexpr int kReuseNodes = 4'000;
constexpr std::uint32_t kNotFound = std::numeric_limits<std::uint32_t>::max();

// Everything a player sees of a position, to recognise it again. Positions with the same view
// have the same legal decisions; hidden counters (repetitions) can only end a game earlier,
// which the simulation notices.
struct View {
  std::vector<int> position;
  Seat to_move;
  int round;
  Phase phase;
  bool mid_turn;
  std::string rest;  // board and scores, written out only when the cheap parts agree
};

View cheap_view(const Game& game) {
  return View{game.position(), game.to_move(), game.round(), game.phase(), game.mid_turn(), {}};
}

bool same_cheap_view(const View& a, const View& b) {
  return a.position == b.position && a.to_move == b.to_move && a.round == b.round &&
         a.phase == b.phase && a.mid_turn == b.mid_turn;
}

std::string full_view(const Game& game) {
  return json_text([&game](JsonWriter& out) {
    game.write_board(out);
    game.write_scores(out);
  });
}

}  // namespace

Tree::Tree(Settings settings) : settings_(settings) {}
Tree::~Tree() = default;

void Tree::set_root(const Game& game, bool reuse) {
  const std::uint32_t found = reuse && root_state_ ? find(game) : kNotFound;
  if (found != kNotFound) keep_subtree(found);
  else nodes_.assign(1, Node{});
  reset_root_totals();
  root_state_ = game.clone();
  state_ = game.clone();
  scratch_ = game.clone();
  policy_ = std::make_unique<Policy>(game);
}

// Depth-first over the visited part of the tree, replaying decisions on copies of the root.
std::uint32_t Tree::find(const Game& game) const {
  const View target = cheap_view(game);
  std::string target_rest;
  struct Frame {
    std::uint32_t index;
    std::unique_ptr<Game> state;
    int depth;
  };
  std::vector<Frame> stack;
  stack.push_back({0, root_state_->clone(), 0});
  for (int examined = 0; !stack.empty() && examined < kReuseNodes; ++examined) {
    Frame frame = std::move(stack.back());
    stack.pop_back();
    if (same_cheap_view(cheap_view(*frame.state), target)) {
      if (target_rest.empty()) target_rest = full_view(game);
      if (full_view(*frame.state) == target_rest) return frame.index;
    }
    const Node& node = nodes_[frame.index];
    if (!node.expanded || frame.depth >= kReuseDepth || frame.state->phase() != Phase::play)
      continue;
    DecisionList legal;
    frame.state->legal(legal);
    for (std::uint32_t c = node.first; c < node.first + node.count; ++c) {
      if (nodes_[c].visits == 0 || !legal.contains(nodes_[c].decision)) continue;
      auto next = frame.state->clone();
      next->apply(nodes_[c].decision, nullptr);
      stack.push_back({c, std::move(next), frame.depth + 1});
    }
  }
  return kNotFound;
}

// Copies the subtree below `index` into a fresh node array, breadth first, so that the nodes
// no longer reachable are dropped.
void Tree::keep_subtree(std::uint32_t index) {
  std::vector<Node> kept;
  kept.push_back(nodes_[index]);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (!kept[i].expanded) continue;
    const std::uint32_t old_first = kept[i].first;
    const std::uint8_t count = kept[i].count;
    kept[i].first = static_cast<std::uint32_t>(kept.size());
    for (std::uint32_t c = 0; c < count; ++c) kept.push_back(nodes_[old_first + c]);
  }
  nodes_ = std::move(kept);
}

// The root's children must all be legal: `best` picks among them.
void Tree::check_root() {
  Node& root = nodes_[0];
  if (!root.expanded) return;
  root_state_->legal(legal_);
  for (std::uint32_t i = root.first; i < root.first + root.count; ++i)
    if (!legal_.contains(nodes_[i].decision)) {
      nodes_.assign(1, Node{});
      reset_root_totals();
      return;
    }
}

std::int64_t Tree::search(std::int64_t visits, Clock::time_point deadline, Random& rng) {
  check_root();
  std::int64_t runs = 0;
  while (root_state_->phase() == Phase::play && !nodes_[0].proven &&
         (nodes_[0].visits < visits || !nodes_[0].expanded)) {
    simulate(rng);
    ++runs;
    if (runs % 8 == 0 && Clock::now() >= deadline) break;
  }
  return runs;
}

// One simulation: down the tree by UCT, one node added, a playout, the rewards back up.
void Tree::simulate(Random& rng) {
  Game& state = *state_;
  state.assign(*root_state_);
  path_.clear();
  std::uint32_t index = 0;
  path_.push_back(index);
  while (nodes_[index].expanded && state.phase() == Phase::play && !nodes_[index].proven) {
    const std::uint32_t child = select(nodes_[index]);
    // A subtree kept from a position that looked the same may differ in what it does not show
    // (turn counters, repetitions): a decision it offers that is not legal here sends this
    // node back to be expanded afresh. Applying it would be a bug.
    state.legal(legal_);
    if (!legal_.contains(nodes_[child].decision)) {
      nodes_[index].expanded = false;
      break;
    }
    index = child;
    state.apply(nodes_[index].decision, nullptr);
    path_.push_back(index);
  }
  const bool grow = nodes_[index].visits > 0 || index == 0;
  if (state.phase() == Phase::play && !nodes_[index].expanded && !nodes_[index].proven && grow &&
      nodes_.size() < kMaxNodes) {
    expand(index, state, rng);
    if (nodes_[index].expanded) {
      index = select(nodes_[index]);
      state.apply(nodes_[index].decision, nullptr);
      path_.push_back(index);
    }
  }
  if (state.phase() == Phase::over) evaluate(state, values_);
  else if (nodes_[index].proven)
    for (std::size_t q = 0; q < kMaxSeats; ++q) values_[q] = nodes_[index].heuristic[q];
  else policy_->playout(state, settings_.playouts, rng, values_);
  count_at_root();
  solve_allowance_ += settings_.leaf_solve_share;
  for (std::uint32_t i : path_) {
    Node& node = nodes_[i];
    ++node.visits;
    if (node.mover != kNoSeat) node.value += values_[static_cast<std::size_t>(node.mover)];
  }
  if (settings_.heuristic_weight > 0 || settings_.solver)
    for (std::size_t k = path_.size(); k-- > 0;) {
      Node& node = nodes_[path_[k]];
      if (node.expanded) back_up_heuristic(node);
    }
}

void Tree::count_at_root() {
  if (path_.size() < 2) return;
  const std::size_t child = path_[1] - nodes_[0].first;
  if (root_totals_.size() <= child) root_totals_.resize(nodes_[0].count);
  SeatTotals& totals = root_totals_[child];
  for (std::size_t q = 0; q < kMaxSeats; ++q) totals.sum[q] += values_[q];
  ++totals.runs;
}

// Max-n: the node takes the heuristic vector of the child best for that child's mover (all of
// a node's children share one mover, the seat to move at the node).
void Tree::back_up_heuristic(Node& node) {
  const Node* best = nullptr;
  bool all_proven = true;
  for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
    const Node& child = nodes_[i];
    all_proven = all_proven && child.proven;
    const float value = child.heuristic[static_cast<std::size_t>(child.mover)];
    const float best_value = best ? best->heuristic[static_cast<std::size_t>(best->mover)] : 0;
    // Among equal values a proven child first: its value is certain.
    if (!best || value > best_value || (value == best_value && child.proven && !best->proven))
      best = &child;
  }
  if (!best) return;
  node.heuristic = best->heuristic;
  node.proven = settings_.solver &&
                (all_proven || (best->proven && best->heuristic[static_cast<std::size_t>(best->mover)] >= 1));
}

// Children are added all at once, in random order so that unvisited ones are tried without
// bias. With decisive moves, a decision that wins at once becomes the only child.
void Tree::expand(std::uint32_t index, const Game& state, Random& rng) {
  state.legal(legal_);
  if (legal_.empty()) return;  // never in a correct game; the playout stops at once
  if (index == 0) reset_root_totals();  // the root's children are new
  const Seat mover = state.to_move();
  const auto first = static_cast<std::uint32_t>(nodes_.size());
  if (settings_.decisive_moves) {
    for (Decision d : legal_)
      if (policy_->wins_at_once(state, d)) {
        nodes_.push_back(Node{0, 0, 0, 0, false, d, static_cast<std::int8_t>(mover), kNoSeat, false, {}});
        Node& node = nodes_[index];
        node.first = first;
        node.count = 1;
        node.expanded = true;
        node.wins_next = static_cast<std::int8_t>(mover);
        evaluate_children(index, state);
        return;
      }
  }
  for (Decision d : legal_)
    nodes_.push_back(Node{0, 0, 0, 0, false, d, static_cast<std::int8_t>(mover), kNoSeat, false, {}});
  for (std::uint32_t i = static_cast<std::uint32_t>(legal_.size()) - 1; i > 0; --i)
    std::swap(nodes_[first + i], nodes_[first + rng.below(i + 1)]);
  Node& node = nodes_[index];
  node.first = first;
  node.count = static_cast<std::uint8_t>(legal_.size());
  node.expanded = true;
  evaluate_children(index, state);
}

// With implicit minimax: each new child's heuristic is `evaluate` of its position (a finished
// game's outcome, exactly), and the node takes the best of them for its mover.
void Tree::evaluate_children(std::uint32_t index, const Game& state) {
  if (settings_.heuristic_weight <= 0 && !settings_.solver) return;
  Node& node = nodes_[index];
  SeatValues values{};
  for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
    scratch_->assign(state);
    scratch_->apply(nodes_[i].decision, nullptr);
    evaluate(*scratch_, values, settings_.heuristic_sharpness);
    for (std::size_t q = 0; q < kMaxSeats; ++q) nodes_[i].heuristic[q] = static_cast<float>(values[q]);
    nodes_[i].proven = settings_.solver && scratch_->phase() == Phase::over;
    try_to_prove(nodes_[i], *scratch_);
  }
  back_up_heuristic(node);
}

void Tree::try_to_prove(Node& child, const Game& position) {
  if (!settings_.solver || settings_.leaf_solve_positions <= 0 || child.proven ||
      position.players() != 2 || solve_allowance_ < settings_.leaf_solve_positions)
    return;
  const auto exact = endgames_.solve(position, settings_.leaf_solve_positions);
  solve_allowance_ -= endgames_.positions();
  if (!exact) return;
  child.heuristic[0] = static_cast<float>(*exact);
  child.heuristic[1] = static_cast<float>(1 - *exact);
  child.proven = true;
}

std::optional<double> EndgameSolver::solve(const Game& game, std::int64_t max_positions) {
  left_ = max_positions;
  used_ = 0;
  if (game.players() != 2) return std::nullopt;
  return search(game, 0, 0, 1);
}

std::optional<double> EndgameSolver::search(const Game& game, std::size_t depth, double alpha, double beta) {
  ++used_;
  if (--left_ < 0) return std::nullopt;
  if (game.phase() == Phase::over) {
    std::array<double, 2> outcome{};
    game.outcome(outcome);
    return outcome[0];
  }
  if (game.phase() != Phase::play) return std::nullopt;
  if (scratch_.size() <= depth) {
    scratch_.push_back(game.clone());
    legal_.emplace_back();
  }
  DecisionList& legal = legal_[depth];
  game.legal(legal);
  const bool seat0_moves = game.to_move() == 0;
  double best = seat0_moves ? 0 : 1;
  for (Decision d : legal) {
    Game& next = *scratch_[depth];
    next.assign(game);
    next.apply(d, nullptr);
    const auto value = search(next, depth + 1, alpha, beta);
    if (!value) return std::nullopt;
    if (seat0_moves) {
      best = std::max(best, *value);
      alpha = std::max(alpha, best);
    } else {
      best = std::min(best, *value);
      beta = std::min(beta, best);
    }
    if (alpha >= beta) break;
  }
  return best;
}

// Anti-decisive: once a child is known to hand another seat an immediate win, it is taken
// only when every other child does too.
bool Tree::lets_another_win(const Node& child) const {
  return settings_.decisive_moves && child.wins_next != kNoSeat && child.wins_next != child.mover;
}

std::uint32_t Tree::select(const Node& node) const {
  const double log_visits = std::log(static_cast<double>(std::max<std::uint32_t>(node.visits, 1)));
  double best = -std::numeric_limits<double>::infinity();
  std::uint32_t choice = node.first;
  for (std::uint32_t i = node.first; i < node.first + node.count; ++i) {
    const Node& child = nodes_[i];
    if (child.visits == 0) return i;
    const double n = child.visits;
    const double weight = settings_.heuristic_weight;
    const double heuristic = child.heuristic[static_cast<std::size_t>(child.mover)];
    // A proven child is known exactly and needs no exploring: its value, no bonus.
    double score = heuristic;
    if (!child.proven)
      score = settings_.exploration * std::sqrt(log_visits / n) + (1 - weight) * child.value / n + weight * heuristic;
    if (lets_another_win(child)) score -= 1000;
    if (score > best) {
      best = score;
      choice = i;
    }
  }
  return choice;
}

Decision Tree::best() const { return nodes_[best_child()].decision; }

std::uint32_t Tree::best_child() const {
  const Node& root = nodes_[0];
  std::uint32_t choice = root.first;
  // Known results first: a proven sole win before anything, a proven loss after everything.
  auto rank = [&](const Node& child) {
    const float known = child.heuristic[static_cast<std::size_t>(child.mover)];
    return std::tuple{!lets_another_win(child), child.proven && known >= 1, !(child.proven && known <= 0),
                      child.visits + (child.visits ? child.value / child.visits : 0.0)};
  };
  for (std::uint32_t i = root.first; i < root.first + root.count; ++i)
    if (rank(nodes_[i]) > rank(nodes_[choice])) choice = i;
  return choice;
}

void Tree::root_values(SeatValues& out) const {
  const Node& root = nodes_[0];
  const std::uint32_t child = best_child();
  const Node& chosen = nodes_[child];
  const std::size_t slot = child - root.first;
  if (root.proven || chosen.proven || slot >= root_totals_.size() || root_totals_[slot].runs == 0) {
    const auto& exact = root.proven ? root.heuristic : chosen.heuristic;
    for (std::size_t q = 0; q < kMaxSeats; ++q) out[q] = exact[q];
    return;
  }
  const SeatTotals& totals = root_totals_[slot];
  for (std::size_t q = 0; q < kMaxSeats; ++q) out[q] = totals.sum[q] / totals.runs;
}

void Tree::advance(Decision decision) {
  root_state_->apply(decision, nullptr);
  const Node& root = nodes_[0];
  std::uint32_t child = kNotFound;
  if (root.expanded)
    for (std::uint32_t i = root.first; i < root.first + root.count; ++i)
      if (nodes_[i].decision == decision) child = i;
  if (child != kNotFound && root_state_->phase() == Phase::play) keep_subtree(child);
  else nodes_.assign(1, Node{});
  reset_root_totals();
}

}  // namespace mancala::bots
