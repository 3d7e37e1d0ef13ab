#pragma once
// What the database keeps of accounts (issue 31): names and password hashes, sessions and
// password resets by the hash of their secret, Glicko-2 ratings with their history, and each
// player's record. Every call blocks: they serve the HTTP API on the reader threads, never a
// network thread or a room. Writes go through the group-commit writer like every other.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "glicko2.hpp"

namespace mancala::server {

struct AccountRecord {
  std::string player_id;
  std::string name;
  std::string password_hash;  // Argon2id string (password.hpp)
  std::string language;       // "en", "vi", "de"; empty: not chosen yet (issue 49)
};

struct SessionRecord {
  std::string hash;  // SHA-256 of the cookie's secret, hex
  std::string created;
  std::string last_used;
};

struct NewAccount {
  std::string player_id;  // a guest's id (a claim), or a new one
  bool new_player = false;  // no players row yet: one is created
  std::string name;
  std::string password_hash;
  std::string session_hash;
  std::string revoked_token_hash;  // replaces the guest token's hash: the token stops working
};

struct SeatRating {
  ratings::Rating rating;
  int games = 0;
  bool provisional() const { return ratings::provisional(rating); }
};

struct RatingPoint {
  std::string game;
  std::string game_id;
  std::string at;
  double rating = 0;
  double deviation = 0;
};

struct PlayerProfile {
  std::string player_id;
  std::string name;
  bool account = false;
  std::map<std::string, SeatRating> ratings;  // by game id
  std::int64_t played = 0, won = 0, drawn = 0, lost = 0;
  std::vector<RatingPoint> history;  // oldest first
};

struct LeaderboardEntry {
  std::string player_id;
  std::string name;
  SeatRating rating;
};

// This name is an account's already, or can pass for one (the same confusable skeleton:
// protocol::name_skeleton); `account` is that account's name.
struct NameTaken : std::runtime_error {
  explicit NameTaken(const std::string& name) : std::runtime_error("the name '" + name + "' is taken"), account(name) {}
  std::string account;
};

inline constexpr int kSessionIdleDays = 30;
// A session ends this long after its log-in however much it is used, and an account keeps at
// most this many (a new one ends the oldest): a stolen cookie does not last for ever, and
// log-ins at speed cannot fill the table.
inline constexpr int kSessionLifetimeDays = 30;
inline constexpr std::size_t kMaxSessionsPerAccount = 20;

class AccountStore {
 public:
  virtual ~AccountStore() = default;

  // Throws NameTaken when an account has a name this one can pass for (any case, any look-alike).
  virtual void create_account(const NewAccount& account) = 0;
  // The name of an account `name` can pass for (the same skeleton), if any.
  virtual std::optional<std::string> account_name_like(const std::string& name) = 0;
  virtual std::optional<AccountRecord> find_account(const std::string& name) = 0;  // any case
  virtual std::optional<AccountRecord> account_of(const std::string& player_id) = 0;
  // Returns the hashes of the sessions it ended to keep kMaxSessionsPerAccount (the oldest).
  virtual std::vector<std::string> add_session(const std::string& hash, const std::string& player_id) = 0;
  // The player of a session used within kSessionIdleDays and made within kSessionLifetimeDays
  // (which marks it used now); nothing for an unknown, ended, idle or expired one.
  virtual std::optional<std::string> session_player(const std::string& hash) = 0;
  virtual void end_session(const std::string& hash) = 0;
  // Of these sessions, those no longer live: unknown, ended, unused for kSessionIdleDays or
  // older than kSessionLifetimeDays. Marks none used.
  virtual std::vector<std::string> ended_sessions(const std::vector<std::string>& hashes) = 0;
  // Every session of the player but `keep` (empty: every one).
  virtual void end_sessions(const std::string& player_id, const std::string& keep) = 0;
  virtual std::vector<SessionRecord> sessions(const std::string& player_id) = 0;
  virtual void set_password(const std::string& player_id, const std::string& password_hash) = 0;
  // The language the account's pages are shown in (account_of reads it); the caller checks it.
  virtual void set_language(const std::string& player_id, const std::string& language) = 0;
  virtual void add_password_reset(const std::string& hash, const std::string& player_id,
                                  const std::string& expires) = 0;
  // The player of an unexpired reset, which is used up by this call; nothing otherwise.
  virtual std::optional<std::string> take_password_reset(const std::string& hash) = 0;
  // The same without using it up: a new password is checked before the link is taken.
  virtual std::optional<std::string> password_reset_player(const std::string& hash) = 0;
  // By account name (any case) or player id.
  virtual std::optional<PlayerProfile> profile(const std::string& name_or_id) = 0;
  // The best non-provisional accounts of `game`.
  virtual std::vector<LeaderboardEntry> leaderboard(const std::string& game, int limit) = 0;
  // Every account's ratings by game, for seats and lobby entries (loaded at start), and one
  // player's (after a rated game).
  virtual std::map<std::string, std::map<std::string, SeatRating>> all_ratings() = 0;
  virtual std::map<std::string, SeatRating> ratings_of(const std::string& player_id) = 0;
};

}  // namespace mancala::server
