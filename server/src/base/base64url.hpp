#pragma once
// Base64url without padding (RFC 4648, section 5), the form Web Push writes keys, salts and
// signatures in (libsodium does the work).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mancala::server {

using Bytes = std::vector<unsigned char>;

std::string base64url(const unsigned char* data, std::size_t size);
inline std::string base64url(const Bytes& bytes) { return base64url(bytes.data(), bytes.size()); }
inline std::string base64url(std::string_view text) {
  return base64url(reinterpret_cast<const unsigned char*>(text.data()), text.size());
}
// Nothing when `text` is not base64url (padding, '+' or '/', stray characters).
std::optional<Bytes> from_base64url(std::string_view text);

}  // namespace mancala::server
