// The computer players: levels, budgets and one choice (bot.hpp). The search itself is in
// policy.cpp (valuing positions, greedy decisions, playouts) and mcts.cpp (the tree).
#include "mancala/bot.hpp"

#include <algorithm>
#include <stdexcept>

#include "src/search.hpp"

namespace mancala::bots {

// Playout budgets keep arena games (which use them without a clock) quick enough for a ladder
// of thousands of games; the times bound a choice in play on a slow machine. Level 5 has 50 times
// level 4's playouts: with 4 times (2,400) it won only 0.67-0.69 of its games against level 4 in
// Njaka and Duovallis. 30,000 playouts take 0.06-0.25 s a move with two seats on the 2-core
// development machine; with three or four Njaka seats the 2 s cap may stop the search first.
Budget default_budget(int level, int players) {
  // With three and four Njaka seats, 40 and 150 playouts for levels 3 and 4 space the ladder
  // more evenly than 150 and 600 (seeds 1 and 2, 100 games each): 4 vs 3 rose from 0.66 and
  // 0.54 to 0.76 and 0.66, 5 vs 4 from 0.58 and 0.56 to 0.66 and 0.63, while 3 vs 2 fell from
  // 0.88 and 0.81 to 0.74 and 0.69. The whole ladder is short there: level 5 scores 0.92 (three
  // seats) and 0.79 (four) against greedy level 2 (docs/computer-players.md).
  const bool several = players > 2;
  switch (level) {
    case 1: return {1, std::chrono::milliseconds(50)};
    case 2: return {1, std::chrono::milliseconds(200)};
    case 3: return {several ? 40 : 150, std::chrono::milliseconds(500)};
    case 4: return {several ? 150 : 600, std::chrono::milliseconds(1000)};
    default: return {30'000, std::chrono::milliseconds(2000)};
  }
}

std::string display_name(int level) { return "Computer, level " + std::to_string(level); }

std::chrono::milliseconds claim_reaction(int level, std::uint64_t draw) {
  // Weaker levels react more slowly; every level leaves a person at least 300 ms.
  const int base = 300 + (kMaxLevel - level) * 350;
  return std::chrono::milliseconds(base + static_cast<int>(draw % 400));
}

struct Bot::Impl {
  int level;  // 0: plain UCT
  Random random;
  std::optional<Budget> fixed;  // else the level's budget for the game's number of seats
  Budget current;  // the budget scaled for the choice being made
  std::unique_ptr<Tree> tree;  // levels 3-5 and plain UCT; kept between choices

  Decision decide(const Game& state, const DecisionList& legal, Clock::time_point deadline,
                  Choice& choice);
  Decision search(const Game& state, Clock::time_point deadline, Choice& choice);
};

namespace {

// Whether the turn goes on after one of the mover's decisions (a Coin Duel source, an O An Quan
// square): then this decision may spend only half of the time that is left.
bool turn_goes_on(const Game& state, Decision decision) {
  auto next = state.clone();
  next->apply(decision, nullptr);
  return next->phase() == Phase::play && next->mid_turn() && next->to_move() == state.to_move();
}

// At least one playout and one millisecond (a zero time would mean no cap at all).
Budget scaled(const Budget& budget, double share) {
  if (share >= 1) return budget;
  Budget out;
  out.playouts = std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(budget.playouts) * share));
  if (budget.time.count() > 0)
    out.time = std::max(std::chrono::milliseconds(1),
                        std::chrono::milliseconds(static_cast<std::int64_t>(static_cast<double>(budget.time.count()) * share)));
  return out;
}

}  // namespace

Tree::Settings search_settings(int level) {
  Tree::Settings settings;
  // Level 5 also backs up the material value of its positions (implicit minimax), sharpened
  // fourfold: a lead of an eighth of the pair's material already counts as all but won. Against
  // plain UCT at 10 ms a move (seed 7, 100 games each) it lifted Duovallis from 0.65 to 0.75,
  // Njaka from 0.43 to 0.56 and Cups from 0.59 to 0.67 (the last within the noise). Levels 3 and
  // 4 do without: in Njaka of three and four seats it did not lift 4 vs 3 (0.61 to 0.64, 0.58 to
  // 0.58).
  if (level == 5) {
    settings.heuristic_weight = 0.4;
    settings.heuristic_sharpness = 4;
  }
  if (level == 0) {
    settings.decisive_moves = false;
    settings.playouts = kRandomPlayouts;
  }
  return settings;
}

Bot::Bot(int level, std::uint64_t seed, std::optional<Budget> budget) {
  if (level < kMinLevel || level > kMaxLevel)
    throw std::invalid_argument("bot level must be 1 to 5, not " + std::to_string(level));
  impl_ = std::make_unique<Impl>(Impl{level, Random(seed), budget, {}, nullptr});
  if (level >= 3) impl_->tree = std::make_unique<Tree>(search_settings(level));
}

Bot Bot::plain_uct(std::uint64_t seed, Budget budget) {
  Bot bot;
  bot.impl_ = std::make_unique<Impl>(
      Impl{0, Random(seed), budget, {}, std::make_unique<Tree>(search_settings(0))});
  return bot;
}

Bot::~Bot() = default;
Bot::Bot(Bot&&) noexcept = default;
Bot& Bot::operator=(Bot&&) noexcept = default;

int Bot::level() const { return impl_->level; }

Choice Bot::choose(const Game& game, double budget_share) {
  if (!(budget_share > 0 && budget_share <= 1))
    throw std::invalid_argument("a bot's budget share must be above 0 and at most 1, not " +
                                std::to_string(budget_share));
  impl_->current = scaled(impl_->fixed.value_or(default_budget(impl_->level, game.players())), budget_share);
  const auto start = Clock::now();
  const auto deadline =
      impl_->current.time.count() > 0 ? start + impl_->current.time : Clock::time_point::max();
  Choice choice;
  auto state = game.clone();
  const Seat seat = state->to_move();
  // Plain UCT forgets its tree; the levels look for the new position in theirs.
  if (impl_->tree) impl_->tree->set_root(game, impl_->level > 0);
  DecisionList legal;
  do {
    state->legal(legal);
    if (legal.empty()) break;
    const Decision d = impl_->decide(*state, legal, deadline, choice);
    if (!choice.tokens.empty()) choice.tokens += ' ';
    choice.tokens += state->token(d);
    choice.decisions.push_back(d);
    state->apply(d, nullptr);
    if (impl_->tree) impl_->tree->advance(d);
  } while (state->phase() == Phase::play && state->mid_turn() && state->to_move() == seat);
  choice.think_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return choice;
}

Decision Bot::Impl::decide(const Game& state, const DecisionList& legal,
                           Clock::time_point deadline, Choice& choice) {
  if (legal.size() == 1) return legal[0];
  switch (level) {
    case 1: return legal[static_cast<int>(random.below(static_cast<std::uint32_t>(legal.size())))];
    case 2: return Policy(state).look_ahead(state, random);
    default: return search(state, deadline, choice);
  }
}

Decision Bot::Impl::search(const Game& state, Clock::time_point deadline, Choice& choice) {
  auto until = deadline;
  if (deadline != Clock::time_point::max()) {
    DecisionList legal;
    state.legal(legal);
    const auto now = Clock::now();
    if (turn_goes_on(state, legal[0])) until = now + (deadline - now) / 2;
  }
  // A later decision of the same turn inherits the subtree of the one before; topping it up to a
  // quarter of the budget keeps long turns (a Coin Duel lap of coins) from costing many times
  // a short one.
  const std::int64_t visits = state.mid_turn() ? std::max<std::int64_t>(current.playouts / 4, 1)
                                               : current.playouts;
  choice.playouts += tree->search(visits, until, random);
  return tree->best();
}

}  // namespace mancala::bots
