// Fuzz target: the protocol parser. Any text is parsed without a crash, and what it yields
// survives the writers: an error reply is valid JSON carrying the request's id and the error's
// code; a parsed message written back as JSON parses to the same message (the parser checks
// nothing twice differently), and the fields the server echoes (names, tokens, options) come
// back unchanged from the frames that carry them.
#include <cstdint>
#include <string_view>
#include <variant>

#include "check.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::fuzz {
namespace {

using namespace mancala::protocol;

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

// The message as a client would write it. Every message type needs a line here: a new one
// fails to compile until it has one.
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
             },
             message);
  return out;
}

// The id a reply carries is the request's, of the same kind.
void check_id(const Json& reply, const RequestId& id) {
  if (std::holds_alternative<std::monostate>(id)) FUZZ_CHECK(!reply.contains("id"));
  if (const auto* text = std::get_if<std::string>(&id)) FUZZ_CHECK(reply.at("id") == *text);
  if (const auto* number = std::get_if<std::int64_t>(&id)) FUZZ_CHECK(reply.at("id") == *number);
}

void check_error_reply(const RequestId& id, const Error& error) {
  const Json reply = Json::parse(write_error(id, error));
  FUZZ_CHECK(reply.at("type") == "error");
  FUZZ_CHECK(reply.at("code") == to_string(error.code));
  check_id(reply, id);
}

// The frames that echo a message's fields give them back unchanged.
void check_echoes(const RequestId& id, const ClientMessage& message) {
  check_id(Json::parse(write_ok(id)), id);
  if (const auto* hello = std::get_if<Hello>(&message)) {
    const Json welcome = Json::parse(write_welcome(id, "p1", hello->name, "secret"));
    FUZZ_CHECK(welcome.at("name") == hello->name);
    check_id(welcome, id);
  }
  if (const auto* move = std::get_if<Move>(&message)) {
    Update update;
    update.room = move->room;
    update.version = move->expected_version + 1;
    update.action = "move";
    update.tokens = move->tokens;
    const Json written = Json::parse(write_update(id, update));
    FUZZ_CHECK(written.at("tokens") == move->tokens);
    FUZZ_CHECK(written.at("room") == move->room);
    check_id(written, id);
  }
  if (const auto* create = std::get_if<CreateRoom>(&message)) {
    RoomView view;
    view.summary.game = create->game;
    view.summary.options = create->options;
    view.summary.status = "waiting";
    const Json written = Json::parse(write_room(id, view));
    FUZZ_CHECK(written.at("room").at("options").dump() == create->options.dump());
    check_id(written, id);
  }
}

}  // namespace
}  // namespace mancala::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mancala::fuzz;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Parsed parsed = parse_client_message(text);
  if (const auto* error = std::get_if<Error>(&parsed.body)) {
    check_error_reply(parsed.id, *error);
    return 0;
  }
  const auto& message = std::get<ClientMessage>(parsed.body);
  check_echoes(parsed.id, message);

  const mancala::Json written = client_json(message);
  const Parsed again = parse_client_message(written.dump());
  const auto* message_again = std::get_if<ClientMessage>(&again.body);
  FUZZ_CHECK(message_again != nullptr);
  FUZZ_CHECK(client_json(*message_again).dump() == written.dump());
  return 0;
}
