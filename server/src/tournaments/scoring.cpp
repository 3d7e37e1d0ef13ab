#include "scoring.hpp"

#include <algorithm>
#include <map>

namespace mancala::server {

std::vector<int> places_from_result(const Json& result, int seats) {
  if (!result.is_object() || seats < 1) return {};
  std::vector<int> places(static_cast<std::size_t>(seats), 0);
  const Json ranking = result.value("ranking", Json());
  if (ranking.is_array() && !ranking.empty()) {
    int place = 1;
    for (const Json& group : ranking) {
      if (!group.is_array()) return {};
      for (const Json& seat : group) {
        if (!seat.is_number_integer() || seat.get<int>() < 0 || seat.get<int>() >= seats) return {};
        places[static_cast<std::size_t>(seat.get<int>())] = place;
      }
      place += static_cast<int>(group.size());  // two sharing first: the next is third
    }
    if (std::find(places.begin(), places.end(), 0) != places.end()) return {};
    return places;
  }
  const Json winner = result.value("winner", Json());
  if (winner.is_number_integer()) {
    const int w = winner.get<int>();
    if (w < 0 || w >= seats) return {};
    std::fill(places.begin(), places.end(), 2);
    places[static_cast<std::size_t>(w)] = 1;
    return places;
  }
  if (winner.is_null() && result.contains("winner")) {  // a draw: everyone shares the first place
    std::fill(places.begin(), places.end(), 1);
    return places;
  }
  return {};
}

GameOutcome outcome_of_place(const std::vector<int>& places, int seat) {
  const int mine = places.at(static_cast<std::size_t>(seat));
  if (mine != 1) return GameOutcome::loss;
  return std::count(places.begin(), places.end(), 1) == 1 ? GameOutcome::win : GameOutcome::draw;
}

std::vector<double> place_points(const std::vector<int>& places) {
  const int seats = static_cast<int>(places.size());
  std::map<int, int> sharing;  // place -> how many share it
  for (const int place : places) ++sharing[place];
  std::vector<double> points;
  for (const int place : places) {
    const int shared = sharing[place];
    double sum = 0;
    for (int covered = place; covered < place + shared; ++covered) sum += 2.0 * (seats - covered);
    points.push_back(sum / shared);
  }
  return points;
}

double arena_points(double place_points, GameOutcome outcome, ArenaStreak& streak) {
  const bool on_fire = streak.wins_in_a_row >= 2;
  streak.wins_in_a_row = outcome == GameOutcome::win ? streak.wins_in_a_row + 1 : 0;
  return on_fire && outcome != GameOutcome::loss ? 2 * place_points : place_points;
}

double round_robin_points(GameOutcome outcome) {
  switch (outcome) {
    case GameOutcome::win: return 1;
    case GameOutcome::draw: return 0.5;
    case GameOutcome::loss: return 0;
  }
  return 0;
}

}  // namespace mancala::server
