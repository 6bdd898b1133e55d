// many_kernel_test.cpp: the lane kernel of the active kernel against the portable rounds, lane by
// lane (random states, 0 to 17 blocks, different data and misalignment per lane); which lane
// kernel goes with which kernel; and shasta_hash_many's results and error codes.
#include <cstdint>
#include <cstring>

#include "shasta/detail/lanes.hpp"
#include "shasta/kernels.hpp"
#include "shasta/many.hpp"
#include "shasta/shasta.h"
#include "c_api_support.hpp"

namespace shasta::test {
namespace {

template <class Word>
void check_lanes(const detail::LaneKernel<Word>& kernel, detail::CompressLanes<Word> fn, std::size_t block) {
  if (fn == nullptr) GTEST_SKIP() << "kernel " << kernel.name << " has no lane kernel";
  SCOPED_TRACE(std::string("lane kernel ") + std::string(kernel.name) + " x" + std::to_string(kernel.lanes) +
               (fn == kernel.fn ? "" : " (tail loop)"));
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const std::size_t lanes = kernel.lanes;
  const Bytes data = random_bytes(rng, lanes * (17 * block + 16));
  const int trials = quick_mode() ? 3 : 20;
  for (int trial = 0; trial < trials; ++trial) {
    for (std::size_t n = 0; n <= 17; ++n) {
      std::vector<std::array<Word, 8>> got(lanes), want(lanes);
      std::vector<Word*> states(lanes);
      std::vector<const std::uint8_t*> blocks(lanes);
      for (std::size_t l = 0; l < lanes; ++l) {
        for (auto& w : got[l]) w = static_cast<Word>(rng());
        want[l] = got[l];
        states[l] = got[l].data();
        blocks[l] = data.data() + l * (17 * block + 16) + rng() % 16;
        if constexpr (sizeof(Word) == 4) {
          detail::sha256_compress_portable(want[l].data(), blocks[l], n);
        } else {
          detail::sha512_compress_portable(want[l].data(), blocks[l], n);
        }
      }
      fn(states.data(), blocks.data(), n);
      for (std::size_t l = 0; l < lanes; ++l) ASSERT_EQ(got[l], want[l]) << "lane " << l << ", " << n << " blocks";
    }
  }
}

TEST(LaneKernel, Sha256AgainstPortable) {
  check_lanes<std::uint32_t>(detail::active_lanes_256(), detail::active_lanes_256().fn, 64);
}
TEST(LaneKernel, Sha512AgainstPortable) {
  check_lanes<std::uint64_t>(detail::active_lanes_512(), detail::active_lanes_512().fn, 128);
}
// The loop for padding blocks, where it is another one (the SHA-NI and AVX2 assembly kernels').
TEST(LaneKernel, Sha256TailLoopAgainstPortable) {
  check_lanes<std::uint32_t>(detail::active_lanes_256(), detail::active_lanes_256().tail_fn, 64);
}
TEST(LaneKernel, Sha512TailLoopAgainstPortable) {
  check_lanes<std::uint64_t>(detail::active_lanes_512(), detail::active_lanes_512().tail_fn, 128);
}

// The lane kernel's hash call (messages of one length from the IV to the end in one call, the states
// out as big-endian bytes) against the portable rounds: a random IV, 0 to 17 whole blocks a lane (different data and misalignment
// per lane), with and without each lane's own tail block and a shared block given as its W+K.
template <class Word>
void check_hash(const detail::LaneKernel<Word>& kernel, std::size_t block) {
  if (kernel.hash == nullptr) GTEST_SKIP() << "lane kernel " << kernel.name << " has no hash call";
  SCOPED_TRACE(std::string("lane kernel ") + std::string(kernel.name) + " x" + std::to_string(kernel.lanes));
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const std::size_t lanes = kernel.lanes;
  const std::size_t stride = 19 * block + 16;
  const Bytes data = random_bytes(rng, lanes * stride);
  const auto compress = [](Word* state, const std::uint8_t* p, std::size_t n) {
    if constexpr (sizeof(Word) == 4) {
      detail::sha256_compress_portable(state, p, n);
    } else {
      detail::sha512_compress_portable(state, p, n);
    }
  };
  for (int trial = 0; trial < (quick_mode() ? 3 : 12); ++trial) {
    for (std::size_t whole = 0; whole <= 17; ++whole) {
      for (int form = 0; form < 4; ++form) {
        const bool own_tail = (form & 1) != 0, shared = (form & 2) != 0;
        std::array<Word, 8> iv;
        for (auto& w : iv) w = static_cast<Word>(rng());
        const Bytes shared_block = random_bytes(rng, block);
        std::vector<Word> shared_wk;
        if constexpr (sizeof(Word) == 4) {
          const auto a = detail::sha256_block_wk(shared_block.data());
          shared_wk.assign(a.begin(), a.end());
        } else {
          const auto a = detail::sha512_block_wk(shared_block.data());
          shared_wk.assign(a.begin(), a.end());
        }
        std::vector<std::array<std::uint8_t, 8 * sizeof(Word)>> got(lanes);
        std::vector<std::array<Word, 8>> want(lanes, iv);
        std::vector<std::uint8_t*> outs(lanes);
        std::vector<const std::uint8_t*> msgs(lanes), tails(lanes);
        for (std::size_t l = 0; l < lanes; ++l) {
          outs[l] = got[l].data();
          msgs[l] = data.data() + l * stride + rng() % 16;
          tails[l] = msgs[l] + (whole + 1) * block;  // a block of its own beyond the whole ones
          compress(want[l].data(), msgs[l], whole);
          if (own_tail) compress(want[l].data(), tails[l], 1);
          if (shared) compress(want[l].data(), shared_block.data(), 1);
        }
        kernel.hash(outs.data(), iv.data(), msgs.data(), whole, own_tail ? tails.data() : nullptr,
                    shared ? shared_wk.data() : nullptr);
        for (std::size_t l = 0; l < lanes; ++l) {
          std::array<std::uint8_t, 8 * sizeof(Word)> want_bytes;  // the state as big-endian words
          for (std::size_t b = 0; b < want_bytes.size(); ++b) {
            want_bytes[b] = static_cast<std::uint8_t>(want[l][b / sizeof(Word)] >> (8 * (sizeof(Word) - 1 - b % sizeof(Word))));
          }
          ASSERT_EQ(got[l], want_bytes) << "lane " << l << ", " << whole << " blocks, own tail " << own_tail
                                        << ", shared block " << shared;
        }
      }
    }
  }
}

TEST(LaneKernel, Sha256HashCallAgainstPortable) {
  check_hash<std::uint32_t>(detail::active_lanes_256(), 64);
}
TEST(LaneKernel, Sha512HashCallAgainstPortable) {
  check_hash<std::uint64_t>(detail::active_lanes_512(), 128);
}
// The wide hash calls (AVX-512's 32 SHA-256 lanes and 16 SHA-512 lanes, two groups each) the same
// way, where the active choice has one.
template <class Word>
void check_wide_hash(detail::LaneKernel<Word> wide, std::size_t block) {
  if (wide.wide_hash == nullptr) GTEST_SKIP() << "lane kernel " << wide.name << " has no wide hash call";
  wide.hash = wide.wide_hash;
  wide.lanes = wide.wide_lanes;
  check_hash<Word>(wide, block);
}
TEST(LaneKernel, Sha256WideHashCallAgainstPortable) {
  check_wide_hash<std::uint32_t>(detail::active_lanes_256(), 64);
}
TEST(LaneKernel, Sha512WideHashCallAgainstPortable) {
  check_wide_hash<std::uint64_t>(detail::active_lanes_512(), 128);
}

// compress_pair (HMAC's ipad and opad blocks; a two-lane kernel on SHA-NI and ARMv8) against two
// portable compressions: random states, misaligned blocks, the pair's two states in either order.
template <class Word>
void check_pair(std::size_t block) {
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const Bytes data = random_bytes(rng, 2 * block + 32);
  for (int trial = 0; trial < (quick_mode() ? 50 : 500); ++trial) {
    std::array<Word, 8> a, b;
    for (auto& w : a) w = static_cast<Word>(rng());
    for (auto& w : b) w = static_cast<Word>(rng());
    const std::uint8_t* block_a = data.data() + rng() % 16;
    const std::uint8_t* block_b = data.data() + block + 16 + rng() % 16;
    std::array<Word, 8> want_a = a, want_b = b;
    if constexpr (sizeof(Word) == 4) {
      detail::sha256_compress_portable(want_a.data(), block_a, 1);
      detail::sha256_compress_portable(want_b.data(), block_b, 1);
    } else {
      detail::sha512_compress_portable(want_a.data(), block_a, 1);
      detail::sha512_compress_portable(want_b.data(), block_b, 1);
    }
    detail::compress_pair(a.data(), block_a, b.data(), block_b);
    ASSERT_EQ(a, want_a) << "trial " << trial;
    ASSERT_EQ(b, want_b) << "trial " << trial;
  }
}

TEST(LaneKernel, Sha256PairAgainstPortable) {
  check_pair<std::uint32_t>(64);
}
TEST(LaneKernel, Sha512PairAgainstPortable) {
  check_pair<std::uint64_t>(128);
}

// The lane kernel is the one kernel_choice reports; a forced kernel brings its own (through
// force_kernel too), with the lane count the kernel has.
TEST(LaneKernel, FollowsTheActiveKernel) {
  const auto l256 = detail::active_lanes_256();
  const auto l512 = detail::active_lanes_512();
  const KernelChoice c256 = kernel_choice(Family::sha224_256), c512 = kernel_choice(Family::sha384_512);
  if (l256.fn != nullptr) {
    EXPECT_EQ(l256.name, c256.lane_kernel);
  }
  if (l512.fn != nullptr) {
    EXPECT_EQ(l512.name, c512.lane_kernel);
  }
  EXPECT_EQ(l256.fn != nullptr ? l256.lanes : 0u, c256.lanes);
  EXPECT_EQ(l512.fn != nullptr ? l512.lanes : 0u, c512.lanes);
  EXPECT_EQ(l256.lanes, l256.name == "shani"    ? 4u
                        : l256.name == "avx2"   ? 8u
                        : l256.name == "avx512" ? 16u
                        : l256.name == "armv8"  ? 2u
                                                : 0u);
  // AVX2 SHA-512: five lanes with the assembly loop (ELF builds: a fifth stream on the general
  // registers), four in intrinsics elsewhere.
#if defined(__x86_64__) && defined(__ELF__)
  constexpr std::size_t kAvx2Sha512Lanes = 5;
#else
  constexpr std::size_t kAvx2Sha512Lanes = 4;
#endif
  EXPECT_EQ(l512.lanes, l512.name == "avx2"     ? kAvx2Sha512Lanes
                        : l512.name == "avx512" ? 8u
                        : l512.name == "armv8"  ? 2u
                                                : 0u);
  const KernelsRestored restored;
  const std::string active256(active_kernel(Family::sha224_256));
  ASSERT_EQ(force_kernel(Family::sha224_256, active256), Error::ok);
  EXPECT_EQ(detail::active_lanes_256().name, active256 == "portable" ? "portable" : active256)
      << "a forced kernel brings its own lanes";
  // Back to what the environment chose (a forced suite) or the best (which may take other lanes).
  if (c256.reason.starts_with("the best")) use_best_kernel(Family::sha224_256);
  EXPECT_EQ(detail::active_lanes_256().lanes, l256.lanes);
  const std::string active512(active_kernel(Family::sha384_512));
  ASSERT_EQ(force_kernel(Family::sha384_512, "portable"), Error::ok);
  EXPECT_EQ(detail::active_lanes_512().fn, nullptr);
  EXPECT_EQ(detail::active_lanes_512().tail_fn, nullptr);
  ASSERT_EQ(force_kernel(Family::sha384_512, active512), Error::ok);
  if (c512.reason.starts_with("the best")) use_best_kernel(Family::sha384_512);
  EXPECT_EQ(detail::active_lanes_512().lanes, l512.lanes);
}

const shasta_alg kAlgs[] = {SHASTA_SHA224, SHASTA_SHA256,     SHASTA_SHA384,
                            SHASTA_SHA512, SHASTA_SHA512_224, SHASTA_SHA512_256};

// shasta_hash_update_many against contexts updated one by one: every algorithm, 0 to 11 contexts,
// and counts past one and two of its stack groups (30-32 contexts of lane-count multiples), random
// prefixes pending, equal block-multiple and random chunks.
TEST(CApiMany, UpdateManyMatchesUpdate) {
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const Bytes pool = random_bytes(rng, 20000);
  for (shasta_alg alg : kAlgs) {
    const std::size_t d = shasta_digest_size(alg);
    EXPECT_GE(shasta_lane_count(alg), 1u);
    for (std::size_t count : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 31u, 33u, 41u, 65u}) {
      std::vector<shasta_hash_ctx*> many(count), alone(count);
      for (std::size_t i = 0; i < count; ++i) {
        many[i] = shasta_hash_new(alg);
        const std::size_t prefix = rng() % 300;
        ASSERT_EQ(shasta_hash_update(many[i], pool.data(), prefix), SHASTA_OK);
        alone[i] = shasta_hash_clone(many[i]);
      }
      for (int round = 0; round < 3; ++round) {
        const std::size_t equal = shasta_block_size(alg) * (1 + rng() % 20);
        std::vector<const void*> chunks(count);
        std::vector<std::size_t> lens(count);
        for (std::size_t i = 0; i < count; ++i) {
          lens[i] = round == 0 ? equal : rng() % 3000;
          chunks[i] = pool.data() + rng() % 15000;
          ASSERT_EQ(shasta_hash_update(alone[i], chunks[i], lens[i]), SHASTA_OK);
        }
        ASSERT_EQ(shasta_hash_update_many(many.data(), count, chunks.data(), lens.data()), SHASTA_OK);
      }
      for (std::size_t i = 0; i < count; ++i) {
        unsigned char a[64], b[64];
        ASSERT_EQ(shasta_hash_final(many[i], a, sizeof a), SHASTA_OK);
        ASSERT_EQ(shasta_hash_final(alone[i], b, sizeof b), SHASTA_OK);
        EXPECT_EQ(std::memcmp(a, b, d), 0) << "alg " << alg << ", context " << i << " of " << count;
        shasta_hash_free(many[i]);
        shasta_hash_free(alone[i]);
      }
    }
  }
  EXPECT_EQ(shasta_lane_count(static_cast<shasta_alg>(0)), 0u);
}

TEST(CApiMany, UpdateManyRefusals) {
  shasta_hash_ctx* a = shasta_hash_new(SHASTA_SHA256);
  shasta_hash_ctx* b = shasta_hash_new(SHASTA_SHA256);
  shasta_hash_ctx* other = shasta_hash_new(SHASTA_SHA512);
  const char data[200] = {1, 2, 3};
  const void* chunks[2] = {data, data};
  const std::size_t lens[2] = {200, 100};
  shasta_hash_ctx* mixed[2] = {a, other};
  EXPECT_EQ(shasta_hash_update_many(mixed, 2, chunks, lens), SHASTA_E_INVALID_PARAMETER);
  shasta_hash_ctx* with_null[2] = {a, nullptr};
  EXPECT_EQ(shasta_hash_update_many(with_null, 2, chunks, lens), SHASTA_E_NULL);
  shasta_hash_ctx* both[2] = {a, b};
  const void* null_chunk[2] = {data, nullptr};
  EXPECT_EQ(shasta_hash_update_many(both, 2, null_chunk, lens), SHASTA_E_NULL);
  shasta_hash_ctx* null_first[2] = {nullptr, a};  // the first position is checked too
  EXPECT_EQ(shasta_hash_update_many(null_first, 2, chunks, lens), SHASTA_E_NULL);
  const void* null_chunk_first[2] = {nullptr, data};
  EXPECT_EQ(shasta_hash_update_many(both, 2, null_chunk_first, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(nullptr, 2, chunks, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(both, 2, nullptr, lens), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(both, 2, chunks, nullptr), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_update_many(nullptr, 0, nullptr, nullptr), SHASTA_OK);
  unsigned char out[32], empty[32];
  ASSERT_EQ(shasta_hash_final(a, out, sizeof out), SHASTA_OK);
  ASSERT_EQ(shasta_hash(SHASTA_SHA256, nullptr, 0, empty, sizeof empty), SHASTA_OK);
  EXPECT_EQ(std::memcmp(out, empty, 32), 0) << "a refusal changed a context";
  shasta_hash_free(a);
  shasta_hash_free(b);
  shasta_hash_free(other);
}

// Against OpenSSL, not shasta_hash: the many-message engine hashes short counts and leftovers on
// that one-shot path itself.
TEST(CApiMany, MatchesOpenSsl) {
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const Bytes pool = random_bytes(rng, 4096);
  for (shasta_alg alg : kAlgs) {
    const std::size_t d = shasta_digest_size(alg);
    for (std::size_t count : {1u, 2u, 3u, 4u, 5u, 9u, 100u}) {
      std::vector<const void*> msgs(count);
      std::vector<std::size_t> lens(count);
      for (std::size_t i = 0; i < count; ++i) {
        lens[i] = rng() % 600;
        msgs[i] = lens[i] == 0 && i % 2 == 0 ? nullptr : pool.data() + rng() % 3000;
      }
      std::vector<unsigned char> out(count * d);
      ASSERT_EQ(shasta_hash_many(alg, count, msgs.data(), lens.data(), out.data(), out.size()), SHASTA_OK);
      for (std::size_t i = 0; i < count; ++i) {
        const Bytes want = openssl_c_digest(alg, msgs[i], lens[i]);
        ASSERT_EQ(want.size(), d);
        ASSERT_EQ(std::memcmp(out.data() + i * d, want.data(), d), 0) << "alg " << alg << " message " << i;
      }
    }
  }
}

TEST(CApiMany, ErrorCodes) {
  const char* text = "abc";
  const void* msgs[2] = {text, text};
  std::size_t lens[2] = {3, 3};
  unsigned char out[2 * 64];
  for (shasta_alg bad : {static_cast<shasta_alg>(0), static_cast<shasta_alg>(7)}) {
    EXPECT_EQ(shasta_hash_many(bad, 2, msgs, lens, out, sizeof out), SHASTA_E_UNKNOWN_ALG);
  }
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, nullptr, lens, out, sizeof out), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, msgs, nullptr, out, sizeof out), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 2, msgs, lens, nullptr, sizeof out), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 0, nullptr, nullptr, nullptr, 0), SHASTA_OK);
  const void* with_null[2] = {text, nullptr};
  std::memset(out, 0xEE, sizeof out);
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA512, 2, with_null, lens, out, sizeof out), SHASTA_E_NULL);
  for (unsigned char c : out) ASSERT_EQ(c, 0xEE) << "a refusal wrote";
  const void* null_first[2] = {nullptr, text};
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA512, 2, null_first, lens, out, sizeof out), SHASTA_E_NULL);
  for (unsigned char c : out) ASSERT_EQ(c, 0xEE) << "a refusal wrote";
  std::size_t zero_second[2] = {3, 0};
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA512, 2, with_null, zero_second, out, sizeof out), SHASTA_OK);
  // Room for the digests: one byte short is refused with nothing written, for each algorithm; a
  // count whose digests' size overflows size_t is refused before msgs and lens are read.
  for (shasta_alg alg : kAlgs) {
    const std::size_t need = 2 * shasta_digest_size(alg);
    std::memset(out, 0xEE, sizeof out);
    EXPECT_EQ(shasta_hash_many(alg, 2, msgs, lens, out, need - 1), SHASTA_E_OUTPUT_TOO_SMALL) << "alg " << alg;
    for (unsigned char c : out) ASSERT_EQ(c, 0xEE) << "a refusal wrote";
    EXPECT_EQ(shasta_hash_many(alg, 2, msgs, lens, out, need), SHASTA_OK) << "alg " << alg;
    const std::size_t overflowing = SIZE_MAX / shasta_digest_size(alg) + 1;
    EXPECT_EQ(shasta_hash_many(alg, overflowing, msgs, lens, out, sizeof out), SHASTA_E_OUTPUT_TOO_SMALL);
  }
  EXPECT_EQ(shasta_hash_many(SHASTA_SHA256, 0, msgs, lens, out, 0), SHASTA_OK);
  EXPECT_STRNE(shasta_strerror(SHASTA_E_NULL), "unknown error code");
}

}  // namespace
}  // namespace shasta::test
