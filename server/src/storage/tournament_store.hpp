#pragma once
// What the database keeps of tournaments (issue 48, protocol "Tournaments"): each tournament,
// its players with their scores, and its pairings (the rooms it opened). Every call blocks on
// the database: call them from a reader thread, never from a network thread or a room's strand.
#include <optional>
#include <string>
#include <vector>

#include "mancala/json.hpp"

namespace mancala::server {

struct StoredTournament {
  std::string id;
  std::string name;
  std::string game;
  Json options = Json::object();
  Json clock;                      // {"initial_s","increment_s"} or {"per_move_s"}; null: none
  std::string kind = "arena";      // arena | round_robin
  bool rated = false;
  std::string status = "upcoming";  // upcoming | running | finished
  std::string starts_at;           // ISO 8601 UTC
  int minutes = 60;                // an arena's length
  std::string ends_at;             // empty until known (a round robin's is its last game's end)
  std::string created_by;          // the account's player id; empty: the operator's schedule
  std::string created;
};

struct StoredEntrant {
  std::string player_id;
  std::string name;
  double score = 0;
  int streak = 0;
  int games = 0;
  bool paused = false;
  std::string last_opponent;
};

struct StoredPairing {
  std::string room_id;
  std::vector<std::string> players;  // by seat
  bool finished = false;
};

class TournamentStore {
 public:
  virtual ~TournamentStore() = default;
  virtual void create(const StoredTournament& tournament) = 0;
  virtual std::optional<StoredTournament> find(const std::string& id) = 0;
  // Those with this status ("" for all), by start time, at most `limit`.
  virtual std::vector<StoredTournament> list(const std::string& status, int limit) = 0;
  virtual void set_status(const std::string& id, const std::string& status, const std::string& ends_at) = 0;
  // The finished tournaments the player won, latest end first, at most `limit`: where their
  // score is the best (all who share it won; a best of 0, nobody having scored, is no win).
  virtual std::vector<StoredTournament> won_by(const std::string& player_id, int limit) = 0;

  // Adds the player, or stores their new standing (score, streak, games, paused).
  virtual void save_entrant(const std::string& tournament_id, const StoredEntrant& entrant) = 0;
  // False when the player was not in it.
  virtual bool remove_entrant(const std::string& tournament_id, const std::string& player_id) = 0;
  // In the order they joined.
  virtual std::vector<StoredEntrant> entrants(const std::string& tournament_id) = 0;

  virtual void add_pairing(const std::string& tournament_id, const StoredPairing& pairing) = 0;
  // The pairing's game ended: it is marked finished and its players' standings stored, in one
  // transaction (a crash keeps both or neither, so a game never counts twice or not at all).
  virtual void finish_pairing(const std::string& tournament_id, const std::string& room_id,
                              const std::vector<StoredEntrant>& standings) = 0;
  virtual std::vector<StoredPairing> pairings(const std::string& tournament_id) = 0;
};

}  // namespace mancala::server
