#pragma once
// Checks text from outside (moves, record texts, URLs, names) before it reaches JSON, which can
// hold only UTF-8: a byte that is not is refused with the project's own error, never left for
// the JSON library to throw at a player.
#include <cstddef>
#include <string_view>

namespace mancala {

// How many leading bytes of `text` are well-formed UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF): text.size() when all are, else the offset of the first bad sequence.
std::size_t utf8_prefix(std::string_view text);

inline bool is_utf8(std::string_view text) { return utf8_prefix(text) == text.size(); }

// The length of the UTF-8 sequence that starts with byte `lead`: 1 to 4, or 0 for a byte that
// cannot start one. A message that quotes one character of a text quotes all of its bytes.
std::size_t utf8_sequence_length(unsigned char lead);

}  // namespace mancala
