#pragma once
// Names and chat text that cannot pretend (issue 46). Both are NFC-normalised and refuse the
// characters that hide or reorder text: controls, bidi controls and overrides, zero-width and
// other invisible characters, tag characters, line and paragraph separators. A name further
// refuses private-use and unassigned characters, spaces other than U+0020, variation
// selectors, a leading combining mark and a name without a visible character; names are
// compared with accounts' by their confusable skeleton (Unicode UTS #39), so that `cаrol` with
// a Cyrillic `а` cannot pass for the account `carol`. ICU does the Unicode work. A zero-width
// joiner or non-joiner may stand between two letters of a name (Persian needs the non-joiner)
// and between two visible characters of a message (emoji sequences).
#include <string>
#include <string_view>
#include <variant>

#include "mancala/protocol/errors.hpp"

namespace mancala::protocol {

inline constexpr int kMaxNameCharacters = 24;
inline constexpr int kMaxChatCharacters = 280;

// Trims a display name, normalises it to NFC and checks it: 1-24 characters (code points),
// nothing invisible, direction-changing or unprintable. The clean name or a bad_name error
// whose message says what to change.
std::variant<std::string, Error> check_name(std::string_view name);

// The same for a chat line (1-280 characters, bad_request), which may hold what a sentence
// needs and a name does not: other spaces, variation selectors (emoji), a zero-width joiner
// or non-joiner between two visible characters (emoji sequences, Persian, Indic), and emoji
// tag sequences (U+1F3F4, tags U+E0020-U+E007E, U+E007F: the flags of Scotland and Wales).
std::variant<std::string, Error> check_chat_text(std::string_view text);

// The key two names share when one can pass for the other: the UTS #39 skeleton, with case
// folded (names are unique whatever their case), of the name without its joiners (which show
// nothing). "carol", "CAROL", "caro1", "cаrol" (Cyrillic а) and "ca" U+200D "rol" have one key.
// For a name check_name accepted.
std::string name_skeleton(std::string_view name);

}  // namespace mancala::protocol
