// kernel_table.cpp: the kernels of this build, one row each, best first. A row's `needs` is what
// guarantees that its instructions exist before dispatch ever points at any of its functions.
// Adding a kernel: its file, a row in cmake/Kernels.cmake (which defines SHASTA_HAVE_<...>), and
// its row (and lane row) here.
#include <array>

#include "../kernels/kernel_abi.hpp"
#include "kernel_table.hpp"

namespace shasta::detail {
namespace {

namespace k = kernels;

[[maybe_unused]] constexpr FeatureSet kShaNi = {Feature::sha, Feature::ssse3, Feature::sse41};
[[maybe_unused]] constexpr FeatureSet kAvx2 = {Feature::avx2, Feature::bmi2};
[[maybe_unused]] constexpr FeatureSet kArmSha2 = {Feature::arm_sha2};
[[maybe_unused]] constexpr FeatureSet kArmSha512 = {Feature::arm_sha512};

// Each kernel's parts, present or null as the build compiled them; then the rows, one line each.
// ---- SHA-224 / SHA-256 ----
using W32 = std::uint32_t;

#if defined(SHASTA_HAVE_SHANI_LANES) && defined(SHASTA_HAVE_SHANI_X4_ASM)
constexpr LaneRow<W32> kShaniX4 = {"shani", kShaNi, 4, k::shani::sha256_compress_x4, k::shani::sha256_compress_x4_tail};
#elif defined(SHASTA_HAVE_SHANI_LANES)
constexpr LaneRow<W32> kShaniX4 = {"shani", kShaNi, 4, k::shani::sha256_compress_x4, k::shani::sha256_compress_x4};
#endif
#ifdef SHASTA_HAVE_SHANI_LANES
constexpr const LaneRow<W32>* kShaniLanes = &kShaniX4;
constexpr LanesFn<W32> kShaniPair = k::shani::sha256_compress_x2;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kShaniLanes = nullptr;
[[maybe_unused]] constexpr LanesFn<W32> kShaniPair = nullptr;
#endif
#ifdef SHASTA_HAVE_SHANI_PBKDF2
constexpr Pbkdf2LoopFn<W32> kShaniPbkdf2 = k::shani::sha256_pbkdf2_iterate;
#else
[[maybe_unused]] constexpr Pbkdf2LoopFn<W32> kShaniPbkdf2 = nullptr;
#endif

#ifdef SHASTA_HAVE_AVX2_X8
constexpr LaneRow<W32> kAvx2X8 = {"avx2", kAvx2, 8, k::avx2::sha256_compress_x8, k::avx2::sha256_compress_x8};
constexpr const LaneRow<W32>* kAvx2Lanes256 = &kAvx2X8;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kAvx2Lanes256 = nullptr;
#endif

#ifdef SHASTA_HAVE_ARMV8_X2
constexpr LaneRow<W32> kArmv8X2 = {"armv8", kArmSha2, 2, k::armv8::sha256_compress_x2, k::armv8::sha256_compress_x2};
constexpr const LaneRow<W32>* kArmv8Lanes256 = &kArmv8X2;
constexpr LanesFn<W32> kArmv8Pair256 = k::armv8::sha256_compress_x2;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kArmv8Lanes256 = nullptr;
[[maybe_unused]] constexpr LanesFn<W32> kArmv8Pair256 = nullptr;
#endif

constexpr KernelRow<W32> kSha256Rows[] = {
#ifdef SHASTA_HAVE_SHANI
    {"shani", kShaNi, k::shani::sha256_compress, kShaniLanes, kShaniPair, kShaniPbkdf2},
#endif
#ifdef SHASTA_HAVE_AVX2
    {"avx2", kAvx2, k::avx2::sha256_compress, kAvx2Lanes256, nullptr, nullptr},
#endif
#ifdef SHASTA_HAVE_ARMV8
    {"armv8", kArmSha2, k::armv8::sha256_compress, kArmv8Lanes256, kArmv8Pair256, nullptr},
#endif
    {"portable", {}, k::portable::sha256_compress, nullptr, nullptr, nullptr},
};

// ---- SHA-384 / SHA-512 / SHA-512/t ----
using W64 = std::uint64_t;

#if defined(SHASTA_HAVE_AVX2_SHA512_LANES) && defined(SHASTA_HAVE_AVX2_X5_ASM)
constexpr LaneRow<W64> kAvx2X5 = {"avx2", kAvx2, 5, k::avx2::sha512_compress_x5, k::avx2::sha512_compress_x5_tail};
constexpr const LaneRow<W64>* kAvx2Lanes512 = &kAvx2X5;
#elif defined(SHASTA_HAVE_AVX2_SHA512_LANES)
constexpr LaneRow<W64> kAvx2X4 = {"avx2", kAvx2, 4, k::avx2::sha512_compress_x4, k::avx2::sha512_compress_x4};
constexpr const LaneRow<W64>* kAvx2Lanes512 = &kAvx2X4;
#else
[[maybe_unused]] constexpr const LaneRow<W64>* kAvx2Lanes512 = nullptr;
#endif

#ifdef SHASTA_HAVE_ARMV8_SHA512_X2
constexpr LaneRow<W64> kArmv8X2_512 = {"armv8", kArmSha512, 2, k::armv8::sha512_compress_x2,
                                       k::armv8::sha512_compress_x2};
constexpr const LaneRow<W64>* kArmv8Lanes512 = &kArmv8X2_512;
constexpr LanesFn<W64> kArmv8Pair512 = k::armv8::sha512_compress_x2;
#else
[[maybe_unused]] constexpr const LaneRow<W64>* kArmv8Lanes512 = nullptr;
[[maybe_unused]] constexpr LanesFn<W64> kArmv8Pair512 = nullptr;
#endif

// The AVX2 SHA-512 row has no pair kernel: its lane kernel takes as long for two lanes as for four,
// about twice the single-stream kernel's two blocks.
constexpr KernelRow<W64> kSha512Rows[] = {
#ifdef SHASTA_HAVE_AVX2
    {"avx2", kAvx2, k::avx2::sha512_compress, kAvx2Lanes512, nullptr, nullptr},
#endif
#ifdef SHASTA_HAVE_ARMV8_SHA512
    {"armv8", kArmSha512, k::armv8::sha512_compress, kArmv8Lanes512, kArmv8Pair512, nullptr},
#endif
    {"portable", {}, k::portable::sha512_compress, nullptr, nullptr, nullptr},
};

// ---- The tables ----

template <class Word, std::size_t N>
constexpr std::array<Selection<Word>, N> own_selections(const KernelRow<Word> (&rows)[N]) noexcept {
  std::array<Selection<Word>, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = {rows[i].compress, &rows[i], rows[i].lanes};
  return out;
}

constexpr auto kSha256Own = own_selections(kSha256Rows);
constexpr auto kSha512Own = own_selections(kSha512Rows);

constexpr FamilyTable<std::uint32_t> kSha256Table = {"SHASTA_KERNEL_SHA256", kSha256Rows, {}, kSha256Own};
constexpr FamilyTable<std::uint64_t> kSha512Table = {"SHASTA_KERNEL_SHA512", kSha512Rows, {}, kSha512Own};

}  // namespace

const FamilyTable<std::uint32_t>& sha256_table() noexcept {
  return kSha256Table;
}
const FamilyTable<std::uint64_t>& sha512_table() noexcept {
  return kSha512Table;
}

}  // namespace shasta::detail
