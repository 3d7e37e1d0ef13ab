#include <algorithm>
#include <limits>

#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::protocol {
namespace {

// Identifiers the server hands out (rooms, invites, windows, tokens) are far shorter; anything
// longer cannot name something that exists and is refused before any lookup.
constexpr std::size_t kMaxHandleBytes = 128;
constexpr std::size_t kMaxTokensBytes = 1024;

// True for an integer within [min, max] (unsigned values beyond int64 included).
bool in_range(const Json& value, std::int64_t min, std::int64_t max) {
  if (value.is_number_unsigned())
    return max >= 0 && value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max) &&
           static_cast<std::int64_t>(value.get<std::uint64_t>()) >= min;
  return value.is_number_integer() && value.get<std::int64_t>() >= min &&
         value.get<std::int64_t>() <= max;
}

// Thrown inside the parser only; parse_client_message turns it into a value.
struct Invalid {
  Error error;
};

[[noreturn]] void fail(Code code, std::string message) { throw Invalid{{code, std::move(message)}}; }

// Typed access to the fields of one message object, each failure naming the field.
class Fields {
 public:
  Fields(const Json& object, std::string_view type) : object_(object), type_(type) {}

  const Json* find(const char* key) const {
    const auto it = object_.find(key);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }

  std::string string(const char* key, std::size_t max_bytes = kMaxHandleBytes) const {
    const Json* value = find(key);
    if (!value) fail(Code::bad_request, where() + " needs the string field '" + key + "'");
    return checked_string(key, *value, max_bytes);
  }
  std::string optional_string(const char* key, std::size_t max_bytes = kMaxHandleBytes) const {
    const Json* value = find(key);
    return value ? checked_string(key, *value, max_bytes) : std::string();
  }
  std::int64_t integer(const char* key, std::int64_t min, std::int64_t max) const {
    const Json* value = find(key);
    if (!value) fail(Code::bad_request, where() + " needs the integer field '" + key + "'");
    return checked_integer(key, *value, min, max);
  }
  std::optional<std::int64_t> optional_integer(const char* key, std::int64_t min,
                                               std::int64_t max) const {
    const Json* value = find(key);
    if (!value) return std::nullopt;
    return checked_integer(key, *value, min, max);
  }
  bool required_boolean(const char* key) const {
    if (!find(key)) fail(Code::bad_request, where() + " needs '" + key + "': true or false");
    return boolean(key, false);
  }
  bool boolean(const char* key, bool fallback) const {
    const Json* value = find(key);
    if (!value) return fallback;
    if (!value->is_boolean()) fail(Code::bad_request, "'" + std::string(key) + "' must be true or false");
    return value->get<bool>();
  }
  SeatChoice seat_choice() const {
    SeatChoice choice;
    // Seat numbers beyond 3 never exist; the room checks the exact count.
    if (auto seat = optional_integer("seat", 0, 3)) choice.seat = static_cast<int>(*seat);
    choice.spectate = boolean("spectate", false);
    if (choice.seat && choice.spectate)
      fail(Code::bad_request, where() + " takes either 'seat' or 'spectate', not both");
    return choice;
  }

  std::string where() const { return "'" + std::string(type_) + "'"; }

 private:
  std::string checked_string(const char* key, const Json& value, std::size_t max_bytes) const {
    if (!value.is_string()) fail(Code::bad_request, "'" + std::string(key) + "' must be a string");
    const auto& text = value.get_ref<const std::string&>();
    if (text.size() > max_bytes)
      fail(Code::bad_request, "'" + std::string(key) + "' is longer than " +
                                  std::to_string(max_bytes) + " bytes");
    return text;
  }
  std::int64_t checked_integer(const char* key, const Json& value, std::int64_t min,
                               std::int64_t max) const {
    if (!value.is_number_integer())
      fail(Code::bad_request, "'" + std::string(key) + "' must be an integer");
    if (!in_range(value, min, max)) fail(Code::bad_request, range_message(key, min, max));
    return value.get<std::int64_t>();
  }
  static std::string range_message(const char* key, std::int64_t min, std::int64_t max) {
    return "'" + std::string(key) + "' must be an integer from " + std::to_string(min) + " to " +
           std::to_string(max);
  }

  const Json& object_;
  std::string_view type_;
};

constexpr std::int64_t kMaxVersion = std::numeric_limits<std::int32_t>::max();

Hello parse_hello(const Fields& f) {
  Hello hello;
  hello.token = f.optional_string("token");
  if (!hello.token.empty()) return hello;  // a returning player keeps the name stored with him
  const Json* name = f.find("name");
  // Neither: only a connection that carries an account's session cookie may say that, which
  // the server checks (the parser cannot see the cookie).
  if (!name) return hello;
  if (!name->is_string()) fail(Code::bad_name, "'name' must be a string");
  auto checked = check_name(name->get_ref<const std::string&>());
  if (auto* error = std::get_if<Error>(&checked)) throw Invalid{std::move(*error)};
  hello.name = std::move(std::get<std::string>(checked));
  return hello;
}

Chat parse_chat(const Fields& f) {
  const Json* text = f.find("text");
  if (!text || !text->is_string()) fail(Code::bad_request, "'chat' needs a string 'text'");
  auto checked = check_chat_text(text->get_ref<const std::string&>());
  if (auto* error = std::get_if<Error>(&checked)) throw Invalid{std::move(*error)};
  return Chat{f.string("room"), std::move(std::get<std::string>(checked))};
}

BotSeat parse_bot_seat(const Fields& f) {
  // Seat numbers beyond 3 never exist; the server checks the game's exact count.
  return BotSeat{static_cast<int>(f.integer("seat", 0, 3)),
                 static_cast<int>(f.integer("level", kMinBotLevel, kMaxBotLevel))};
}

std::vector<BotSeat> parse_bots(const Fields& f, const SeatChoice& creator) {
  const Json* list = f.find("bots");
  if (!list) return {};
  if (!list->is_array())
    fail(Code::bad_request, "'bots' must be a list like [{\"seat\":1,\"level\":3}]");
  std::vector<BotSeat> bots;
  for (const Json& entry : *list) {
    if (!entry.is_object())
      fail(Code::bad_request, "each entry of 'bots' must be an object like {\"seat\":1,\"level\":3}");
    const BotSeat bot = parse_bot_seat(Fields(entry, "bots"));
    for (const auto& earlier : bots)
      if (earlier.seat == bot.seat)
        fail(Code::bad_request, "'bots' names seat " + std::to_string(bot.seat) + " twice");
    if (!creator.spectate && bot.seat == creator.seat.value_or(0))
      fail(Code::bad_request, "seat " + std::to_string(bot.seat) +
                                  " is the creator's; give the bot another seat, or the creator "
                                  "another 'seat'");
    bots.push_back(bot);
  }
  // Four seats at most, and one of them is always a person's.
  if (bots.size() > 3) fail(Code::bad_request, "at least one seat must be a person's");
  return bots;
}

// One field of `clock`: an integer within [min, max] seconds, or bad_option naming the field,
// the range and what it means.
int clock_seconds(const Json& clock, const char* key, int min, int max, const char* meaning) {
  const Json& value = clock.at(key);
  if (!in_range(value, min, max))
    fail(Code::bad_option, "'clock." + std::string(key) + "' must be an integer from " + std::to_string(min) +
                               " to " + std::to_string(max) + " (" + meaning + ")");
  return value.get<int>();
}

std::optional<ClockChoice> parse_clock(const Fields& f) {
  const Json* clock = f.find("clock");
  if (!clock) return std::nullopt;
  const auto has = [clock](const char* key) { return clock->contains(key) && !(*clock)[key].is_null(); };
  if (!clock->is_object() || (!has("per_move_s") && !has("initial_s")))
    fail(Code::bad_option, "'clock' must be {\"initial_s\":300,\"increment_s\":3} (real time), "
                           "{\"per_move_s\":86400} (correspondence) or null (no clock)");
  ClockChoice choice;
  if (has("per_move_s")) {
    if (has("initial_s") || has("increment_s"))
      fail(Code::bad_option, "'clock' takes either 'per_move_s' (correspondence) or 'initial_s' and "
                             "'increment_s' (real time), not both");
    choice.per_move_s = clock_seconds(*clock, "per_move_s", kMinPerMoveSeconds, kMaxPerMoveSeconds,
                                      "seconds for each move: 1 minute to 14 days");
    return choice;
  }
  choice.initial_s = clock_seconds(*clock, "initial_s", kMinInitialSeconds, kMaxInitialSeconds,
                                   "each player's seconds at the start: 10 s to 3 hours");
  if (has("increment_s"))
    choice.increment_s = clock_seconds(*clock, "increment_s", 0, kMaxIncrementSeconds,
                                       "seconds added after each move: 0 to 60");
  return choice;
}

// A message's game options: an object, passed on for the engine to judge; absent: none.
Json parse_options(const Fields& f) {
  const Json* options = f.find("options");
  if (!options) return Json::object();
  if (!options->is_object()) fail(Code::bad_option, "'options' must be a JSON object");
  return *options;
}

CreateRoom parse_create_room(const Fields& f) {
  CreateRoom create;
  create.game = f.string("game");
  create.options = parse_options(f);
  create.is_private = f.boolean("private", false);
  create.rated = f.boolean("rated", false);
  if (const Json* grace = f.find("grace_seconds")) {
    if (!in_range(*grace, kMinGraceSeconds, kMaxGraceSeconds))
      fail(Code::bad_option, "'grace_seconds' must be an integer from " +
                                 std::to_string(kMinGraceSeconds) + " to " +
                                 std::to_string(kMaxGraceSeconds));
    create.grace_seconds = grace->get<int>();
  }
  create.choice = f.seat_choice();
  create.bots = parse_bots(f, create.choice);
  create.clock = parse_clock(f);
  return create;
}

// A seek's table sizes: a list of distinct integers 2 to 4, kept ascending.
std::vector<int> parse_seek_seats(const Fields& f) {
  const Json* list = f.find("seats");
  if (!list) return {};
  if (!list->is_array() || list->empty())
    fail(Code::bad_request, "'seats' must be a list of table sizes like [2] or [3,4]");
  std::vector<int> seats;
  for (const Json& size : *list) {
    if (!in_range(size, 2, 4)) fail(Code::bad_request, "each entry of 'seats' must be a table size from 2 to 4");
    const int n = size.get<int>();
    if (std::find(seats.begin(), seats.end(), n) != seats.end())
      fail(Code::bad_request, "'seats' names the table size " + std::to_string(n) + " twice");
    seats.push_back(n);
  }
  std::sort(seats.begin(), seats.end());
  return seats;
}

Seek parse_seek(const Fields& f) {
  Seek seek;
  seek.game = f.string("game");
  seek.options = parse_options(f);
  if (seek.options.contains("players"))
    fail(Code::bad_option, "a seek's 'options' leave out 'players': say the table sizes you accept in 'seats'");
  seek.clock = parse_clock(f);
  seek.rated = f.boolean("rated", false);
  seek.seats = parse_seek_seats(f);
  return seek;
}

JoinRoom parse_join_room(const Fields& f) {
  JoinRoom join;
  join.room = f.optional_string("room");
  join.invite = f.optional_string("invite");
  if (join.room.empty() == join.invite.empty())
    fail(Code::bad_request, "'join_room' needs exactly one of 'room' and 'invite'");
  join.choice = f.seat_choice();
  return join;
}

ClientMessage parse_body(std::string_view type, const Fields& f) {
  if (type == "hello") return parse_hello(f);
  if (type == "create_room") return parse_create_room(f);
  if (type == "list_rooms") return ListRooms{};
  if (type == "watch_lobby") return WatchLobby{};
  if (type == "join_room") return parse_join_room(f);
  if (type == "leave_room") return LeaveRoom{f.string("room")};
  if (type == "move")
    return Move{f.string("room"), f.integer("expected_version", 0, kMaxVersion),
                f.string("tokens", kMaxTokensBytes)};
  if (type == "sync") return Sync{f.string("room"), f.integer("since", 0, kMaxVersion)};
  if (type == "resign") return Resign{f.string("room")};
  if (type == "concede") return Special{f.string("room"), "concede"};
  if (type == "plex") return Claim{f.string("room"), f.string("window")};
  if (type == "claim_abandon") return ClaimAbandon{f.string("room")};
  if (type == "add_bot") return AddBot{f.string("room"), parse_bot_seat(f)};
  if (type == "rematch") return Rematch{f.string("room")};
  if (type == "chat") return parse_chat(f);
  if (type == "spectator_chat") return SpectatorChat{f.string("room"), f.required_boolean("on")};
  if (type == "report_chat") return ReportChat{f.string("room"), f.string("player_id"), f.string("at")};
  if (type == "seek") return parse_seek(f);
  if (type == "cancel_seek") return CancelSeek{f.string("seek")};
  if (type == "watch_seeks") return WatchSeeks{};
  if (type == "watch_tournament") return WatchTournament{f.string("tournament")};
  fail(Code::unknown_type, "unknown message type '" + std::string(type) + "'");
}

// The id first, so that every later error can carry it.
RequestId parse_id(const Json& object) {
  const auto it = object.find("id");
  if (it == object.end()) return std::monostate{};
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    if (text.size() > kMaxIdBytes)
      fail(Code::bad_request, "'id' is longer than " + std::to_string(kMaxIdBytes) + " bytes");
    return text;
  }
  if (in_range(*it, std::numeric_limits<std::int64_t>::min(),
               std::numeric_limits<std::int64_t>::max()))
    return it->get<std::int64_t>();
  fail(Code::bad_request, "'id' must be a string or an integer");
}


}  // namespace

Parsed parse_client_message(std::string_view text) {
  Parsed parsed;
  try {
    const Json object = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded()) fail(Code::bad_request, "the message is not valid JSON");
    if (!object.is_object()) fail(Code::bad_request, "the message must be a JSON object");
    parsed.id = parse_id(object);
    const auto type = object.find("type");
    if (type == object.end() || !type->is_string())
      fail(Code::unknown_type, "the message needs a string field 'type'");
    const auto& type_text = type->get_ref<const std::string&>();
    parsed.body = parse_body(type_text, Fields(object, type_text));
  } catch (Invalid& invalid) {
    parsed.body = std::move(invalid.error);
  }
  return parsed;
}

RequestId reply_id(std::string_view message) {
  const Json object = Json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object()) return std::monostate{};
  try {
    return parse_id(object);
  } catch (const Invalid&) {
    return std::monostate{};
  }
}

std::string room_named_by(const ClientMessage& message) {
  return std::visit(
      [](const auto& m) -> std::string {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, JoinRoom>) return m.invite.empty() ? m.room : "";
        else if constexpr (requires { m.room; }) return m.room;
        else return "";
      },
      message);
}

std::string_view type_name(const ClientMessage& message) {
  static constexpr std::string_view kTypes[] = {
      "hello", "create_room", "list_rooms", "watch_lobby", "join_room", "leave_room",
      "move",  "sync",        "resign",     "concede",     "plex",      "claim_abandon",
      "add_bot", "rematch", "chat", "spectator_chat", "report_chat", "seek", "cancel_seek", "watch_seeks",
      "watch_tournament"};
  static_assert(std::size(kTypes) == std::variant_size_v<ClientMessage>);
  if (const auto* special = std::get_if<Special>(&message)) return special->action;
  return kTypes[message.index()];
}

}  // namespace mancala::protocol
