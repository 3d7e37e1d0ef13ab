// The project's JSON type and its fast writer: the text must be exactly nlohmann's.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "mancala/json.hpp"
#include "mancala/match.hpp"
#include "mancala/utf8.hpp"
#include "test_support.hpp"

namespace mancala::testing {
namespace {

void expect_same_text(const Json& value) { EXPECT_EQ(to_json_text(value), value.dump()); }

TEST(JsonText, ScalarsAndContainersAreWrittenAsNlohmannDoes) {
  expect_same_text(nullptr);
  expect_same_text(true);
  expect_same_text(false);
  expect_same_text(0);
  expect_same_text(-42);
  expect_same_text(std::numeric_limits<std::int64_t>::min());
  expect_same_text(std::numeric_limits<std::uint64_t>::max());
  expect_same_text(1.5);
  expect_same_text(-0.1);
  expect_same_text(1e300);
  expect_same_text(Json::array());
  expect_same_text(Json::object());
  expect_same_text(Json{{"b", 1}, {"a", {1, 2, {{"c", nullptr}}}}, {"", ""}});
}

TEST(JsonText, StringsThatNeedEscapingOrAreNotAsciiAreWrittenAsNlohmannDoes) {
  for (const std::string& text : std::vector<std::string>{"", "plain", "quote \" inside", "back\\slash", "tab\there",
                                 "line\nbreak", std::string("nul\0byte", 8), "\x1f", "del\x7f",
                                 "Ngọc Ánh", "日本語", "emoji 😀"}) {
    expect_same_text(text);
    expect_same_text(Json{{text, text}});
  }
}

TEST(Utf8, OnlyWellFormedTextPasses) {
  EXPECT_TRUE(mancala::is_utf8(""));
  EXPECT_TRUE(mancala::is_utf8("cups \xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2"));
  for (const char* bad : {"\xff", "\xc3\x28", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"})
    EXPECT_FALSE(mancala::is_utf8(bad)) << "bytes of '" << bad << "'";
}

TEST(Utf8, ThePrefixEndsAtTheFirstBadSequence) {
  EXPECT_EQ(mancala::utf8_prefix("ab\xc3\xa9\xff" "cd"), 4u);
  EXPECT_EQ(mancala::utf8_prefix("abc"), 3u);
  EXPECT_EQ(mancala::utf8_prefix("\xe2\x82"), 0u);
}

TEST(JsonText, ALibraryErrorIsWordedWithoutItsTag) {
  try {
    (void)Json::parse("{\"a\": x}");
    FAIL() << "parsed";
  } catch (const Json::exception& e) {
    const std::string words = json_error_words(e);
    EXPECT_TRUE(words.starts_with("parse error at line 1, column 7")) << words;
    EXPECT_EQ(words.find("json.exception"), std::string::npos) << words;
  }
}

TEST(JsonText, InvalidUtf8IsRefusedAsNlohmannRefusesIt) {
  EXPECT_THROW(to_json_text(std::string("\xff\xfe")), Json::type_error);
}

TEST(JsonText, EveryStateAndRecordOfRandomGamesIsWrittenAsNlohmannDoes) {
  const std::pair<const char*, Json> variants[] = {
      {"cups", Json::object()},          {"coin_duel", {{"stage", 1}}},
      {"coin_duel", {{"stage", 2}}},     {"coin_duel", {{"stage", 3}}},
      {"oanquan", Json::object()},       {"njaka", {{"players", 3}, {"plex_mode", "mover"}}},
      {"duovallis", Json::object()}};
  for (const auto& [game, options] : variants) {
    SCOPED_TRACE(std::string(game) + " " + options.dump());
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      Match m = Match::create(game, options, seed);
      RandomPlay how;
      how.max_steps = 400;
      how.step = [](Match& match, Random& rng) {
        play_random_token(match, rng);
        expect_same_text(match.state());
      };
      ASSERT_NO_FATAL_FAILURE(play_randomly(m, seed, how));
      expect_same_text(m.record());
    }
  }
}

TEST(JsonObjects, KeepKeysInTheOrderWrittenWhateverTheirNumber) {
  Json object = Json::object();
  for (int i = 20; i > 0; --i) object["k" + std::to_string(i)] = Json::array({i, "x"});
  ASSERT_EQ(object.size(), 20u);
  int expected = 20;
  for (const auto& [key, value] : object.items()) {
    EXPECT_EQ(key, "k" + std::to_string(expected));
    EXPECT_EQ(value, Json::array({expected, "x"}));
    --expected;
  }
  const Json parsed = Json::parse(to_json_text(object));
  EXPECT_EQ(parsed, object);
  EXPECT_EQ(parsed.begin().key(), "k20");
}

}  // namespace
}  // namespace mancala::testing
