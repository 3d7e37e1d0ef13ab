#include "mancala/protocol/names.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#include <cstdio>
#include <optional>
#include <stdexcept>

namespace mancala::protocol {
namespace {

// Marks a name may stack on one letter: Vietnamese needs two, some Indic clusters three; more
// only smears over the text around it.
constexpr int kMaxMarksInARow = 3;

constexpr char32_t kZeroWidthNonJoiner = 0x200C;
constexpr char32_t kZeroWidthJoiner = 0x200D;

// What a piece of text is for: the rules differ a little, and the error's words.
struct Purpose {
  const char* what;  // "name" or "message"
  int max_characters;
  Code code;
  bool name;
};
constexpr Purpose kName{"name", kMaxNameCharacters, Code::bad_name, true};
constexpr Purpose kChat{"message", kMaxChatCharacters, Code::bad_request, false};

std::string code_point_text(UChar32 c) {
  char out[16];
  std::snprintf(out, sizeof out, "U+%04X", static_cast<unsigned>(c));
  return out;
}

bool is_bidi_control(UChar32 c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}
bool is_tag(UChar32 c) { return c >= 0xE0000 && c <= 0xE007F; }
bool is_variation_selector(UChar32 c) { return u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR); }
bool is_mark(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_M_MASK) != 0; }
// A letter, digit, punctuation or symbol: something that shows. U+2800 (a braille pattern of
// no dots) is a symbol that shows nothing, the usual stand-in for an invisible name.
bool is_visible(UChar32 c) {
  return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK)) != 0 && c != 0x2800;
}

bool is_letter(UChar32 c) { return (U_GET_GC_MASK(c) & U_GC_L_MASK) != 0; }
bool is_joiner(UChar32 c) { return c == kZeroWidthJoiner || c == kZeroWidthNonJoiner; }

// A joiner is part of writing only between two characters that show: in a message an emoji
// sequence or a word, in a name two letters (Persian writes the non-joiner inside words and
// names); the letter before may carry marks. Anywhere else (first, last, doubled, beside a
// space) it only hides something.
bool joins(const icu::UnicodeString& text, int32_t at, const Purpose& purpose) {
  if (at == 0) return false;
  const int32_t next = text.moveIndex32(at, 1);
  if (next >= text.length()) return false;
  const UChar32 before = text.char32At(text.moveIndex32(at, -1));
  const UChar32 after = text.char32At(next);
  const auto shows = purpose.name ? is_letter : is_visible;
  return (shows(before) || is_mark(before)) && shows(after);
}

// Where the character at `at` ends, with the tags that follow it when it starts an emoji tag
// sequence (Unicode UTS #51): U+1F3F4, one or more tag characters U+E0020-U+E007E and the
// cancel tag U+E007F, the flags of England, Scotland and Wales. Other tags are refused.
int32_t after_character(const icu::UnicodeString& text, int32_t at) {
  constexpr UChar32 kBlackFlag = 0x1F3F4, kCancelTag = 0xE007F;
  const int32_t next = text.moveIndex32(at, 1);
  if (text.char32At(at) != kBlackFlag) return next;
  int32_t i = next;
  while (i < text.length() && text.char32At(i) >= 0xE0020 && text.char32At(i) <= 0xE007E) i = text.moveIndex32(i, 1);
  if (i == next || i >= text.length() || text.char32At(i) != kCancelTag) return next;
  return text.moveIndex32(i, 1);
}

// Why `c` (at `at` in `text`) may not stand in this text; nothing when it may.
std::optional<std::string> refusal(const icu::UnicodeString& text, int32_t at, UChar32 c, const Purpose& purpose) {
  if (c >= 0x20 && c < 0x7F) return std::nullopt;  // printable ASCII, most text: no property lookups
  const std::string plural = purpose.name ? "names" : "messages";
  const std::string which = " (" + code_point_text(c) + ")";
  if (is_bidi_control(c))
    return plural + " may not contain direction-changing characters such as a right-to-left override" + which;
  if (is_tag(c)) return plural + " may not contain tag characters, which are invisible" + which;
  const auto category = static_cast<UCharCategory>(u_charType(c));
  if (category == U_CONTROL_CHAR) return "the " + std::string(purpose.what) + " contains a control character" + which;
  if (category == U_LINE_SEPARATOR || category == U_PARAGRAPH_SEPARATOR)
    return plural + " are one line: no line or paragraph separators" + which;
  if (!purpose.name && is_variation_selector(c)) return std::nullopt;  // emoji presentation
  if (is_joiner(c) && joins(text, at, purpose)) return std::nullopt;
  if (category == U_FORMAT_CHAR || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
      (purpose.name && c == 0x2800))
    return plural + " may not contain invisible characters such as a zero-width space" + which;
  if (!purpose.name) return std::nullopt;
  if (category == U_UNASSIGNED) return "names may not contain characters Unicode has not assigned" + which;
  if (category == U_PRIVATE_USE_CHAR) return "names may not contain private-use characters, which look like nothing agreed" + which;
  if (category == U_SPACE_SEPARATOR && c != ' ') return "names may use only the ordinary space between words" + which;
  return std::nullopt;
}

// The name's shape beyond its characters: something visible, no mark before any letter, no
// pile of marks.
std::optional<std::string> shape_refusal(const icu::UnicodeString& text, const Purpose& purpose) {
  bool visible = false;
  int marks_in_a_row = 0;
  for (int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1)) {
    const UChar32 c = text.char32At(i);
    visible = visible || is_visible(c);
    if (!purpose.name) {
      if (visible) return std::nullopt;  // a message needs only something visible
      continue;
    }
    marks_in_a_row = is_mark(c) ? marks_in_a_row + 1 : 0;
    if (i == 0 && is_mark(c)) return "a name may not start with a combining mark, which joins the text before it";
    if (marks_in_a_row > kMaxMarksInARow)
      return "a name may stack at most " + std::to_string(kMaxMarksInARow) + " marks on one letter";
  }
  if (!visible) return "the " + std::string(purpose.what) + " has no visible letter, digit or symbol";
  return std::nullopt;
}

const icu::Normalizer2& nfc() {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* normalizer = icu::Normalizer2::getNFCInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU has no NFC data: ") + u_errorName(status));
  return *normalizer;
}

bool is_trimmed_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::variant<std::string, Error> check_text(std::string_view raw, const Purpose& purpose) {
  while (!raw.empty() && is_trimmed_space(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && is_trimmed_space(raw.back())) raw.remove_suffix(1);
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString text =
      nfc().normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(raw.data(), static_cast<int32_t>(raw.size()))), status);
  if (U_FAILURE(status)) return Error{purpose.code, "the " + std::string(purpose.what) + " could not be read as Unicode"};
  const int32_t characters = text.countChar32();
  if (characters == 0) return Error{purpose.code, "the " + std::string(purpose.what) + " is empty"};
  if (characters > purpose.max_characters)
    return Error{purpose.code, "the " + std::string(purpose.what) + " has " + std::to_string(characters) +
                                   " characters; at most " + std::to_string(purpose.max_characters) + " are allowed"};
  // A message's emoji tag sequences pass whole; a name has none (its tags are refused).
  for (int32_t i = 0; i < text.length(); i = purpose.name ? text.moveIndex32(i, 1) : after_character(text, i))
    if (auto why = refusal(text, i, text.char32At(i), purpose)) return Error{purpose.code, std::move(*why)};
  if (auto why = shape_refusal(text, purpose)) return Error{purpose.code, std::move(*why)};
  std::string out;
  return text.toUTF8String(out);
}

// One checker for the process: ICU's checker may be shared by threads once it is set up.
const USpoofChecker& spoof_checker() {
  static const USpoofChecker* checker = [] {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker* opened = uspoof_open(&status);
    if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU has no confusables data: ") + u_errorName(status));
    return opened;
  }();
  return *checker;
}

// The name without its joiners: "ca" ZWJ "rol" shows as "carol", so it has carol's skeleton.
icu::UnicodeString without_joiners(const icu::UnicodeString& text) {
  icu::UnicodeString out;
  for (int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1))
    if (!is_joiner(text.char32At(i))) out.append(text.char32At(i));
  return out;
}

icu::UnicodeString skeleton(const icu::UnicodeString& text) {
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString out;
  uspoof_getSkeletonUnicodeString(&spoof_checker(), 0, text, out, &status);
  if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU made no skeleton: ") + u_errorName(status));
  return out;
}

}  // namespace

std::variant<std::string, Error> check_name(std::string_view name) { return check_text(name, kName); }

std::variant<std::string, Error> check_chat_text(std::string_view text) { return check_text(text, kChat); }

std::string name_skeleton(std::string_view name) {
  // The skeleton keeps case (it maps "I" to "l" but leaves "C"), so it is taken, case folded,
  // and taken again: "CAR0L" -> "CAROL" -> "carol" -> "carol".
  const auto text =
      without_joiners(icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), static_cast<int32_t>(name.size()))));
  std::string out;
  return skeleton(skeleton(text).foldCase()).toUTF8String(out);
}

}  // namespace mancala::protocol
