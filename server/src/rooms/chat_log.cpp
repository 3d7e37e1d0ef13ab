#include "chat_log.hpp"

namespace mancala::server {

std::optional<std::string> ChatLog::take_turn(const std::string& player_id, const std::string& text, SteadyTime now) {
  if (const auto last = last_text_.find(player_id); last != last_text_.end() && last->second == text)
    return "you just said that; say something else";
  auto& times = said_[player_id];
  while (!times.empty() && now - times.front() >= kWindow) times.pop_front();
  if (times.size() >= kLinesPerWindow)
    return "at most " + std::to_string(kLinesPerWindow) + " messages in " + std::to_string(kWindow.count()) +
           " s; wait a moment";
  times.push_back(now);
  last_text_[player_id] = text;
  return std::nullopt;
}

std::optional<protocol::Error> ChatLog::refusal(const std::string& room_id, const Speaker& speaker,
                                                bool spectator_chat, const std::string& text, SteadyTime now) {
  using protocol::Code;
  if (!speaker.member) return protocol::Error{Code::not_found, "join room " + room_id + " to chat in it"};
  if (!speaker.seated && !spectator_chat)
    return protocol::Error{Code::not_allowed, "the room's creator turned the spectators' chat off"};
  if (auto limited = take_turn(speaker.player.id, text, now)) return protocol::Error{Code::rate_limited, *limited};
  return std::nullopt;
}

StoredChatLine ChatLog::line(const Speaker& speaker, std::string text, std::string at, bool during_play) {
  const Player& player = speaker.player;
  return {{speaker.seated ? kPlayersChannel : kSpectatorsChannel, player.id, player.name, std::move(text),
           std::move(at), player.account},
          during_play};
}

void ChatLog::record(StoredChatLine said) {
  recent_.push_back(std::move(said));
  if (recent_.size() > kRecentLines) recent_.pop_front();
}

bool ChatLog::may_read(const StoredChatLine& said, bool seated) {
  return said.line.channel == kPlayersChannel || !seated || !said.during_play;
}

std::vector<protocol::ChatLine> ChatLog::visible(bool seated) const {
  std::vector<protocol::ChatLine> out;
  for (const auto& said : recent_)
    if (may_read(said, seated)) out.push_back(said.line);
  return out;
}

const protocol::ChatLine* ChatLog::find(const std::string& player_id, const std::string& at) const {
  for (const auto& said : recent_)
    if (said.line.player_id == player_id && said.line.at == at) return &said.line;
  return nullptr;
}

}  // namespace mancala::server
