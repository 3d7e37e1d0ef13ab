#include "players_api.hpp"

#include <algorithm>

#include "mancala/registry.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

constexpr int kLeaderboardSize = 50;
constexpr int kTournamentsWonShown = 50;

Json rating_json(const SeatRating& rating) {
  return {{"rating", rating.rating.rating}, {"deviation", rating.rating.deviation},
          {"provisional", rating.provisional()}, {"games", rating.games}};
}

// The finished tournaments the player won, latest first, each as the profile links it.
Json tournaments_won(const ApiCall& call, const std::string& player_id) {
  Json won = Json::array();
  for (const auto& t : call.context.storage.tournaments().won_by(player_id, kTournamentsWonShown))
    won.push_back({{"id", t.id}, {"name", t.name}, {"game", t.game}, {"kind", t.kind}, {"rated", t.rated},
                   {"starts_at", t.starts_at}, {"ends_at", t.ends_at}});
  return won;
}

// By account name or player id.
void profile(const ApiCall& call) {
  const std::string& who = call.params[0];
  const auto profile = call.context.storage.accounts().profile(who);
  if (!profile) throw not_found("no player '" + who + "': give an account's name or a player's id");
  Json ratings = Json::object();
  for (const auto& [game, rating] : profile->ratings) ratings[game] = rating_json(rating);
  Json history = Json::object();
  for (const auto& point : profile->history)
    history[point.game].push_back(
        {{"at", point.at}, {"rating", point.rating}, {"deviation", point.deviation}, {"game_id", point.game_id}});
  call.reply(json_response(call.http(), http::status::ok,
                           Json{{"name", profile->name},
                                {"player_id", profile->player_id},
                                {"account", profile->account},
                                {"ratings", std::move(ratings)},
                                {"games", {{"played", profile->played}, {"won", profile->won},
                                           {"drawn", profile->drawn}, {"lost", profile->lost}}},
                                {"rating_history", std::move(history)},
                                {"tournaments_won", tournaments_won(call, profile->player_id)}}));
}

void leaderboard(const ApiCall& call) {
  const std::string& game = call.params[0];
  const auto& types = game_types();
  if (std::none_of(types.begin(), types.end(), [&](const GameType& type) { return type.id == game; }))
    throw not_found("no game '" + game + "': GET /api/game-types lists the games");
  Json players = Json::array();
  for (const auto& entry : call.context.storage.accounts().leaderboard(game, kLeaderboardSize))
    players.push_back({{"name", entry.name}, {"player_id", entry.player_id}, {"rating", entry.rating.rating.rating},
                       {"deviation", entry.rating.rating.deviation}, {"games", entry.rating.games}});
  call.reply(json_response(call.http(), http::status::ok, Json{{"game", game}, {"players", std::move(players)}}));
}

constexpr Route kRoutes[] = {
    {http::verb::get, "/api/players/{name_or_id}", {}, profile},
    {http::verb::get, "/api/leaderboard/{game}", {}, leaderboard},
};

}  // namespace

RouteTable player_routes() { return {"players", kRoutes, count_per_address}; }

}  // namespace mancala::server
