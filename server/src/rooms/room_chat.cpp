// The room's chat steps: saying a line, the creator's switch for the spectators' chat, a report.
// The rules (who may speak, on which channel, who reads what) are ChatLog's (chat_log.hpp);
// here they meet the database and the members.
#include "log.hpp"
#include "room.hpp"
#include "storage.hpp"

namespace mancala::server {

using protocol::Code;

void Room::on(const Caller& caller, const protocol::Chat& chat) {
  const bool member = members_.find(caller.connection.get()) != nullptr;
  const ChatLog::Speaker speaker{*caller.player, member, seats_.seat_of(caller.player).has_value()};
  if (auto refusal = chat_.refusal(meta_.id, speaker, meta_.spectator_chat, chat.text, std::chrono::steady_clock::now()))
    return caller.fail(std::move(*refusal));
  StoredChatLine said = ChatLog::line(speaker, chat.text, now_utc(), status() == RoomStatus::playing);
  // The speaker's id is passed apart: the line itself moves into the step.
  reads_.unless_silenced(caller, caller.player->id, [self = shared_from_this(), caller, said = std::move(said)] {
    self->say(caller, said);
  });
}

// Stored first (the history shows it beside the moves), then sent to the line's channel.
void Room::say(const Caller& caller, StoredChatLine said) {
  services_.storage.chat().append(meta_.id, said, [self = shared_from_this(), caller, said](bool stored) {
    if (!stored) return caller.fail_storing("the message could not be stored", self->services_.storage.trouble());
    self->serially(std::nullopt, [self, caller, said] {
      self->chat_.record(said);
      const auto text = std::make_shared<const std::string>(protocol::write_chat(self->meta_.id, said.line));
      for (const auto& m : self->members_.all())
        if (ChatLog::may_read(said, m.seat.has_value())) m.connection->send(text);
      caller.reply(protocol::write_ok(caller.id));
    });
  });
}

void Room::on(const Caller& caller, const protocol::SpectatorChat& setting) {
  if (!visible_or_refuse(caller)) return;
  if (!caller.player || caller.player->id != meta_.host_id)
    return caller.fail(Code::not_allowed, "only the room's creator turns the spectators' chat off or on");
  commit(
      [&](auto done) { services_.storage.chat().set_spectator_chat(meta_.id, setting.on, std::move(done)); },
      [this, caller, on = setting.on](bool committed) {
        if (!committed) return caller.fail_storing("the setting could not be stored", services_.storage.trouble());
        meta_.spectator_chat = on;
        caller.reply(protocol::write_ok(caller.id));
        send_room_to_others(nullptr);
      });
}

void Room::on(const Caller& caller, const protocol::ReportChat& report) {
  const protocol::ChatLine* line =
      members_.find(caller.connection.get()) ? chat_.find(report.player_id, report.at) : nullptr;
  if (!line) return caller.fail(Code::not_found, "no recent message of that player at that time in this room");
  services_.storage.chat().report(meta_.id, *line, caller.player->id, [self = shared_from_this(), caller](bool stored) {
    if (!stored) return caller.fail_storing("the report could not be stored", self->services_.storage.trouble());
    log_info("chat_reported", {{"room", self->meta_.id}, {"reporter", caller.player->id}});
    caller.reply(protocol::write_ok(caller.id));
  });
}

}  // namespace mancala::server
