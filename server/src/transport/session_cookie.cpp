#include "session_cookie.hpp"

#include "accounts.hpp"
#include "text.hpp"

namespace mancala::server {
namespace {

std::string cookie_name(bool secure) { return secure ? "__Host-mancala_session" : "mancala_session"; }

std::string attributes(bool secure) { return std::string("; Path=/; HttpOnly; SameSite=Lax") + (secure ? "; Secure" : ""); }

// The value of the cookie `name` the request carries, if any.
std::optional<std::string> cookie_value(const http::request<http::string_body>& request, const std::string& name) {
  const std::string wanted = name + "=";
  // Cookie: a=1; b=2 (RFC 6265, 5.4); a browser may send several Cookie fields.
  const auto [first, last] = request.equal_range(http::field::cookie);
  for (auto field = first; field != last; ++field) {
    std::string_view rest = to_std(field->value());
    while (!rest.empty()) {
      const auto end = std::min(rest.find(';'), rest.size());
      std::string_view pair = rest.substr(0, end);
      while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
      if (pair.substr(0, wanted.size()) == wanted && pair.size() > wanted.size())
        return std::string(pair.substr(wanted.size()));
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
  }
  return std::nullopt;
}

}  // namespace

std::string session_cookie(const std::string& secret, bool secure) {
  return cookie_name(secure) + "=" + secret + attributes(secure) +
         "; Max-Age=" + std::to_string(kSessionIdleDays * 24 * 3600);
}

std::string cleared_session_cookie(bool secure) { return cookie_name(secure) + "=" + attributes(secure) + "; Max-Age=0"; }

std::optional<std::string> session_secret(const http::request<http::string_body>& request, bool secure) {
  if (auto found = cookie_value(request, cookie_name(true))) return found;
  if (secure) return std::nullopt;
  return cookie_value(request, cookie_name(false));
}

bool came_over_https(const http::request<http::string_body>& request) {
  std::string_view proto = to_std(request["X-Forwarded-Proto"]);
  proto = proto.substr(proto.rfind(',') == std::string_view::npos ? 0 : proto.rfind(',') + 1);  // the nearest proxy's
  while (!proto.empty() && proto.front() == ' ') proto.remove_prefix(1);
  while (!proto.empty() && proto.back() == ' ') proto.remove_suffix(1);
  return lower_case(proto) == "https";
}

}  // namespace mancala::server
