#pragma once
// A fuzzer's input read as a script of small choices. Past the end every read gives 0 (or an
// empty text), so any input, however short, is a complete script, and the fuzzer's mutations
// of one byte change one choice.
#include <cstddef>
#include <cstdint>
#include <string>

namespace mancala::fuzz {

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return position_ >= size_; }
  std::uint8_t byte() { return empty() ? 0 : data_[position_++]; }
  // A choice among n (at most 256) alternatives.
  std::size_t below(std::size_t n) { return n == 0 ? 0 : byte() % n; }
  std::uint32_t u32() {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value = (value << 8) | byte();
    return value;
  }
  // Up to `max_bytes` raw bytes, the length chosen by one byte.
  std::string text(std::size_t max_bytes) {
    std::string out;
    for (std::size_t length = below(max_bytes + 1); length > 0 && !empty(); --length)
      out.push_back(static_cast<char>(byte()));
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

}  // namespace mancala::fuzz
