#include "arena.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <stdexcept>
#include <vector>

#include "mancala/match.hpp"

namespace mancala::cli {
namespace {

struct Tally {
  long long wins = 0, losses = 0, draws = 0;
  double score = 0;  // A's outcome summed: 1 a win, 1/2 a draw; 3-4 seats: pairwise ranking
  std::array<double, 2> think_ms{};
  std::array<long long, 2> choices{};
  std::array<long long, 2> playouts{};  // simulations, to compare the sides' speed at equal time
};

// Settles a Plex! window as a fair race: a random seat still in the match claims first. (The
// server's bots react faster at higher levels; the arena measures the search alone.)
void settle_plex(Match& match, Random& rng) {
  std::vector<Seat> seats;
  for (Seat q = 0; q < match.game().players(); ++q)
    if (match.claim_window()->may_claim(q)) seats.push_back(q);
  const Outcome outcome =
      seats.empty() ? match.close_claim_window()
                    : match.claim(seats[rng.below(static_cast<std::uint32_t>(seats.size()))]);
  if (!outcome.ok()) throw std::logic_error("the Plex! claim was refused: " + outcome.error->message);
}

// One game with side A in `seat_a` and side B everywhere else.
void play_game(const ArenaSetup& setup, long long index, Tally& tally) {
  const std::uint64_t seed = setup.seed * 1'000'003ULL + static_cast<std::uint64_t>(index);
  Match match = Match::create(setup.game, setup.options, seed);
  const int players = match.game().players();
  const Seat seat_a = static_cast<Seat>(index % players);
  std::vector<bots::Bot> bots;
  for (Seat q = 0; q < players; ++q) {
    const std::size_t side = q == seat_a ? 0 : 1;
    bots.push_back(make_bot(side == 0 ? setup.a : setup.b, seed * 31 + static_cast<std::uint64_t>(q),
                            setup.think[side], players));
  }
  Random plex_rng(seed ^ 0x5eedULL);
  while (!match.over()) {
    if (match.game().phase() == Phase::claim) {
      settle_plex(match, plex_rng);
      continue;
    }
    const Seat mover = match.game().to_move();
    const bots::Choice choice = bots[static_cast<std::size_t>(mover)].choose(match.game());
    const std::size_t side = mover == seat_a ? 0 : 1;
    tally.think_ms[side] += choice.think_ms;
    ++tally.choices[side];
    tally.playouts[side] += choice.playouts;
    const Outcome outcome = match.play(choice.tokens);
    if (!outcome.ok())
      throw std::logic_error("a bot chose an illegal move '" + choice.tokens + "': " +
                             outcome.error->message);
  }
  std::array<double, kMaxSeats> values{};
  match.game().outcome(std::span<double>(values.data(), static_cast<std::size_t>(players)));
  tally.score += values[static_cast<std::size_t>(seat_a)];
  const Json winner = match.game().result()["winner"];
  if (winner.is_null()) ++tally.draws;
  else if (winner == seat_a) ++tally.wins;
  else ++tally.losses;
}

// Wilson's 95 % interval for a rate from n games: sound near 0 and 1, where the normal one is not.
std::array<double, 2> wilson_interval(double rate, double n) {
  const double z = 1.96;
  const double z2 = z * z;
  const double centre = (rate + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// Rounds to `places` decimals (dividing by a power of ten prints short).
double rounded(double x, double scale) { return std::round(x * scale) / scale; }

}  // namespace

bots::Bot make_bot(const Side& side, std::uint64_t seed, std::chrono::milliseconds think, int players) {
  constexpr auto kUnlimited = std::numeric_limits<std::int64_t>::max();
  const int budget_level = side.level == 0 ? bots::kMaxLevel : side.level;
  const bots::Budget budget = think.count() > 0
                                  ? bots::Budget{kUnlimited, think}
                                  : bots::Budget{bots::default_budget(budget_level, players).playouts,
                                                 std::chrono::milliseconds(0)};
  if (side.level == 0) return bots::Bot::plain_uct(seed, budget);
  return bots::Bot(side.level, seed, budget);
}

int run_arena(const ArenaSetup& setup) {
  Tally tally;
  for (long long g = 0; g < setup.games; ++g) play_game(setup, g, tally);
  const auto n = static_cast<double>(setup.games);
  const double rate = tally.score / n;
  const auto interval = wilson_interval(rate, n);
  auto mean_playouts = [&](std::size_t side) {
    return tally.choices[side] ? std::round(static_cast<double>(tally.playouts[side]) / static_cast<double>(tally.choices[side])) : 0.0;
  };
  auto mean_ms = [&](std::size_t side) {
    return tally.choices[side] ? rounded(tally.think_ms[side] / static_cast<double>(tally.choices[side]), 1e3) : 0.0;
  };
  const Json line = {
      {"game", setup.game},
      {"options", setup.options},
      {"a", setup.a.name},
      {"b", setup.b.name},
      {"games", setup.games},
      {"wins", tally.wins},
      {"losses", tally.losses},
      {"draws", tally.draws},
      {"score_rate", rounded(rate, 1e4)},
      {"interval95", {rounded(interval[0], 1e4), rounded(interval[1], 1e4)}},
      {"think_ms", {{"a", mean_ms(0)}, {"b", mean_ms(1)}}},
      {"playouts", {{"a", mean_playouts(0)}, {"b", mean_playouts(1)}}},
  };
  std::cout << line.dump() << std::endl;
  return 0;
}

}  // namespace mancala::cli
