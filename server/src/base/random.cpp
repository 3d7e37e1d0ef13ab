#include "random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace mancala::server {
namespace {

constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
static_assert(sizeof kAlphabet - 1 == 32);

void fill_random(void* data, std::size_t size) {
  auto* bytes = static_cast<unsigned char*>(data);
  while (size > 0) {
    const ssize_t got = getrandom(bytes, size, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    bytes += got;
    size -= static_cast<std::size_t>(got);
  }
}

}  // namespace

std::uint64_t random_u64() {
  std::uint64_t value = 0;
  fill_random(&value, sizeof value);
  return value;
}

std::string random_text(int characters) {
  std::string bytes(static_cast<std::size_t>(characters), '\0');
  fill_random(bytes.data(), bytes.size());
  std::string out;
  out.reserve(bytes.size());
  // 256 is a multiple of 32, so taking the low five bits keeps every letter equally likely.
  for (const char byte : bytes) out.push_back(kAlphabet[static_cast<unsigned char>(byte) & 31]);
  return out;
}

}  // namespace mancala::server
