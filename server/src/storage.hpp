#pragma once
// Everything the server keeps in SQLite. Writes go to the one GroupCommitWriter and report on
// its thread once durable; reads use their own connections (WAL lets them run beside the
// writer), except for a :memory: database, whose reads run on the writer thread.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "database.hpp"
#include "group_commit_writer.hpp"
#include "stored_game.hpp"
#include "wal_checkpointer.hpp"

namespace mancala::server {

class Histogram;

struct StoredPlayer {
  std::string id;
  std::string name;
  std::string token_hash;  // hex SHA-256 of the token
};

struct GameQuery {
  std::optional<std::string> player_name;
  std::optional<std::string> game;
  std::optional<std::string> status;  // playing | finished; both when absent
  int limit = 20;
  std::optional<std::int64_t> before;  // cursor: games older than this
  std::string viewer_id;               // sees his own private games
};

struct GamePage {
  std::vector<GameMeta> games;
  std::optional<std::int64_t> next;  // cursor of the next page
};

// A new update's effects beyond the action row itself.
struct UpdateEffects {
  std::vector<std::pair<int, Json>> new_rounds;  // (1-based number, round record)
  std::optional<std::string> finished_at;        // set when the update ended the game
  Json result;
};

class Storage {
 public:
  using Done = GroupCommitWriter::Done;

  // Opens or creates the database and brings its schema up to date. Throws SqlError.
  Storage(const std::string& path, Histogram& commit_latency);
  ~Storage();

  // A consistent copy of the database at `path` into the new file `target` (VACUUM INTO).
  static void backup(const std::string& path, const std::string& target);

  void create_player(StoredPlayer player, Done done);
  // The game row and the seats already in `meta` (the creator's).
  void create_game(GameMeta meta, Done done);
  // Takes a seat; `started_at` also marks the game as started (the last seat was taken).
  void take_seat(std::string game_id, int seat, std::string player_id,
                 std::optional<std::string> started_at, Done done);
  // Puts a computer player of `level` on a seat (no player row).
  void take_bot_seat(std::string game_id, int seat, int level, std::optional<std::string> started_at,
                     Done done);
  void free_seat(std::string game_id, int seat, Done done);
  void delete_game(std::string game_id, Done done);
  void append_action(std::string game_id, std::shared_ptr<const StoredAction> action,
                     UpdateEffects effects, Done done);

  std::vector<StoredPlayer> load_players();
  std::vector<StoredGame> load_unfinished_games();
  std::optional<StoredGame> load_game(const std::string& id);
  std::vector<StoredAction> load_actions(const std::string& game_id);
  // The last time the server noted it was running (ISO 8601 UTC; empty when never): a restart
  // charges running clocks up to then.
  void note_alive(std::string at, Done done);
  std::string load_last_alive();
  GamePage list_games(const GameQuery& query);
  bool healthy();

  // Commits what is queued and closes the writer.
  void stop();

 private:
  void take_seat(std::string game_id, StoredSeat seat, std::optional<std::string> started_at, Done done);
  // Runs `read` with a reader connection (or on the writer thread for :memory:).
  void read(const std::function<void(Database&)>& read);

  std::string path_;
  bool in_memory_;
  std::unique_ptr<GroupCommitWriter> writer_;
  std::unique_ptr<WalCheckpointer> checkpointer_;  // file databases only
  std::mutex readers_mutex_;
  std::vector<std::unique_ptr<Database>> idle_readers_;
};

}  // namespace mancala::server
