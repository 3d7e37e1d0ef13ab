// Web Push's cryptography (push_crypto.hpp) against the worked example that RFC 8291 publishes
// (Appendix A), and VAPID tokens (RFC 8292) checked with the public key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "push_crypto.hpp"
#include "push_http.hpp"

namespace mancala::server {
namespace {

Bytes decoded(std::string_view text) {
  auto bytes = from_base64url(text);
  if (!bytes) throw std::runtime_error("not base64url: " + std::string(text));
  return *bytes;
}

// RFC 8291, Appendix A, every value as printed there.
const std::string kPlaintext = "When I grow up, I want to be a watermelon";
const char* const kSenderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw";
const char* const kSenderPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8";
const char* const kReceiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
const char* const kReceiverPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
const char* const kAuthSecret = "BTBZMqHH6r4Tts7J_aSIgg";
const char* const kSalt = "DGv6ra1nlYgDCS1FRnbzlw";
const char* const kMessage =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_"
    "yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN";

TEST(PushCrypto, EncryptsTheExampleOfRfc8291ByteForByte) {
  const EcKey sender = EcKey::from_private(decoded(kSenderPrivate), decoded(kSenderPublic));
  const EcKey receiver = EcKey::from_public(decoded(kReceiverPublic));
  const Bytes message = encrypt_push_message(kPlaintext, receiver, decoded(kAuthSecret), sender, decoded(kSalt));
  EXPECT_EQ(base64url(message), kMessage);
}

TEST(PushCrypto, DecryptsTheExampleOfRfc8291AsTheBrowserWould) {
  const EcKey receiver = EcKey::from_private(decoded(kReceiverPrivate), decoded(kReceiverPublic));
  EXPECT_EQ(decrypt_push_message(decoded(kMessage), receiver, decoded(kAuthSecret)), kPlaintext);
  Bytes tampered = decoded(kMessage);
  tampered[100] ^= 1;
  EXPECT_THROW(decrypt_push_message(tampered, receiver, decoded(kAuthSecret)), PushCryptoError);
}

TEST(PushCrypto, AFreshMessageRoundTripsAndDiffersEachTime) {
  const EcKey browser = EcKey::generate();
  const Bytes auth = decoded(kAuthSecret);
  const Bytes first = encrypt_push_message("{\"title\":\"Your move\"}", EcKey::from_public(browser.public_point()), auth);
  const Bytes second = encrypt_push_message("{\"title\":\"Your move\"}", EcKey::from_public(browser.public_point()), auth);
  EXPECT_NE(first, second) << "a new salt and sender key every time";
  EXPECT_EQ(decrypt_push_message(first, browser, auth), "{\"title\":\"Your move\"}");
}

TEST(PushCrypto, AVapidTokenVerifiesWithThePublicKeyAndOnlyWithIt) {
  const EcKey key = EcKey::generate();
  const auto expires = std::chrono::system_clock::now() + std::chrono::hours(12);
  const std::string field = vapid_authorization(key, "https://push.example.net", "mailto:ops@example.org", expires);
  // "vapid t=<header>.<claims>.<signature>, k=<public key>"
  ASSERT_EQ(field.rfind("vapid t=", 0), 0u) << field;
  const auto comma = field.find(", k=");
  ASSERT_NE(comma, std::string::npos) << field;
  const std::string token = field.substr(8, comma - 8);
  EXPECT_EQ(field.substr(comma + 4), base64url(key.public_point()));
  const auto last_dot = token.rfind('.');
  const std::string signed_part = token.substr(0, last_dot);
  const Bytes signature = decoded(token.substr(last_dot + 1));
  ASSERT_EQ(signature.size(), 64u);
  const EcKey published = EcKey::from_public(decoded(field.substr(comma + 4)));
  EXPECT_TRUE(verify_es256(published, signed_part, signature));
  EXPECT_FALSE(verify_es256(EcKey::generate(), signed_part, signature)) << "another key";
  EXPECT_FALSE(verify_es256(published, signed_part + "x", signature)) << "another text";

  const auto header = decoded(signed_part.substr(0, signed_part.find('.')));
  const auto claims = decoded(signed_part.substr(signed_part.find('.') + 1));
  EXPECT_EQ(nlohmann::json::parse(header), (nlohmann::json{{"typ", "JWT"}, {"alg", "ES256"}}));
  const auto parsed = nlohmann::json::parse(claims);
  EXPECT_EQ(parsed["aud"], "https://push.example.net");
  EXPECT_EQ(parsed["sub"], "mailto:ops@example.org");
  EXPECT_EQ(parsed["exp"], std::chrono::duration_cast<std::chrono::seconds>(expires.time_since_epoch()).count());
}

TEST(PushCrypto, KeysThatAreNotP256PointsAreRefused) {
  Bytes off_curve = decoded(kReceiverPublic);
  off_curve[40] ^= 1;
  EXPECT_THROW(EcKey::from_public(off_curve), PushCryptoError);
  EXPECT_THROW(EcKey::from_public(Bytes(33, 2)), PushCryptoError);
}

TEST(PushEndpoints, OnlyHttpsOnPort443ByHostNameUnlessATestAllowsItsLoopback) {
  const PushEndpointRules strict;
  const auto fcm = check_push_endpoint("https://fcm.googleapis.com/fcm/send/abc:def", strict);
  ASSERT_TRUE(fcm.url) << fcm.problem;
  EXPECT_EQ(fcm.url->origin(), "https://fcm.googleapis.com");
  EXPECT_EQ(fcm.url->target, "/fcm/send/abc:def");
  const auto explicit_port = check_push_endpoint("https://Push.Example.NET:443/x", strict);
  ASSERT_TRUE(explicit_port.url) << explicit_port.problem;
  EXPECT_EQ(explicit_port.url->origin(), "https://push.example.net") << "host names are compared in lower case";
  EXPECT_EQ(explicit_port.url->port, "443");
  for (const char* refused : {"http://push.example/x", "https://127.0.0.1/x", "https://localhost/x", "https://[::1]/x",
                              "https://user@push.example/x", "ftp://push.example/x", "https:///x", "http://127.0.0.1:9/x",
                              "https://push.example:8443/x", "https://push.example:/x", "https://push.example:0443/x"})
    EXPECT_FALSE(check_push_endpoint(refused, strict).url) << refused;
  const PushEndpointRules test{true};
  EXPECT_TRUE(check_push_endpoint("http://127.0.0.1:9/x", test).url);
  EXPECT_FALSE(check_push_endpoint("http://10.0.0.1:9/x", test).url);
  EXPECT_FALSE(check_push_endpoint("http://localhost:9/x", test).url);
}

// Every way of writing an address as a host, and the names of this machine or its network.
TEST(PushEndpoints, NoAddressInAnySpellingAndNoLocalName) {
  for (const char* refused :
       {"https://LOCALHOST/x", "https://localhost./x", "https://push.localhost/x", "https://a.b.LocalHost/x",
        "https://0x7f000001/x", "https://0x7F000001/x", "https://2130706433/x", "https://017700000001/x",
        "https://0177.0.0.1/x", "https://127.1/x", "https://127.0.1/x", "https://0x7f.1/x", "https://1.2.3.0x4/x",
        "https://0xa9fea9fe/", "https://169.254.169.254/", "https://[::ffff:127.0.0.1]/x", "https://[fe80::1]/x",
        "https://::1/x", "https://127.0.0.1./x", "https://push.example.org./x", "https://printer.local/x",
        "https://db.internal/x", "https://nas.home.arpa/x", "https://1.0.0.127.in-addr.arpa/x",
        "https://mancala-1/x", "https://push.example.org@127.0.0.1/x", "https://push.example.org\\@127.0.0.1/x",
        "https://-push.example.org/x", "https://push..example.org/x", "https://push_1.example.org/x",
        "https://push.example.org%2f@127.0.0.1/x", "https://example.org:22/"})
    EXPECT_FALSE(check_push_endpoint(refused, {}).url) << refused;
  for (const char* accepted : {"https://updates.push.services.mozilla.com/wpush/v2/abc",
                               "https://web.push.apple.com/QGx", "https://wns2-by3p.notify.windows.com/w/?token=a",
                               "https://xn--bcher-kva.example/x", "https://1e100.net/x"})
    EXPECT_TRUE(check_push_endpoint(accepted, {}).url) << accepted;
}

}  // namespace
}  // namespace mancala::server
