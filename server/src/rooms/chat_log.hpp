#pragma once
// A room's chat as the room keeps it: the recent lines (for a reload or a late joiner), who may
// read which (the spectators' lines stay hidden from seated players while they play, as on
// lichess), and the limits on saying things: 5 lines in 10 s per player, not the same line
// twice in a row. Pure: no strand, no storage; the room calls it on its strand.
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "clock.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::server {

inline constexpr const char* kPlayersChannel = "players";
inline constexpr const char* kSpectatorsChannel = "spectators";

class ChatLog {
 public:
  static constexpr std::size_t kRecentLines = 50;
  static constexpr std::size_t kLinesPerWindow = 5;
  static constexpr std::chrono::seconds kWindow{10};

  // Why `player_id` may not say `text` now (a rate_limited refusal's words); nothing when he
  // may, which counts the line against his limit.
  std::optional<std::string> take_turn(const std::string& player_id, const std::string& text, SteadyTime now);
  // `playing`: the game was being played when the line was said (seated players did not get
  // it if it was a spectator's, and do not see it later either).
  void record(protocol::ChatLine line, bool playing);
  // The recent lines a member may see, as they were sent.
  std::vector<protocol::ChatLine> visible(bool seated) const;
  static bool may_read(const protocol::ChatLine& line, bool seated, bool playing);
  const protocol::ChatLine* find(const std::string& player_id, const std::string& at) const;

 private:
  struct Said {
    protocol::ChatLine line;
    bool during_play;
  };
  std::deque<Said> recent_;
  std::unordered_map<std::string, std::deque<SteadyTime>> said_;  // by player: times in the window
  std::unordered_map<std::string, std::string> last_text_;
};

}  // namespace mancala::server
