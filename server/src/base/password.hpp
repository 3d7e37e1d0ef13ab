#pragma once
// Account passwords: Argon2id hashes through libsodium (its "interactive" limits: 64 MiB and
// two passes, about 0.1 s on one core), the rules a new password must meet, and the secrets of
// sessions and password resets. A password is never kept, logged or compared as text.
#include <optional>
#include <string>
#include <string_view>

namespace mancala::server {

// The Argon2id string (algorithm, parameters, salt and hash together) for `password`.
std::string hash_password(std::string_view password);
// Whether `password` matches `stored` (a hash_password string); constant time in the password.
// A malformed `stored` is simply no match.
bool password_matches(std::string_view password, const std::string& stored);
// Why `password` may not be used by the account `name`, in words for its owner; nothing when
// it may: at least 10 characters (at most 256), not the name, not one of the most common.
std::optional<std::string> password_problem(std::string_view name, std::string_view password);

// Session and reset secrets: 256 random bits as 43 URL-safe characters. Only their SHA-256
// is stored (hex), so the database never holds a usable proof.
std::string new_secret();
std::string secret_hash(std::string_view secret);

}  // namespace mancala::server
