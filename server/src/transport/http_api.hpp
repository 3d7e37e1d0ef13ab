#pragma once
// The JSON and text endpoints: /healthz, /metrics and the history API under /api/.
#include <string>
#include <vector>

#include "net.hpp"

namespace mancala::server {

class Hub;
class Storage;
class PlayerDirectory;
class Metrics;

// What the HTTP side of the server needs, shared by every HTTP session.
struct HttpContext {
  Hub& hub;
  Storage& storage;
  PlayerDirectory& players;
  Metrics& metrics;
  std::string static_root;
  std::vector<std::string> allowed_origins;
  int rate_limit;  // messages a second per WebSocket
  // The Origin check (see origin_allowed): --public-url's origin, or empty; and --bind.
  std::string public_origin;
  std::string bind_address;
  std::int64_t max_connections;  // open WebSockets beyond which upgrades get 503
};

using HttpRequest = http::request<http::string_body>;
using StringResponse = http::response<http::string_body>;

bool is_api_target(std::string_view path);
StringResponse handle_api(const HttpRequest& request, const HttpContext& context);
StringResponse text_response(const HttpRequest& request, http::status status,
                             std::string_view content_type, std::string body);

}  // namespace mancala::server
