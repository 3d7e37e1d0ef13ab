#pragma once
// A player and a game as the database holds them: for a game, who set it up how, who sits
// where, and every committed action in order. Rooms are rebuilt from this after a restart and the history API reads it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mancala/game.hpp"

namespace mancala::server {

struct StoredPlayer {
  std::string id;
  std::string name;
  std::string token_hash;  // hex SHA-256 of the token
  bool account = false;    // took an account: the token no longer works
};

struct StoredSeat {
  int seat = 0;
  std::string player_id;  // empty for a computer player
  std::string name;
  int bot_level = 0;      // a computer player's level (1-5), 0 for a person
  bool account = false;   // the player has an account (not a guest)
};

struct GameMeta {
  std::string id;
  std::string game;
  Json options = Json::object();  // resolved: every option, defaults filled in
  Json draws = Json::object();    // the random draws made at creation
  bool is_private = false;
  bool rated = false;             // between accounts only; its result moves their ratings
  bool spectator_chat = true;     // the creator may turn the spectators' chat off
  std::string invite;             // empty for public rooms
  int grace_seconds = 120;
  Json clock;                     // {"initial_s","increment_s"} or {"per_move_s"}; null: no clock
  std::string status = "waiting";  // waiting | playing | finished
  std::string created;
  // The player who created the room (the lobby's "hosted by"); both empty for rooms stored
  // before the host was (schema 3 and older).
  std::string host_id;
  std::string host_name;
  std::string started;   // empty until the game starts
  std::string finished;  // empty until it ends
  Json result;           // null until it ends
  std::vector<StoredSeat> seats;  // taken seats only, by seat number
};

// One committed update: `kind` is move, resign, abandon, timeout, or a kind the game declares (a
// special action such as concede, a claim window's claim or fallback, see mancala::ClaimWindow).
struct StoredAction {
  std::int64_t version = 0;
  std::string kind;
  std::optional<int> seat;
  std::string tokens;
  std::string events = "[]";  // JSON text; empty: the engine's, made again by a replay (game_log.hpp)
  std::string at;
  Json clock;  // the clock's view right after this update; null: no clock
};

struct StoredGame {
  GameMeta meta;
  std::vector<StoredAction> actions;
};

}  // namespace mancala::server
