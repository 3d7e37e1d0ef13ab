#pragma once
// Small text helpers shared by layers.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace mancala::server {

// ASCII letters in lower case, other bytes as they are: account names are ASCII, and a
// password is folded only to compare it with a list.
inline std::string lower_case(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace mancala::server
