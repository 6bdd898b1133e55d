// kernel_test.cpp: the active kernel (SHASTA_KERNEL picks it per ctest run) against the portable
// rounds on raw blocks: random chaining states, 0 to 17 blocks, misaligned pointers, 1 MiB runs.
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

template <class Word>
void check_family(Family family, std::size_t block) {
  SCOPED_TRACE(std::string("kernel ") + std::string(active_kernel(family)));
  std::mt19937_64 rng(env_number("SHASTA_SEED", 20261130));
  const Bytes data = random_bytes(rng, 17 * block + 16);
  for (int trial = 0; trial < 40; ++trial) {
    std::array<Word, 8> start;
    for (auto& w : start) w = static_cast<Word>(rng());
    for (std::size_t n = 0; n <= 17; ++n) {
      for (std::size_t offset : {0u, 1u, 3u, 7u, 8u, 15u}) {
        std::array<Word, 8> expected = start, got = start;
        portable(expected, data.data() + offset, n);
        detail::compress_active(got.data(), data.data() + offset, n);
        ASSERT_EQ(got, expected) << "trial " << trial << ", " << n << " blocks at offset " << offset;
      }
    }
  }
  const Bytes mib = random_bytes(rng, 1 << 20);
  std::array<Word, 8> expected{}, got{};
  portable(expected, mib.data(), mib.size() / block);
  detail::compress_active(got.data(), mib.data(), mib.size() / block);
  EXPECT_EQ(got, expected) << "1 MiB run";
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

}  // namespace
}  // namespace shasta::test
