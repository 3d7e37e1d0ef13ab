#include "greeter.hpp"

#include "log.hpp"
#include "sha256.hpp"
#include "storage.hpp"
#include "text.hpp"

namespace mancala::server {
namespace {

using protocol::Code;

// A lookup that failed because the database is away is worth a retry; any other is not.
StorageTrouble trouble_of(const std::exception& e) {
  return dynamic_cast<const Unavailable*>(&e) ? StorageTrouble::unreachable : StorageTrouble::none;
}

}  // namespace

Greeter::Greeter(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics,
                 ReaderPool& readers, RoomIndex<Room>& rooms)
    : io_(io), storage_(storage), players_(players), metrics_(metrics), readers_(readers), rooms_(rooms) {}

namespace {
constexpr const char* kUnknownToken = "no player has this token; say hello with a name to start anew";

// Why a guest may not take `name`: the account `account` has it, or a name it can pass for.
std::string taken_message(const std::string& name, const std::string& account) {
  if (lower_case(name) == lower_case(account))
    return "'" + name + "' belongs to an account: log in, or pick another name";
  return "'" + name + "' looks like the account '" + account + "': pick another name";
}
}  // namespace

Caller Greeter::caller_of(const std::shared_ptr<Connection>& connection, const PlayerRef& player,
                          protocol::RequestId id) const {
  return Caller{connection, player, std::move(id), std::chrono::steady_clock::now(), &metrics_};
}

// Several processes: a token made on another process is found in the database (once per such
// player and process; the directory keeps him after). A database read: on a reader thread.
PlayerRef Greeter::load_player_by_token(const std::string& token) {
  const auto stored = storage_.load_player_by_token_hash(to_hex(sha256(token)));
  if (!stored) return nullptr;
  players_.load({*stored});
  return players_.find_by_token(token);
}

PlayerRef Greeter::player_by_token(const std::string& token) {
  auto player = players_.find_by_token(token);
  if (player || !shared_database_) return player;
  return load_player_by_token(token);
}

void Greeter::hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                    const protocol::Hello& hello, const std::string& session_hash,
                    std::function<void(PlayerRef)> done) {
  const auto refuse = [&](Code code, std::string message) {
    caller_of(connection, nullptr, id).fail(code, std::move(message));
    done(nullptr);
  };
  if (!session_hash.empty()) return hello_account(connection, id, session_hash, std::move(done));
  if (hello.anonymous())
    return refuse(Code::bad_request, "'hello' needs a 'name' (a new player) or a 'token' (a returning one)");
  if (hello.token.empty()) {
    if (auto account = players_.account_like(hello.name)) return refuse(Code::bad_name, taken_message(hello.name, *account));
    if (!shared_database_) return hello_new_guest(connection, id, hello.name, std::move(done));
    return check_name_then_greet(connection, id, hello.name, std::move(done));
  }
  if (auto player = players_.find_by_token(hello.token)) return welcome_back(connection, id, player, hello.token, std::move(done));
  if (!shared_database_) return refuse(Code::bad_token, kUnknownToken);
  // Perhaps a player another process made: a database read, on a reader.
  readers_.run([this, connection, id, token = hello.token, done = std::move(done)]() mutable {
    PlayerRef player;
    try {
      player = load_player_by_token(token);
    } catch (const std::exception& e) {  // not "bad token": the player would start anew
      log_error("player_not_loaded", {{"message", e.what()}});
      caller_of(connection, nullptr, id).fail_storing("the player could not be looked up", trouble_of(e));
      return done(nullptr);
    }
    if (!player) {
      caller_of(connection, nullptr, id).fail(Code::bad_token, kUnknownToken);
      return done(nullptr);
    }
    welcome_back(connection, id, player, token, std::move(done));
  });
}

// The session cookie's account: looked up on a reader (a database read), never here.
void Greeter::hello_account(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                            const std::string& session_hash, std::function<void(PlayerRef)> done) {
  readers_.run([this, connection, id, session_hash, done = std::move(done)]() mutable {
    PlayerRef player;
    try {
      player = account_of_session(session_hash);
    } catch (const std::exception& e) {
      log_error("session_not_read", {{"message", e.what()}});
      caller_of(connection, nullptr, id).fail_storing("the session could not be looked up", trouble_of(e));
      return done(nullptr);
    }
    if (!player) {
      caller_of(connection, nullptr, id)
          .fail(Code::bad_token, "this browser's session has ended (logged out, or unused for 30 days); log in again");
      return done(nullptr);
    }
    welcome_back(connection, id, player, "", std::move(done));
  });
}

PlayerRef Greeter::account_of_session(const std::string& session_hash) {
  const auto player_id = storage_.accounts().session_player(session_hash);
  if (!player_id) return nullptr;
  if (auto known = players_.find(*player_id); known && known->account) return known;
  // An account another process made, or a guest it saw claim one, after this one met him.
  return reread_account(*player_id);
}

PlayerRef Greeter::reread_account(const std::string& player_id) {
  const auto account = storage_.accounts().account_of(player_id);
  if (!account) return nullptr;
  auto player = players_.become_account(account->player_id, account->name);
  player->ratings->set(storage_.accounts().ratings_of(account->player_id));
  return player;
}

void Greeter::welcome_back(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                           const PlayerRef& player, const std::string& token, std::function<void(PlayerRef)> done) {
  if (!token.empty()) connection->set_guest_token_hash(to_hex(sha256(token)));  // ends with the token
  connection->send(protocol::write_welcome(id, player->id, player->name, token));
  done(player);
  // Back in every unfinished game this player sits in: a `room` message for each.
  std::vector<std::shared_ptr<Room>> rooms;
  {
    const std::lock_guard lock(mutex_);
    if (shared_database_) hello_players_[connection.get()] = {connection, player};  // with the lookup: no take-over falls between
    rooms = rooms_.rooms_seating(player->id);
  }
  for (const auto& room : rooms) room->handle(caller_of(connection, player), Attach{});
  if (others_) {  // and in those other processes own: a database read, on a reader
    readers_.run([this, connection, player] {
      try {
        others_->attach_remote_rooms(connection, player);
      } catch (const std::exception& e) {  // the player can still join or sync them one by one
        log_error("remote_rooms_not_attached", {{"player", player->id}, {"message", e.what()}});
      }
    });
  }
}

// Several processes: an account made on another one since this one loaded its players is
// found in the database (by its name's skeleton, indexed). A database read: on a reader.
void Greeter::check_name_then_greet(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                                    const std::string& name, std::function<void(PlayerRef)> done) {
  readers_.run([this, connection, id, name, done = std::move(done)]() mutable {
    std::optional<std::string> account;
    try {
      account = storage_.accounts().account_name_like(name);
    } catch (const std::exception& e) {
      log_error("name_not_checked", {{"message", e.what()}});
      caller_of(connection, nullptr, id).fail_storing("the name could not be checked", trouble_of(e));
      return done(nullptr);
    }
    if (account) {
      caller_of(connection, nullptr, id).fail(Code::bad_name, taken_message(name, *account));
      return done(nullptr);
    }
    hello_new_guest(connection, id, name, std::move(done));
  });
}

void Greeter::hello_new_guest(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                              const std::string& name, std::function<void(PlayerRef)> done) {
  auto fresh = PlayerDirectory::make(name);
  // The writer's thread only posts: the welcome runs on the I/O threads, so the next commit
  // never waits for it.
  storage_.create_player(PlayerDirectory::to_stored(*fresh.player), [this, connection, id, fresh,
                                                                     done = std::move(done)](bool stored) {
    net::post(io_, [this, connection, id, fresh, done, stored] {
      if (!stored) {
        caller_of(connection, nullptr, id).fail_storing("the player could not be stored", storage_.trouble());
        return done(nullptr);
      }
      players_.add(fresh.player);
      if (shared_database_) remember(connection, fresh.player);  // a room he joins may be taken over later
      connection->set_guest_token_hash(to_hex(sha256(fresh.token)));  // ends with the token
      connection->send(protocol::write_welcome(id, fresh.player->id, fresh.player->name, fresh.token));
      done(fresh.player);
    });
  });
}

void Greeter::remember(const std::shared_ptr<Connection>& connection, const PlayerRef& player) {
  const std::lock_guard lock(mutex_);
  hello_players_[connection.get()] = {connection, player};
}

void Greeter::forget(const Connection* connection) {
  const std::lock_guard lock(mutex_);
  hello_players_.erase(connection);
}

std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> Greeter::seated_in(const std::string& room_id) const {
  std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> seated;
  const std::lock_guard lock(mutex_);
  for (const auto& [key, entry] : hello_players_) {
    if (!rooms_.seated_in(entry.second->id, room_id)) continue;
    if (auto connection = entry.first.lock()) seated.emplace_back(std::move(connection), entry.second);
  }
  return seated;
}

}  // namespace mancala::server
