#pragma once
// The AccountStore, the ChatStore, the PushSubscriptions and the AnalysisStore in SQL both databases read alike, and a finished game's effect on its
// players' records and ratings, written inside the transaction that stores its last update.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "accounts.hpp"
#include "analysis_store.hpp"
#include "chat_store.hpp"
#include "push_subscriptions.hpp"
#include "tournament_store.hpp"

namespace mancala::server {

// How the store reaches the database it shares with the game storage.
template <class Connection>
struct SqlAccess {
  std::function<void(const std::function<void(Connection&)>&)> read;
  // Runs the job in a write transaction and returns once it is committed; rethrows what the
  // job threw (a NameTaken), or throws Unavailable when the commit failed.
  std::function<void(std::function<void(Connection&)>)> write;
  // Queues the job for the next group commit and returns at once; `done` reports it.
  std::function<void(std::function<void(Connection&)>, std::function<void(bool)>)> submit;
};

template <class Connection>
std::unique_ptr<AccountStore> make_account_store(SqlAccess<Connection> access);
template <class Connection>
std::unique_ptr<ChatStore> make_chat_store(SqlAccess<Connection> access);
template <class Connection>
std::unique_ptr<PushSubscriptions> make_push_subscriptions(SqlAccess<Connection> access);
template <class Connection>
std::unique_ptr<AnalysisStore> make_analysis_store(SqlAccess<Connection> access);
template <class Connection>
std::unique_ptr<TournamentStore> make_tournament_store(SqlAccess<Connection> access);

// Stores each person seat's outcome and, for a rated game, every account's new Glicko-2
// rating and its point in the history. A game counts once: its history rows are keyed by game.
template <class Connection>
void record_outcomes(Connection& db, const std::string& game_id, const std::vector<double>& outcomes,
                     const std::string& at);

// Gives every account its name's skeleton (the migration that adds the column, schema.cpp).
template <class Connection>
void fill_name_skeletons(Connection& db);

}  // namespace mancala::server
