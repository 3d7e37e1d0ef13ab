#include "room_reads.hpp"

#include "game_log.hpp"
#include "log.hpp"
#include "reader_pool.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

void RoomReads::read_for(const Caller& caller, const GameMeta& meta,
                         std::function<void(const GameMeta&, Storage&)> read) const {
  readers_.run([caller, meta, &storage = storage_, read = std::move(read)] {
    try {
      read(meta, storage);
    } catch (const Unavailable&) {
      caller.fail_storing("this game's history could not be read", StorageTrouble::unreachable);
    } catch (const std::exception& e) {
      log_error("room_read_failed", {{"room", meta.id}, {"message", e.what()}});
      caller.fail(Code::internal, "the server could not read this game's history; try again");
    }
  });
}

void RoomReads::resend_or_refuse(const Caller& caller, const GameMeta& meta, const protocol::Move& move, int seat,
                                 std::int64_t version) const {
  read_for(caller, meta, [caller, move, seat, version](const GameMeta& game, Storage& storage) {
    if (const auto update = stored_update_of(game, storage.load_actions(game.id), move, seat))
      return caller.reply(protocol::write_update(caller.id, *update));
    caller.fail(Code::stale_version,
                "expected_version " + std::to_string(move.expected_version) + " is not the current version " +
                    std::to_string(version) + "; sync first",
                {{"version", version}});
  });
}

void RoomReads::send_updates(const Caller& caller, const GameMeta& meta, std::int64_t since,
                             std::int64_t until) const {
  read_for(caller, meta, [caller, since, until](const GameMeta& game, Storage& storage) {
    caller.reply(protocol::write_updates(caller.id, game.id,
                                         updates_between(game, storage.load_actions(game.id), since, until)));
  });
}

void RoomReads::read_back(const GameMeta& meta, std::function<void(Rebuilt)> done) const {
  readers_.run([meta, &storage = storage_, done = std::move(done)] {
    Rebuilt rebuilt;
    try {
      const auto actions = storage.load_actions(meta.id);
      rebuilt.emplace(replay(meta, actions), actions.empty() ? 0 : actions.back().version);
    } catch (const std::exception& e) {
      log_error("room_rebuild_failed", {{"room", meta.id}, {"message", e.what()}});
    }
    done(std::move(rebuilt));
  });
}

void RoomReads::read_ratings(const std::string& room_id, std::vector<PlayerRef> players,
                             std::function<void(std::vector<std::string>)> done) const {
  readers_.run([room_id, players = std::move(players), &storage = storage_, done = std::move(done)] {
    std::vector<std::string> rated;
    try {
      for (const auto& player : players) {
        if (!player || !player->account) continue;
        player->ratings->set(storage.accounts().ratings_of(player->id));
        rated.push_back(player->id);
      }
    } catch (const std::exception& e) {
      log_warn("ratings_not_read", {{"room", room_id}, {"message", e.what()}});
      return;
    }
    done(std::move(rated));
  });
}

void RoomReads::unless_silenced(const Caller& caller, const std::string& player_id,
                                std::function<void()> allowed) const {
  readers_.run([caller, player_id, &storage = storage_, allowed = std::move(allowed)] {
    std::optional<std::string> silenced;
    try {
      silenced = storage.chat().silenced_until(player_id);
    } catch (const std::exception&) {
      return caller.fail_storing("the message could not be checked", StorageTrouble::unreachable);
    }
    if (silenced) return caller.fail(Code::silenced, "an operator silenced your chat until " + *silenced);
    allowed();
  });
}

}  // namespace mancala::server
