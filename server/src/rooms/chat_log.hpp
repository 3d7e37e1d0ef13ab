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

#include "chat_store.hpp"
#include "clock.hpp"

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
  void record(StoredChatLine said);
  // The recent lines a member may see, as they were sent.
  std::vector<protocol::ChatLine> visible(bool seated) const;
  // Seated players do not read a spectator's line said during play, then or later.
  static bool may_read(const StoredChatLine& said, bool seated);
  const protocol::ChatLine* find(const std::string& player_id, const std::string& at) const;

 private:
  std::deque<StoredChatLine> recent_;
  std::unordered_map<std::string, std::deque<SteadyTime>> said_;  // by player: times in the window
  std::unordered_map<std::string, std::string> last_text_;
};

}  // namespace mancala::server
