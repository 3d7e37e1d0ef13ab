#pragma once
// A room's chat as the room keeps it: the recent lines (for a reload or a late joiner), who may
// read which (the spectators' lines stay hidden from seated players while they play, as on
// lichess), and the limits on saying things: 5 lines in 10 s per player, not the same line
// twice in a row; who may speak at all (members only; spectators only while the creator allows
// it) and on which channel. Pure: no strand, no storage; the room calls it on its strand (an
// operator's silencing is a database read: room_reads.hpp).
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "chat_store.hpp"
#include "clock.hpp"
#include "identity.hpp"
#include "mancala/protocol/errors.hpp"

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
  // Who speaks, as the room sees him when he speaks.
  struct Speaker {
    const Player& player;
    bool member = false;  // his connection is in the room (not merely sent a message to it)
    bool seated = false;
  };
  // Why `speaker` may not say `text` in room `room_id` now: not_found for a non-member,
  // not_allowed for a spectator while the spectators' chat is off, rate_limited (take_turn).
  // Nothing when he may, which counts the line against his limit.
  std::optional<protocol::Error> refusal(const std::string& room_id, const Speaker& speaker, bool spectator_chat,
                                         const std::string& text, SteadyTime now);
  // The line as it is stored and sent: a seated speaker's on the players' channel. Whether it
  // was said during play is settled when it is said, and stored with it: who may read it must
  // not depend on how soon after it the game ended.
  static StoredChatLine line(const Speaker& speaker, std::string text, std::string at, bool during_play);
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
