#include "mancala/json.hpp"

#include <charconv>
#include <cstring>

namespace mancala {
namespace {

bool is_plain_ascii(std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

template <class Integer>
void append_integer(std::string& out, Integer number) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, number).ptr;
  out.append(digits, end);
}

}  // namespace

void append_json(std::string& out, const Json& value) {
  using Type = Json::value_t;
  switch (value.type()) {
    case Type::null:
      out += "null";
      return;
    case Type::boolean:
      out += *value.get_ptr<const Json::boolean_t*>() ? "true" : "false";
      return;
    case Type::number_integer:
      return append_integer(out, *value.get_ptr<const Json::number_integer_t*>());
    case Type::number_unsigned:
      return append_integer(out, *value.get_ptr<const Json::number_unsigned_t*>());
    case Type::string:
      return append_json_string(out, value.get_ref<const std::string&>());
    case Type::array: {
      out += '[';
      bool first = true;
      for (const auto& element : value.get_ref<const Json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json(out, element);
      }
      out += ']';
      return;
    }
    case Type::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, element] : value.get_ref<const Json::object_t&>()) {
        append_json_string(out, key, first ? '\0' : ',', ':');
        first = false;
        append_json(out, element);
      }
      out += '}';
      return;
    }
    default:  // floating point and binary: rare, and their exact format is nlohmann's
      out += value.dump();
  }
}

void append_json_string(std::string& out, std::string_view text, char before, char after) {
  const bool plain = is_plain_ascii(text);
  char piece[80];
  if (plain && text.size() + 4 <= sizeof piece) {
    std::size_t size = 0;
    if (before) piece[size++] = before;
    piece[size++] = '"';
    std::memcpy(piece + size, text.data(), text.size());
    size += text.size();
    piece[size++] = '"';
    if (after) piece[size++] = after;
    out.append(piece, size);
    return;
  }
  if (before) out += before;
  if (plain) {
    out += '"';
    out += text;
    out += '"';
  } else {
    out += Json(std::string(text)).dump();  // escaped, and refused if not UTF-8, by nlohmann
  }
  if (after) out += after;
}

std::string json_error_words(const Json::exception& error) {
  const std::string_view text = error.what();
  const auto tag_end = text.find("] ");
  if (!text.starts_with("[json.exception.") || tag_end == std::string_view::npos) return std::string(text);
  return std::string(text.substr(tag_end + 2));
}

std::string to_json_text(const Json& value) {
  std::string out;
  append_json(out, value);
  return out;
}

}  // namespace mancala
