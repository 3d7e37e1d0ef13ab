#pragma once
// The room a rematch opens: the same game, options, privacy, grace time, clock and computer
// players as the finished one, every occupant moved on by one seat (seat i to seat i+1, the
// last to seat 0), so that who moves first changes hands. It starts at once: every seat is taken.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "identity.hpp"
#include "mancala/match.hpp"
#include "mancala/protocol/errors.hpp"
#include "stored_game.hpp"

namespace mancala::server {

struct RematchSetup {
  GameMeta meta;
  std::vector<PlayerRef> players;  // by new seat; null for computer players
};

// `players[i]` and `bot_levels[i]` describe old seat i (a person, or a computer player's
// level); `fresh` is the new game with its own random draws; `invite` is empty for a public
// room; `now` is the creation and start time.
RematchSetup rematch_setup(const GameMeta& old, const std::vector<PlayerRef>& players,
                           const std::vector<int>& bot_levels, const Match& fresh, std::string id,
                           std::string invite, const std::string& now);

// A finished room's votes for a rematch: the seats that asked (computer players agree as soon
// as a person asks), then the rematch's room while it is set up and once it exists.
class RematchVotes {
 public:
  // Why nobody may ask now (the rematch exists or is being set up); nullopt when one may.
  std::optional<protocol::Error> refusal() const;
  // `seat` asks; so do the computer players' seats (`bot_levels[i] > 0`). True when every seat
  // has asked: the rematch is to be set up now, and `setting_up` is true until `set_up`.
  bool ask(int seat, const std::vector<int>& bot_levels);
  // The room the rematch opened; an empty id means it could not be set up, and the votes
  // start over.
  void set_up(const std::string& room_id);

  std::vector<int> asked() const { return {asked_.begin(), asked_.end()}; }
  bool setting_up() const { return setting_up_; }
  const std::string& room() const { return room_; }  // empty until the rematch exists

 private:
  std::set<int> asked_;
  bool setting_up_ = false;
  std::string room_;
};

}  // namespace mancala::server
