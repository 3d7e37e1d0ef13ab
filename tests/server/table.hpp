#pragma once
// A game table for the tests: clients seated in one private room, and a loop that plays the
// game to its end choosing tokens from `state.legal`, checking that every client sees the same
// updates.
#include <map>

#include "harness.hpp"
#include "mancala/match.hpp"

namespace mancala::testing {

struct Table {
  std::string room;
  std::string invite;
  std::vector<std::unique_ptr<Client>> clients;  // clients[i] sits at seat i
  std::vector<std::string> tokens;               // each client's player token
  std::int64_t version = 0;
  Json state;
  std::vector<Json> states;  // states[v]: the state every client saw at version v
  std::vector<Json> events;  // events[v]: the events of the update to version v (events[0] is null)
};

// Opens a private room of `game` with `seats` players (the creator at seat 0, the others joined
// by invite in order) and waits until the game starts. `create_extra`: more create_room fields
// (a clock).
Table open_table(unsigned short port, const std::string& game, const Json& options, int seats,
                 const Json& create_extra = Json::object());

// What happens when a Plex! window opens.
enum class PlexPolicy { one_claims, all_claim_at_once, nobody_claims, leave_open };

// Plays one move for the seat to move (tokens chosen by `rng` from state.legal, one decision at
// a time) and checks that every client got the same update. Handles a Plex! window that the
// move opens. Returns the update.
Json play_one(Table& table, Random& rng, PlexPolicy plex = PlexPolicy::one_claims);

// Plays until the game is over (at most `limit` updates). Returns the number of updates.
int play_to_end(Table& table, std::uint64_t seed, PlexPolicy plex = PlexPolicy::one_claims,
                int limit = 20000);

// Waits for the update with `version` on `client`.
Json wait_update(Client& client, std::int64_t version);

// The moves (their tokens) the history API on `port` holds for the table's room, in order.
std::vector<std::string> stored_moves(unsigned short port, const Table& table);

// Every seat of `table` says hello again on `port` with its token and gets its room back at the
// exact version and state.
void reconnect_all(Table& table, unsigned short port);

}  // namespace mancala::testing
