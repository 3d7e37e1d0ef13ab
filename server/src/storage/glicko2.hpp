#pragma once
// Glicko-2 ratings after Mark Glickman, "Example of the Glicko-2 system" (2013), steps 1-8, the
// volatility found with the Illinois algorithm as the paper recommends. Arithmetic only: where
// ratings are kept and when they change is the caller's business.
//
// The defaults are the paper's example values, which are close to lichess's: a newcomer starts
// at 1500 with deviation 350 (nothing is known yet) and volatility 0.06, and tau 0.5 keeps one
// surprising result from making the volatility swing. Every game is a rating period of its own,
// as lichess does it, so a player sees the rating move as soon as the game ends instead of after
// a batch of games.
#include <span>
#include <vector>

namespace mancala::server::ratings {

struct Rating {
  double rating = 1500;
  double deviation = 350;
  double volatility = 0.06;
};

struct Settings {
  double initial_rating = 1500;
  double initial_deviation = 350;
  double initial_volatility = 0.06;
  double tau = 0.5;
  // A rating this uncertain is still being found; lichess marks it with a question mark.
  double provisional_deviation = 110;
  // Never less certain than a newcomer, however long a player stays away.
  double max_deviation = 350;
};

struct GameResult {
  Rating opponent;
  double score;  // 1 win, 0.5 draw, 0 loss
};

// One rating period. With no games only the deviation grows: time away makes a rating less sure.
Rating update(const Rating& player, std::span<const GameResult> results, const Settings& = {});

bool provisional(const Rating&, const Settings& = {});

// A finished game of 2-4 seats, every pair of seats one result by final order. `outcomes[i]` is
// seat i's `Game::outcome` (1 winner, 0 loser, 1/2 each for a draw; with 3-4 seats the share of
// the other seats ranked ahead, a shared place half), so equal outcomes are a draw between those
// two. Every new rating comes from the ratings before the game, so the order in which seats are
// rated changes nothing. Throws std::invalid_argument unless there are as many outcomes as
// ratings, and at least two.
std::vector<Rating> rate_game(std::span<const Rating> before, std::span<const double> outcomes,
                              const Settings& = {});

}  // namespace mancala::server::ratings
