#include "password.hpp"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <stdexcept>

#include "base64url.hpp"
#include "sha256.hpp"
#include "text.hpp"

namespace mancala::server {
namespace {

constexpr std::size_t kMinLength = 10;
constexpr std::size_t kMaxLength = 256;  // Argon2 takes any length; this bounds the work

// The most used passwords of ten characters or more in the public breach lists (SecLists'
// top-100k, RockYou), lower-cased: the first ones an attacker tries against any account.
constexpr std::array<std::string_view, 64> kCommon = {
    "1234567890", "12345678910", "123456789a", "1234567891", "0123456789", "0987654321",
    "1111111111", "0000000000", "1q2w3e4r5t", "1q2w3e4r5t6y", "qwertyuiop", "qwerty1234",
    "qwerty123456", "qwertyuiop123", "asdfghjkl1", "zxcvbnm123", "password12", "password123",
    "password1234", "password01", "passw0rd123", "p@ssw0rd123", "iloveyou12", "iloveyou123",
    "abc1234567", "abcdefghij", "abcd123456", "aaaaaaaaaa", "a123456789", "q1w2e3r4t5",
    "q1w2e3r4t5y6", "1qaz2wsx3edc", "1qazxsw23edc", "zaq12wsxcde3", "qazwsxedcrfv", "letmein123",
    "welcome123", "welcome1234", "football123", "baseball123", "sunshine123", "princess123",
    "starwars123", "dragon1234", "monkey1234", "michael123", "superman123", "batman1234",
    "trustno1234", "whatever123", "computer123", "internet123", "charlie123", "changeme123",
    "administrator", "mancala123", "mancala1234", "mancalaonline", "11111111111", "123123123123",
    "987654321a", "qwer1234qwer", "1234qwerasdf", "passwordpassword",
};

void ensure_sodium() {
  static const bool ready = sodium_init() >= 0;
  if (!ready) throw std::runtime_error("libsodium could not be initialised");
}

}  // namespace

std::string hash_password(std::string_view password) {
  ensure_sodium();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str(out.data(), password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                        crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
    throw std::runtime_error("the password could not be hashed (out of memory)");
  return out.data();
}

bool password_matches(std::string_view password, const std::string& stored) {
  ensure_sodium();
  return crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) == 0;
}

std::optional<std::string> password_problem(std::string_view name, std::string_view password) {
  if (password.size() < kMinLength)
    return "the password needs at least " + std::to_string(kMinLength) + " characters";
  if (password.size() > kMaxLength)
    return "the password may have at most " + std::to_string(kMaxLength) + " characters";
  const std::string folded = lower_case(password);
  if (folded == lower_case(name)) return "the password may not be the account's name";
  if (std::find(kCommon.begin(), kCommon.end(), folded) != kCommon.end())
    return "this password is one of the most common ones; pick another";
  return std::nullopt;
}

std::string new_secret() {
  ensure_sodium();
  std::array<unsigned char, 32> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  return base64url(bytes.data(), bytes.size());
}

std::string secret_hash(std::string_view secret) { return to_hex(sha256(secret)); }

}  // namespace mancala::server
