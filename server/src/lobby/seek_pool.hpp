#pragma once
// Quick pairing's waiting seeks (protocol "Quick pairing", issue 47), and the rule that makes
// tables of them. Pure: no sockets, no storage, no threads (the caller serialises); the time
// comes from an injected clock, so the rating range's widening and Njaka's wait for a fuller
// table are tested without waiting.
//
// Seeks are kept in buckets by kind (game, resolved options, clock, rated): only seeks of one
// bucket are ever compared, so the cost of a seek grows with the compatible seekers waiting,
// not with all of them. A new seek is paired at once when a table it fits is there (no wave,
// no timer for a lone pair); `pair_waiting`, called about once a second while some bucket
// holds two or more, finds the tables that time has made possible since.
//
// The rules (protocol/README.md "Quick pairing" says why these numbers):
// - a rated pair's ratings may differ by at most kStartRange points, plus kRangeStep for every
//   kRangeStepEvery the shorter-waiting of the two has waited, up to kMaxRange;
// - a table is as large as the waiting seekers allow; a seeker sits at a table smaller than the
//   largest size they accept only after waiting kWaitPerSizeGivenUp for each accepted larger
//   size (Njaka [2,3,4]: a table of 3 after 15 s, of 2 after 30 s);
// - never a player with themselves (two tabs), nor with someone either of them avoids (muted);
// - at most protocol::kMaxSeeksPerPlayer seeks per player;
// - a mild playban: a player who left kPlaybanFrom or more paired games unplayed in the last
//   kPlaybanWindow has every new seek considered only kPlaybanStep later for each such game
//   beyond the first, up to kPlaybanCap (2 games: 30 s, 3: 60 s, ... 7 or more: 3 min).
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "clock.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::server {

// What makes two seeks compatible: equal kinds may share a table.
struct SeekKind {
  std::string game;
  Json options = Json::object();  // resolved by the engine (defaults filled in), without the player count
  std::optional<protocol::ClockChoice> clock;
  bool rated = false;
  // One text for the whole kind: equal kinds have equal keys.
  std::string key() const;
};

struct Seeker {
  std::string seek_id;
  std::string player_id;
  std::vector<int> seats;  // the table sizes accepted, ascending
  double rating = 0;       // compared only in rated buckets
  // When the seek counts as arrived: when it was made, or a playban's delay later. Before it
  // the seek waits unseen; every wait (the rating range's, Njaka's) is counted from it.
  SystemTime since;
};

// Seekers the pool just seated together: the new room's players, oldest seek first.
struct Table {
  SeekKind kind;
  int seats = 0;
  std::vector<Seeker> seekers;
};

class SeekPool {
 public:
  static constexpr double kStartRange = 100;
  static constexpr double kRangeStep = 50;
  static constexpr std::chrono::seconds kRangeStepEvery{5};
  static constexpr double kMaxRange = 500;
  static constexpr std::chrono::seconds kWaitPerSizeGivenUp{15};
  static constexpr int kPlaybanFrom = 2;
  static constexpr std::chrono::hours kPlaybanWindow{24};
  static constexpr std::chrono::seconds kPlaybanStep{30};
  static constexpr std::chrono::seconds kPlaybanCap{180};

  using Now = std::function<SystemTime()>;
  // True when `player` will not play `other` (muted them). Asked both ways round.
  using Avoids = std::function<bool(const std::string& player, const std::string& other)>;

  // `id_prefix` starts every seek id (a random text, so that ids do not repeat across restarts).
  SeekPool(Now now, Avoids avoids, std::string id_prefix);

  struct Added {
    std::string seek_id;
    std::optional<Table> table;  // the seek was paired at once
    std::chrono::seconds delayed{0};  // the playban's wait before it is considered
  };
  // A new seek (`seats` ascending and non-empty), paired at once when it can be; too_many_seeks
  // when the player holds kMaxSeeksPerPlayer already. `seek_id` (not empty): the id it had at the
  // pool's previous holder, kept (a seek the player holds by that id already is not added twice).
  std::variant<Added, protocol::Error> add(const std::string& player_id, const SeekKind& kind,
                                           std::vector<int> seats, double rating, const std::string& seek_id = "");
  // Ends one seek of the player's; false when the player holds no such seek.
  bool cancel(const std::string& player_id, const std::string& seek_id);
  // Ends every seek of the player's (their last connection closed, they sat down elsewhere);
  // how many ended.
  int cancel_all(const std::string& player_id);
  // Ends every seek (this process no longer holds the cluster's pool); the players who held some.
  std::vector<std::string> cancel_everyone();
  // The tables that the time waited made possible since the seeks arrived.
  std::vector<Table> pair_waiting();
  // The player left a paired game unplayed (ended it before their first move): their later
  // seeks wait playban_delay before they are considered.
  void note_unplayed(const std::string& player_id);
  std::chrono::seconds playban_delay(const std::string& player_id);
  // Whether pair_waiting may find a table later: some bucket holds seekers of two players.
  bool may_pair_later() const;

  // The open seeks, one entry per kind and accepted sizes, in the order the kinds first waited.
  std::vector<protocol::SeekListing> listings() const;
  // How many distinct players seek each game.
  std::map<std::string, int> seekers_by_game() const;
  bool holds(const std::string& player_id) const { return by_player_.contains(player_id); }
  std::size_t size() const { return seeks_; }

 private:
  struct Bucket {
    SeekKind kind;
    std::uint64_t order = 0;       // when the kind first waited, for the listing's order
    std::vector<Seeker> seekers;   // oldest first
  };
  bool may_sit(const Seeker& seeker, int size, SystemTime now) const;
  bool compatible(const Bucket& bucket, const Seeker& a, const Seeker& b, SystemTime now) const;
  // Seekers of `bucket` for a table of `size` around seekers[seed]: their indices, the seed's
  // first then oldest first, or nothing when too few fit.
  std::optional<std::vector<std::size_t>> find_table(const Bucket& bucket, std::size_t seed, int size,
                                                     SystemTime now) const;
  // The largest table around seekers[seed] that may sit now.
  std::optional<std::vector<std::size_t>> best_table(const Bucket& bucket, std::size_t seed, SystemTime now) const;
  // Takes the seekers out of the bucket (every other seek of theirs ends too: they are playing).
  Table seat(const std::string& key, std::vector<std::size_t> indices, int size);
  void remove_seek(const std::string& key, const std::string& seek_id);

  Now now_;
  Avoids avoids_;
  std::string id_prefix_;
  std::uint64_t next_id_ = 0;
  std::uint64_t next_order_ = 0;
  std::size_t seeks_ = 0;
  std::unordered_map<std::string, Bucket> buckets_;  // by SeekKind::key
  // When each player left paired games unplayed, oldest first, within kPlaybanWindow.
  std::unordered_map<std::string, std::vector<SystemTime>> unplayed_;
  // Each player's seeks: (seek id, bucket key).
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::string>>> by_player_;
};

// The playban's delay for a player who left `unplayed` paired games unplayed within the window.
std::chrono::seconds playban_delay_for(int unplayed);

// The widest rating difference a rated pair may have once the shorter-waiting has waited `waited`.
double rating_range(std::chrono::nanoseconds waited);

}  // namespace mancala::server
