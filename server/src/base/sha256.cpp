#include "sha256.hpp"

#include <sodium.h>

#include <tuple>

namespace mancala::server {

static_assert(std::tuple_size_v<Sha256Digest> == crypto_hash_sha256_BYTES);

Sha256Digest sha256(std::string_view data) {
  Sha256Digest digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return digest;
}

std::string to_hex(const Sha256Digest& digest) {
  std::string hex(digest.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  hex.pop_back();  // the terminating NUL sodium writes
  return hex;
}

bool constant_time_equal(const Sha256Digest& a, const Sha256Digest& b) {
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace mancala::server
