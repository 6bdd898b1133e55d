// c_api_length_test.cpp: lengths no memory can hold are refused with nothing read (issue 14, bug 3:
// each of these crashed in sha256_compress before). A length over PTRDIFF_MAX, one that runs past the
// end of the address space, and (SHA-224/256) one past FIPS 180-4's 2^61 - 1 bytes: all
// SHASTA_E_INPUT_TOO_LONG, outputs and contexts unchanged. The pointers are real: a read would crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../src/c_api_dispatch.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/shasta.h"
#include "support.hpp"

namespace {

const shasta_alg kAlgs[] = {SHASTA_SHA224, SHASTA_SHA256,     SHASTA_SHA384,
                            SHASTA_SHA512, SHASTA_SHA512_224, SHASTA_SHA512_256};

struct Bad {
  const void* p;
  std::size_t len;
  const char* what;
};

std::vector<Bad> impossible([[maybe_unused]] shasta_alg alg, const void* real) {  // alg: 64-bit only
  std::vector<Bad> out = {{real, SIZE_MAX, "SIZE_MAX"},
                          {real, std::size_t{PTRDIFF_MAX} + 1, "PTRDIFF_MAX + 1"},
                          {reinterpret_cast<const void*>(UINTPTR_MAX - 63), 128, "past the end of memory"}};
#if SIZE_MAX > 0xFFFFFFFFu  // lengths a 32-bit size_t cannot hold
  if (alg == SHASTA_SHA224 || alg == SHASTA_SHA256) {
    out.push_back({real, std::size_t{1} << 61, "2^61 bytes (FIPS 180-4: < 2^64 bits)"});
    out.push_back({real, (std::size_t{1} << 61) - 128, "2^61 - 128 bytes (HMAC's ipad block on top)"});
  }
#endif
  return out;
}

TEST(CApiLength, ImpossibleLengthsAreRefusedWithNothingRead) {
  static const unsigned char data[256] = {1, 2, 3};
  for (shasta_alg alg : kAlgs) {
    const std::size_t d = shasta_digest_size(alg);
    for (const Bad& bad : impossible(alg, data)) {
      SCOPED_TRACE(std::string("alg ") + std::to_string(alg) + ", " + bad.what);
      unsigned char out[64], before[64];
      std::memset(out, 0x5a, sizeof out);
      std::memcpy(before, out, sizeof out);
      EXPECT_EQ(shasta_hash(alg, bad.p, bad.len, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(std::memcmp(out, before, sizeof out), 0) << "nothing written";

      shasta_hash_ctx* ctx = shasta_hash_new(alg);
      ASSERT_EQ(shasta_hash_update(ctx, "abc", 3), SHASTA_OK);
      EXPECT_EQ(shasta_hash_update(ctx, bad.p, bad.len), SHASTA_E_INPUT_TOO_LONG);
      unsigned char got[64], want[64];
      ASSERT_EQ(shasta_hash_final(ctx, got, sizeof got), SHASTA_OK);
      ASSERT_EQ(shasta_hash(alg, "abc", 3, want, sizeof want), SHASTA_OK);
      EXPECT_EQ(std::memcmp(got, want, d), 0) << "the refused update changed the context";
      const void* chunks[2] = {data, bad.p};
      const std::size_t lens[2] = {10, bad.len};
      shasta_hash_ctx* two[2] = {ctx, shasta_hash_new(alg)};
      EXPECT_EQ(shasta_hash_update_many(two, 2, chunks, lens), SHASTA_E_INPUT_TOO_LONG);
      const void* bad_first[2] = {bad.p, data};
      const std::size_t bad_first_lens[2] = {bad.len, 10};
      EXPECT_EQ(shasta_hash_update_many(two, 2, bad_first, bad_first_lens), SHASTA_E_INPUT_TOO_LONG);
      ASSERT_EQ(shasta_hash_final(ctx, got, sizeof got), SHASTA_OK);
      ASSERT_EQ(shasta_hash(alg, "", 0, want, sizeof want), SHASTA_OK);
      EXPECT_EQ(std::memcmp(got, want, d), 0) << "a refused update_many changed a context";
      shasta_hash_free(two[1]);
      shasta_hash_free(ctx);

      const void* msgs[2] = {data, bad.p};
      std::vector<unsigned char> digests(2 * d, 0x5a);
      EXPECT_EQ(shasta_hash_many(alg, 2, msgs, lens, digests.data(), digests.size()), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(digests[0], 0x5a) << "nothing written";
      EXPECT_EQ(shasta_hash_many(alg, 2, bad_first, bad_first_lens, digests.data(), digests.size()),
                SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(digests[0], 0x5a) << "nothing written";

      EXPECT_EQ(shasta_hmac(alg, bad.p, bad.len, data, 10, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hmac(alg, data, 10, bad.p, bad.len, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hmac_key_new(alg, bad.p, bad.len), nullptr);
      shasta_hmac_key* key = shasta_hmac_key_new(alg, data, 10);
      ASSERT_NE(key, nullptr);
      EXPECT_EQ(shasta_hmac_with_key(key, bad.p, bad.len, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hmac_verify(key, bad.p, bad.len, data, d), SHASTA_E_INPUT_TOO_LONG);
      shasta_hmac_ctx* mac = shasta_hmac_new(key);
      EXPECT_EQ(shasta_hmac_update(mac, bad.p, bad.len), SHASTA_E_INPUT_TOO_LONG);
      shasta_hmac_free(mac);
      shasta_hmac_key_free(key);

      EXPECT_EQ(shasta_hkdf_extract(alg, bad.p, bad.len, data, 10, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hkdf_extract(alg, data, 10, bad.p, bad.len, out, sizeof out), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hkdf_expand(alg, bad.p, bad.len, data, 10, out, 16), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_hkdf_expand(alg, data, 64, bad.p, bad.len, out, 16), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_tls13_expand_label(alg, bad.p, bad.len, "key", 3, nullptr, 0, out, 16),
                SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_tls13_derive_secret(alg, bad.p, bad.len, "derived", 7, data, d, out, sizeof out),
                SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_pbkdf2_hmac(alg, bad.p, bad.len, data, 10, 1, out, 16), SHASTA_E_INPUT_TOO_LONG);
      EXPECT_EQ(shasta_pbkdf2_hmac(alg, data, 10, bad.p, bad.len, 1, out, 16), SHASTA_E_INPUT_TOO_LONG);
      shasta_hmac_key* password = shasta_hmac_key_new(alg, data, 10);
      EXPECT_EQ(shasta_pbkdf2_hmac_with_key(password, bad.p, bad.len, 1, out, 16), SHASTA_E_INPUT_TOO_LONG);
      shasta_hmac_key_free(password);
    }
  }
  EXPECT_STREQ(shasta_strerror(SHASTA_E_INPUT_TOO_LONG), "input is longer than memory can hold or FIPS 180-4 allows");
}

// HKDF-Expand and Expand-Label refuse a too-long output before they hash the PRK or secret: here
// the PRK points at memory that cannot be read, so hashing it first would crash.
TEST(CApiLength, ExpandRefusesTheOutputLengthBeforeHashingThePrk) {
  const auto* unreadable = reinterpret_cast<const std::uint8_t*>(std::uintptr_t{16});
  std::vector<std::uint8_t> okm(255 * 32 + 1);
  const shasta::ByteView prk(unreadable, 64);
  EXPECT_EQ(shasta::hkdf_expand<shasta::Sha256>(prk, {}, okm), shasta::Error::output_too_long);
  EXPECT_EQ(shasta::hkdf<shasta::Sha256>(prk, prk, {}, okm), shasta::Error::output_too_long);
  EXPECT_EQ(shasta::tls13_expand_label<shasta::Sha256>(prk, "key", {}, okm), shasta::Error::output_too_long);
  EXPECT_EQ(shasta::tls13_expand_label<shasta::Sha256>(prk, std::string(250, 'a'), {}, std::span(okm).first(16)),
            shasta::Error::label_too_long);
  EXPECT_EQ(shasta_hkdf_expand(SHASTA_SHA256, unreadable, 64, nullptr, 0, okm.data(), okm.size()),
            SHASTA_E_OUTPUT_TOO_LONG);
}

// The check's edge: an empty input ends where it starts, so even one at the very top of the address
// space runs past nothing and is hashed (nothing is read), in one call and in a stream. (A check of
// p >= UINTPTR_MAX - len refused it.)
TEST(CApiLength, EmptyInputAtTheTopOfMemoryIsAccepted) {
  const void* top = reinterpret_cast<const void*>(UINTPTR_MAX);
  for (shasta_alg alg : kAlgs) {
    SCOPED_TRACE(std::string("alg ") + std::to_string(alg));
    const std::size_t d = shasta_digest_size(alg);
    unsigned char got[64], want[64];
    ASSERT_EQ(shasta_hash(alg, "", 0, want, sizeof want), SHASTA_OK);
    ASSERT_EQ(shasta_hash(alg, top, 0, got, sizeof got), SHASTA_OK);
    EXPECT_EQ(std::memcmp(got, want, d), 0);
    shasta_hash_ctx* ctx = shasta_hash_new(alg);
    ASSERT_NE(ctx, nullptr);
    EXPECT_EQ(shasta_hash_update(ctx, top, 0), SHASTA_OK);
    ASSERT_EQ(shasta_hash_final(ctx, got, sizeof got), SHASTA_OK);
    EXPECT_EQ(std::memcmp(got, want, d), 0);
    shasta_hash_free(ctx);
  }
}

// A SHA-384/512 stream is held only to FIPS 180-4's 2^125 bytes, which the C API's 64-bit count
// stands in for: totals past 2 GiB and 2^63 bytes are accepted. (The limit was PTRDIFF_MAX, a
// 32-bit program's SHA-512 streams refused after 2 GiB.) One call's length stays under PTRDIFF_MAX.
TEST(CApiLength, Sha512StreamTotalsAreNotHeldToOneCallsLimit) {
  using shasta::capi::impossible_input;
  static const unsigned char data[16] = {};
  for (shasta_alg alg : {SHASTA_SHA384, SHASTA_SHA512, SHASTA_SHA512_224, SHASTA_SHA512_256}) {
    SCOPED_TRACE(std::string("alg ") + std::to_string(alg));
    EXPECT_FALSE(impossible_input(alg, data, 16, std::uint64_t{3} << 30)) << "3 GiB counted";
    EXPECT_FALSE(impossible_input(alg, data, 16, std::uint64_t{1} << 63)) << "2^63 bytes counted";
    EXPECT_TRUE(impossible_input(alg, data, 16, UINT64_MAX - 15)) << "the count would wrap";
  }
  for (shasta_alg alg : {SHASTA_SHA224, SHASTA_SHA256}) {
    EXPECT_FALSE(impossible_input(alg, data, 16, std::uint64_t{3} << 30)) << "3 GiB counted";
    EXPECT_TRUE(impossible_input(alg, data, 16, (std::uint64_t{1} << 61) - 128)) << "past 2^61 - 1 - 128";
  }
}

// The same through the public calls: 2^31 + 77 zero bytes (just past a 32-bit PTRDIFF_MAX)
// streamed through a SHA-512 context, against coreutils' digest (`head -c 2147483725 /dev/zero |
// sha512sum`). On i686 the old limit refused this stream at 2 GiB.
TEST(CApiLength, Sha512StreamPast2GiB) {
  if (shasta::test::quick_mode()) GTEST_SKIP() << "SHASTA_QUICK: no multi-GiB stream";
  constexpr std::uint64_t kTotal = (std::uint64_t{1} << 31) + 77;
  const std::vector<unsigned char> zeros(16 << 20);
  shasta_hash_ctx* ctx = shasta_hash_new(SHASTA_SHA512);
  ASSERT_NE(ctx, nullptr);
  std::uint64_t done = 0;
  while (done < kTotal) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(zeros.size() - 3, kTotal - done));
    ASSERT_EQ(shasta_hash_update(ctx, zeros.data(), n), SHASTA_OK) << "after " << done << " bytes";
    done += n;
  }
  unsigned char digest[64];
  ASSERT_EQ(shasta_hash_final(ctx, digest, sizeof digest), SHASTA_OK);
  shasta_hash_free(ctx);
  const char want_hex[] =
      "f1e0449526503a896a41a69e25a5d814dbee31dd72fe88998010108d1647d9813667b93eb04ede7d094eb5df36d9a6650f6df3bb34e8a0b"
      "1faeb52e27c3d0c73";
  unsigned char want[64];
  ASSERT_EQ(shasta_from_hex(want_hex, 128, want, sizeof want), SHASTA_OK);
  EXPECT_EQ(std::memcmp(digest, want, sizeof want), 0);
}

}  // namespace
