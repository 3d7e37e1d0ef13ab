#include "static_files.hpp"

#include <algorithm>
#include <utility>

namespace mancala::server {

void add_security_headers(http::fields& fields) {
  // 'self' in connect-src also covers ws: and wss: to this host (CSP Level 3), the WebSocket.
  fields.set("Content-Security-Policy",
             "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
             "frame-ancestors 'none'");
  fields.set("X-Frame-Options", "DENY");
  fields.set("Referrer-Policy", "same-origin");
  fields.set("X-Content-Type-Options", "nosniff");
}

std::optional<std::string> url_decode(std::string_view text, bool plus_is_space) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int high = hex(text[i + 1]);
      const int low = hex(text[i + 2]);
      if (high < 0 || low < 0) return std::nullopt;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else if (plus_is_space && text[i] == '+') {
      out.push_back(' ');
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::optional<std::filesystem::path> resolve_static_path(const std::filesystem::path& root,
                                                         std::string_view url_path) {
  const auto decoded = url_decode(url_path);
  if (!decoded || decoded->empty() || decoded->front() != '/') return std::nullopt;
  if (decoded->find('\0') != std::string::npos || decoded->find('\\') != std::string::npos)
    return std::nullopt;
  std::filesystem::path relative;
  std::size_t start = 1;
  while (start <= decoded->size()) {
    const auto end = std::min(decoded->find('/', start), decoded->size());
    const std::string segment = decoded->substr(start, end - start);
    if (segment == "..") return std::nullopt;
    if (!segment.empty() && segment != ".") relative /= segment;
    start = end + 1;
  }
  std::error_code error;
  const auto base = std::filesystem::canonical(root, error);
  if (error) return std::nullopt;
  auto file = base / relative;
  if (std::filesystem::is_directory(file, error)) file /= "index.html";
  const auto real = std::filesystem::canonical(file, error);
  if (error) return std::nullopt;
  // A symbolic link inside the folder must not lead out of it.
  const auto [root_end, ignored] = std::mismatch(base.begin(), base.end(), real.begin(), real.end());
  if (root_end != base.end()) return std::nullopt;
  if (!std::filesystem::is_regular_file(real, error)) return std::nullopt;
  return real;
}

std::string_view content_type(const std::filesystem::path& file) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".woff", "font/woff"},
      {".txt", "text/plain; charset=utf-8"},
      {".md", "text/markdown; charset=utf-8"},
      {".wasm", "application/wasm"},
  };
  const std::string extension = file.extension().string();
  for (const auto& [suffix, type] : kTypes)
    if (extension == suffix) return type;
  return "application/octet-stream";
}

}  // namespace mancala::server
