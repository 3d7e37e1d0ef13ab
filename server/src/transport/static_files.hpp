#pragma once
// The web client's files: URL paths mapped into one folder, never outside it.
#include <filesystem>
#include <optional>
#include <string_view>

#include "net.hpp"

namespace mancala::server {

// The headers every answer carries, pages and files and the API alike (issue 46): a strict
// Content-Security-Policy (scripts, styles and connections from this site only, no inline
// script or style, no plugins, never in a frame: no clickjacking of "resign" or "log out
// everywhere"), the same against framing for older browsers, no referrer beyond this site
// (an Origin still goes with same-site POSTs) and no content-type sniffing.
void add_security_headers(http::fields& fields);

// The file a URL path names under `root` ("/" and folders mean their index.html), or nothing
// when the path is malformed or would leave `root` (".." segments, encoded or not, or a
// symbolic link pointing out).
std::optional<std::filesystem::path> resolve_static_path(const std::filesystem::path& root,
                                                         std::string_view url_path);
std::string_view content_type(const std::filesystem::path& file);
// Percent-decoding; nothing for a malformed escape. `plus_is_space` for query strings.
std::optional<std::string> url_decode(std::string_view text, bool plus_is_space = false);

}  // namespace mancala::server
