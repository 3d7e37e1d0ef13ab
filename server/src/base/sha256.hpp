#pragma once
// SHA-256, for storing player tokens and session proofs as hashes (libsodium's, which the
// password hashes already need).
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
