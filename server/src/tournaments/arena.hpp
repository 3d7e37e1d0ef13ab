#pragma once
// One arena's running state (protocol "Tournaments"): its players, who is playing where, the
// points of each finished game. Pure: no storage, no sockets, the time from an injected clock;
// the caller serialises. tournament_runner.hpp opens the rooms and stores what changed.
//
// From starts_at until ends_at a free player (not playing, not paused) is paired as soon as
// another is free (arena_pairing.hpp). After ends_at nobody is paired any more, but a game still
// being played then counts when it ends: the arena is over when its last game is.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "clock.hpp"
#include "mancala/json.hpp"
#include "standings.hpp"

namespace mancala::server {

class Arena {
 public:
  using Now = std::function<SystemTime()>;
  // `sizes`: the game's table sizes, ascending ({2}, Njaka {2,3,4}).
  Arena(Now now, SystemTime starts_at, SystemTime ends_at, std::vector<int> sizes);
  // A round robin instead (protocol "Tournaments"): joining only before the start; at the start
  // every pair of players is seated once, all at once; a win 1, a draw ½; over when every
  // pair has met and no game is left. Its end is its last game's, not a time.
  void run_as_round_robin() { round_robin_ = true; }
  bool timed() const { return !round_robin_; }
  // A round robin's game stored as finished: that pair has met (after a restart).
  void met(const std::vector<std::string>& players);

  // Joins, or comes back from a pause. False once the arena has ended.
  bool join(TournamentPlayer player);
  // A stored player back after a restart, as they were (paused or not).
  void restore(TournamentPlayer player) { players_.push_back(std::move(player)); }
  // Pauses (running) or withdraws (before the start). False when not a player.
  bool leave(const std::string& player_id);

  bool started() const { return now_() >= starts_at_; }
  bool pairing() const { return started() && (round_robin_ || now_() < ends_at_); }
  // Ended, and no game of it is still being played.
  bool over() const;
  SystemTime ends_at() const { return ends_at_; }

  // The tables to open now (none before the start or after the end). Their players count as
  // playing until `opened` or `not_opened` says what became of the table.
  std::vector<std::vector<std::string>> pair_free();
  void opened(const std::string& room_id, const std::vector<std::string>& players_by_seat);
  void not_opened(const std::vector<std::string>& players);
  // A game of this arena ended with `result` (the engine's). The players whose standing changed;
  // empty when the room is not this arena's.
  std::vector<std::string> finished(const std::string& room_id, const Json& result);

  const std::vector<TournamentPlayer>& players() const { return players_; }
  const TournamentPlayer* find(const std::string& player_id) const;
  bool playing(const std::string& player_id) const { return busy_.contains(player_id); }
  // The rooms being played, in the order they were opened.
  std::vector<std::string> rooms() const;

 private:
  TournamentPlayer* find_mutable(const std::string& player_id);
  std::vector<std::vector<std::string>> pairs_not_met();
  void score(const std::vector<std::string>& seated, const std::vector<int>& places);

  bool round_robin_ = false;
  std::set<std::pair<std::string, std::string>> met_;  // round robin: pairs seated, (smaller, larger) id

  Now now_;
  SystemTime starts_at_;
  SystemTime ends_at_;
  std::vector<int> sizes_;
  std::vector<TournamentPlayer> players_;  // in the order they joined
  std::map<std::string, std::vector<std::string>> rooms_;  // room id -> players by seat
  std::vector<std::string> room_order_;
  std::map<std::string, bool> busy_;  // player -> in a table being opened or a game
};

}  // namespace mancala::server
