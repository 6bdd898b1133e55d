// kernel_test.cpp: the active kernel (SHASTA_KERNEL picks it per ctest run) and the portable rounds
// on raw blocks, both against an independent reference: OpenSSL's SHA256_Transform and
// SHA512_Transform (deprecated in OpenSSL 3 but present) run on the same chaining state. Random
// states, 0 to 17 blocks, misaligned pointers, 1 MiB runs. The portable rounds cannot be their own
// reference: under SHASTA_KERNEL=portable they are the active kernel.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "shasta/detail/compress.hpp"
#include "shasta/kernels.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

template <class Word>
void portable(std::array<Word, 8>& state, const std::uint8_t* p, std::size_t n) {
  if constexpr (sizeof(Word) == 4) {
    detail::sha256_compress_portable(state.data(), p, n);
  } else {
    detail::sha512_compress_portable(state.data(), p, n);
  }
}

// OpenSSL's block function on an arbitrary chaining state: the context's h[] is the state, and each
// Transform call compresses one block into it.
template <class Word>
void reference(std::array<Word, 8>& state, const std::uint8_t* p, std::size_t n) {
  if constexpr (sizeof(Word) == 4) {
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    for (std::size_t i = 0; i < 8; ++i) ctx.h[i] = state[i];
    for (std::size_t b = 0; b < n; ++b) SHA256_Transform(&ctx, p + 64 * b);
    for (std::size_t i = 0; i < 8; ++i) state[i] = ctx.h[i];
  } else {
    SHA512_CTX ctx;
    SHA512_Init(&ctx);
    for (std::size_t i = 0; i < 8; ++i) ctx.h[i] = state[i];
    for (std::size_t b = 0; b < n; ++b) SHA512_Transform(&ctx, p + 128 * b);
    for (std::size_t i = 0; i < 8; ++i) state[i] = ctx.h[i];
  }
}

template <class Word>
void check_family(Family family, std::size_t block) {
  SCOPED_TRACE(std::string("kernel ") + std::string(active_kernel(family)));
  const auto seed = env_number("SHASTA_SEED", 20261130);
  SCOPED_TRACE("SHASTA_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const Bytes data = random_bytes(rng, 17 * block + 16);
  for (int trial = 0; trial < 40; ++trial) {
    std::array<Word, 8> start;
    for (auto& w : start) w = static_cast<Word>(rng());
    for (std::size_t n = 0; n <= 17; ++n) {
      for (std::size_t offset : {0u, 1u, 3u, 7u, 8u, 15u}) {
        std::array<Word, 8> expected = start, got = start, rounds = start;
        reference(expected, data.data() + offset, n);
        detail::compress_active(got.data(), data.data() + offset, n);
        portable(rounds, data.data() + offset, n);
        ASSERT_EQ(got, expected) << "trial " << trial << ", " << n << " blocks at offset " << offset;
        ASSERT_EQ(rounds, expected) << "portable rounds: trial " << trial << ", " << n << " blocks at offset "
                                    << offset;
      }
    }
  }
  const Bytes mib = random_bytes(rng, 1 << 20);
  std::array<Word, 8> expected{}, got{}, rounds{};
  reference(expected, mib.data(), mib.size() / block);
  detail::compress_active(got.data(), mib.data(), mib.size() / block);
  portable(rounds, mib.data(), mib.size() / block);
  EXPECT_EQ(got, expected) << "1 MiB run";
  EXPECT_EQ(rounds, expected) << "1 MiB run, portable rounds";
}

// The reference itself: FIPS 180-4's "abc" example, one padded block from the initial state.
TEST(KernelVsPortable, OpenSslReferenceGivesFipsAbc) {
  std::array<std::uint8_t, 128> block{};
  block[0] = 'a';
  block[1] = 'b';
  block[2] = 'c';
  block[3] = 0x80;
  block[63] = 24;  // SHA-256: a 64-bit bit count at the end of 64 bytes
  std::array<std::uint32_t, 8> s256{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  reference(s256, block.data(), 1);
  EXPECT_EQ(s256, (std::array<std::uint32_t, 8>{0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223, 0xb00361a3,
                                                 0x96177a9c, 0xb410ff61, 0xf20015ad}));
  block[63] = 0;
  block[127] = 24;  // SHA-512: a 128-bit bit count at the end of 128 bytes
  std::array<std::uint64_t, 8> s512{0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
  reference(s512, block.data(), 1);
  EXPECT_EQ(s512, (std::array<std::uint64_t, 8>{0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                                 0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                                 0x454d4423643ce80e, 0x2a9ac94fa54ca49f}));
}

TEST(KernelVsPortable, Sha256Family) {
  check_family<std::uint32_t>(Family::sha224_256, 64);
}
TEST(KernelVsPortable, Sha512Family) {
  check_family<std::uint64_t>(Family::sha384_512, 128);
}

TEST(KernelVsPortable, NullWithZeroBlocksIsANoOp) {
  std::array<std::uint32_t, 8> s32{1, 2, 3, 4, 5, 6, 7, 8};
  std::array<std::uint64_t, 8> s64{1, 2, 3, 4, 5, 6, 7, 8};
  const auto c32 = s32;
  const auto c64 = s64;
  detail::compress_active(s32.data(), nullptr, 0);
  detail::compress_active(s64.data(), nullptr, 0);
  EXPECT_EQ(s32, c32);
  EXPECT_EQ(s64, c64);
}

// A kernel writes its own frame, below the stack pointer it was called with, and the state; never
// the caller's frames above. An assembly kernel whose frame went the wrong way (an `add` for the
// `sub` that makes it) would overwrite them without changing a digest: the guard sees it.
[[gnu::noinline]] void compress_three_blocks(std::array<std::uint32_t, 8>& s32, std::array<std::uint64_t, 8>& s64,
                                             const std::uint8_t* p) {
  detail::compress_active(s32.data(), p, 3);
  detail::compress_active(s64.data(), p, 3);
}

TEST(KernelVsPortable, LeavesTheCallersFrameAlone) {
  constexpr auto pattern = [](std::size_t i) { return static_cast<std::uint8_t>(i * 7 + 1); };
  volatile std::uint8_t guard[16384];
  for (std::size_t i = 0; i < sizeof guard; ++i) guard[i] = pattern(i);
  const Bytes data(3 * 128, 0x5a);
  std::array<std::uint32_t, 8> s32{};
  std::array<std::uint64_t, 8> s64{};
  compress_three_blocks(s32, s64, data.data());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < sizeof guard; ++i) changed += guard[i] != pattern(i) ? 1u : 0u;
  EXPECT_EQ(changed, 0u) << "bytes of the caller's frame changed";
}

// What a test of one of the SHA-256 selection's optional calls starts from: the selection resolved
// (before the first compression the resolver stands there, whose optional calls are all null), its
// kernel's name, a seeded generator and `blocks` random blocks with 16 bytes to spare (for the
// misaligned pointers).
struct OptionalCall {
  explicit OptionalCall(std::size_t blocks) : seed(env_number("SHASTA_SEED", 20261206)), rng(seed) {
    std::array<std::uint32_t, 8> state{};
    detail::compress_active(state.data(), nullptr, 0);
    kernel = active_kernel(Family::sha224_256);
    data = random_bytes(rng, blocks * 64 + 16);
  }
  std::string trace() const { return "kernel " + std::string(kernel) + ", SHASTA_SEED=" + std::to_string(seed); }
  std::array<std::uint32_t, 8> random_state() {
    std::array<std::uint32_t, 8> state;
    for (auto& w : state) w = static_cast<std::uint32_t>(rng());
    return state;
  }

  std::uint64_t seed;
  std::mt19937_64 rng;
  std::string_view kernel;
  Bytes data;
};

// A state's words as big-endian bytes: its digest.
std::array<std::uint8_t, 32> digest_of(const std::array<std::uint32_t, 8>& state) {
  std::array<std::uint8_t, 32> digest{};
  for (std::size_t i = 0; i < 32; ++i) digest[i] = static_cast<std::uint8_t>(state[i / 4] >> (24 - 8 * (i % 4)));
  return digest;
}

// The active kernel's HMAC finish (a MAC's last inner blocks, then its outer block on the inner
// digest, in one call, the tag's bytes written over the state) against the reference: the same
// blocks from the same random state, then one block of that state's digest, 0x80, zeros and the
// bit count of 96 bytes, from a random outer state, as a digest. 0 to 5 blocks, misaligned
// pointers. Skipped on a kernel without one (all but SHA-NI).
TEST(KernelVsPortable, HmacFinishIsInnerBlocksThenTheOuterBlock) {
  OptionalCall call(5);
  SCOPED_TRACE(call.trace());
  const std::uint8_t* const data = call.data.data();
  std::size_t ran = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::array<std::uint32_t, 8> inner = call.random_state(), outer = call.random_state();
    for (std::size_t n = 0; n <= 5; ++n) {
      for (std::size_t offset : {0u, 1u, 7u, 16u}) {
        std::array<std::uint32_t, 8> expected = inner;
        reference(expected, data + offset, n);
        std::array<std::uint8_t, 64> outer_block{};
        const std::array<std::uint8_t, 32> inner_digest = digest_of(expected);
        std::copy(inner_digest.begin(), inner_digest.end(), outer_block.begin());
        outer_block[32] = 0x80;
        outer_block[62] = 0x03;  // 96 bytes: 768 bits
        expected = outer;
        reference(expected, outer_block.data(), 1);
        std::array<std::uint32_t, 8> got = inner;
        if (!detail::hmac_finish_active(got.data(), data + offset, n, outer.data())) {
          ASSERT_NE(call.kernel, "shani") << "SHA-NI's row has an HMAC finish";
          GTEST_SKIP() << "kernel " << call.kernel << " has no HMAC finish";
        }
        ++ran;
        using Tag = std::array<std::uint8_t, 32>;
        ASSERT_EQ(std::bit_cast<Tag>(got), digest_of(expected))
            << "trial " << trial << ", " << n << " blocks at offset " << offset;
      }
    }
  }
  EXPECT_EQ(ran, 40u * 6 * 4);
}

// The active kernel's compression that writes the digest's bytes itself, against the reference
// and the words written big-endian: random states, 0 to 17 blocks, misaligned pointers. Skipped on
// a kernel without one (all but SHA-NI).
TEST(KernelVsPortable, CompressToDigestIsCompressThenBigEndianWords) {
  OptionalCall call(17);
  SCOPED_TRACE(call.trace());
  const std::uint8_t* const data = call.data.data();
  for (int trial = 0; trial < 20; ++trial) {
    const std::array<std::uint32_t, 8> start = call.random_state();
    for (std::size_t n = 0; n <= 17; ++n) {
      for (std::size_t offset : {0u, 1u, 7u, 16u}) {
        std::array<std::uint32_t, 8> expected = start, got = start;
        reference(expected, data + offset, n);
        if (!detail::compress_to_digest_active(got.data(), data + offset, n)) {
          ASSERT_NE(call.kernel, "shani") << "SHA-NI's row has a compression to the digest";
          GTEST_SKIP() << "kernel " << call.kernel << " has no compression to the digest";
        }
        using Digest = std::array<std::uint8_t, 32>;
        ASSERT_EQ(std::bit_cast<Digest>(got), digest_of(expected))
            << "trial " << trial << ", " << n << " blocks at offset " << offset;
      }
    }
  }
}

}  // namespace
}  // namespace shasta::test
