#pragma once
// SHA-256 (FIPS 180-4), enough to store player tokens as hashes without pulling in OpenSSL.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace mancala::server {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);
std::string to_hex(const Sha256Digest& digest);
// Compares without an early exit, so the time taken says nothing about where they differ.
bool constant_time_equal(const Sha256Digest& a, const Sha256Digest& b);

}  // namespace mancala::server
