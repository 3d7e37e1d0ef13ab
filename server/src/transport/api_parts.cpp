#include "api_parts.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "mancala/utf8.hpp"
#include "static_files.hpp"
#include "storage.hpp"

namespace mancala::server {
namespace {

// Anything decoded from the request may end up in a JSON answer (an id in "no game '…'"), and
// JSON holds only UTF-8: other bytes are refused here rather than failing the answer later.
std::optional<std::string> decode_utf8(std::string_view text, bool plus_is_space) {
  auto decoded = url_decode(text, plus_is_space);
  if (decoded && !is_utf8(*decoded))
    throw bad_request("the URL is not valid UTF-8 once percent-decoded; percent-encode UTF-8 text");
  return decoded;
}

}  // namespace

Query query_of(const HttpRequest& request) {
  const std::string_view target = to_std(request.target());
  const auto question = target.find('?');
  std::string_view query = question == std::string_view::npos ? "" : target.substr(question + 1);
  Query out;
  while (!query.empty()) {
    const auto end = std::min(query.find('&'), query.size());
    const auto pair = query.substr(0, end);
    const auto equals = pair.find('=');
    const auto key = decode_utf8(pair.substr(0, equals), true);
    const auto value = decode_utf8(equals == std::string_view::npos ? "" : pair.substr(equals + 1), true);
    if (!key || !value) throw bad_request("the query string is malformed: write it as name=value pairs joined by &");
    out[*key] = *value;
    query.remove_prefix(std::min(end + 1, query.size()));
  }
  return out;
}

std::int64_t parse_integer(const std::string& name, const std::string& text, std::int64_t min, std::int64_t max) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw bad_request("'" + name + "' must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
  return value;
}

Json body_object(const HttpRequest& request) {
  Json body = Json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
  if (!body.is_object()) throw bad_request("the body must be a JSON object");
  return body;
}

std::string string_field(const Json& body, const char* name) {
  const auto it = body.find(name);
  if (it == body.end() || !it->is_string()) throw bad_request(std::string("'") + name + "' must be a string");
  return it->get<std::string>();
}

// What the states may take of the answer: all it may be but some room for the rest of it.
PositionsPage::PositionsPage(const HttpRequest& request)
    : budget_(64 * 1024 + 10 * request.body().size() - 4 * 1024) {
  const Query query = query_of(request);
  if (const auto it = query.find("from"); it != query.end())
    from_ = parse_integer("from", it->second, 0, std::numeric_limits<std::int32_t>::max());
  if (const auto it = query.find("count"); it != query.end()) count_ = parse_integer("count", it->second, 1, kMaxStates);
}

bool PositionsPage::wants(std::int64_t index) const { return !full_ && index >= from_ && index < from_ + count_; }

void PositionsPage::add(Json state) {
  const std::size_t size = to_json_text(state).size();
  if (!states_.empty() && bytes_ + size > budget_) {
    full_ = true;
    return;
  }
  bytes_ += size;
  states_.push_back(std::move(state));
}

Json PositionsPage::answer(std::int64_t total) && {
  if (from_ >= total)
    throw bad_request("'from' must be below " + std::to_string(total) + ", the number of positions there are");
  const auto next = from_ + static_cast<std::int64_t>(states_.size());
  return Json{{"from", from_}, {"total", total}, {"states", std::move(states_)}, {"next", next < total ? Json(next) : Json()}};
}

StoredGame visible_game(const std::string& id, const std::string& viewer, Storage& storage) {
  auto game = storage.load_game(id);
  const auto seated = [&](const GameMeta& meta) {
    return std::any_of(meta.seats.begin(), meta.seats.end(),
                       [&](const StoredSeat& seat) { return !viewer.empty() && seat.player_id == viewer; });
  };
  if (!game || (game->meta.is_private && !seated(game->meta)))
    throw not_found("no game '" + id + "' (or it is private and you are not one of its players)");
  return std::move(*game);
}

}  // namespace mancala::server
