// c_api_kdf_test.cpp: every HMAC, HKDF, TLS 1.3 and PBKDF2 function of shasta.h and every error
// code each can return, against the C++ API (itself checked against OpenSSL and the RFC vectors).
#include <cstdint>
#include <cstring>

#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"
#include "shasta/shasta.h"
#include "support.hpp"

namespace shasta::test {
namespace {

const shasta_alg kBad = static_cast<shasta_alg>(0);

TEST(CApiKdf, Hmac) {
  unsigned char out[64];
  ASSERT_EQ(shasta_hmac(SHASTA_SHA256, "key", 3, "msg", 3, out, 32), SHASTA_OK);
  EXPECT_EQ(Bytes(out, out + 32), bytes_of(hmac<Sha256>("key", "msg")));
  ASSERT_EQ(shasta_hmac(SHASTA_SHA512_224, "key", 3, "msg", 3, out, 5), SHASTA_OK);
  const auto tag = hmac<Sha512_224>("key", "msg");
  EXPECT_EQ(Bytes(out, out + 5), Bytes(tag.begin(), tag.begin() + 5));
  ASSERT_EQ(shasta_hmac(SHASTA_SHA384, nullptr, 0, nullptr, 0, out, 48), SHASTA_OK);
  EXPECT_EQ(Bytes(out, out + 48), bytes_of(hmac<Sha384>("", "")));
  EXPECT_EQ(shasta_hmac(kBad, "k", 1, "m", 1, out, 32), SHASTA_E_UNKNOWN_ALG);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, nullptr, 1, "m", 1, out, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, nullptr, 1, out, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, "m", 1, nullptr, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, "m", 1, out, 0), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, "m", 1, out, 33), SHASTA_E_OUTPUT_TOO_LONG);
}

TEST(CApiKdf, PreparedKeysStreamingAndVerify) {
  shasta_hmac_key* key = shasta_hmac_key_new(SHASTA_SHA512, "secret", 6);
  ASSERT_NE(key, nullptr);
  const auto expected = hmac<Sha512>("secret", "hello world");
  unsigned char out[64];
  ASSERT_EQ(shasta_hmac_with_key(key, "hello world", 11, out, 64), SHASTA_OK);
  EXPECT_EQ(Bytes(out, out + 64), bytes_of(expected));
  EXPECT_EQ(shasta_hmac_with_key(key, "hello world", 11, out, 65), SHASTA_E_OUTPUT_TOO_LONG);
  EXPECT_EQ(shasta_hmac_with_key(nullptr, "x", 1, out, 64), SHASTA_E_NULL);

  EXPECT_EQ(shasta_hmac_verify(key, "hello world", 11, expected.data(), 64), SHASTA_OK);
  EXPECT_EQ(shasta_hmac_verify(key, "hello world", 11, expected.data(), 32), SHASTA_OK);
  EXPECT_EQ(shasta_hmac_verify(key, "hello world", 11, expected.data(), 31), SHASTA_E_TAG_TOO_SHORT);
  EXPECT_EQ(shasta_hmac_verify(key, "hello worle", 11, expected.data(), 64), SHASTA_E_TAG_MISMATCH);
  EXPECT_EQ(shasta_hmac_verify(key, "hello world", 11, nullptr, 64), SHASTA_E_NULL);

  shasta_hmac_ctx* ctx = shasta_hmac_new(key);
  ASSERT_NE(ctx, nullptr);
  ASSERT_EQ(shasta_hmac_update(ctx, "hello ", 6), SHASTA_OK);
  ASSERT_EQ(shasta_hmac_update(ctx, "world", 5), SHASTA_OK);
  EXPECT_EQ(shasta_hmac_update(ctx, nullptr, 1), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_final(ctx, out, 0), SHASTA_E_OUTPUT_TOO_SMALL);
  ASSERT_EQ(shasta_hmac_final(ctx, out, 64), SHASTA_OK);
  EXPECT_EQ(Bytes(out, out + 64), bytes_of(expected));
  ASSERT_EQ(shasta_hmac_final(ctx, out, 64), SHASTA_OK) << "final restarts under the same key";
  EXPECT_EQ(Bytes(out, out + 64), bytes_of(hmac<Sha512>("secret", "")));
  EXPECT_EQ(shasta_hmac_final(nullptr, out, 64), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_update(nullptr, "x", 1), SHASTA_E_NULL);
  shasta_hmac_free(ctx);
  shasta_hmac_free(nullptr);

  const std::size_t size = shasta_hmac_key_export_size(SHASTA_SHA512);
  EXPECT_EQ(size, 128u);
  EXPECT_EQ(shasta_hmac_key_export_size(SHASTA_SHA256), 64u);
  EXPECT_EQ(shasta_hmac_key_export_size(kBad), 0u);
  Bytes exported(size);
  EXPECT_EQ(shasta_hmac_key_export(key, exported.data(), size - 1), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_hmac_key_export(nullptr, exported.data(), size), SHASTA_E_NULL);
  ASSERT_EQ(shasta_hmac_key_export(key, exported.data(), size), SHASTA_OK);
  EXPECT_EQ(shasta_hmac_key_import(SHASTA_SHA512, exported.data(), size - 1), nullptr);
  EXPECT_EQ(shasta_hmac_key_import(kBad, exported.data(), size), nullptr);
  EXPECT_EQ(shasta_hmac_key_import(SHASTA_SHA512, nullptr, size), nullptr);
  shasta_hmac_key* imported = shasta_hmac_key_import(SHASTA_SHA512, exported.data(), size);
  ASSERT_NE(imported, nullptr);
  ASSERT_EQ(shasta_hmac_with_key(imported, "hello world", 11, out, 64), SHASTA_OK);
  EXPECT_EQ(Bytes(out, out + 64), bytes_of(expected));
  shasta_hmac_key_free(imported);
  shasta_hmac_key_free(key);
  shasta_hmac_key_free(nullptr);

  EXPECT_EQ(shasta_hmac_key_new(kBad, "k", 1), nullptr);
  EXPECT_EQ(shasta_hmac_key_new(SHASTA_SHA256, nullptr, 1), nullptr);
  EXPECT_EQ(shasta_hmac_new(nullptr), nullptr);
}

TEST(CApiKdf, Hkdf) {
  unsigned char prk[64], okm[300];
  ASSERT_EQ(shasta_hkdf_extract(SHASTA_SHA256, "salt", 4, "ikm", 3, prk, 32), SHASTA_OK);
  EXPECT_EQ(Bytes(prk, prk + 32), bytes_of(hkdf_extract<Sha256>("salt", "ikm")));
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, "salt", 4, "ikm", 3, prk, 31), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_hkdf_extract(kBad, "salt", 4, "ikm", 3, prk, 32), SHASTA_E_UNKNOWN_ALG);
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, nullptr, 4, "ikm", 3, prk, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, "salt", 4, "ikm", 3, nullptr, 32), SHASTA_E_NULL);

  ASSERT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 32, "info", 4, okm, 100), SHASTA_OK);
  Bytes expected(100);
  ASSERT_EQ(hkdf_expand<Sha256>(ByteView(prk, 32), "info", expected), Error::ok);
  EXPECT_EQ(Bytes(okm, okm + 100), expected);
  Bytes big(255 * 32 + 1);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 32, "info", 4, big.data(), big.size()), SHASTA_E_OUTPUT_TOO_LONG);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 31, "info", 4, okm, 10), SHASTA_E_PRK_TOO_SHORT);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 32, "info", 4, nullptr, 10), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_expand(kBad, prk, 32, "info", 4, okm, 10), SHASTA_E_UNKNOWN_ALG);
}

TEST(CApiKdf, Tls13) {
  const Bytes secret(32, 9);
  unsigned char out[64];
  ASSERT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 32, "key", 3, nullptr, 0, out, 16), SHASTA_OK);
  Bytes expected(16);
  ASSERT_EQ(tls13_expand_label<Sha256>(secret, "key", {}, expected), Error::ok);
  EXPECT_EQ(Bytes(out, out + 16), expected);
  const std::string label250(250, 'x');
  const Bytes context256(256);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 32, label250.data(), 250, nullptr, 0, out, 16),
            SHASTA_E_LABEL_TOO_LONG);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 32, "k", 1, context256.data(), 256, out, 16),
            SHASTA_E_CONTEXT_TOO_LONG);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 31, "k", 1, nullptr, 0, out, 16),
            SHASTA_E_PRK_TOO_SHORT);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 32, nullptr, 1, nullptr, 0, out, 16),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_expand_label(kBad, secret.data(), 32, "k", 1, nullptr, 0, out, 16), SHASTA_E_UNKNOWN_ALG);
  Bytes big(255 * 32 + 1);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, secret.data(), 32, "k", 1, nullptr, 0, big.data(), big.size()),
            SHASTA_E_OUTPUT_TOO_LONG);

  const Bytes transcript = bytes_of(sha256(""));
  ASSERT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, secret.data(), 32, "derived", 7, transcript.data(), 32, out, 32),
            SHASTA_OK);
  Bytes derived(32);
  ASSERT_EQ(tls13_derive_secret<Sha256>(secret, "derived", transcript, derived), Error::ok);
  EXPECT_EQ(Bytes(out, out + 32), derived);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, secret.data(), 32, "derived", 7, transcript.data(), 32, out, 31),
            SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, secret.data(), 32, "derived", 7, nullptr, 32, out, 32),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_derive_secret(kBad, secret.data(), 32, "derived", 7, transcript.data(), 32, out, 32),
            SHASTA_E_UNKNOWN_ALG);
  // A transcript hash is digest_size bytes: the empty transcript's too (its hash), nothing else.
  std::memset(out, 0xEE, sizeof out);
  for (const std::size_t len : {std::size_t{0}, std::size_t{31}, std::size_t{33}}) {
    const Bytes context(len, 0x5A);
    EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, secret.data(), 32, "derived", 7, context.data(), len, out, 32),
              SHASTA_E_TRANSCRIPT_HASH_SIZE)
        << len;
  }
  const Bytes secret48(48, 9);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA384, secret48.data(), 48, "derived", 7, transcript.data(), 32, out, 48),
            SHASTA_E_TRANSCRIPT_HASH_SIZE)
      << "SHA-256's hash under SHA-384";
  EXPECT_EQ(std::count(std::begin(out), std::end(out), 0xEE), static_cast<std::ptrdiff_t>(sizeof out)) << "written";
}

TEST(CApiKdf, Pbkdf2) {
  unsigned char out[80];
  ASSERT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "password", 8, "salt", 4, 4096, out, 32), SHASTA_OK);
  // RFC 7914 section 11 lists PBKDF2-HMAC-SHA256("passwd", "salt", 1, 64); this is the widely
  // published c = 4096 value for "password"/"salt" (also in tests/vectors/pbkdf2-sha2.txt).
  EXPECT_EQ(to_hex(Bytes(out, out + 32)), "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 0, out, 32), SHASTA_E_ZERO_ITERATIONS);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, out, 0), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, nullptr, 1, "s", 1, 1, out, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, nullptr, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_pbkdf2_hmac(kBad, "p", 1, "s", 1, 1, out, 32), SHASTA_E_UNKNOWN_ALG);
#if SIZE_MAX > 0xFFFFFFFFu  // a 32-bit size_t cannot hold the limit
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, out, 0xFFFFFFFFull * 32 + 1),
            SHASTA_E_OUTPUT_TOO_LONG);
#endif
}

// From a prepared key, PBKDF2 gives the same output on every algorithm and length (one block, a
// lane call's worth, a partial last block), and the same refusals; the key may be freed after.
TEST(CApiKdf, Pbkdf2WithPreparedKey) {
  const std::string password = "pass\0word", salt = "sa\0lt";
  for (const shasta_alg alg : {SHASTA_SHA224, SHASTA_SHA256, SHASTA_SHA384, SHASTA_SHA512, SHASTA_SHA512_224,
                               SHASTA_SHA512_256}) {
    shasta_hmac_key* key = shasta_hmac_key_new(alg, password.data(), password.size());
    ASSERT_NE(key, nullptr);
    for (const size_t len : {size_t{1}, size_t{20}, size_t{64}, size_t{300}}) {
      std::vector<unsigned char> want(len), got(len);
      ASSERT_EQ(shasta_pbkdf2_hmac(alg, password.data(), password.size(), salt.data(), salt.size(), 3, want.data(), len),
                SHASTA_OK);
      ASSERT_EQ(shasta_pbkdf2_hmac_with_key(key, salt.data(), salt.size(), 3, got.data(), len), SHASTA_OK);
      EXPECT_EQ(got, want) << "alg " << alg << ", " << len << " bytes";
    }
    unsigned char out[32] = {};
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, "s", 1, 0, out, 16), SHASTA_E_ZERO_ITERATIONS);
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, "s", 1, 1, out, 0), SHASTA_E_OUTPUT_TOO_SMALL);
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, nullptr, 1, 1, out, 16), SHASTA_E_NULL);
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, "s", 1, 1, nullptr, 16), SHASTA_E_NULL);
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(nullptr, "s", 1, 1, out, 16), SHASTA_E_NULL);
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, out, 16, 1, out, 200), SHASTA_E_OVERLAPPING_BUFFERS);
    EXPECT_EQ(std::count(out, out + sizeof out, 0), 32) << "nothing written on a refusal";
#if SIZE_MAX > 0xFFFFFFFFu
    EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, "s", 1, 1, out, 0xFFFFFFFFull * 64 + 1), SHASTA_E_OUTPUT_TOO_LONG);
#endif
    shasta_hmac_key_free(key);
  }
  unsigned char out[32];
  ASSERT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "password", 8, "salt", 4, 4096, out, 32), SHASTA_OK);
  shasta_hmac_key* key = shasta_hmac_key_new(SHASTA_SHA256, "password", 8);
  unsigned char got[32];
  ASSERT_EQ(shasta_pbkdf2_hmac_with_key(key, "salt", 4, 4096, got, 32), SHASTA_OK);
  shasta_hmac_key_free(key);
  EXPECT_EQ(to_hex(Bytes(got, got + 32)), "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}

// The C calls pass the overlap refusal on (kdf_limits_test.cpp has the rule's cases).
TEST(CApiKdf, OutputOverAnInputReadAgainIsRefused) {
  unsigned char buf[96] = {1, 2, 3};
  const unsigned char prk[32] = {7};
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 32, buf, 64, buf + 32, 64), SHASTA_E_OVERLAPPING_BUFFERS);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, prk, 32, "key", 3, buf, 64, buf + 32, 64),
            SHASTA_E_OVERLAPPING_BUFFERS);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, buf, 16, 1, buf, 64), SHASTA_E_OVERLAPPING_BUFFERS);
  EXPECT_EQ(buf[0], 1);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk, 32, buf, 64, buf, 32), SHASTA_OK) << "one block may";
}

TEST(CApiKdf, EveryCodeHasItsOwnSentence) {
  std::vector<std::string> seen;
  for (int c = 0; c >= SHASTA_E_TRANSCRIPT_HASH_SIZE; --c) {
    const std::string s = shasta_strerror(c);
    EXPECT_NE(s, "unknown error code") << c;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), s), 0) << "two codes share \"" << s << '"';
    seen.push_back(s);
  }
  EXPECT_STREQ(shasta_strerror(SHASTA_E_TRANSCRIPT_HASH_SIZE - 1), "unknown error code");
}

}  // namespace
}  // namespace shasta::test
