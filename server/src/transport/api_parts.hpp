#pragma once
// What the history API (http_api.cpp) and the analysis API (analysis_api.cpp) share: their
// error answers ({"error": "…"}), who is asking, and which stored games he may see.
#include <chrono>
#include <optional>
#include <string>

#include "http_api.hpp"
#include "stored_game.hpp"

namespace mancala::server {

// A request refused: thrown by the routes, answered as {"error": message}.
struct HttpError {
  http::status status;
  std::string message;
  std::optional<std::chrono::seconds> retry_after = {};  // sent as Retry-After
};

StringResponse json_response(const HttpRequest& request, http::status status, const Json& body);
// Built so that it cannot throw itself: it answers from catch blocks.
StringResponse error_response(const HttpRequest& request, const HttpError& error);
// The player presenting `Authorization: Bearer <token>` (a guest) or a session cookie (an
// account); empty for nobody.
std::string viewer_id(const HttpRequest& request, const HttpContext& context);
// A stored game the viewer may see; private games of others do not exist for him (404).
StoredGame visible_game(const std::string& id, const std::string& viewer, Storage& storage);
// Decodes a path segment; refuses bytes that are not UTF-8 once decoded (400).
std::optional<std::string> decode_path_segment(std::string_view text);

}  // namespace mancala::server
