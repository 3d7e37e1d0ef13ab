#pragma once
// Quick pairing in the server (protocol "Quick pairing", issue 47): the SeekPool (seek_pool.hpp,
// the rules) behind a mutex, the look once a second for tables that time made possible, the
// watchers of `seeks`, and the connections of each player, so that a seek ends with its
// player's last connection and a paired player hears of the room on every tab. The room itself
// is made by the hub (`SeatTable`), which can store it. With several processes, only the holder
// of the cluster's seek pool has seeks here: the others forward theirs (cluster_router.hpp), and
// their clients are proxy connections here like any other.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "connection.hpp"
#include "identity.hpp"
#include "mancala/match.hpp"
#include "net.hpp"
#include "room_plan.hpp"
#include "seek_pool.hpp"

namespace mancala::server {

// A seek as the pool takes it: its kind (options resolved), the sizes accepted, the rating.
struct SeekRequest {
  SeekKind kind;
  std::vector<int> seats;
  double rating = 0;
};

// The seek checked against the game and the player: an unknown game or option, sizes the game
// does not have, a rated seek of a guest. Pure.
std::variant<SeekRequest, protocol::Error> check_seek(const protocol::Seek& seek, const Player& player);

// The room a table opens: playing from version 0, every seat a seeker's (the seats drawn from
// `draw.seed`, so nobody always moves first), the first seeker its host.
struct PairedRoom {
  GameMeta meta;
  Match match;
  std::vector<PlayerRef> players;  // by seat
};
// `players` in the table's order. Throws EngineError when the game refuses the options (they
// were checked when seeking, so only a changed engine would).
PairedRoom plan_paired_room(const Table& table, const std::vector<PlayerRef>& players, const RoomDraw& draw);

class Pairing {
 public:
  using SeatTable = std::function<void(Table)>;
  // The persons seated in rooms being played, by game (for `online`).
  using Playing = std::function<std::map<std::string, int>()>;
  using Now = std::function<SystemTime()>;

  Pairing(net::io_context& io, Now now, SeatTable seat_table, Playing playing);

  // A connection said hello as `player`; it closed (maybe the player's last here).
  void player_connected(const std::shared_ptr<Connection>& connection, const PlayerRef& player);
  void connection_closed(const Connection* connection);
  // The player's open connections here.
  std::vector<std::shared_ptr<Connection>> connections_of(const std::string& player_id) const;

  // A checked seek; `muted`: whom the player muted. Its id, or too_many_seeks. A table found
  // at once goes to SeatTable before this returns.
  // `seek_id` not empty: a seek taken over from the pool's previous holder keeps its id.
  struct SeekMade {
    std::string seek_id;
    std::chrono::seconds delayed{0};  // the mild playban's wait before it is considered
  };
  std::variant<SeekMade, protocol::Error> seek(const Player& player, SeekRequest request,
                                                  std::set<std::string> muted, const std::string& seek_id = "");
  bool cancel(const std::string& player_id, const std::string& seek_id);
  // The player sat down in a room: their seeks end.
  void seated_elsewhere(const std::string& player_id);
  // The mild playban (seek_pool.hpp): a room this pool paired opened; a game ended, with the
  // persons who left it before their first move, who count if the pool paired that room.
  void paired_room_opened(const std::string& room_id);
  void paired_game_finished(const std::string& room_id, const std::vector<std::string>& left_unplayed);
  // Every seek ends (the pool moved to another process); the players who held some.
  std::vector<std::string> end_every_seek();

  void watch(const std::shared_ptr<Connection>& connection);
  // Something `seeks` shows may have changed (a seek, a room that started or ended): the
  // watchers hear of it within a second.
  void changed();

 private:
  void arm_sweep();   // with mutex_ held
  void sweep();       // on strand_
  std::string seeks_text() const;
  void broadcast();   // on strand_
  void seat_all(std::vector<Table> tables);

  Now now_;
  SeatTable seat_table_;
  Playing playing_;

  mutable std::mutex mutex_;  // everything below but the strand's part
  SeekPool pool_;
  std::unordered_map<std::string, std::set<std::string>> muted_;  // player -> whom they muted, while seeking
  std::unordered_map<std::string, std::vector<std::weak_ptr<Connection>>> connections_;  // by player
  std::unordered_map<const Connection*, std::string> player_of_;
  std::unordered_map<const Connection*, std::weak_ptr<Connection>> watchers_;
  bool sweep_armed_ = false;
  std::unordered_set<std::string> paired_rooms_;  // opened here and not yet finished

  Strand strand_;
  net::steady_timer sweep_timer_;      // on strand_
  net::steady_timer broadcast_timer_;  // on strand_
  bool broadcast_scheduled_ = false;   // on strand_
  SteadyTime last_broadcast_{};        // on strand_
  std::string last_text_;              // on strand_
};

}  // namespace mancala::server
