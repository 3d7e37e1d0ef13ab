#pragma once
// The JSON type of the whole project: nlohmann's, with keys kept in the order written (records
// and messages read the way the rule books write them).
//
// nlohmann::ordered_map is a vector of pair<const key, value>. Such a pair cannot be moved
// without a possible throw (the const key must be copied), so each time the vector grows it
// copies every value already in it, and a value is itself a JSON tree: building a ten-key state
// view copied its board and arrays several times over, and freeing the copies cost as much
// again. Reserving room for four keys when the first arrives removes most of that: a larger
// object grows once or twice (the largest view, a move's state, is written as text without a
// tree: json_writer.hpp). Room for eight made moves about 10 % cheaper still, but a finished
// four-round Coin Duel match then held 450 KB instead of 280 KB (200 KB before any reserving),
// and a server keeps every open game's record in memory.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

namespace mancala {

template <class Key, class T, class IgnoredLess = std::less<Key>,
          class Allocator = std::allocator<std::pair<const Key, T>>>
struct ReservingOrderedMap : nlohmann::ordered_map<Key, T, IgnoredLess, Allocator> {
  using Base = nlohmann::ordered_map<Key, T, IgnoredLess, Allocator>;
  static constexpr std::size_t kFirstCapacity = 4;

  using Base::Base;
  ReservingOrderedMap() = default;

  // The ways nlohmann adds a key: `emplace` (initializer lists, json[key]), `operator[]` (the
  // parser) and `insert`.
  template <class... Args>
  auto emplace(Args&&... args) {
    reserve_first();
    return Base::emplace(std::forward<Args>(args)...);
  }
  template <class K>
  T& operator[](K&& key) {
    reserve_first();
    return Base::operator[](std::forward<K>(key));
  }
  template <class... Args>
  auto insert(Args&&... args) {
    reserve_first();
    return Base::insert(std::forward<Args>(args)...);
  }

 private:
  void reserve_first() {
    if (this->capacity() == 0) this->reserve(kFirstCapacity);
  }
};

using Json = nlohmann::basic_json<ReservingOrderedMap>;

namespace detail {
inline void add_fields(Json::object_t&) {}
template <class Key, class Value, class... Rest>
void add_fields(Json::object_t& object, Key&& key, Value&& value, Rest&&... rest) {
  object.emplace_back(std::forward<Key>(key), Json(std::forward<Value>(value)));  // no lookup: keys come once
  add_fields(object, std::forward<Rest>(rest)...);
}
}  // namespace detail

// An object from its keys and values in turn, each key once: json_object("event", "pass",
// "player", 1). The events of every move are built this way: in Json{{"event", "pass"}, …} each
// pair is first a two-element array with its own key string, three blocks more a key, and the
// values of the list are copied, not moved. Here each value is moved into an object sized once.
template <class... KeysAndValues>
Json json_object(KeysAndValues&&... fields) {
  static_assert(sizeof...(fields) % 2 == 0, "json_object takes keys and values in turn");
  Json out(Json::value_t::object);
  auto& object = out.get_ref<Json::object_t&>();
  object.reserve(sizeof...(fields) / 2);
  detail::add_fields(object, std::forward<KeysAndValues>(fields)...);
  return out;
}

// An array of the values given, moved in: json_array(json_object(…)).
template <class... Values>
Json json_array(Values&&... values) {
  Json out(Json::value_t::array);
  auto& items = out.get_ref<Json::array_t&>();
  items.reserve(sizeof...(values));
  (items.emplace_back(std::forward<Values>(values)), ...);
  return out;
}

// The same text as `value.dump()`, written several times faster: nlohmann's serializer decodes
// every character of every string as UTF-8 and sets itself up anew on each call, which made
// writing the messages of a move cost more than playing it. Strings of plain printable ASCII
// (nearly all of ours) are copied whole; anything else is left to nlohmann, which also checks
// it.
void append_json(std::string& out, const Json& value);
std::string to_json_text(const Json& value);
// One string as `dump()` writes it, with a character before it and one after (a comma, a
// colon; '\0' for none), in a single append when the string is plain and short: appended a
// character at a time, the quotes and commas were a call each, a sixth of writing a state.
void append_json_string(std::string& out, std::string_view text, char before = '\0', char after = '\0');

// What a JSON library error says, for a person: its message without the library's own tag
// ("[json.exception.parse_error.101] "), which names nothing the person wrote.
std::string json_error_words(const Json::exception& error);

}  // namespace mancala
