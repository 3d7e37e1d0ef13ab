#include "base64url.hpp"

#include <sodium.h>

namespace mancala::server {

std::string base64url(const unsigned char* data, std::size_t size) {
  constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;
  std::string text(sodium_base64_encoded_len(size, kVariant), '\0');
  sodium_bin2base64(text.data(), text.size(), data, size, kVariant);
  text.resize(text.size() - 1);  // the terminating zero sodium writes
  return text;
}

std::optional<Bytes> from_base64url(std::string_view text) {
  Bytes bytes(text.size() * 3 / 4 + 1);
  std::size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(bytes.data(), bytes.size(), text.data(), text.size(), nullptr, &length, &end,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      end != text.data() + text.size())
    return std::nullopt;
  bytes.resize(length);
  return bytes;
}

}  // namespace mancala::server
