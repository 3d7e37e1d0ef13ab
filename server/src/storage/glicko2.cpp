#include "glicko2.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace mancala::server::ratings {
namespace {

// Glicko-2 works on its own scale (step 2); 400 / ln 10 turns it back into Elo-like points.
constexpr double kScale = 173.7178;
constexpr double kCentre = 1500;
// The paper's convergence tolerance for the volatility (step 5).
constexpr double kEpsilon = 0.000001;
// Outcomes come from divisions (2/3, 1/3), so places that tie may differ in the last bits.
constexpr double kSamePlace = 1e-9;

struct Scaled {
  double mu;
  double phi;
};

Scaled scaled(const Rating& r) { return {(r.rating - kCentre) / kScale, r.deviation / kScale}; }

// How much an opponent's uncertain rating should count (step 3).
double g(double phi) {
  return 1 / std::sqrt(1 + 3 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected_score(double mu, const Scaled& opponent) {
  return 1 / (1 + std::exp(-g(opponent.phi) * (mu - opponent.mu)));
}

// Steps 3 and 4: the estimated variance v from the games, and the improvement delta / v that
// the results showed over what the ratings predicted.
struct Evidence {
  double v;
  double improvement;
};

Evidence evidence(double mu, std::span<const GameResult> results) {
  double information = 0;
  double improvement = 0;
  for (const GameResult& result : results) {
    const Scaled opponent = scaled(result.opponent);
    const double weight = g(opponent.phi);
    const double e = expected_score(mu, opponent);
    information += weight * weight * e * (1 - e);
    improvement += weight * (result.score - e);
  }
  return {1 / information, improvement};
}

// Step 5: the new volatility, the root of f by the Illinois algorithm (regula falsi that halves
// the stale side's value so it cannot stall on one end).
double new_volatility(double phi, double sigma, double delta, double v, double tau) {
  const double a = std::log(sigma * sigma);
  const auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (tau * tau);
  };
  double low = a;
  double high = 0;
  if (delta * delta > phi * phi + v) {
    high = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    high = a - k * tau;
  }
  double f_low = f(low);
  double f_high = f(high);
  while (std::abs(high - low) > kEpsilon) {
    const double c = low + (low - high) * f_low / (f_high - f_low);
    const double f_c = f(c);
    if (f_c * f_high <= 0) {
      low = high;
      f_low = f_high;
    } else {
      f_low /= 2;
    }
    high = c;
    f_high = f_c;
  }
  return std::exp(low / 2);
}

Rating unscaled(double mu, double phi, double volatility, const Settings& settings) {
  return {mu * kScale + kCentre, std::min(phi * kScale, settings.max_deviation), volatility};
}

double pair_score(double mine, double theirs) {
  if (mine > theirs + kSamePlace) return 1;
  if (mine < theirs - kSamePlace) return 0;
  return 0.5;
}

}  // namespace

Rating update(const Rating& player, std::span<const GameResult> results, const Settings& settings) {
  const auto [mu, phi] = scaled(player);
  if (results.empty()) {
    return unscaled(mu, std::hypot(phi, player.volatility), player.volatility, settings);
  }
  const Evidence seen = evidence(mu, results);
  const double volatility =
      new_volatility(phi, player.volatility, seen.v * seen.improvement, seen.v, settings.tau);
  const double phi_new = 1 / std::sqrt(1 / (phi * phi + volatility * volatility) + 1 / seen.v);
  return unscaled(mu + phi_new * phi_new * seen.improvement, phi_new, volatility, settings);
}

bool provisional(const Rating& r, const Settings& settings) {
  return r.deviation >= settings.provisional_deviation;
}

std::vector<Rating> rate_game(std::span<const Rating> before, std::span<const double> outcomes,
                              const Settings& settings) {
  if (before.size() != outcomes.size() || before.size() < 2) {
    throw std::invalid_argument("rate_game: one outcome per rating, at least two seats");
  }
  std::vector<Rating> after;
  after.reserve(before.size());
  std::vector<GameResult> results;
  for (std::size_t i = 0; i < before.size(); ++i) {
    results.clear();
    for (std::size_t j = 0; j < before.size(); ++j) {
      if (j != i) results.push_back({before[j], pair_score(outcomes[i], outcomes[j])});
    }
    after.push_back(update(before[i], results, settings));
  }
  return after;
}

}  // namespace mancala::server::ratings
