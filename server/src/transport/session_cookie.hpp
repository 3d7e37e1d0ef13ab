#pragma once
// The session cookie of an account: its secret is the only proof of a session, so page scripts
// may not read it (HttpOnly), other sites' requests do not carry it (SameSite=Lax), and behind
// https it travels only encrypted and only to this very host (Secure, the __Host- prefix).
#include <optional>
#include <string>

#include "net.hpp"

namespace mancala::server {

// `secure`: the site is served over https (--public-url https://…).
std::string session_cookie(const std::string& secret, bool secure);
std::string cleared_session_cookie(bool secure);
// The secret the request's Cookie header carries, if any.
std::optional<std::string> session_secret(const http::request<http::string_body>& request, bool secure);

}  // namespace mancala::server
