#pragma once
// What the database keeps of room chat (issue 33): every line with its game, what members
// reported for the operator, players an operator silenced, and whether a room's spectators may
// chat. Lines are written like moves (through the group commit, reported on its thread);
// reads block and run on the reader threads.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mancala/protocol/server_messages.hpp"

namespace mancala::server {

// A line as the room said it. `during_play`: said while the game was played, so a spectator's
// line stays hidden from the seated players for good (they could not read it live).
struct StoredChatLine {
  protocol::ChatLine line;
  bool during_play = false;
};

// A player someone muted: his lines are hidden from them (the name as it was when muted).
struct MutedPlayer {
  std::string player_id;
  std::string name;
};

class ChatStore {
 public:
  using Done = std::function<void(bool committed)>;
  virtual ~ChatStore() = default;

  virtual void append(std::string game_id, StoredChatLine said, Done done) = 0;
  virtual std::vector<StoredChatLine> lines(const std::string& game_id) = 0;  // in order
  virtual void report(std::string game_id, protocol::ChatLine line, std::string reporter_id, Done done) = 0;
  virtual void set_spectator_chat(std::string game_id, bool on, Done done) = 0;
  // Whom an account muted, oldest first (a blocking read), and muting or unmuting one (blocks
  // until stored). Guests keep their mutes in their browser.
  virtual std::vector<MutedPlayer> mutes(const std::string& player_id) = 0;
  virtual void set_muted(const std::string& player_id, const MutedPlayer& other, bool muted) = 0;
  // Until when the player may not chat (ISO 8601 UTC), when that is still ahead.
  virtual std::optional<std::string> silenced_until(const std::string& player_id) = 0;
  // Blocks until stored; an empty `until` lifts the silence.
  virtual void silence(const std::string& player_id, const std::string& until) = 0;
};

}  // namespace mancala::server
