#pragma once
// What the APIs share: queries and JSON bodies read, which stored games a viewer may see, and
// pages of positions. Their errors are http_answers.hpp's, who asks is credentials.hpp's.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "credentials.hpp"
#include "http_api.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// A stored game the viewer may see; private games of others do not exist for him (404).
StoredGame visible_game(const std::string& id, const std::string& viewer, Storage& storage);

// The query string's name=value pairs, percent-decoded (400 when malformed or not UTF-8).
using Query = std::map<std::string, std::string>;
Query query_of(const HttpRequest& request);
// `text` as an integer from `min` to `max`, or 400 naming the parameter.
std::int64_t parse_integer(const std::string& name, const std::string& text, std::int64_t min, std::int64_t max);
// The body as a JSON object, or 400; a string field of it, or 400 naming the field.
Json body_object(const HttpRequest& request);
std::string string_field(const Json& body, const char* name);

// A page of the states of a game or a record (issue 46), as its /positions answers it: always a
// page, never all of them. ?from= (default 0) and ?count= (1 to kMaxStates, default the most)
// say which states are asked; fewer are given when they would make the answer larger than what
// any answer may be (ten times its request plus 64 KiB), though never none. The query is read
// (and a bad one refused with 400) when the page is made, before anything is replayed.
class PositionsPage {
 public:
  static constexpr std::int64_t kMaxStates = 50;
  explicit PositionsPage(const HttpRequest& request);
  // Whether the state at `index` goes in the page: asked for, and the page not yet full.
  bool wants(std::int64_t index) const;
  // The next state wanted, unless it would make the answer too long.
  void add(Json state);
  // {from, total, states, next}: `next` is where the next page starts (null after the last).
  // 400 when `from` is not below `total`, the number of states there are.
  Json answer(std::int64_t total) &&;

 private:
  std::int64_t from_ = 0;
  std::int64_t count_ = kMaxStates;
  std::size_t budget_ = 0;  // bytes the states may take of the answer
  std::size_t bytes_ = 0;
  bool full_ = false;
  Json states_ = Json::array();
};

}  // namespace mancala::server
