#pragma once
// The cryptography of Web Push, all of it done by OpenSSL: P-256 keys, the message encryption of
// RFC 8291 (ECDH, HKDF-SHA-256, AES-128-GCM in the aes128gcm content coding of RFC 8188), and the
// VAPID token of RFC 8292 (an ES256 JSON Web Token).
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "base64url.hpp"

typedef struct evp_pkey_st EVP_PKEY;

namespace mancala::server {

// A key or a message that is not what it should be; the message says which.
struct PushCryptoError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A P-256 key: a private one (ours: VAPID, or a message's one-off sender key) or a public one
// (a browser's, from its subscription).
class EcKey {
 public:
  static EcKey generate();
  // The public key as 65 bytes (0x04, x, y): the form subscriptions and VAPID's `k` carry.
  static EcKey from_public(const Bytes& point);
  // A private key from its 32-byte scalar and its public point (for the RFC's worked examples).
  static EcKey from_private(const Bytes& scalar, const Bytes& point);
  static EcKey from_pem_file(const std::string& path);
  // Writes the private key as PEM (PKCS #8) to a new file only its owner may read.
  void write_pem_file(const std::string& path) const;

  Bytes public_point() const;
  EVP_PKEY* get() const { return key_.get(); }

 private:
  explicit EcKey(EVP_PKEY* key);
  std::shared_ptr<EVP_PKEY> key_;
};

// RFC 8291: encrypts `plaintext` for a subscription's key (`receiver`, its p256dh) and `auth`
// secret, with a fresh sender key and salt, as one aes128gcm record.
Bytes encrypt_push_message(std::string_view plaintext, const EcKey& receiver, const Bytes& auth);
// The same with the sender key and salt given, so a test can compare with RFC 8291's example.
Bytes encrypt_push_message(std::string_view plaintext, const EcKey& receiver, const Bytes& auth,
                           const EcKey& sender, const Bytes& salt);
// What a browser does with a message: the plaintext, or PushCryptoError.
std::string decrypt_push_message(const Bytes& message, const EcKey& receiver, const Bytes& auth);

// RFC 8292: the `Authorization` field for a push service at `audience` (the endpoint's origin),
// "vapid t=<JWT>, k=<public key>", valid until `expires`.
std::string vapid_authorization(const EcKey& key, const std::string& audience, const std::string& subject,
                                std::chrono::system_clock::time_point expires);
// ES256 (RFC 7518, 3.4): the 64-byte r‖s signature of `text` under `key`, and its check.
Bytes sign_es256(const EcKey& key, std::string_view text);
bool verify_es256(const EcKey& key, std::string_view text, const Bytes& signature);

}  // namespace mancala::server
