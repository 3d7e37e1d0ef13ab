// Client messages written back as a client sends them: the inverse of parse.cpp. The cluster
// forwards a room's messages to the process that owns the room in this form, and the protocol
// fuzzer checks that parsing what this writes gives the same message back.
#include "mancala/protocol/client_messages.hpp"

namespace mancala::protocol {
namespace {

template <class... Visitors>
struct Overloaded : Visitors... {
  using Visitors::operator()...;
};
template <class... Visitors>
Overloaded(Visitors...) -> Overloaded<Visitors...>;

void add_seat_choice(Json& out, const SeatChoice& choice) {
  if (choice.seat) out["seat"] = *choice.seat;
  if (choice.spectate) out["spectate"] = true;
}

// Every message type needs a line here: a new one fails to compile until it has one.
Json client_json(const ClientMessage& message) {
  Json out = {{"type", type_name(message)}};
  std::visit(Overloaded{
                 [&](const Hello& m) {
                   if (m.token.empty()) out["name"] = m.name;
                   else out["token"] = m.token;
                 },
                 [&](const CreateRoom& m) {
                   out["game"] = m.game;
                   out["options"] = m.options;
                   out["private"] = m.is_private;
                   out["grace_seconds"] = m.grace_seconds;
                   add_seat_choice(out, m.choice);
                   Json bots = Json::array();
                   for (const auto& bot : m.bots) bots.push_back({{"seat", bot.seat}, {"level", bot.level}});
                   if (!m.bots.empty()) out["bots"] = std::move(bots);
                   if (m.clock) out["clock"] = clock_json(*m.clock);
                 },
                 [&](const ListRooms&) {},
                 [&](const WatchLobby&) {},
                 [&](const JoinRoom& m) {
                   if (!m.room.empty()) out["room"] = m.room;
                   if (!m.invite.empty()) out["invite"] = m.invite;
                   add_seat_choice(out, m.choice);
                 },
                 [&](const LeaveRoom& m) { out["room"] = m.room; },
                 [&](const Move& m) {
                   out["room"] = m.room;
                   out["expected_version"] = m.expected_version;
                   out["tokens"] = m.tokens;
                 },
                 [&](const Sync& m) {
                   out["room"] = m.room;
                   out["since"] = m.since;
                 },
                 [&](const Resign& m) { out["room"] = m.room; },
                 [&](const Special& m) { out["room"] = m.room; },
                 [&](const Claim& m) {
                   out["room"] = m.room;
                   out["window"] = m.window;
                 },
                 [&](const ClaimAbandon& m) { out["room"] = m.room; },
                 [&](const AddBot& m) {
                   out["room"] = m.room;
                   out["seat"] = m.bot.seat;
                   out["level"] = m.bot.level;
                 },
                 [&](const Rematch& m) { out["room"] = m.room; },
                 [&](const Chat& m) {
                   out["room"] = m.room;
                   out["text"] = m.text;
                 },
                 [&](const SpectatorChat& m) {
                   out["room"] = m.room;
                   out["on"] = m.on;
                 },
                 [&](const ReportChat& m) {
                   out["room"] = m.room;
                   out["player_id"] = m.player_id;
                   out["at"] = m.at;
                 },
                 [&](const Seek& m) {
                   out["game"] = m.game;
                   out["options"] = m.options;
                   if (m.clock) out["clock"] = clock_json(*m.clock);
                   out["rated"] = m.rated;
                   if (!m.seats.empty()) out["seats"] = m.seats;
                 },
                 [&](const CancelSeek& m) { out["seek"] = m.seek; },
                 [&](const WatchSeeks&) {},
                 [&](const WatchTournament& m) { out["tournament"] = m.tournament; },
             },
             message);
  return out;
}

}  // namespace

Json clock_json(const ClockChoice& clock) {
  if (clock.correspondence()) return {{"per_move_s", clock.per_move_s}};
  return {{"initial_s", clock.initial_s}, {"increment_s", clock.increment_s}};
}

std::string write_client_message(const RequestId& id, const ClientMessage& message) {
  Json out = client_json(message);
  if (const auto* text = std::get_if<std::string>(&id)) out["id"] = *text;
  if (const auto* number = std::get_if<std::int64_t>(&id)) out["id"] = *number;
  return out.dump();
}

}  // namespace mancala::protocol
