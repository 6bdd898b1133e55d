// hmac_kdf_differential_test.cpp: HMAC, HKDF and PBKDF2 against OpenSSL (HMAC(), EVP_KDF "HKDF",
// PKCS5_PBKDF2_HMAC) on random keys of 0..300 bytes (across both block sizes), random messages and
// random output lengths; every HMAC also under a prepared key and streamed in pieces of 1..129.
#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

template <class H>
class HmacKdfDifferential : public ::testing::Test {};
TYPED_TEST_SUITE(HmacKdfDifferential, AllHashers, HasherNames);

std::uint64_t seed_for(const char* what) {
  return run_seed() ^ std::hash<std::string>{}(what);
}

std::string replay() {
  return "reproduce with SHASTA_SEED=" + std::to_string(run_seed());
}

std::uint64_t cases(std::uint64_t normal) {
  return env_number("SHASTA_DIFF_CASES", quick_mode() ? normal / 20 : normal);
}

template <class H>
Bytes openssl_hmac(const Bytes& key, const Bytes& msg) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int n = 0;
  // OpenSSL reads a null key as "the key set before" and fails on a fresh context, so an empty key
  // or message (an empty vector's data() may be null) gets a valid pointer.
  static const unsigned char kNothing = 0;
  const unsigned char* k = key.empty() ? &kNothing : key.data();
  const unsigned char* m = msg.empty() ? &kNothing : msg.data();
  if (HMAC(Alg<H>::md(), k, static_cast<int>(key.size()), m, msg.size(), out.data(), &n) == nullptr) {
    ADD_FAILURE() << "OpenSSL HMAC failed (key " << key.size() << ", message " << msg.size() << ")";
  }
  out.resize(n);
  return out;
}

template <class H>
Bytes openssl_hkdf(const Bytes& salt, const Bytes& ikm, const Bytes& info, std::size_t len) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  char digest[32];
  std::snprintf(digest, sizeof digest, "%s", EVP_MD_get0_name(Alg<H>::md()));
  // OpenSSL refuses zero-length octet parameters: an empty salt or info is left out (its default).
  std::vector<OSSL_PARAM> params = {OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0)};
  const auto add = [&params](const char* name, const Bytes& b) {
    if (!b.empty()) {
      params.push_back(OSSL_PARAM_construct_octet_string(name, const_cast<std::uint8_t*>(b.data()), b.size()));
    }
  };
  add(OSSL_KDF_PARAM_SALT, salt);
  add(OSSL_KDF_PARAM_KEY, ikm);
  add(OSSL_KDF_PARAM_INFO, info);
  params.push_back(OSSL_PARAM_construct_end());
  Bytes out(len);
  EXPECT_EQ(EVP_KDF_derive(ctx, out.data(), len, params.data()), 1);
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  return out;
}

TYPED_TEST(HmacKdfDifferential, HmacRawPreparedAndStreamed) {
  using H = TypeParam;
  SCOPED_TRACE(replay());
  std::mt19937_64 rng(seed_for("hmac"));
  for (std::uint64_t c = 0, n = cases(2000); c < n; ++c) {
    const Bytes key = random_bytes(rng, rng() % 301);
    const Bytes msg = random_bytes(rng, rng() % 2000);
    const Bytes expected = openssl_hmac<H>(key, msg);
    ASSERT_EQ(bytes_of(hmac<H>(key, msg)), expected) << "key " << key.size() << ", message " << msg.size();
    const HmacKey<H> prepared(key);
    ASSERT_EQ(bytes_of(hmac(prepared, msg)), expected);
    Hmac<H> mac(prepared);
    for (std::size_t at = 0; at < msg.size();) {
      const std::size_t piece = std::min<std::size_t>(1 + rng() % 129, msg.size() - at);
      mac.update(ByteView(msg.data() + at, piece));
      at += piece;
    }
    ASSERT_EQ(bytes_of(mac.finalize()), expected) << "streamed";
    ASSERT_EQ(hmac_verify(prepared, msg, expected), Error::ok);
  }
}

TYPED_TEST(HmacKdfDifferential, Hkdf) {
  using H = TypeParam;
  SCOPED_TRACE(replay());
  std::mt19937_64 rng(seed_for("hkdf"));
  for (std::uint64_t c = 0, n = cases(300); c < n; ++c) {
    const Bytes salt = random_bytes(rng, rng() % 301);
    // OpenSSL 3.0 refuses an empty IKM ("missing key"), so the differential starts at one byte.
    const Bytes ikm = random_bytes(rng, 1 + rng() % 300);
    // Info up to 1,200 bytes: hkdf_expand copies one of up to 576 bytes beside the counter, and
    // streams a longer one.
    const Bytes info = random_bytes(rng, rng() % 1201);
    const std::size_t len = 1 + rng() % (255 * H::digest_size);
    Bytes okm(len);
    ASSERT_EQ(hkdf<H>(salt, ikm, info, okm), Error::ok);
    ASSERT_EQ(okm, openssl_hkdf<H>(salt, ikm, info, len)) << "salt " << salt.size() << ", ikm " << ikm.size();
  }
}

// Around hkdf_expand's inline info buffer (576 bytes): both paths, each output length shape.
TYPED_TEST(HmacKdfDifferential, HkdfInfoAroundTheInlineLimit) {
  using H = TypeParam;
  SCOPED_TRACE(replay());
  std::mt19937_64 rng(seed_for("hkdf-info"));
  const Bytes salt = random_bytes(rng, 13), ikm = random_bytes(rng, 40);
  for (std::size_t info_len : {0u, 1u, 575u, 576u, 577u, 640u, 1000u, 4096u}) {
    const Bytes info = random_bytes(rng, info_len);
    for (std::size_t len : {std::size_t{1}, H::digest_size, 3 * H::digest_size + 1, 255 * H::digest_size}) {
      Bytes okm(len);
      ASSERT_EQ(hkdf<H>(salt, ikm, info, okm), Error::ok);
      ASSERT_EQ(okm, openssl_hkdf<H>(salt, ikm, info, len)) << "info " << info_len << ", length " << len;
      const auto prk = hkdf_extract<H>(salt, ikm);
      Bytes expanded(len);
      ASSERT_EQ(hkdf_expand<H>(prk, info, expanded), Error::ok);
      ASSERT_EQ(expanded, okm) << "hkdf_expand, info " << info_len << ", length " << len;
    }
  }
}

TYPED_TEST(HmacKdfDifferential, Pbkdf2) {
  using H = TypeParam;
  SCOPED_TRACE(replay());
  std::mt19937_64 rng(seed_for("pbkdf2"));
  for (std::uint64_t c = 0, n = cases(200); c < n; ++c) {
    const Bytes password = random_bytes(rng, rng() % 301);
    const Bytes salt = random_bytes(rng, rng() % 100);
    const std::uint64_t iterations = 1 + rng() % 64;
    // Up to 9 blocks: one at a time, side by side on every lane (4), full lanes plus a remainder.
    const std::size_t len = 1 + rng() % (9 * H::digest_size);
    Bytes ours(len), theirs(len);
    ASSERT_EQ(pbkdf2_hmac<H>(password, salt, iterations, ours), Error::ok);
    ASSERT_EQ(PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(password.data()), static_cast<int>(password.size()),
                                salt.data(), static_cast<int>(salt.size()), static_cast<int>(iterations), Alg<H>::md(),
                                static_cast<int>(len), theirs.data()),
              1);
    ASSERT_EQ(ours, theirs) << "password " << password.size() << ", iterations " << iterations << ", length " << len;
    // From the password prepared as a key, the same bytes.
    Bytes prepared(len);
    ASSERT_EQ(pbkdf2_hmac<H>(HmacKey<H>(password), salt, iterations, prepared), Error::ok);
    ASSERT_EQ(prepared, theirs) << "prepared: password " << password.size() << ", length " << len;
  }
}

// Past 256 and 65,536 output blocks the block index INT(i) needs its second and third bytes, and
// every lane kernel runs full (16 SHA-256 lanes on AVX-512) many times over: 65,543 blocks, two
// iterations, against OpenSSL.
template <class H>
void pbkdf2_past_65536_blocks() {
  const Bytes password = {'p', 'a', 's', 's'};
  const Bytes salt = {'s', 'a', 'l', 't'};
  const std::size_t len = 65543 * H::digest_size - 3;
  Bytes ours(len), theirs(len);
  ASSERT_EQ(pbkdf2_hmac<H>(password, salt, 2, ours), Error::ok);
  ASSERT_EQ(PKCS5_PBKDF2_HMAC(reinterpret_cast<const char*>(password.data()), static_cast<int>(password.size()),
                              salt.data(), static_cast<int>(salt.size()), 2, Alg<H>::md(), static_cast<int>(len),
                              theirs.data()),
            1);
  for (std::size_t at = 0; at < len; at += H::digest_size) {
    const std::size_t n = std::min(H::digest_size, len - at);
    ASSERT_TRUE(std::equal(ours.data() + at, ours.data() + at + n, theirs.data() + at))
        << "output block " << at / H::digest_size + 1;
  }
}

TEST(Pbkdf2LongOutput, Sha256PastBlock65536) {
  pbkdf2_past_65536_blocks<Sha256>();
}
TEST(Pbkdf2LongOutput, Sha512PastBlock65536) {
  pbkdf2_past_65536_blocks<Sha512>();
}

}  // namespace
}  // namespace shasta::test
