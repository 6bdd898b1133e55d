// c_api_null_test.cpp: every pointer parameter of every shasta.h function, one at a time, NULL with
// the rest valid: SHASTA_E_NULL (or a NULL result for the constructors), nothing written, and a
// context given NULL unchanged. NULL data with a zero length is an empty input, never an error.
#include <array>
#include <cstring>
#include <vector>

#include "shasta/hmac.hpp"
#include "shasta/shasta.h"
#include "support.hpp"

namespace shasta::test {
namespace {

constexpr unsigned char kFill = 0xa5;

template <std::size_t N>
bool untouched(const std::array<unsigned char, N>& out) {
  for (unsigned char b : out)
    if (b != kFill) return false;
  return true;
}

template <std::size_t N>
std::array<unsigned char, N> filled() {
  std::array<unsigned char, N> out;
  out.fill(kFill);
  return out;
}

// The digest a context gives now (it is then started afresh by final).
Bytes final_of(shasta_hash_ctx* ctx, std::size_t size) {
  Bytes out(size);
  EXPECT_EQ(shasta_hash_final(ctx, out.data(), out.size()), SHASTA_OK);
  return out;
}

TEST(CApiNull, Hashing) {
  auto out = filled<64>();
  EXPECT_EQ(shasta_hash(SHASTA_SHA256, nullptr, 3, out.data(), out.size()), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash(SHASTA_SHA256, "abc", 3, nullptr, 32), SHASTA_E_NULL);
  EXPECT_TRUE(untouched(out));
  EXPECT_EQ(shasta_hash(SHASTA_SHA256, nullptr, 0, out.data(), out.size()), SHASTA_OK);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 32), bytes_of(sha256("")));

  shasta_hash_ctx* ctx = shasta_hash_new(SHASTA_SHA512);
  ASSERT_NE(ctx, nullptr);
  ASSERT_EQ(shasta_hash_update(ctx, "ab", 2), SHASTA_OK);
  EXPECT_EQ(shasta_hash_update(ctx, nullptr, 5), SHASTA_E_NULL);    // refused, state kept
  EXPECT_EQ(shasta_hash_update(ctx, nullptr, 0), SHASTA_OK);        // an empty piece
  EXPECT_EQ(shasta_hash_update(nullptr, "c", 1), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_final(ctx, nullptr, 64), SHASTA_E_NULL);    // state kept
  EXPECT_EQ(shasta_hash_final(nullptr, out.data(), 64), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_clone(nullptr), nullptr);
  ASSERT_EQ(shasta_hash_update(ctx, "c", 1), SHASTA_OK);
  EXPECT_EQ(final_of(ctx, 64), bytes_of(sha512("abc")));
  shasta_hash_free(ctx);
  shasta_hash_free(nullptr);

  EXPECT_EQ(shasta_force_kernel(SHASTA_SHA256, nullptr), SHASTA_E_NULL);
  std::array<unsigned char, 4> bytes{};
  EXPECT_EQ(shasta_from_hex(nullptr, 8, bytes.data(), 4), SHASTA_E_NULL);
  EXPECT_EQ(shasta_from_hex("00ff7ac9", 8, nullptr, 4), SHASTA_E_NULL);
  EXPECT_EQ(shasta_from_hex(nullptr, 0, nullptr, 0), SHASTA_OK);
}

TEST(CApiNull, Many) {
  const void* msgs[2] = {"abc", "de"};
  const std::size_t lens[2] = {3, 2};
  auto digests = filled<64>();
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, nullptr, lens, digests.data(), digests.size()), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, msgs, nullptr, digests.data(), digests.size()), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, msgs, lens, nullptr, 64), SHASTA_E_NULL);
  const void* with_null[2] = {"abc", nullptr};
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, with_null, lens, digests.data(), digests.size()), SHASTA_E_NULL);
  EXPECT_TRUE(untouched(digests));
  const std::size_t empty_second[2] = {3, 0};
  ASSERT_EQ(shasta_hash_many(SHASTA_SHA256, 2, with_null, empty_second, digests.data(), digests.size()), SHASTA_OK);
  EXPECT_EQ(Bytes(digests.begin() + 32, digests.end()), bytes_of(sha256("")));
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 0, nullptr, nullptr, nullptr, 0), SHASTA_OK);

  shasta_hash_ctx* a = shasta_hash_new(SHASTA_SHA256);
  shasta_hash_ctx* b = shasta_hash_new(SHASTA_SHA256);
  ASSERT_TRUE(a != nullptr && b != nullptr);
  shasta_hash_ctx* ctxs[2] = {a, b};
  const void* chunks[2] = {"abc", "de"};
  EXPECT_EQ(shasta_hash_update_many(nullptr, 2, chunks, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(ctxs, 2, nullptr, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(ctxs, 2, chunks, nullptr), SHASTA_E_NULL);
  shasta_hash_ctx* null_ctx[2] = {a, nullptr};
  EXPECT_EQ(shasta_hash_update_many(null_ctx, 2, chunks, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(ctxs, 2, with_null, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(nullptr, 0, nullptr, nullptr), SHASTA_OK);
  // Every refusal changed nothing: both contexts still hold the empty message.
  EXPECT_EQ(final_of(a, 32), bytes_of(sha256("")));
  EXPECT_EQ(final_of(b, 32), bytes_of(sha256("")));
  ASSERT_EQ(shasta_hash_update_many(ctxs, 2, with_null, empty_second), SHASTA_OK);
  EXPECT_EQ(final_of(a, 32), bytes_of(sha256("abc")));
  EXPECT_EQ(final_of(b, 32), bytes_of(sha256("")));
  shasta_hash_free(a);
  shasta_hash_free(b);
}

TEST(CApiNull, Hmac) {
  auto out = filled<64>();
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, nullptr, 1, "m", 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, nullptr, 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac(SHASTA_SHA256, "k", 1, "m", 1, nullptr, 32), SHASTA_E_NULL);
  EXPECT_TRUE(untouched(out));

  EXPECT_EQ(shasta_hmac_key_new(SHASTA_SHA256, nullptr, 1), nullptr);
  shasta_hmac_key* empty_key = shasta_hmac_key_new(SHASTA_SHA256, nullptr, 0);  // the empty key
  ASSERT_NE(empty_key, nullptr);
  shasta_hmac_key_free(empty_key);
  shasta_hmac_key* key = shasta_hmac_key_new(SHASTA_SHA256, "key", 3);
  ASSERT_NE(key, nullptr);

  std::vector<unsigned char> exported(shasta_hmac_key_export_size(SHASTA_SHA256), kFill);
  EXPECT_EQ(shasta_hmac_key_export(nullptr, exported.data(), exported.size()), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_key_export(key, nullptr, exported.size()), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_key_import(SHASTA_SHA256, nullptr, exported.size()), nullptr);

  EXPECT_EQ(shasta_hmac_with_key(nullptr, "m", 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_with_key(key, nullptr, 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_with_key(key, "m", 1, nullptr, 32), SHASTA_E_NULL);
  EXPECT_TRUE(untouched(out));
  ASSERT_EQ(shasta_hmac_with_key(key, nullptr, 0, out.data(), 32), SHASTA_OK);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 32), bytes_of(hmac<Sha256>("key", "")));
  const auto tag = hmac<Sha256>("key", "m");
  EXPECT_EQ(shasta_hmac_verify(nullptr, "m", 1, tag.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_verify(key, nullptr, 1, tag.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_verify(key, "m", 1, nullptr, 32), SHASTA_E_NULL);
  // An empty tag is too short whether or not its pointer is NULL, as for msg.
  EXPECT_EQ(shasta_hmac_verify(key, "m", 1, nullptr, 0), SHASTA_E_TAG_TOO_SHORT);
  EXPECT_EQ(shasta_hmac_verify(key, "m", 1, tag.data(), 0), SHASTA_E_TAG_TOO_SHORT);
  EXPECT_EQ(shasta_hmac_verify(key, "m", 1, tag.data(), 32), SHASTA_OK);

  EXPECT_EQ(shasta_hmac_new(nullptr), nullptr);
  shasta_hmac_ctx* mac = shasta_hmac_new(key);
  ASSERT_NE(mac, nullptr);
  EXPECT_EQ(shasta_hmac_update(nullptr, "m", 1), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_update(mac, nullptr, 1), SHASTA_E_NULL);  // refused, state kept
  EXPECT_EQ(shasta_hmac_update(mac, nullptr, 0), SHASTA_OK);
  ASSERT_EQ(shasta_hmac_update(mac, "m", 1), SHASTA_OK);
  EXPECT_EQ(shasta_hmac_final(nullptr, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hmac_final(mac, nullptr, 32), SHASTA_E_NULL);  // state kept
  ASSERT_EQ(shasta_hmac_final(mac, out.data(), 32), SHASTA_OK);
  EXPECT_EQ(Bytes(out.begin(), out.begin() + 32), bytes_of(tag));
  shasta_hmac_free(mac);
  shasta_hmac_free(nullptr);
  shasta_hmac_key_free(key);
  shasta_hmac_key_free(nullptr);
}

TEST(CApiNull, KeyDerivation) {
  auto out = filled<64>();
  const std::array<unsigned char, 32> prk{};
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, nullptr, 4, "ikm", 3, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, "salt", 4, nullptr, 3, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, "salt", 4, "ikm", 3, nullptr, 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, nullptr, 32, "info", 4, out.data(), 10), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk.data(), 32, nullptr, 4, out.data(), 10), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk.data(), 32, "info", 4, nullptr, 10), SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, nullptr, 32, "key", 3, "c", 1, out.data(), 16), SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, prk.data(), 32, nullptr, 3, "c", 1, out.data(), 16),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, prk.data(), 32, "key", 3, nullptr, 1, out.data(), 16),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, prk.data(), 32, "key", 3, "c", 1, nullptr, 16), SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, nullptr, 32, "d", 1, prk.data(), 32, out.data(), 32),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, prk.data(), 32, nullptr, 1, prk.data(), 32, out.data(), 32),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, prk.data(), 32, "d", 1, nullptr, 32, out.data(), 32),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, prk.data(), 32, "d", 1, prk.data(), 32, nullptr, 32),
            SHASTA_E_NULL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, nullptr, 1, "s", 1, 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, nullptr, 1, 1, out.data(), 32), SHASTA_E_NULL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, nullptr, 32), SHASTA_E_NULL);
  // out_len 0 is refused as too small with or without an out (NULL was SHASTA_E_NULL, alone)
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, nullptr, 0), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, "p", 1, "s", 1, 1, out.data(), 0), SHASTA_E_OUTPUT_TOO_SMALL);
  EXPECT_TRUE(untouched(out));
  // NULL with a zero length is the empty string.
  EXPECT_EQ(shasta_hkdf_extract(SHASTA_SHA256, nullptr, 0, nullptr, 0, out.data(), 32), SHASTA_OK);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, prk.data(), 32, nullptr, 0, out.data(), 10), SHASTA_OK);
  EXPECT_EQ(shasta_tls13_expand_label(SHASTA_SHA256, prk.data(), 32, nullptr, 0, nullptr, 0, out.data(), 16),
            SHASTA_OK);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, prk.data(), 32, nullptr, 0, prk.data(), 32, out.data(), 32),
            SHASTA_OK);
  EXPECT_EQ(shasta_tls13_derive_secret(SHASTA_SHA256, prk.data(), 32, "d", 1, nullptr, 0, out.data(), 32),
            SHASTA_E_TRANSCRIPT_HASH_SIZE);  // an empty transcript hash: not the empty transcript's hash
  EXPECT_EQ(shasta_pbkdf2_hmac(SHASTA_SHA256, nullptr, 0, nullptr, 0, 1, out.data(), 32), SHASTA_OK);
  shasta_hmac_key* key = shasta_hmac_key_new(SHASTA_SHA256, "p", 1);
  EXPECT_EQ(shasta_pbkdf2_hmac_with_key(key, nullptr, 0, 1, out.data(), 32), SHASTA_OK);
  shasta_hmac_key_free(key);
}

}  // namespace
}  // namespace shasta::test
