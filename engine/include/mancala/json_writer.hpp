#pragma once
// A streaming JSON text writer: appends to a string what `Json::dump()` would write for the same
// values, without building a tree. The state view of every move is written with it (each game
// writes its board, scores and round records; Match writes the rest), so the hot path allocates
// nothing but the text itself. The views as JSON trees (`Game::board()`, `Match::state()`, …)
// are that text parsed back: one writer per view, so the text and the tree cannot drift apart.
//
// Commas are the writer's business: every value, key and container after the first in its
// container is preceded by one. Keys and values must alternate inside objects; nothing checks
// it (the byte-for-byte tests do).
#include <charconv>
#include <concepts>
#include <string>
#include <string_view>

#include "mancala/json.hpp"

namespace mancala {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  // An object's key; its value follows.
  JsonWriter& key(std::string_view name) {
    append_json_string(out_, name, comma_ ? ',' : '\0', ':');
    comma_ = false;
    return *this;
  }

  JsonWriter& null() { return raw("null"); }
  JsonWriter& value(std::nullptr_t) { return null(); }
  JsonWriter& value(bool flag) { return raw(flag ? "true" : "false"); }
  template <std::integral Integer>
    requires(!std::same_as<Integer, bool>)
  JsonWriter& value(Integer number) {
    char text[25];  // the comma and the digits, appended at once
    std::size_t size = 0;
    if (comma_) text[size++] = ',';
    // Small unsigned types (std::uint8_t) are numbers here, as they are to nlohmann.
    const auto end = std::to_chars(text + size, text + sizeof text, +number).ptr;
    out_.append(text, end);
    comma_ = true;
    return *this;
  }
  JsonWriter& value(std::string_view text) {
    append_json_string(out_, text, comma_ ? ',' : '\0');
    comma_ = true;
    return *this;
  }
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  // A JSON tree, exactly as `dump()` writes it (results, options, events: rare or small).
  JsonWriter& tree(const Json& value) {
    return emit([&] { append_json(out_, value); });
  }
  // A value already written as JSON text (by this writer or `dump()`), copied as it is.
  JsonWriter& raw(std::string_view json_text) {
    return emit([&] { out_ += json_text; });
  }

  // [v0,v1,…] of anything `value` takes.
  template <class Range>
  JsonWriter& array(const Range& values) {
    begin_array();
    for (const auto& v : values) value(v);
    return end_array();
  }
  // A seat, or null for none (negative).
  JsonWriter& seat_or_null(int seat) { return seat < 0 ? null() : value(seat); }

  // key(name) followed by value(v).
  template <class Value>
  JsonWriter& field(std::string_view name, const Value& v) {
    key(name);
    return value(v);
  }

 private:
  void separate() {
    if (comma_) out_ += ',';
  }
  JsonWriter& open(char bracket) {
    separate();
    out_ += bracket;
    comma_ = false;
    return *this;
  }
  JsonWriter& close(char bracket) {
    out_ += bracket;
    comma_ = true;
    return *this;
  }
  // One value: a comma when it is not the first in its container, then the value.
  template <class Write>
  JsonWriter& emit(Write write) {
    separate();
    write();
    comma_ = true;
    return *this;
  }
  std::string& out_;
  bool comma_ = false;
};

// The text a view writer writes, and that text as a tree (the Json-returning views).
template <class Write>
std::string json_text(Write&& write) {
  std::string out;
  JsonWriter writer(out);
  write(writer);
  return out;
}
template <class Write>
Json json_tree(Write&& write) {
  return Json::parse(json_text(std::forward<Write>(write)));
}

}  // namespace mancala
