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

// The same text as `value.dump()`, written several times faster: nlohmann's serializer decodes
// every character of every string as UTF-8 and sets itself up anew on each call, which made
// writing the messages of a move cost more than playing it. Strings of plain printable ASCII
// (nearly all of ours) are copied whole; anything else is left to nlohmann, which also checks
// it.
void append_json(std::string& out, const Json& value);
std::string to_json_text(const Json& value);

}  // namespace mancala
