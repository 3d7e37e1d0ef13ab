#pragma once
// A tournament game's points (protocol "Tournaments"). Pure: the rules only, no storage, no time.
//
// Arena: a win 2, a draw 1, a loss 0; after two wins in a row each further win scores 4 and a
// draw 2, until the next game that is not a win. Njaka tables of 3 or 4 score by place:
// 2 × (seats − place), shared places sharing their points; that rule gives two seats 2/1/0, so
// one rule serves every table. The streak doubles a Njaka table's points too when the player
// won it or shared its first place (a "draw"), and counts only sole first places as wins.
// Round robin: a win 1, a draw ½, a loss 0, and no streak.
#include <optional>
#include <vector>

#include "mancala/json.hpp"

namespace mancala::server {

enum class GameOutcome { win, draw, loss };

// Each seat's place, 1 first, from a finished game's result ({"winner":k|null} or
// {"ranking":[[seats],…]}): equal places for shared ones. Empty when the result names neither.
std::vector<int> places_from_result(const Json& result, int seats);

// The outcome for the streak: sole first place a win, shared first a draw, else a loss.
GameOutcome outcome_of_place(const std::vector<int>& places, int seat);

// 2 × (seats − place) for every seat, each shared place averaging the points of the places it
// covers (two sharing the first of four: (6 + 4) / 2 = 5 each).
std::vector<double> place_points(const std::vector<int>& places);

// A player's standing in an arena as its scoring needs it.
struct ArenaStreak {
  int wins_in_a_row = 0;
};

// The arena points of one game, and the streak after it.
double arena_points(double place_points, GameOutcome outcome, ArenaStreak& streak);

double round_robin_points(GameOutcome outcome);

}  // namespace mancala::server
