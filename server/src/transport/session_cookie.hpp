#pragma once
// The session cookie of an account: its secret is the only proof of a session, so page scripts
// may not read it (HttpOnly), other sites' requests do not carry it (SameSite=Lax), and behind
// https it travels only encrypted and only to this very host (Secure, the __Host- prefix).
#include <optional>
#include <string>

#include "net.hpp"

namespace mancala::server {

// `secure`: the site is served over https (--public-url https://…), or this request came over
// https to a trusted proxy (came_over_https).
std::string session_cookie(const std::string& secret, bool secure);
std::string cleared_session_cookie(bool secure);
// The secret the request's Cookie header carries, if any. `secure` (the site is https): only
// the __Host- cookie counts; otherwise either, the __Host- one first (set behind a TLS proxy).
std::optional<std::string> session_secret(const http::request<http::string_body>& request, bool secure);
// The request says, in X-Forwarded-Proto, that it reached a proxy over https. Only a trusted
// proxy's say counts: the HTTP session removes the field from everybody else's requests.
bool came_over_https(const http::request<http::string_body>& request);

}  // namespace mancala::server
