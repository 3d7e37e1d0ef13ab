#include "rematch.hpp"

#include <algorithm>

#include "mancala/bot.hpp"

namespace mancala::server {

RematchSetup rematch_setup(const GameMeta& old, const std::vector<PlayerRef>& players,
                           const std::vector<int>& bot_levels, const Match& fresh, std::string id,
                           std::string invite, const std::string& now) {
  RematchSetup out;
  GameMeta& meta = out.meta;
  meta.id = std::move(id);
  meta.game = old.game;
  meta.options = fresh.options();
  meta.draws = fresh.draws();
  meta.is_private = old.is_private;
  meta.invite = old.is_private ? std::move(invite) : std::string();
  meta.grace_seconds = old.grace_seconds;
  meta.clock = old.clock;
  meta.status = "playing";
  meta.created = now;
  meta.host_id = old.host_id;  // the same table, the same host
  meta.host_name = old.host_name;
  meta.started = now;
  const int seats = static_cast<int>(players.size());
  out.players.resize(players.size());
  for (int seat = 0; seat < seats; ++seat) {
    const int moved = (seat + 1) % seats;
    const auto level = bot_levels.at(static_cast<std::size_t>(seat));
    const auto& player = players[static_cast<std::size_t>(seat)];
    if (level > 0) {
      meta.seats.push_back({moved, "", bots::display_name(level), level});
    } else if (player) {
      meta.seats.push_back({moved, player->id, player->name, 0});
      out.players[static_cast<std::size_t>(moved)] = player;
    }
  }
  std::sort(meta.seats.begin(), meta.seats.end(),
            [](const StoredSeat& a, const StoredSeat& b) { return a.seat < b.seat; });
  return out;
}

std::optional<protocol::Error> RematchVotes::refusal() const {
  if (!room_.empty())
    return protocol::Error{protocol::Code::not_allowed, "the rematch has started already, in room " + room_,
                           {{"rematch", room_}}};
  if (setting_up_) return protocol::Error{protocol::Code::not_allowed, "the rematch is being set up; its room follows", {}};
  return std::nullopt;
}

bool RematchVotes::ask(int seat, const std::vector<int>& bot_levels) {
  asked_.insert(seat);
  for (int i = 0; i < static_cast<int>(bot_levels.size()); ++i)
    if (bot_levels[static_cast<std::size_t>(i)] > 0) asked_.insert(i);
  setting_up_ = asked_.size() == bot_levels.size();
  return setting_up_;
}

void RematchVotes::set_up(const std::string& room_id) {
  setting_up_ = false;
  room_ = room_id;
  if (room_id.empty()) asked_.clear();
}

}  // namespace mancala::server
