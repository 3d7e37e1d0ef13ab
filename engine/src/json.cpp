#include "mancala/json.hpp"

#include <charconv>

namespace mancala {
namespace {

bool is_plain_ascii(const std::string& text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f || c == '"' || c == '\\') return false;
  }
  return true;
}

void append_string(std::string& out, const std::string& text) {
  if (!is_plain_ascii(text)) {
    out += Json(text).dump();
    return;
  }
  out += '"';
  out += text;
  out += '"';
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
      return append_string(out, value.get_ref<const std::string&>());
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
        if (!first) out += ',';
        first = false;
        append_string(out, key);
        out += ':';
        append_json(out, element);
      }
      out += '}';
      return;
    }
    default:  // floating point and binary: rare, and their exact format is nlohmann's
      out += value.dump();
  }
}

std::string to_json_text(const Json& value) {
  std::string out;
  append_json(out, value);
  return out;
}

}  // namespace mancala
