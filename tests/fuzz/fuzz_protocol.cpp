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

  const std::string written = write_client_message(parsed.id, message);
  const Parsed again = parse_client_message(written);
  const auto* message_again = std::get_if<ClientMessage>(&again.body);
  FUZZ_CHECK(message_again != nullptr);
  FUZZ_CHECK(write_client_message(again.id, *message_again) == written);
  return 0;
}
