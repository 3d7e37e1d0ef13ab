// The protocol library alone: every client message parsed, every malformed one refused with
// the documented code (and the id echoed when it was valid), server messages written.
#include <gtest/gtest.h>

#include <set>

#include "mancala/match.hpp"
#include "mancala/protocol/client_messages.hpp"
#include "mancala/protocol/server_messages.hpp"

namespace mancala::protocol {
namespace {

template <class T>
T parse_as(const std::string& text) {
  const Parsed parsed = parse_client_message(text);
  if (const auto* error = std::get_if<Error>(&parsed.body))
    ADD_FAILURE() << text << " -> " << to_string(error->code) << ": " << error->message;
  return std::get<T>(std::get<ClientMessage>(parsed.body));
}

Error parse_error(const std::string& text, RequestId* id = nullptr) {
  const Parsed parsed = parse_client_message(text);
  if (id) *id = parsed.id;
  if (!std::holds_alternative<Error>(parsed.body)) {
    ADD_FAILURE() << text << " was accepted";
    return {Code::internal, ""};
  }
  return std::get<Error>(parsed.body);
}

TEST(Parse, EveryMessageType) {
  EXPECT_EQ(parse_as<Hello>(R"({"type":"hello","name":"  Ada "})").name, "Ada");
  EXPECT_EQ(parse_as<Hello>(R"({"type":"hello","token":"abc"})").token, "abc");
  const auto create = parse_as<CreateRoom>(
      R"({"type":"create_room","game":"njaka","options":{"players":3},"private":true,"grace_seconds":60,"seat":2})");
  EXPECT_EQ(create.game, "njaka");
  EXPECT_EQ(create.options["players"], 3);
  EXPECT_TRUE(create.is_private);
  EXPECT_FALSE(create.rated);
  EXPECT_TRUE(parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","rated":true})").rated);
  EXPECT_EQ(create.grace_seconds, 60);
  EXPECT_EQ(create.choice.seat, 2);
  const auto defaults = parse_as<CreateRoom>(R"({"type":"create_room","game":"cups"})");
  EXPECT_EQ(defaults.grace_seconds, 120);
  EXPECT_FALSE(defaults.is_private);
  EXPECT_TRUE(defaults.options.empty());
  parse_as<ListRooms>(R"({"type":"list_rooms"})");
  parse_as<WatchLobby>(R"({"type":"watch_lobby"})");
  EXPECT_EQ(parse_as<JoinRoom>(R"({"type":"join_room","invite":"x","spectate":true})").choice.spectate, true);
  EXPECT_EQ(parse_as<JoinRoom>(R"({"type":"join_room","room":"r1"})").room, "r1");
  EXPECT_EQ(parse_as<LeaveRoom>(R"({"type":"leave_room","room":"r1"})").room, "r1");
  const auto move = parse_as<Move>(R"({"type":"move","room":"r","expected_version":41,"tokens":"c3 R Q D"})");
  EXPECT_EQ(move.expected_version, 41);
  EXPECT_EQ(move.tokens, "c3 R Q D");
  EXPECT_EQ(parse_as<Sync>(R"({"type":"sync","room":"r","since":7})").since, 7);
  parse_as<Resign>(R"({"type":"resign","room":"r"})");
  EXPECT_EQ(parse_as<Special>(R"({"type":"concede","room":"r"})").action, "concede");
  EXPECT_EQ(parse_as<Claim>(R"({"type":"plex","room":"r","window":"w"})").window, "w");
  parse_as<ClaimAbandon>(R"({"type":"claim_abandon","room":"r"})");
}

TEST(Parse, IdsAreEchoedWhenValid) {
  RequestId id;
  EXPECT_EQ(parse_error(R"({"type":"move","id":"abc"})", &id).code, Code::bad_request);
  EXPECT_EQ(std::get<std::string>(id), "abc");
  EXPECT_EQ(parse_error(R"({"type":"nope","id":12})", &id).code, Code::unknown_type);
  EXPECT_EQ(std::get<std::int64_t>(id), 12);
  EXPECT_EQ(parse_error(R"({"type":"list_rooms","id":")" + std::string(65, 'x') + R"("})", &id).code,
            Code::bad_request);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(id));
  EXPECT_EQ(parse_error(R"({"type":"list_rooms","id":1.5})", &id).code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"list_rooms","id":[1]})", &id).code, Code::bad_request);
  EXPECT_EQ(std::get<std::string>(parse_client_message(R"({"type":"list_rooms","id":")" + std::string(64, 'x') + R"("})").id).size(), 64u);
}

TEST(Parse, MalformedInput) {
  EXPECT_EQ(parse_error("not json").code, Code::bad_request);
  EXPECT_EQ(parse_error("[1,2]").code, Code::bad_request);
  EXPECT_EQ(parse_error("\"hello\"").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"id":1})").code, Code::unknown_type);
  EXPECT_EQ(parse_error(R"({"type":5})").code, Code::unknown_type);
  EXPECT_EQ(parse_error(R"({"type":"move","room":"r","tokens":"c1"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"move","room":"r","expected_version":-1,"tokens":"c1"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"move","room":"r","expected_version":1.0,"tokens":"c1"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"move","room":7,"expected_version":1,"tokens":"c1"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"sync","room":"r","since":18446744073709551615})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"join_room"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"join_room","room":"r","invite":"i"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"join_room","room":"r","seat":1,"spectate":true})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"join_room","room":"r","seat":9})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"create_room","game":"cups","private":"yes"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"create_room","game":"cups","options":[1]})").code, Code::bad_option);
  EXPECT_EQ(parse_error(R"({"type":"create_room","game":"cups","grace_seconds":29})").code, Code::bad_option);
  EXPECT_EQ(parse_error(R"({"type":"create_room","game":"cups","grace_seconds":3601})").code, Code::bad_option);
  EXPECT_TRUE(parse_as<Hello>(R"({"type":"hello"})").anonymous())
      << "neither name nor token parses: only the server knows whether a session cookie came along";
  EXPECT_EQ(parse_error("{\"type\":\"hello\",\"name\":\"\xff\"}").code, Code::bad_request) << "invalid UTF-8";
}

TEST(Parse, Chat) {
  const auto chat = parse_as<Chat>(R"({"type":"chat","room":"r","text":"  good game  "})");
  EXPECT_EQ(chat.text, "good game");
  EXPECT_EQ(parse_error(R"({"type":"chat","room":"r","text":"   "})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"chat","room":"r"})").code, Code::bad_request);
  EXPECT_EQ(parse_error("{\"type\":\"chat\",\"room\":\"r\",\"text\":\"" + std::string(281, 'x') + "\"}").code,
            Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"chat","room":"r","text":"a\u0007b"})").code, Code::bad_request);
  EXPECT_FALSE(parse_as<SpectatorChat>(R"({"type":"spectator_chat","room":"r","on":false})").on);
  EXPECT_EQ(parse_error(R"({"type":"spectator_chat","room":"r"})").code, Code::bad_request);
  EXPECT_EQ(parse_as<ReportChat>(R"({"type":"report_chat","room":"r","player_id":"p","at":"t"})").at, "t");
}

TEST(Parse, Names) {
  EXPECT_EQ(parse_error(R"({"type":"hello","name":"   "})").code, Code::bad_name);
  EXPECT_EQ(parse_error(R"({"type":"hello","name":""})").code, Code::bad_name);
  EXPECT_EQ(parse_error(R"({"type":"hello","name":")" + std::string(25, 'a') + R"("})").code, Code::bad_name);
  EXPECT_EQ(parse_error(R"({"type":"hello","name":"a\u0007b"})").code, Code::bad_name);
  EXPECT_EQ(parse_error(R"({"type":"hello","name":"a\u0085b"})").code, Code::bad_name);
  EXPECT_EQ(parse_error(R"({"type":"hello","name":7})").code, Code::bad_name);
  // 24 characters of two bytes each are fine: the limit counts characters, not bytes.
  std::string name;
  for (int i = 0; i < 24; ++i) name += "\xc3\xa9";
  EXPECT_EQ(parse_as<Hello>(R"({"type":"hello","name":")" + name + R"("})").name, name);
}

// The name a hello gives, or the error's message when it is refused.
std::string hello_name(const std::string& name) {
  const Parsed parsed = parse_client_message(Json{{"type", "hello"}, {"name", name}}.dump());
  if (const auto* error = std::get_if<Error>(&parsed.body)) {
    EXPECT_EQ(error->code, Code::bad_name) << error->message;
    return "refused: " + error->message;
  }
  return std::get<Hello>(std::get<ClientMessage>(parsed.body)).name;
}

// Issue 46: names that show as another one, or as nothing, are refused, each with words that
// say what to change.
TEST(Names, FakesAreRefused) {
  const std::string zero_width_space = "\u200B", right_to_left_override = "\u202E";
  EXPECT_EQ(hello_name("carol" + zero_width_space),
            "refused: names may not contain invisible characters such as a zero-width space (U+200B)");
  EXPECT_EQ(hello_name("\u200Dcarol"), "refused: names may not contain invisible characters such as a zero-width space (U+200D)");
  EXPECT_EQ(hello_name("\u2060carol"), "refused: names may not contain invisible characters such as a zero-width space (U+2060)");
  // Shows as "carol": the override reverses "lorac".
  EXPECT_EQ(hello_name(right_to_left_override + "lorac"),
            "refused: names may not contain direction-changing characters such as a right-to-left override (U+202E)");
  EXPECT_EQ(hello_name("carol\u2066x\u2069"),
            "refused: names may not contain direction-changing characters such as a right-to-left override (U+2066)");
  EXPECT_EQ(hello_name("carol\u200F"),
            "refused: names may not contain direction-changing characters such as a right-to-left override (U+200F)");
  EXPECT_EQ(hello_name("carol\U000E0041\U000E0042"),
            "refused: names may not contain tag characters, which are invisible (U+E0041)");
  EXPECT_EQ(hello_name("\u200B\u200B\u200B"),
            "refused: names may not contain invisible characters such as a zero-width space (U+200B)");
  EXPECT_EQ(hello_name("\u3164"), "refused: names may not contain invisible characters such as a zero-width space (U+3164)")
      << "the Hangul filler is a letter that shows nothing";
  EXPECT_EQ(hello_name("\u2800\u2800"), "refused: names may not contain invisible characters such as a zero-width space (U+2800)");
  EXPECT_EQ(hello_name("carol\uFE0F"), "refused: names may not contain invisible characters such as a zero-width space (U+FE0F)");
  EXPECT_EQ(hello_name("\u0301\u0301\u0301"),
            "refused: a name may not start with a combining mark, which joins the text before it");
  EXPECT_EQ(hello_name("x\u0301\u0302\u0303\u0304"), "refused: a name may stack at most 3 marks on one letter");
  EXPECT_EQ(hello_name("carol\u00A0"), "refused: names may use only the ordinary space between words (U+00A0)");
  EXPECT_EQ(hello_name("ca\u2028rol"), "refused: names are one line: no line or paragraph separators (U+2028)");
  EXPECT_EQ(hello_name("carol\uE000"),
            "refused: names may not contain private-use characters, which look like nothing agreed (U+E000)");
  EXPECT_EQ(hello_name("carol\u0378"), "refused: names may not contain characters Unicode has not assigned (U+0378)");
  EXPECT_EQ(hello_name("carol\u0085"), "refused: the name contains a control character (U+0085)");
}

TEST(Names, RealNamesPass) {
  EXPECT_EQ(hello_name("Zoë"), "Zoë");
  EXPECT_EQ(hello_name("Nguyễn Văn An"), "Nguyễn Văn An");
  EXPECT_EQ(hello_name("Ἀριστοτέλης"), "Ἀριστοτέλης");
  EXPECT_EQ(hello_name("سارا"), "سارا") << "right-to-left scripts are fine; overriding direction is not";
  EXPECT_EQ(hello_name("山田 太郎"), "山田 太郎");
  EXPECT_EQ(hello_name("Ada ♟"), "Ada ♟");
}

// A joiner stands only between two letters (the one before may carry marks), as Persian
// writes the non-joiner inside words; first, last, doubled, alone or beside anything but a
// letter it hides something.
TEST(Names, AJoinerBetweenTwoLettersPassesAndNowhereElse) {
  const std::string persian = "\u0645\u062D\u0645\u062F\u200C\u0631\u0636\u0627";  // Mohammad-Reza
  EXPECT_EQ(hello_name(persian), persian);
  EXPECT_EQ(hello_name("ca\u200Drol"), "ca\u200Drol");
  EXPECT_EQ(hello_name("x\u0301\u200Cy"), "x\u0301\u200Cy") << "the letter before carries a mark";
  const std::string zwnj = "refused: names may not contain invisible characters such as a zero-width space (U+200C)";
  const std::string zwj = "refused: names may not contain invisible characters such as a zero-width space (U+200D)";
  EXPECT_EQ(hello_name("\u200Ccarol"), zwnj) << "first";
  EXPECT_EQ(hello_name("carol\u200C"), zwnj) << "last (trailing spaces are trimmed first)";
  EXPECT_EQ(hello_name("carol\u200D "), zwj) << "last";
  EXPECT_EQ(hello_name("ca\u200C\u200Crol"), zwnj) << "doubled";
  EXPECT_EQ(hello_name("ca\u200D\u200Crol"), zwj) << "two different ones";
  EXPECT_EQ(hello_name("\u200C"), zwnj) << "alone";
  EXPECT_EQ(hello_name("Ada \u200Dx"), zwj) << "after a space";
  EXPECT_EQ(hello_name("Ada\u200D\u265F"), zwj) << "before a symbol: names join letters only";
  EXPECT_EQ(hello_name("R2\u200CD2"), zwnj) << "after a digit";
}

TEST(Names, AreStoredInNfc) {
  // "e" and a combining acute accent: the same name as "é", so it is kept as "é".
  EXPECT_EQ(hello_name("Rene\u0301"), "Ren\u00E9");
  EXPECT_EQ(std::get<std::string>(check_name("Ange\u0301lique")), "Ang\u00E9lique");
  // 24 characters once composed, though 25 code points as sent.
  EXPECT_EQ(hello_name(std::string(23, 'a') + "e\u0301"), std::string(23, 'a') + "\u00E9");
}

TEST(Names, ConfusableNamesShareASkeleton) {
  const std::string carol = name_skeleton("carol");
  EXPECT_EQ(name_skeleton("c\u0430rol"), carol) << "a Cyrillic а";
  EXPECT_EQ(name_skeleton("\u0441\u0430r\u043El"), carol) << "Cyrillic с, а and о";
  EXPECT_EQ(name_skeleton("CAROL"), carol) << "names are one whatever their case";
  EXPECT_EQ(name_skeleton("caro1"), carol) << "a digit one";
  EXPECT_EQ(name_skeleton("CAR0L"), carol) << "a zero";
  EXPECT_EQ(name_skeleton("carI"), name_skeleton("carl")) << "a capital I";
  EXPECT_EQ(name_skeleton("ca\u200Drol"), carol) << "a zero-width joiner between letters shows nothing";
  EXPECT_EQ(name_skeleton("c\u200Ca\u200Cr\u200Co\u200Cl"), carol) << "non-joiners between every letter";
  EXPECT_NE(name_skeleton("carla"), carol);
  EXPECT_NE(name_skeleton("bob"), carol);
}

TEST(Chat, ControlCharactersAreRefused) {
  const auto chat_error = [](const std::string& text) {
    const Parsed parsed = parse_client_message(Json{{"type", "chat"}, {"room", "r"}, {"text", text}}.dump());
    const auto* error = std::get_if<Error>(&parsed.body);
    if (!error) return std::string("accepted");
    EXPECT_EQ(error->code, Code::bad_request);
    return error->message;
  };
  EXPECT_EQ(chat_error("gg \u202Eeasy"),
            "messages may not contain direction-changing characters such as a right-to-left override (U+202E)");
  EXPECT_EQ(chat_error("gg \u2067x"),
            "messages may not contain direction-changing characters such as a right-to-left override (U+2067)");
  EXPECT_EQ(chat_error("hidden\u200Btext"), "messages may not contain invisible characters such as a zero-width space (U+200B)");
  EXPECT_EQ(chat_error("gg\U000E0069\U000E0067"), "messages may not contain tag characters, which are invisible (U+E0069)");
  EXPECT_EQ(chat_error("\u200D"), "messages may not contain invisible characters such as a zero-width space (U+200D)");
  EXPECT_EQ(chat_error("gg \u200D"), "messages may not contain invisible characters such as a zero-width space (U+200D)")
      << "a joiner beside a space joins nothing";
  EXPECT_EQ(chat_error("two\u2029lines"), "messages are one line: no line or paragraph separators (U+2029)");
  EXPECT_EQ(chat_error("two\nlines"), "the message contains a control character (U+000A)");
  // What sentences need: emoji sequences (joiners, variation selectors), Persian's non-joiner.
  EXPECT_EQ(chat_error("\U0001F468\u200D\U0001F469\u200D\U0001F467 \u2764\uFE0F"), "accepted");
  EXPECT_EQ(chat_error("\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645"), "accepted");
  EXPECT_EQ(chat_error("caf\u00E9\u00A0!"), "accepted");
}

// Emoji tag sequences (UTS #51), the subdivision flags: U+1F3F4, tags U+E0020-U+E007E, then the
// cancel tag U+E007F. Every other tag character, and a sequence not made that way, is refused.
TEST(Chat, SubdivisionFlagsPassAndOtherTagsDoNot) {
  const auto chat_error = [](const std::string& text) {
    const auto checked = check_chat_text(text);
    const auto* error = std::get_if<Error>(&checked);
    return error ? error->message : "accepted";
  };
  const std::string scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F";
  const std::string wales = "\U0001F3F4\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F";
  EXPECT_EQ(chat_error(scotland), "accepted");
  EXPECT_EQ(chat_error("gg " + scotland + wales + "!"), "accepted");
  const auto tag = [](const std::string& code) {
    return "messages may not contain tag characters, which are invisible (U+" + code + ")";
  };
  EXPECT_EQ(chat_error("\U0001F3F4\U000E0067\U000E0062"), tag("E0067")) << "no cancel tag";
  EXPECT_EQ(chat_error("\U0001F3F4\U000E007F"), tag("E007F")) << "no tag between flag and cancel tag";
  EXPECT_EQ(chat_error("\U0001F3F4\U000E0001\U000E007F"), tag("E0001")) << "the language tag is not a flag's";
  EXPECT_EQ(chat_error(scotland + "\U000E0041"), tag("E0041")) << "a tag after the sequence's end";
  EXPECT_EQ(chat_error("\u2764\U000E0067\U000E0062\U000E007F"), tag("E0067")) << "only the black flag takes tags";
  EXPECT_EQ(chat_error("\U0001F3F4\U000E0067 \U000E007F"), tag("E0067")) << "a space breaks the sequence";
  const auto as_name = check_name(scotland);
  ASSERT_TRUE(std::holds_alternative<Error>(as_name)) << "names have no flags";
  EXPECT_EQ(std::get<Error>(as_name).message, "names may not contain tag characters, which are invisible (U+E0067)");
}

TEST(Parse, OptionsArePassedOnForTheEngineToJudge) {
  const auto create = parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","options":{"first_player":1}})");
  EXPECT_EQ(create.options["first_player"], Json(1));
  // Integers parsed from text are accepted by the engine's option table as they are.
  EXPECT_EQ(Match::create("cups", create.options, 1).game().to_move(), 1);
}

TEST(Parse, BotSeats) {
  const auto create = parse_as<CreateRoom>(
      R"({"type":"create_room","game":"njaka","options":{"players":4},"seat":1,"bots":[{"seat":0,"level":1},{"seat":3,"level":5}]})");
  ASSERT_EQ(create.bots.size(), 2u);
  EXPECT_EQ(create.bots[0].seat, 0);
  EXPECT_EQ(create.bots[1].level, 5);
  EXPECT_TRUE(parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","bots":null})").bots.empty());
  const auto add = parse_as<AddBot>(R"({"type":"add_bot","room":"r","seat":1,"level":3})");
  EXPECT_EQ(add.room, "r");
  EXPECT_EQ(add.bot.seat, 1);
  EXPECT_EQ(add.bot.level, 3);
  EXPECT_EQ(type_name(ClientMessage(add)), "add_bot");

  const auto refused = [](const std::string& text, const std::string& words) {
    const Error error = parse_error(text);
    EXPECT_EQ(error.code, Code::bad_request) << text;
    EXPECT_NE(error.message.find(words), std::string::npos) << text << " -> " << error.message;
  };
  refused(R"({"type":"create_room","game":"cups","bots":[{"seat":1,"level":6}]})", "'level' must be an integer from 1 to 5");
  refused(R"({"type":"create_room","game":"cups","bots":[{"seat":1,"level":0}]})", "from 1 to 5");
  refused(R"({"type":"create_room","game":"cups","bots":[{"seat":1}]})", "'level'");
  refused(R"({"type":"create_room","game":"cups","bots":[{"seat":4,"level":1}]})", "'seat'");
  refused(R"({"type":"create_room","game":"cups","bots":[{"seat":0,"level":1}]})", "the creator's");
  refused(R"({"type":"create_room","game":"cups","seat":1,"bots":[{"seat":1,"level":1}]})", "the creator's");
  refused(R"({"type":"create_room","game":"njaka","bots":[{"seat":1,"level":1},{"seat":1,"level":2}]})", "twice");
  refused(R"({"type":"create_room","game":"cups","bots":{"seat":1,"level":1}})", "'bots' must be a list");
  refused(R"({"type":"create_room","game":"cups","bots":[3]})", "each entry");
  refused(R"({"type":"create_room","game":"njaka","spectate":true,"bots":[{"seat":0,"level":1},{"seat":1,"level":1},{"seat":2,"level":1},{"seat":3,"level":1}]})",
          "a person's");
  refused(R"({"type":"add_bot","room":"r","seat":1,"level":9})", "from 1 to 5");
  refused(R"({"type":"add_bot","room":"r","level":2})", "'seat'");
  refused(R"({"type":"add_bot","seat":1,"level":2})", "'room'");
}

TEST(Parse, ClocksAndRematch) {
  EXPECT_FALSE(parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","clock":null})").clock);
  const auto real_time =
      parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","clock":{"initial_s":300,"increment_s":3}})").clock;
  ASSERT_TRUE(real_time);
  EXPECT_EQ(real_time->initial_s, 300);
  EXPECT_EQ(real_time->increment_s, 3);
  EXPECT_FALSE(real_time->correspondence());
  EXPECT_EQ(parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","clock":{"initial_s":10}})").clock->increment_s, 0);
  const auto daily = parse_as<CreateRoom>(R"({"type":"create_room","game":"cups","clock":{"per_move_s":86400}})").clock;
  ASSERT_TRUE(daily);
  EXPECT_TRUE(daily->correspondence());
  EXPECT_EQ(daily->per_move_s, 86400);
  for (const char* bad : {R"({"initial_s":9})", R"({"initial_s":10801})", R"({"initial_s":60,"increment_s":-1})",
                          R"({"initial_s":60,"increment_s":61})", R"({"initial_s":"300"})", R"({"per_move_s":59})",
                          R"({"per_move_s":1209601})", R"({"per_move_s":86400,"increment_s":2})", R"({})", R"(300)"}) {
    const Error error = parse_error(std::string(R"({"type":"create_room","game":"cups","clock":)") + bad + "}");
    EXPECT_EQ(error.code, Code::bad_option) << bad;
    EXPECT_NE(error.message.find("clock"), std::string::npos) << error.message;
  }
  EXPECT_NE(parse_error(R"({"type":"create_room","game":"cups","clock":{"initial_s":5}})").message.find("10 to 10800"),
            std::string::npos);
  EXPECT_EQ(parse_as<Rematch>(R"({"type":"rematch","room":"r1"})").room, "r1");
  EXPECT_EQ(parse_error(R"({"type":"rematch"})").code, Code::bad_request);
}

TEST(Parse, Seeks) {
  const auto seek = parse_as<Seek>(
      R"({"type":"seek","game":"njaka","options":{"x":1},"clock":{"initial_s":180,"increment_s":2},"rated":true,"seats":[4,3]})");
  EXPECT_EQ(seek.game, "njaka");
  EXPECT_EQ(seek.options["x"], 1);
  ASSERT_TRUE(seek.clock);
  EXPECT_EQ(seek.clock->initial_s, 180);
  EXPECT_TRUE(seek.rated);
  EXPECT_EQ(seek.seats, (std::vector<int>{3, 4})) << "kept ascending";
  const auto plain = parse_as<Seek>(R"({"type":"seek","game":"cups"})");
  EXPECT_FALSE(plain.clock);
  EXPECT_FALSE(plain.rated);
  EXPECT_TRUE(plain.seats.empty()) << "empty: the game's default, which the server knows";
  EXPECT_TRUE(plain.options.empty());
  EXPECT_EQ(parse_as<Seek>(R"({"type":"seek","game":"cups","clock":{"per_move_s":86400}})").clock->per_move_s, 86400);
  EXPECT_EQ(parse_as<CancelSeek>(R"({"type":"cancel_seek","seek":"s9"})").seek, "s9");
  parse_as<WatchSeeks>(R"({"type":"watch_seeks"})");

  EXPECT_EQ(parse_error(R"({"type":"seek"})").code, Code::bad_request) << "no game";
  EXPECT_EQ(parse_error(R"({"type":"seek","game":7})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"seek","game":"cups","options":[1]})").code, Code::bad_option);
  const Error players = parse_error(R"({"type":"seek","game":"njaka","options":{"players":3}})");
  EXPECT_EQ(players.code, Code::bad_option);
  EXPECT_NE(players.message.find("seats"), std::string::npos) << players.message;
  EXPECT_EQ(parse_error(R"({"type":"seek","game":"cups","clock":{"initial_s":5}})").code, Code::bad_option);
  EXPECT_EQ(parse_error(R"({"type":"seek","game":"cups","rated":"yes"})").code, Code::bad_request);
  for (const char* bad : {"[]", "[1]", "[5]", "[2,2]", "2", "[\"2\"]", "[2.5]"})
    EXPECT_EQ(parse_error(std::string(R"({"type":"seek","game":"njaka","seats":)") + bad + "}").code, Code::bad_request)
        << bad;
  EXPECT_EQ(parse_error(R"({"type":"cancel_seek"})").code, Code::bad_request);
  EXPECT_EQ(parse_error(R"({"type":"cancel_seek","seek":3})").code, Code::bad_request);
  EXPECT_EQ(to_string(Code::too_many_seeks), "too_many_seeks");
}

TEST(Write, SeekingAndSeeks) {
  const Json seeking = Json::parse(write_seeking(RequestId{std::int64_t{4}}, "s1"));
  EXPECT_EQ(seeking, (Json{{"type", "seeking"}, {"id", 4}, {"seek", "s1"}}));
  SeekListing listing{"cups", Json::object(), Json{{"initial_s", 300}, {"increment_s", 3}}, false, {2}, 2};
  const Json seeks = Json::parse(write_seeks({listing}, {{"cups", 5}, {"njaka", 0}}));
  EXPECT_EQ(seeks["type"], "seeks");
  EXPECT_FALSE(seeks.contains("id"));
  ASSERT_EQ(seeks["seeks"].size(), 1u);
  EXPECT_EQ(seeks["seeks"][0]["clock"]["initial_s"], 300);
  EXPECT_EQ(seeks["seeks"][0]["seats"], Json::array({2}));
  EXPECT_EQ(seeks["seeks"][0]["waiting"], 2);
  EXPECT_EQ(seeks["online"], (Json{{"cups", 5}, {"njaka", 0}}));
}

// What write_client_message writes parses back to the same message, for every type: the
// cluster forwards a room's messages to its owner this way, clocks and bot seats included.
TEST(Write, ClientMessagesParseBackToThemselves) {
  const std::vector<std::string> messages = {
      R"({"type":"hello","name":"Ada"})",
      R"({"type":"hello","token":"abc"})",
      R"({"type":"create_room","game":"njaka","options":{"players":3},"private":true,"grace_seconds":60,"seat":2,)"
      R"("bots":[{"seat":0,"level":5},{"seat":1,"level":1}],"clock":{"initial_s":300,"increment_s":3}})",
      R"({"type":"create_room","game":"cups","spectate":true,"clock":{"per_move_s":86400}})",
      R"({"type":"list_rooms"})",
      R"({"type":"watch_lobby"})",
      R"({"type":"join_room","invite":"x","spectate":true})",
      R"({"type":"join_room","room":"r1","seat":1})",
      R"({"type":"leave_room","room":"r1"})",
      R"({"type":"move","room":"r","expected_version":41,"tokens":"c3 R Q D"})",
      R"({"type":"sync","room":"r","since":7})",
      R"({"type":"resign","room":"r"})",
      R"({"type":"concede","room":"r"})",
      R"({"type":"plex","room":"r","window":"w"})",
      R"({"type":"claim_abandon","room":"r"})",
      R"({"type":"add_bot","room":"r","seat":3,"level":4})",
      R"({"type":"rematch","room":"r1"})",
      R"({"type":"chat","room":"r1","text":"Good game"})",
      R"({"type":"spectator_chat","room":"r1","on":false})",
      R"({"type":"report_chat","room":"r1","player_id":"p","at":"2026-01-01T00:00:00.000Z"})",
      R"({"type":"seek","game":"njaka","options":{"seeds":4},"clock":{"initial_s":300,"increment_s":3},"rated":true,"seats":[3,4]})",
      R"({"type":"seek","game":"cups","options":{},"rated":false})",
      R"({"type":"cancel_seek","seek":"s1"})",
      R"({"type":"watch_seeks"})",
      R"({"type":"watch_tournament","tournament":"t1"})"};
  std::set<std::size_t> types;
  for (const auto& text : messages) {
    const Parsed parsed = parse_client_message(text);
    const auto* message = std::get_if<ClientMessage>(&parsed.body);
    ASSERT_NE(message, nullptr) << text;
    types.insert(message->index());
    for (const RequestId& id : {RequestId{}, RequestId{std::string("q7")}, RequestId{std::int64_t{-12}}}) {
      const std::string written = write_client_message(id, *message);
      const Json sent = Json::parse(text);
      const Json json = Json::parse(written);
      for (const auto& [key, value] : sent.items()) EXPECT_EQ(json.at(key), value) << written;
      const Parsed again = parse_client_message(written);
      ASSERT_TRUE(std::holds_alternative<ClientMessage>(again.body)) << written;
      EXPECT_EQ(again.id, id);
      EXPECT_EQ(write_client_message(id, std::get<ClientMessage>(again.body)), written);
    }
  }
  EXPECT_EQ(types.size(), std::variant_size_v<ClientMessage>) << "a message type is missing here";
}

TEST(Write, RoomMessagesCarryTheClockAndTheRematch) {
  RoomView view;
  view.summary.id = "r";
  view.summary.time_control = Json{{"per_move_s", 86400}};
  view.clock = Json{{"remaining_ms", {86400000, 86400000}}, {"running", 0}, {"as_of", "2026-01-01T00:00:00.000Z"}};
  view.rematch = "r2";
  const Json room = Json::parse(write_room({}, view))["room"];
  EXPECT_EQ(room["time_control"], view.summary.time_control);
  EXPECT_EQ(room["clock"], view.clock);
  EXPECT_EQ(room["rematch"], "r2");
  EXPECT_FALSE(Json::parse(write_room({}, RoomView{}))["room"].contains("rematch"));
  view.state = R"({"to_move":1,"clock":{"running":0}})";
  EXPECT_EQ(Json::parse(write_room({}, view))["room"]["state"], Json::parse(view.state)) << "the state's text, as it is";
  EXPECT_EQ(write_room(std::int64_t{4}, RoomView{}),
            R"({"type":"room","id":4,"room":{"id":"","game":"","options":null,"grace_seconds":0,"private":false,)"
            R"("rated":false,"status":"","seats":[],"spectators":0,"time_control":null,"version":0,"state":null,)"
            R"("clock":null,"host_id":null,"spectator_chat":true,"chat":[]}})");
  EXPECT_EQ(Json::parse(write_rematch("r", {0, 2})), (Json{{"type", "rematch"}, {"room", "r"}, {"seats", {0, 2}}}));
}

TEST(Write, BotSeatsCarryTheirLevelPersonsFalse) {
  SeatView person;
  person.player_id = "p1";
  person.name = "Ada";
  SeatView bot = person;
  bot.seat = 1;
  bot.player_id = "bot-1";
  bot.name = "Computer, level 3";
  bot.bot = 3;
  RoomView view;
  view.summary.id = "r";
  view.summary.game = "cups";
  view.summary.seats = {person, bot};
  const Json room = Json::parse(write_room({}, view))["room"];
  EXPECT_EQ(room["seats"][0]["bot"], false);
  EXPECT_EQ(room["seats"][1]["bot"], 3);
}

TEST(Write, LobbySummariesCarryTheHostAndTheCreationTime) {
  RoomSummary hosted;
  hosted.id = "r1";
  hosted.host = "Ada";
  hosted.created = "2026-01-01T12:00:00.000Z";
  RoomSummary unknown_host = hosted;
  unknown_host.id = "r2";
  unknown_host.host.clear();
  const Json rooms = Json::parse(write_rooms({}, {hosted, unknown_host}))["rooms"];
  ASSERT_EQ(rooms.size(), 2u);
  EXPECT_EQ(rooms[0]["host"], "Ada");
  EXPECT_EQ(rooms[0]["created"], "2026-01-01T12:00:00.000Z");
  ASSERT_TRUE(rooms[1].contains("host"));
  EXPECT_TRUE(rooms[1]["host"].is_null()) << "a host that is not known is null, not an empty name";
}

TEST(Write, RepliesCarryTheIdRightAfterTheType) {
  EXPECT_EQ(write_ok(std::int64_t{3}), R"({"type":"ok","id":3})");
  EXPECT_EQ(write_ok({}), R"({"type":"ok"})");
  EXPECT_EQ(write_error(std::string("a"), {Code::stale_version, "old", {{"version", 4}}}),
            R"({"type":"error","id":"a","code":"stale_version","message":"old","version":4})");
  Update update{"r1", 5, 1, "move", "c2", "[]", "{}"};
  const std::string shared = write_update({}, update);
  EXPECT_EQ(shared.rfind(R"({"type":"update","room":"r1","version":5,"seat":1)", 0), 0u);
  EXPECT_EQ(with_id(shared, std::string("m\"7")), write_update(std::string("m\"7"), update));
  EXPECT_EQ(with_id(shared, {}), shared);
  EXPECT_EQ(write_presence("r", 1, false, "2026-01-01T00:00:00.000Z"),
            R"({"type":"presence","room":"r","seat":1,"connected":false,"grace_until":"2026-01-01T00:00:00.000Z"})");
  EXPECT_EQ(write_claim_open("plex", "r", "w", 5000, 2),
            R"({"type":"plex_open","room":"r","window":"w","deadline_ms":5000,"mover":2})");
}

TEST(Write, ARepliesIdIsReadBackAndAnUnsolicitedMessageHasNone) {
  EXPECT_EQ(reply_id(write_ok(std::int64_t{3})), RequestId(std::int64_t{3}));
  EXPECT_EQ(reply_id(write_error(std::string("m7"), {Code::not_found, "no", {}})), RequestId(std::string("m7")));
  EXPECT_EQ(reply_id(with_id(write_update({}, Update{"r1", 5, 1, "move", "c2", "[]", "{}"}), std::string("x"))),
            RequestId(std::string("x")));
  EXPECT_EQ(reply_id(write_presence("r", 1, true, "")), RequestId());
  EXPECT_EQ(reply_id("not json"), RequestId());
  EXPECT_EQ(reply_id(R"({"type":"ok","id":{"nested":1}})"), RequestId()) << "an id no request could have";
}

TEST(Write, AnAwaySeatCarriesItsGraceTimeAndOnlyIt) {
  RoomView view;
  view.summary = {"r", "cups", Json::object(), "playing",
                  {{0, "p1", "Ada", true, false, ""}, {1, "p2", "Bo", false, false, "2026-01-01T00:00:00.000Z"}}, 0, Json(), false, "", ""};
  const Json room = Json::parse(write_room({}, view))["room"];
  EXPECT_FALSE(room["seats"][0].contains("grace_until"));
  EXPECT_EQ(room["seats"][1]["grace_until"], "2026-01-01T00:00:00.000Z");
}

TEST(Write, RoomMessagesShowTheInviteOnlyWhenAsked) {
  RoomView view;
  view.summary = {"r", "cups", Json::object(), "waiting", {{0, "p1", "Ada", true, false, ""}, {1, "", "", false, false, ""}}, 2, Json(), false, "", ""};
  view.is_private = true;
  const Json without = Json::parse(write_room({}, view));
  EXPECT_FALSE(without["room"].contains("invite"));
  EXPECT_TRUE(without["room"]["seats"][1]["player_id"].is_null());
  EXPECT_EQ(without["room"]["spectators"], 2);
  view.invite = "secret";
  EXPECT_EQ(Json::parse(write_room({}, view))["room"]["invite"], "secret");
}

TEST(Errors, EngineCodesMapToProtocolCodes) {
  EXPECT_EQ(from_engine(ErrorCode::illegal_move), Code::illegal_move);
  EXPECT_EQ(from_engine(ErrorCode::no_claim_window), Code::no_claim_window);
  for (int i = 0; i < kCodeCount; ++i)
    EXPECT_EQ(code_from_string(to_string(static_cast<Code>(i))), static_cast<Code>(i));
}

}  // namespace
}  // namespace mancala::protocol
