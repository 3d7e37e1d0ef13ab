#include "push_crypto.hpp"

#include <fcntl.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <nlohmann/json.hpp>

namespace mancala::server {
namespace {

constexpr std::size_t kPointSize = 65;   // 0x04, x, y
constexpr std::size_t kScalarSize = 32;
constexpr std::size_t kSaltSize = 16;
constexpr std::size_t kAuthSize = 16;
constexpr std::size_t kTagSize = 16;
constexpr std::uint32_t kRecordSize = 4096;  // one record is all a push message ever needs
constexpr unsigned char kLastRecordDelimiter = 2;
constexpr const char* kCurve = "prime256v1";

// OpenSSL's last error, so that a person sees what OpenSSL objected to.
[[noreturn]] void fail(const std::string& what) {
  const unsigned long code = ERR_get_error();
  std::string detail;
  if (code != 0) {
    std::array<char, 256> text{};
    ERR_error_string_n(code, text.data(), text.size());
    detail = std::string(": ") + text.data();
  }
  ERR_clear_error();
  throw PushCryptoError(what + detail);
}

void check(int result, const char* what) {
  if (result <= 0) fail(what);
}

template <class T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
using PkeyContext = std::unique_ptr<EVP_PKEY_CTX, Deleter<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, Deleter<EVP_CIPHER_CTX, EVP_CIPHER_CTX_free>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, Deleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;
using Signature = std::unique_ptr<ECDSA_SIG, Deleter<ECDSA_SIG, ECDSA_SIG_free>>;
using BigNumber = std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>>;
using ParamBuilder = std::unique_ptr<OSSL_PARAM_BLD, Deleter<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using Params = std::unique_ptr<OSSL_PARAM, Deleter<OSSL_PARAM, OSSL_PARAM_free>>;

EVP_PKEY* key_from_params(const OSSL_PARAM* params, int selection) {
  PkeyContext context(EVP_PKEY_CTX_new_from_name(nullptr, "EC", nullptr));
  if (!context) fail("no EC support in OpenSSL");
  EVP_PKEY* key = nullptr;
  check(EVP_PKEY_fromdata_init(context.get()), "EVP_PKEY_fromdata_init");
  if (EVP_PKEY_fromdata(context.get(), &key, selection, const_cast<OSSL_PARAM*>(params)) <= 0)
    fail("not a P-256 key");
  return key;
}

void check_point(const Bytes& point) {
  if (point.size() != kPointSize || point[0] != 0x04)
    throw PushCryptoError("a P-256 public key has 65 bytes starting with 0x04, this one " +
                          std::to_string(point.size()));
}

Bytes ecdh(const EcKey& own, const EcKey& peer) {
  PkeyContext context(EVP_PKEY_CTX_new(own.get(), nullptr));
  if (!context) fail("EVP_PKEY_CTX_new");
  check(EVP_PKEY_derive_init(context.get()), "EVP_PKEY_derive_init");
  check(EVP_PKEY_derive_set_peer(context.get(), peer.get()), "ECDH with the peer's key");
  std::size_t size = 0;
  check(EVP_PKEY_derive(context.get(), nullptr, &size), "ECDH");
  Bytes secret(size);
  check(EVP_PKEY_derive(context.get(), secret.data(), &size), "ECDH");
  secret.resize(size);
  return secret;
}

Bytes hkdf(const Bytes& salt, const Bytes& key, const Bytes& info, std::size_t length) {
  PkeyContext context(EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nullptr));
  if (!context) fail("no HKDF in OpenSSL");
  check(EVP_PKEY_derive_init(context.get()), "HKDF init");
  check(EVP_PKEY_CTX_set_hkdf_md(context.get(), EVP_sha256()), "HKDF digest");
  check(EVP_PKEY_CTX_set1_hkdf_salt(context.get(), salt.data(), static_cast<int>(salt.size())), "HKDF salt");
  check(EVP_PKEY_CTX_set1_hkdf_key(context.get(), key.data(), static_cast<int>(key.size())), "HKDF key");
  check(EVP_PKEY_CTX_add1_hkdf_info(context.get(), info.data(), static_cast<int>(info.size())), "HKDF info");
  Bytes out(length);
  check(EVP_PKEY_derive(context.get(), out.data(), &length), "HKDF");
  return out;
}

Bytes label(std::string_view text) {  // "Content-Encoding: …" and the like, with their zero byte
  Bytes bytes(text.begin(), text.end());
  bytes.push_back(0);
  return bytes;
}

void append(Bytes& to, const Bytes& more) { to.insert(to.end(), more.begin(), more.end()); }

struct ContentKeys {
  Bytes key;    // 16 bytes for AES-128-GCM
  Bytes nonce;  // 12 bytes
};

// RFC 8291, section 3.4, then RFC 8188, section 2.2: the same on both ends of a message.
ContentKeys derive_keys(const Bytes& ecdh_secret, const Bytes& auth, const Bytes& receiver_point,
                        const Bytes& sender_point, const Bytes& salt) {
  if (auth.size() != kAuthSize) throw PushCryptoError("a subscription's auth secret has 16 bytes");
  Bytes key_info = label("WebPush: info");
  append(key_info, receiver_point);
  append(key_info, sender_point);
  const Bytes ikm = hkdf(auth, ecdh_secret, key_info, 32);
  return {hkdf(salt, ikm, label("Content-Encoding: aes128gcm"), 16), hkdf(salt, ikm, label("Content-Encoding: nonce"), 12)};
}

Bytes aes_gcm(bool encrypt, const ContentKeys& keys, const unsigned char* data, std::size_t size, Bytes* tag) {
  CipherContext context(EVP_CIPHER_CTX_new());
  if (!context) fail("EVP_CIPHER_CTX_new");
  const auto init = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex;
  check(init(context.get(), EVP_aes_128_gcm(), nullptr, keys.key.data(), keys.nonce.data()), "AES-GCM init");
  Bytes out(size + kTagSize);
  int written = 0;
  int last = 0;
  if (encrypt) {
    check(EVP_EncryptUpdate(context.get(), out.data(), &written, data, static_cast<int>(size)), "AES-GCM");
    check(EVP_EncryptFinal_ex(context.get(), out.data() + written, &last), "AES-GCM");
    tag->resize(kTagSize);
    check(EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, kTagSize, tag->data()), "AES-GCM tag");
  } else {
    check(EVP_DecryptUpdate(context.get(), out.data(), &written, data, static_cast<int>(size)), "AES-GCM");
    check(EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, kTagSize, tag->data()), "AES-GCM tag");
    if (EVP_DecryptFinal_ex(context.get(), out.data() + written, &last) <= 0) {
      ERR_clear_error();
      throw PushCryptoError("the message does not decrypt with this key and auth secret");
    }
  }
  out.resize(static_cast<std::size_t>(written + last));
  return out;
}

Bytes random_bytes(std::size_t size) {
  Bytes bytes(size);
  check(RAND_bytes(bytes.data(), static_cast<int>(size)), "RAND_bytes");
  return bytes;
}

}  // namespace

EcKey::EcKey(EVP_PKEY* key) : key_(key, EVP_PKEY_free) {}

EcKey EcKey::generate() {
  EVP_PKEY* key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", kCurve);
  if (!key) fail("could not generate a P-256 key");
  return EcKey(key);
}

EcKey EcKey::from_public(const Bytes& point) {
  check_point(point);
  const std::array<OSSL_PARAM, 3> params{
      OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, const_cast<char*>(kCurve), 0),
      OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, const_cast<unsigned char*>(point.data()), point.size()),
      OSSL_PARAM_construct_end()};
  return EcKey(key_from_params(params.data(), EVP_PKEY_PUBLIC_KEY));
}

EcKey EcKey::from_private(const Bytes& scalar, const Bytes& point) {
  check_point(point);
  if (scalar.size() != kScalarSize) throw PushCryptoError("a P-256 private key has 32 bytes");
  BigNumber secret(BN_bin2bn(scalar.data(), static_cast<int>(scalar.size()), nullptr));
  ParamBuilder builder(OSSL_PARAM_BLD_new());
  if (!secret || !builder) fail("out of memory");
  check(OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, kCurve, 0), "group");
  check(OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()), "point");
  check(OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_PRIV_KEY, secret.get()), "scalar");
  Params params(OSSL_PARAM_BLD_to_param(builder.get()));
  if (!params) fail("out of memory");
  return EcKey(key_from_params(params.get(), EVP_PKEY_KEYPAIR));
}

EcKey EcKey::from_pem_file(const std::string& path) {
  Bio file(BIO_new_file(path.c_str(), "r"));
  if (!file) fail("cannot read the VAPID key file " + path);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(file.get(), nullptr, nullptr, nullptr);
  if (!key) fail(path + " holds no private key in PEM form");
  EcKey loaded(key);
  std::array<char, 64> group{};
  if (!EVP_PKEY_is_a(key, "EC") ||
      EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group.data(), group.size(), nullptr) <= 0 ||
      std::strcmp(group.data(), kCurve) != 0)
    throw PushCryptoError(path + " is not a P-256 (prime256v1) key; make one with --generate-vapid-key");
  return loaded;
}

void EcKey::write_pem_file(const std::string& path) const {
  Bio memory(BIO_new(BIO_s_mem()));
  if (!memory) fail("out of memory");
  check(PEM_write_bio_PrivateKey(memory.get(), get(), nullptr, nullptr, 0, nullptr, nullptr), "PEM");
  char* text = nullptr;
  const long size = BIO_get_mem_data(memory.get(), &text);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw PushCryptoError("cannot create " + path + ": " + std::strerror(errno) + " (an existing file is kept)");
  const bool written = ::write(fd, text, static_cast<std::size_t>(size)) == size;
  const bool closed = ::close(fd) == 0;
  if (!written || !closed) throw PushCryptoError("could not write " + path);
}

Bytes EcKey::public_point() const {
  Bytes point(kPointSize);
  std::size_t size = 0;
  check(EVP_PKEY_get_octet_string_param(get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point.data(), point.size(), &size),
        "the public key");
  point.resize(size);
  return point;
}

Bytes encrypt_push_message(std::string_view plaintext, const EcKey& receiver, const Bytes& auth) {
  return encrypt_push_message(plaintext, receiver, auth, EcKey::generate(), random_bytes(kSaltSize));
}

Bytes encrypt_push_message(std::string_view plaintext, const EcKey& receiver, const Bytes& auth,
                           const EcKey& sender, const Bytes& salt) {
  if (salt.size() != kSaltSize) throw PushCryptoError("the salt has 16 bytes");
  if (plaintext.size() + 1 + kTagSize > kRecordSize) throw PushCryptoError("the message is too long for one record");
  const Bytes sender_point = sender.public_point();
  const ContentKeys keys = derive_keys(ecdh(sender, receiver), auth, receiver.public_point(), sender_point, salt);
  Bytes padded(plaintext.begin(), plaintext.end());
  padded.push_back(kLastRecordDelimiter);
  Bytes tag;
  const Bytes ciphertext = aes_gcm(true, keys, padded.data(), padded.size(), &tag);
  // RFC 8188's header: salt, record size, the key id's length and the key id (our public key).
  Bytes message = salt;
  for (int shift = 24; shift >= 0; shift -= 8) message.push_back(static_cast<unsigned char>(kRecordSize >> shift));
  message.push_back(static_cast<unsigned char>(sender_point.size()));
  append(message, sender_point);
  append(message, ciphertext);
  append(message, tag);
  return message;
}

std::string decrypt_push_message(const Bytes& message, const EcKey& receiver, const Bytes& auth) {
  constexpr std::size_t kHeader = kSaltSize + 4 + 1;
  if (message.size() < kHeader + kPointSize + kTagSize || message[kHeader - 1] != kPointSize)
    throw PushCryptoError("not an aes128gcm message with a P-256 key id");
  const Bytes salt(message.begin(), message.begin() + kSaltSize);
  const Bytes sender_point(message.begin() + kHeader, message.begin() + kHeader + kPointSize);
  const ContentKeys keys =
      derive_keys(ecdh(receiver, EcKey::from_public(sender_point)), auth, receiver.public_point(), sender_point, salt);
  const std::size_t body = kHeader + kPointSize;
  Bytes tag(message.end() - kTagSize, message.end());
  Bytes padded = aes_gcm(false, keys, message.data() + body, message.size() - body - kTagSize, &tag);
  while (!padded.empty() && padded.back() == 0) padded.pop_back();
  if (padded.empty() || padded.back() != kLastRecordDelimiter)
    throw PushCryptoError("the record does not end with the last record's delimiter");
  padded.pop_back();
  return std::string(padded.begin(), padded.end());
}

Bytes sign_es256(const EcKey& key, std::string_view text) {
  DigestContext context(EVP_MD_CTX_new());
  if (!context) fail("EVP_MD_CTX_new");
  check(EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()), "ES256 init");
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(text.data());
  check(EVP_DigestSign(context.get(), nullptr, &size, data, text.size()), "ES256");
  Bytes der(size);
  check(EVP_DigestSign(context.get(), der.data(), &size, data, text.size()), "ES256");
  const unsigned char* cursor = der.data();
  Signature signature(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(size)));
  if (!signature) fail("ES256 signature");
  // JWS wants r and s as two fixed-size numbers, not OpenSSL's DER sequence.
  Bytes raw(2 * kScalarSize);
  check(BN_bn2binpad(ECDSA_SIG_get0_r(signature.get()), raw.data(), kScalarSize), "r");
  check(BN_bn2binpad(ECDSA_SIG_get0_s(signature.get()), raw.data() + kScalarSize, kScalarSize), "s");
  return raw;
}

bool verify_es256(const EcKey& key, std::string_view text, const Bytes& signature) {
  if (signature.size() != 2 * kScalarSize) return false;
  Signature parsed(ECDSA_SIG_new());
  BIGNUM* r = BN_bin2bn(signature.data(), kScalarSize, nullptr);
  BIGNUM* s = BN_bin2bn(signature.data() + kScalarSize, kScalarSize, nullptr);
  if (!parsed || !r || !s || ECDSA_SIG_set0(parsed.get(), r, s) != 1) {
    BN_free(r);
    BN_free(s);
    fail("out of memory");
  }
  unsigned char* der = nullptr;
  const int size = i2d_ECDSA_SIG(parsed.get(), &der);
  if (size <= 0) fail("ES256 signature");
  const std::unique_ptr<unsigned char, void (*)(unsigned char*)> owned(der, [](unsigned char* p) { OPENSSL_free(p); });
  DigestContext context(EVP_MD_CTX_new());
  if (!context) fail("EVP_MD_CTX_new");
  check(EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key.get()), "ES256 init");
  const bool valid = EVP_DigestVerify(context.get(), der, static_cast<std::size_t>(size),
                                      reinterpret_cast<const unsigned char*>(text.data()), text.size()) == 1;
  ERR_clear_error();
  return valid;
}

std::string vapid_authorization(const EcKey& key, const std::string& audience, const std::string& subject,
                                std::chrono::system_clock::time_point expires) {
  const auto expiry = std::chrono::duration_cast<std::chrono::seconds>(expires.time_since_epoch()).count();
  const std::string claims = nlohmann::json{{"aud", audience}, {"exp", expiry}, {"sub", subject}}.dump();
  const std::string signed_part = base64url(std::string_view(R"({"typ":"JWT","alg":"ES256"})")) + "." + base64url(claims);
  return "vapid t=" + signed_part + "." + base64url(sign_es256(key, signed_part)) + ", k=" + base64url(key.public_point());
}

}  // namespace mancala::server
