#include "games/rows.hpp"

#include <charconv>

namespace mancala {

std::optional<Decision> parse_source_token(std::string_view token, int cups, int max_reserve) {
  if (token.size() < 2 || (token[0] != 'r' && token[0] != 'c') || token[1] == '0') return std::nullopt;
  int value = 0;
  const char* first = token.data() + 1;
  const char* last = token.data() + token.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (error != std::errc() || end != last || value < 1) return std::nullopt;
  if (token[0] == 'r') {
    if (value > max_reserve) return std::nullopt;
    return static_cast<Decision>(value);
  }
  if (value > cups) return std::nullopt;
  return static_cast<Decision>(kCupDecision + value);
}

std::string source_token(Decision decision) {
  return decision > kCupDecision ? "c" + std::to_string(decision - kCupDecision)
                                 : "r" + std::to_string(decision);
}

}  // namespace mancala
