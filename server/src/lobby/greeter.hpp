#pragma once
// The first words of a connection: its `hello` (a new guest, a returning token, or an account
// by its session cookie), the `welcome`, and the player's unfinished rooms again. With several
// processes on one database it also remembers who said hello on which connection, so that a
// room taken over later reaches the players who came back before it was.
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "connection.hpp"
#include "identity.hpp"
#include "net.hpp"
#include "other_processes.hpp"
#include "reader_pool.hpp"
#include "room.hpp"
#include "room_index.hpp"

namespace mancala::server {

class Storage;

class Greeter {
 public:
  Greeter(net::io_context& io, Storage& storage, PlayerDirectory& players, Metrics& metrics, ReaderPool& readers,
          RoomIndex<Room>& rooms);

  // Several processes on one database: tokens unknown here are looked up there, and rooms of
  // other processes are attached too. Both before listening.
  void share_database_with_other_processes() { shared_database_ = true; }
  void set_other_processes(OtherProcesses* others) { others_ = others; }

  // The player with this token; with other processes on the database, also one made there
  // (a database read). Null when none.
  PlayerRef player_by_token(const std::string& token);
  // A connection's `hello` (see Hub::hello).
  void hello(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
             const protocol::Hello& hello, const std::string& session_hash, std::function<void(PlayerRef)> done);
  void forget(const Connection* connection);
  // The connections here of players seated in `room_id` (after a take-over).
  std::vector<std::pair<std::shared_ptr<Connection>, PlayerRef>> seated_in(const std::string& room_id) const;
  // The account `player_id` as the database has it now, made the directory's (a guest who
  // claimed it loses his token here); null when it is no account. A database read.
  PlayerRef reread_account(const std::string& player_id);

 private:
  PlayerRef load_player_by_token(const std::string& token);  // made by another process
  void hello_account(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                     const std::string& session_hash, std::function<void(PlayerRef)> done);
  PlayerRef account_of_session(const std::string& session_hash);  // a database read
  void check_name_then_greet(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                             const std::string& name, std::function<void(PlayerRef)> done);
  void hello_new_guest(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                       const std::string& name, std::function<void(PlayerRef)> done);
  // Welcome (an account's has no token) and the player's unfinished rooms again.
  void welcome_back(const std::shared_ptr<Connection>& connection, const protocol::RequestId& id,
                    const PlayerRef& player, const std::string& token, std::function<void(PlayerRef)> done);
  void remember(const std::shared_ptr<Connection>& connection, const PlayerRef& player);
  Caller caller_of(const std::shared_ptr<Connection>& connection, const PlayerRef& player,
                   protocol::RequestId id = {}) const;

  net::io_context& io_;
  Storage& storage_;
  PlayerDirectory& players_;
  Metrics& metrics_;
  ReaderPool& readers_;
  RoomIndex<Room>& rooms_;
  bool shared_database_ = false;
  OtherProcesses* others_ = nullptr;

  mutable std::mutex mutex_;
  std::unordered_map<const Connection*, std::pair<std::weak_ptr<Connection>, PlayerRef>> hello_players_;
};

}  // namespace mancala::server
