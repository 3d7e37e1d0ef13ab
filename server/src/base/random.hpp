#pragma once
// Secrets and handles from the operating system's cryptographic random source.
#include <cstdint>
#include <string>

namespace mancala::server {

// `characters` random characters from a 32-letter alphabet (5 bits each) that avoids letters
// people confuse (0/o, 1/l) and is safe in URLs and file names.
std::string random_text(int characters);
std::uint64_t random_u64();

// Sizes chosen against the protocol's minimums.
inline constexpr int kTokenCharacters = 32;   // 160 bits (>= 128)
inline constexpr int kWindowCharacters = 26;  // 130 bits (>= 128)
inline constexpr int kInviteCharacters = 16;  // 80 bits (>= 64)
inline constexpr int kRoomIdCharacters = 10;  // public handles: unique, not secret
inline constexpr int kPlayerIdCharacters = 12;

}  // namespace mancala::server
