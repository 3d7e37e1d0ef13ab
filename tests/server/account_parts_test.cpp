// The parts of accounts that need no server: password hashes and rules, secrets, the failure
// limiter's window, the session cookie, and whose address a request is counted against.
#include <gtest/gtest.h>

#include <set>

#include "failure_limiter.hpp"
#include "http_api.hpp"
#include "password.hpp"
#include "session_cookie.hpp"

namespace mancala::server {
namespace {

TEST(Passwords, AreHashedWithArgon2idAndChecked) {
  const std::string hash = hash_password("tulip garden 42");
  EXPECT_EQ(hash.rfind("$argon2id$", 0), 0u) << hash;
  EXPECT_EQ(hash.find("tulip"), std::string::npos);
  EXPECT_NE(hash, hash_password("tulip garden 42")) << "a fresh salt each time";
  EXPECT_TRUE(password_matches("tulip garden 42", hash));
  EXPECT_FALSE(password_matches("tulip garden 43", hash));
  EXPECT_FALSE(password_matches("tulip garden 42", "not a hash"));
}

TEST(Passwords, RulesSayWhatIsWrong) {
  EXPECT_EQ(password_problem("ada", "tulip garden 42"), std::nullopt);
  EXPECT_NE(password_problem("ada", "short").value_or("").find("10 characters"), std::string::npos);
  EXPECT_NE(password_problem("adalovelace", "AdaLovelace").value_or("").find("name"), std::string::npos);
  EXPECT_NE(password_problem("ada", "Password123").value_or("").find("common"), std::string::npos);
  EXPECT_NE(password_problem("ada", std::string(300, 'x')).value_or("").find("at most"), std::string::npos);
}

TEST(Secrets, AreLongUrlSafeAndNeverRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string secret = new_secret();
    EXPECT_EQ(secret.size(), 43u);
    EXPECT_EQ(secret.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos);
    seen.insert(secret);
  }
  EXPECT_EQ(seen.size(), 100u);
  EXPECT_EQ(secret_hash("x").size(), 64u);
}

TEST(FailureLimiter, LocksAKeyAfterTheLimitUntilItsOldestFailureLeavesTheWindow) {
  FailureLimiter limiter(3, std::chrono::seconds(60));
  const auto t0 = FailureLimiter::Clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(limiter.wait("ada", t0 + std::chrono::seconds(i)));
    limiter.fail("ada", t0 + std::chrono::seconds(i));
  }
  EXPECT_EQ(limiter.wait("ada", t0 + std::chrono::seconds(10)), std::chrono::seconds(50));
  EXPECT_FALSE(limiter.wait("bob", t0 + std::chrono::seconds(10))) << "keys are counted apart";
  EXPECT_FALSE(limiter.wait("ada", t0 + std::chrono::seconds(60))) << "the first failure left the window";
  limiter.fail("ada", t0 + std::chrono::seconds(60));  // with those at 1 s and 2 s: three again
  EXPECT_EQ(limiter.wait("ada", t0 + std::chrono::seconds(60)), std::chrono::seconds(1));
  limiter.clear("ada");  // a successful log-in
  EXPECT_FALSE(limiter.wait("ada", t0 + std::chrono::seconds(60)));
}

template <class Field>
HttpRequest with_field(Field field, const std::string& value) {
  HttpRequest request{http::verb::get, "/ws", 11};
  request.set(field, value);
  return request;
}

TEST(SessionCookie, CarriesItsFlagsAndIsFoundAmongOthers) {
  const std::string plain = session_cookie("s3cret", false);
  EXPECT_EQ(plain.rfind("mancala_session=s3cret;", 0), 0u) << plain;
  for (const char* flag : {"; HttpOnly", "; SameSite=Lax", "; Path=/", "; Max-Age=2592000"})
    EXPECT_NE(plain.find(flag), std::string::npos) << flag;
  EXPECT_EQ(plain.find("Secure"), std::string::npos);
  const std::string secure = session_cookie("s3cret", true);
  EXPECT_EQ(secure.rfind("__Host-mancala_session=s3cret;", 0), 0u);
  EXPECT_NE(secure.find("; Secure"), std::string::npos);
  EXPECT_NE(cleared_session_cookie(false).find("Max-Age=0"), std::string::npos);

  EXPECT_EQ(session_secret(with_field(http::field::cookie, "theme=dark; mancala_session=abc; x=1"), false), "abc");
  EXPECT_EQ(session_secret(with_field(http::field::cookie, "mancala_session=abc"), true), std::nullopt)
      << "behind https only the __Host- cookie counts";
  EXPECT_EQ(session_secret(with_field(http::field::cookie, "xmancala_session=abc"), false), std::nullopt);
  EXPECT_EQ(session_secret(HttpRequest{}, false), std::nullopt);
}

TEST(ClientAddress, IsThePeerUnlessATrustedProxyNamesAnother) {
  HttpRequest request{http::verb::post, "/api/session", 11};
  request.set("X-Forwarded-For", "1.2.3.4, 203.0.113.9");
  EXPECT_EQ(client_address(request, "10.0.0.5", {}), "10.0.0.5") << "nobody trusted: the peer";
  EXPECT_EQ(client_address(request, "10.0.0.5", {"10.0.0.5"}), "203.0.113.9")
      << "the address the proxy saw, not one the client may have made up";
  EXPECT_EQ(client_address(HttpRequest{}, "10.0.0.5", {"10.0.0.5"}), "10.0.0.5");
}

TEST(ClientAddress, ReadsEveryFieldLineFromTheRightAndTakesOnlyAddresses) {
  HttpRequest request{http::verb::post, "/api/session", 11};
  request.insert("X-Forwarded-For", "6.6.6.6");        // the client's own line
  request.insert("X-Forwarded-For", "203.0.113.9");    // the proxy's, appended after it
  EXPECT_EQ(client_address(request, "10.0.0.5", {"10.0.0.5"}), "203.0.113.9");
  EXPECT_EQ(client_address(request, "::ffff:10.0.0.5", {"10.0.0.5"}), "203.0.113.9")
      << "a trusted proxy seen through an IPv6 socket";

  HttpRequest chain{http::verb::post, "/api/session", 11};
  chain.set("X-Forwarded-For", "6.6.6.6, 198.51.100.4, 10.0.0.7");
  EXPECT_EQ(client_address(chain, "10.0.0.5", {"10.0.0.5", "10.0.0.7"}), "198.51.100.4")
      << "the rightmost address that is not a trusted proxy";

  for (const char* garbage : {"not an address", "1.2.3.4:80", "999.1.1.1", "", "1.2.3.4, x"}) {
    HttpRequest bad{http::verb::post, "/api/session", 11};
    bad.set("X-Forwarded-For", garbage);
    EXPECT_EQ(client_address(bad, "10.0.0.5", {"10.0.0.5"}), "10.0.0.5") << "'" << garbage << "' is no address";
  }
  HttpRequest behind_two{http::verb::post, "/api/session", 11};
  behind_two.set("X-Forwarded-For", "junk, 10.0.0.7");
  EXPECT_EQ(client_address(behind_two, "10.0.0.5", {"10.0.0.5", "10.0.0.7"}), "10.0.0.7")
      << "the last hop known to be real";
}

TEST(FailureLimiter, KeepsLongKeysAsTheirHashAndTakesAtOnce) {
  FailureLimiter limiter(2, std::chrono::seconds(60));
  const std::string long_name(64 * 1024, 'a');
  limiter.fail("name:" + long_name);
  limiter.fail("name:" + long_name + "b");
  EXPECT_LE(limiter.key_bytes(), 2 * 80u) << "not 64 KiB per key";
  limiter.fail("name:" + long_name);
  EXPECT_TRUE(limiter.wait("name:" + long_name)) << "the same long key is still counted as one";
  EXPECT_FALSE(limiter.wait("name:" + long_name + "b"));

  const auto t0 = FailureLimiter::Clock::time_point{} + std::chrono::hours(1);
  EXPECT_FALSE(limiter.take("10.0.0.1", t0));
  EXPECT_FALSE(limiter.take("10.0.0.1", t0));
  EXPECT_EQ(limiter.take("10.0.0.1", t0 + std::chrono::seconds(1)), std::chrono::seconds(59));
}

TEST(SessionCookie, TheHostCookieCountsBehindATlsProxyToo) {
  EXPECT_EQ(session_secret(with_field(http::field::cookie, "__Host-mancala_session=abc"), false), "abc")
      << "set behind a trusted TLS proxy without --public-url";
  EXPECT_TRUE(came_over_https(with_field(std::string("X-Forwarded-Proto"), "https")));
  EXPECT_TRUE(came_over_https(with_field(std::string("X-Forwarded-Proto"), "http, HTTPS")));
  EXPECT_FALSE(came_over_https(with_field(std::string("X-Forwarded-Proto"), "http")));
  EXPECT_FALSE(came_over_https(HttpRequest{}));
}

}  // namespace
}  // namespace mancala::server
