// Valuing positions and the greedy policies of the computer players (search.hpp).
#include <algorithm>

#include "src/search.hpp"

namespace mancala::bots {
namespace {

// A win that ends the game outweighs any material a decision could gain.
constexpr double kDecided = 1e6;

// The decision of highest value seen so far; among equal values each is equally likely to stay
// (reservoir sampling), so a greedy player does not always pick the first of equals.
class BestDecision {
 public:
  explicit BestDecision(Decision first) : choice_(first) {}
  void offer(Decision d, double value, Random& rng) {
    if (value > best_) {
      best_ = value;
      choice_ = d;
      ties_ = 1;
    } else if (value == best_ && rng.below(++ties_) == 0) {
      choice_ = d;
    }
  }
  Decision choice() const { return choice_; }

 private:
  double best_ = -2 * kDecided;
  Decision choice_;
  std::uint32_t ties_ = 0;
};

double pairwise_share(double mine, double theirs, double sharpness) {
  const double lead = sharpness * (mine - theirs) / (mine + theirs + 1);
  return 0.5 + 0.5 * std::clamp(lead, -1.0, 1.0);
}

}  // namespace

void evaluate(const Game& game, SeatValues& out, double sharpness) {
  const int n = game.players();
  if (game.phase() == Phase::over) {
    game.outcome(std::span<double>(out.data(), static_cast<std::size_t>(n)));
    return;
  }
  std::array<double, kMaxSeats> material{};
  game.expected_material(std::span<double>(material.data(), static_cast<std::size_t>(n)));
  for (int p = 0; p < n; ++p) {
    double sum = 0;
    for (int q = 0; q < n; ++q)
      if (q != p)
        sum += pairwise_share(material[static_cast<std::size_t>(p)], material[static_cast<std::size_t>(q)], sharpness);
    out[static_cast<std::size_t>(p)] = sum / (n - 1);
  }
}

void resolve_plex_randomly(Game& game, Random& rng) {
  std::array<Seat, kMaxSeats> seats{};
  std::uint32_t count = 0;
  const auto window = game.claim_window();
  for (Seat q = 0; q < game.players(); ++q)
    if (window->may_claim(q)) seats[count++] = q;
  if (count == 0) {
    game.resolve_claim(std::nullopt, nullptr);
    return;
  }
  game.resolve_claim(seats[rng.below(count)], nullptr);
}

Policy::Policy(const Game& shape) : scratch_(shape.clone()), turn_(shape.clone()) {}

double Policy::standing(const Game& game, Seat seat) {
  const int n = game.players();
  const auto seats = static_cast<std::size_t>(n);
  if (game.phase() == Phase::over) {
    game.outcome(std::span<double>(outcome_.data(), seats));
    return (outcome_[static_cast<std::size_t>(seat)] - 0.5) * kDecided;
  }
  game.material(std::span<int>(material_.data(), seats));
  int others = 0;
  for (int q = 0; q < n; ++q)
    if (q != seat) others += material_[static_cast<std::size_t>(q)];
  return material_[static_cast<std::size_t>(seat)] - static_cast<double>(others) / (n - 1);
}

bool Policy::wins_at_once(const Game& game, Decision decision) {
  const Seat mover = game.to_move();
  scratch_->assign(game);
  scratch_->apply(decision, nullptr);
  if (scratch_->phase() != Phase::over) return false;
  scratch_->outcome(std::span<double>(outcome_.data(), static_cast<std::size_t>(game.players())));
  return outcome_[static_cast<std::size_t>(mover)] == 1.0;
}

Decision Policy::greedy(const Game& game, const DecisionList& legal, Random& rng) {
  const Seat mover = game.to_move();
  const double before = standing(game, mover);
  BestDecision best(legal[0]);
  for (Decision d : legal) {
    scratch_->assign(game);
    scratch_->apply(d, nullptr);
    best.offer(d, standing(*scratch_, mover) - before, rng);
  }
  return best.choice();
}

Decision Policy::look_ahead(const Game& game, Random& rng) {
  const Seat mover = game.to_move();
  DecisionList candidates;
  game.legal(candidates);
  BestDecision best(candidates[0]);
  for (Decision d : candidates) {
    turn_->assign(game);
    turn_->apply(d, nullptr);
    while (turn_->phase() == Phase::play && turn_->mid_turn() && turn_->to_move() == mover) {
      turn_->legal(legal_);
      turn_->apply(greedy(*turn_, legal_, rng), nullptr);
    }
    best.offer(d, standing(*turn_, mover), rng);
  }
  return best.choice();
}

void Policy::playout(Game& game, const PlayoutStyle& style, Random& rng, SeatValues& values) {
  // The random share as a threshold on 32 random bits, so the loop draws no floating point.
  const auto random_below = static_cast<std::uint64_t>(style.random_share * 4294967296.0);
  for (int made = 0; made < style.max_decisions; ++made) {
    const Phase phase = game.phase();
    if (phase == Phase::over) break;
    if (phase == Phase::claim) {
      resolve_plex_randomly(game, rng);
      continue;
    }
    game.legal(legal_);
    if (legal_.empty()) break;  // never in a correct game; a search must not hang on it
    if (legal_.size() == 1) {
      game.apply(legal_[0], nullptr);
    } else if ((rng.next() >> 32) < random_below) {
      game.apply(legal_[static_cast<int>(rng.below(static_cast<std::uint32_t>(legal_.size())))], nullptr);
    } else {
      game.apply(greedy(game, legal_, rng), nullptr);
    }
  }
  evaluate(game, values);
}

}  // namespace mancala::bots
