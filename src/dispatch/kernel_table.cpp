// kernel_table.cpp: the kernels of this build, one row each, best first. A row's `needs` is what
// guarantees that its instructions exist before dispatch ever points at any of its functions.
// Adding a kernel: its file, a row in cmake/Kernels.cmake (which defines SHASTA_HAVE_<...>), and
// its row (and lane row) here.
#include <array>
#include <span>

#include "../kernels/kernel_abi.hpp"
#include "kernel_table.hpp"
#include "shasta/detail/wipe.hpp"

namespace shasta::detail {
namespace {

namespace k = kernels;

[[maybe_unused]] constexpr FeatureSet kShaNi = {Feature::sha, Feature::ssse3, Feature::sse41};
[[maybe_unused]] constexpr FeatureSet kAvx2 = {Feature::avx2, Feature::bmi2};
[[maybe_unused]] constexpr FeatureSet kAvx512 = {Feature::avx512f, Feature::avx512bw, Feature::avx512vl, Feature::avx2,
                                                 Feature::bmi2};
[[maybe_unused]] constexpr FeatureSet kArmSha2 = {Feature::arm_sha2};
// SHA-512's kernels are compiled with +sha3, the only flag that enables its instructions: SHA3's
// are allowed there too, so the row needs both.
[[maybe_unused]] constexpr FeatureSet kArmSha512 = {Feature::arm_sha512, Feature::arm_sha3};

// AMD's family of Zen 5 (CpuFeatures::family): the lane rankings below take it and later ones.
[[maybe_unused]] constexpr unsigned kAmdZen5 = 0x1a;

// stack_burn (KernelRow): how deep below its caller a kernel call leaves a block's schedule; the
// least that tests/wipe_test.cpp passes with on GCC 12 (x86-64), then room. The rorx rounds keep
// W+K of two blocks in their frame (512 bytes for SHA-256, 1,280 for SHA-512): 768 and 1,536 bytes
// pass. SHA-NI's rounds keep theirs in registers: 0 passes, and 0 spares every MAC the burn (a
// call with a 2 KiB frame, 15-30 ns of a 100-200 ns TLS 1.3 expand_label on the Zen 5); a
// compiler that spilled them would fail that test. ARMv8 is not measured on hardware: all of
// kStackBurn.
[[maybe_unused]] constexpr std::size_t kBurnShani = 0;
[[maybe_unused]] constexpr std::size_t kBurnRorx256 = 1024;
[[maybe_unused]] constexpr std::size_t kBurnRorx512 = kStackBurn;
[[maybe_unused]] constexpr std::size_t kBurnArmv8 = kStackBurn;

// Each kernel's parts, present or null as the build compiled them; then the rows, one line each.
// min_busy (cost of a lane call in single-stream blocks, 4 KiB in cache): SHA-NI x4 1.8x one stream
// -> 3; AVX2 SHA-256 x8 2.33 c/B against 5.27 single -> 4; AVX2 SHA-512 x5 1.81 against 3.18 -> 3;
// AVX-512 SHA-256 x16 1.05 c/B against SHA-NI's 1.9 single -> 9; AVX-512 SHA-512 x8 1.27 against
// 3.18 -> 4 (Zen 3 and Zen 4); ARMv8 x2 below 2x one -> 2.

// ---- SHA-224 / SHA-256 ----
using W32 = std::uint32_t;

#if defined(SHASTA_HAVE_SHANI_LANES) && defined(SHASTA_HAVE_SHANI_X4_ASM)
constexpr LaneRow<W32> kShaniX4 = {"shani", kShaNi, 4, 3, k::shani::sha256_compress_x4,
                                   k::shani::sha256_compress_x4_tail, k::shani::sha256_hash_x4};
#elif defined(SHASTA_HAVE_SHANI_LANES)
constexpr LaneRow<W32> kShaniX4 = {"shani", kShaNi, 4, 3, k::shani::sha256_compress_x4,
                                   k::shani::sha256_compress_x4, k::shani::sha256_hash_x4};
#endif
#ifdef SHASTA_HAVE_SHANI_LANES
constexpr const LaneRow<W32>* kShaniLanes = &kShaniX4;
constexpr LanesFn<W32> kShaniPair = k::shani::sha256_compress_x2;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kShaniLanes = nullptr;
[[maybe_unused]] constexpr LanesFn<W32> kShaniPair = nullptr;
#endif
#ifdef SHASTA_HAVE_SHANI_HMAC
constexpr Pbkdf2LoopFn<W32> kShaniPbkdf2 = k::shani::sha256_pbkdf2_iterate;
constexpr HmacFinishFn<W32> kShaniHmacFinish = k::shani::sha256_hmac_finish;
#else
[[maybe_unused]] constexpr Pbkdf2LoopFn<W32> kShaniPbkdf2 = nullptr;
[[maybe_unused]] constexpr HmacFinishFn<W32> kShaniHmacFinish = nullptr;
#endif

#ifdef SHASTA_HAVE_AVX2_X8
constexpr LaneRow<W32> kAvx2X8 = {"avx2", kAvx2, 8, 4, k::avx2::sha256_compress_x8, k::avx2::sha256_compress_x8};
constexpr const LaneRow<W32>* kAvx2Lanes256 = &kAvx2X8;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kAvx2Lanes256 = nullptr;
#endif

#ifdef SHASTA_HAVE_AVX512_SHA256_X16
constexpr LaneRow<W32> kAvx512X16 = {"avx512", kAvx512, 16, 9, k::avx512::sha256_compress_x16,
                                     k::avx512::sha256_compress_x16_tail, k::avx512::sha256_hash_x16};
// With the 32-lane hash call for groups of messages of one length: the forced kernel's own (so
// that its tests reach it on every AVX-512 CPU) and Zen 5's. Not Intel's: the x16 rounds there are
// bound by the operation count on ports 0 and 5, which a second group does not lower (not measured).
constexpr LaneRow<W32> kAvx512X16Wide = {
    "avx512", kAvx512, 16, 9, k::avx512::sha256_compress_x16, k::avx512::sha256_compress_x16_tail,
    k::avx512::sha256_hash_x16, k::avx512::sha256_hash_x32, 32};
#endif

#ifdef SHASTA_HAVE_ARMV8_X2
constexpr LaneRow<W32> kArmv8X2 = {"armv8", kArmSha2, 2, 2, k::armv8::sha256_compress_x2, k::armv8::sha256_compress_x2};
constexpr const LaneRow<W32>* kArmv8Lanes256 = &kArmv8X2;
constexpr LanesFn<W32> kArmv8Pair256 = k::armv8::sha256_compress_x2;
#else
[[maybe_unused]] constexpr const LaneRow<W32>* kArmv8Lanes256 = nullptr;
[[maybe_unused]] constexpr LanesFn<W32> kArmv8Pair256 = nullptr;
#endif

constexpr KernelRow<W32> kSha256Rows[] = {
#ifdef SHASTA_HAVE_SHANI
    {"shani", kShaNi, k::shani::sha256_compress, kShaniLanes, kShaniPair, kShaniPbkdf2, kShaniHmacFinish,
     k::shani::sha256_compress_to_digest, kBurnShani},
#endif
#if defined(SHASTA_HAVE_AVX512_SHA256_X16) && defined(SHASTA_HAVE_AVX512_SHA256)
    {"avx512", kAvx512, k::avx512::sha256_compress, &kAvx512X16Wide, nullptr, nullptr, nullptr, nullptr, kBurnRorx256},
#endif
#ifdef SHASTA_HAVE_AVX2
    {"avx2", kAvx2, k::avx2::sha256_compress, kAvx2Lanes256, nullptr, nullptr, nullptr, nullptr, kBurnRorx256},
#endif
#ifdef SHASTA_HAVE_ARMV8
    {"armv8", kArmSha2, k::armv8::sha256_compress, kArmv8Lanes256, kArmv8Pair256, nullptr, nullptr, nullptr,
     kBurnArmv8},
#endif
    {"portable", {}, k::portable::sha256_compress, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
};

// The best choice's SHA-256 lanes, per CPU (each row: the measurements behind it, in cache):
// - Intel: AVX-512 x16 before SHA-NI x4, because sha256rnds2 issues only every 3 cycles on Golden
//   Cove / Emerald Rapids (x4 at most 1.33x one stream there; x16 ran at 1.04 c/B, 2.85 GB/s).
// - AMD Zen 5 (family 0x1A) on: AVX-512 x16 first, its 512-bit operations no longer split in two:
//   on an EPYC Zen 5 (family 26 model 2) x16 ran 10,000 x 4 KiB at 4.35-4.43 GB/s against x4's
//   3.10-3.18 and 100,000 x 64 B at 2.43-2.49 GB/s against 0.92-0.94 (scripts/bench-ratio, forced
//   kernels, best of 10, two interleaved runs; 3.85 against 3.27 before the rounds' sums were
//   pinned in order). With the 32-lane hash call for messages of one length: 10,000 x 64 B in
//   193-201 us against x16 alone's 261-264, 10,000 x 4 KiB 8.99-9.11 ms against 9.33-9.55
//   (shasta_bench shasta_many_sha256, three interleaved runs of 5, 2026-12-04).
// - AMD Zen 3 and Zen 4 (family 0x19) keep SHA-NI x4: sha256rnds2 issues every cycle on Zen 3, and
//   x4 runs at 0.9-1.1 c/B against x16's 1.05 on Zen 4, whose 512-bit operations are double-pumped.
//   Other vendors' CPUs keep SHA-NI x4 too (none measured).
// - Without SHA-NI (Intel's Skylake-SP and Cascade Lake, a guest that hides it) the AVX-512 row is
//   the best, and its lanes are x16 without the 32-lane call everywhere but on Zen 5, the one CPU it
//   was measured on (as SHA-512's 16-lane call below).
#if defined(SHASTA_HAVE_AVX512_SHA256_X16) && defined(SHASTA_HAVE_AVX512_SHA256) && defined(SHASTA_HAVE_SHANI_LANES)
constexpr const LaneRow<W32>* kWideFirstSha256Lanes[] = {&kAvx512X16, &kShaniX4};
constexpr const LaneRow<W32>* kZen5Sha256Lanes[] = {&kAvx512X16Wide, &kShaniX4};
constexpr const LaneRow<W32>* kShaniFirstSha256Lanes[] = {&kShaniX4, &kAvx512X16};
constexpr LaneRanking<W32> kSha256Rankings[] = {
    {CpuVendor::intel, 0, kWideFirstSha256Lanes,
     "Intel: AVX-512 x16 first, without the x32 call (Emerald Rapids: x16 1.04 c/B; sha256rnds2 every 3 cycles)"},
    {CpuVendor::amd, kAmdZen5, kZen5Sha256Lanes,
     "AMD Zen 5: full-width AVX-512; x16 4.4 GB/s, x4 3.1; x32 one-length 1.3x x16 at 64 B"},
    {CpuVendor::amd, 0, kShaniFirstSha256Lanes,
     "AMD before Zen 5: SHA-NI x4 where it has it, else AVX-512 x16 without the x32 call (measured on Zen 5 only)"},
    {CpuVendor::other, 0, kShaniFirstSha256Lanes,
     "SHA-NI x4 where it has it, else AVX-512 x16 without the x32 call (measured on Zen 5 only)"}};
constexpr std::span<const LaneRanking<W32>> kSha256LaneRankings = kSha256Rankings;
#else
constexpr std::span<const LaneRanking<W32>> kSha256LaneRankings = {};
#endif

// ---- SHA-384 / SHA-512 / SHA-512/t ----
using W64 = std::uint64_t;

#if defined(SHASTA_HAVE_AVX2_SHA512_LANES) && defined(SHASTA_HAVE_AVX2_X5_ASM)
// With the hash call for messages of one length (Zen 3, 10 interleaved runs: hash_many 10,000 x 64 B
// 0.81x the time of fn and tail_fn, 256 B 0.79x, 1 KiB 0.86x, 4 KiB 0.98x).
constexpr LaneRow<W64> kAvx2X5 = {"avx2", kAvx2, 5, 3, k::avx2::sha512_compress_x5, k::avx2::sha512_compress_x5_tail,
                                  k::avx2::sha512_hash_x5};
constexpr const LaneRow<W64>* kAvx2Lanes512 = &kAvx2X5;
#elif defined(SHASTA_HAVE_AVX2_SHA512_LANES)
constexpr LaneRow<W64> kAvx2X4 = {"avx2", kAvx2, 4, 3, k::avx2::sha512_compress_x4, k::avx2::sha512_compress_x4};
constexpr const LaneRow<W64>* kAvx2Lanes512 = &kAvx2X4;
#else
[[maybe_unused]] constexpr const LaneRow<W64>* kAvx2Lanes512 = nullptr;
#endif

#ifdef SHASTA_HAVE_AVX512_SHA512_X8
constexpr LaneRow<W64> kAvx512X8 = {"avx512", kAvx512, 8, 4, k::avx512::sha512_compress_x8,
                                    k::avx512::sha512_compress_x8_tail, k::avx512::sha512_hash_x8};
// With the 16-lane hash call for groups of messages of one length: as with kAvx512X16Wide, the
// forced kernel's own (so that its tests reach it on every AVX-512 CPU) and Zen 5's; the rankings
// give every other CPU x8 alone.
constexpr LaneRow<W64> kAvx512X8Wide = {"avx512", kAvx512, 8, 4, k::avx512::sha512_compress_x8,
                                        k::avx512::sha512_compress_x8_tail, k::avx512::sha512_hash_x8,
                                        k::avx512::sha512_hash_x16, 16};
#endif

#ifdef SHASTA_HAVE_ARMV8_SHA512_X2
constexpr LaneRow<W64> kArmv8X2_512 = {"armv8", kArmSha512, 2, 2, k::armv8::sha512_compress_x2,
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
#if defined(SHASTA_HAVE_AVX512_SHA512_X8) && defined(SHASTA_HAVE_AVX512_SHA512)
    {"avx512", kAvx512, k::avx512::sha512_compress, &kAvx512X8Wide, nullptr, nullptr, nullptr, nullptr, kBurnRorx512},
#endif
#ifdef SHASTA_HAVE_AVX2
    {"avx2", kAvx2, k::avx2::sha512_compress, kAvx2Lanes512, nullptr, nullptr, nullptr, nullptr, kBurnRorx512},
#endif
#ifdef SHASTA_HAVE_ARMV8_SHA512
    {"armv8", kArmSha512, k::armv8::sha512_compress, kArmv8Lanes512, kArmv8Pair512, nullptr, nullptr, nullptr,
     kBurnArmv8},
#endif
    {"portable", {}, k::portable::sha512_compress, nullptr, nullptr, nullptr, nullptr, nullptr, 0},
};

// The best choice's SHA-512 lanes: the AVX-512 x8 lanes wherever the CPU has them, with the 16-lane
// hash call on Zen 5 only: there 16 streams of 2 KiB ran at 0.70 cycles a byte in cache against two
// x8 calls' 0.81 (EPYC family 26 model 2, best of 30, three runs). Not on Intel, whose x8 rounds
// are bound by the operation count on ports 0 and 5, which a second group does not lower, nor on
// Zen 4, whose 512-bit operations are double-pumped, nor on other vendors' (none measured).
#if defined(SHASTA_HAVE_AVX512_SHA512_X8) && defined(SHASTA_HAVE_AVX512_SHA512)
constexpr const LaneRow<W64>* kZen5Sha512Lanes[] = {&kAvx512X8Wide};
constexpr const LaneRow<W64>* kX8AloneSha512Lanes[] = {&kAvx512X8};
constexpr LaneRanking<W64> kSha512Rankings[] = {
    {CpuVendor::amd, kAmdZen5, kZen5Sha512Lanes, "AMD Zen 5: x16 one-length call 1.15x two x8 calls in cache"},
    {CpuVendor::amd, 0, kX8AloneSha512Lanes, "AMD before Zen 5: x8 alone, 512-bit operations double-pumped on Zen 4"},
    {CpuVendor::intel, 0, kX8AloneSha512Lanes, "Intel: x8 alone, the rounds bound by the operation count"},
    {CpuVendor::other, 0, kX8AloneSha512Lanes, "x8 alone: the 16-lane call was measured on Zen 5 only"}};
constexpr std::span<const LaneRanking<W64>> kSha512LaneRankings = kSha512Rankings;
#else
constexpr std::span<const LaneRanking<W64>> kSha512LaneRankings = {};
#endif

// ---- The tables ----

template <class Word, std::size_t N>
constexpr std::array<Selection<Word>, N> own_selections(const KernelRow<Word> (&rows)[N]) noexcept {
  std::array<Selection<Word>, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = {rows[i].compress, rows[i].compress_to_digest, rows[i].hmac_finish, &rows[i], rows[i].lanes,
              rows[i].stack_burn};
  }
  return out;
}

// wipe_nearest_stack_below (wipe.cpp) wipes at most kStackBurn bytes: no row may ask for more.
template <class Word, std::size_t N>
constexpr bool burns_within_reach(const KernelRow<Word> (&rows)[N]) noexcept {
  for (const KernelRow<Word>& row : rows)
    if (row.stack_burn > kStackBurn) return false;
  return true;
}
static_assert(burns_within_reach(kSha256Rows) && burns_within_reach(kSha512Rows));

constexpr auto kSha256Own = own_selections(kSha256Rows);
constexpr auto kSha512Own = own_selections(kSha512Rows);

constexpr FamilyTable<std::uint32_t> kSha256Table = {"SHASTA_KERNEL_SHA256", kSha256Rows, kSha256LaneRankings,
                                                     kSha256Own};
constexpr FamilyTable<std::uint64_t> kSha512Table = {"SHASTA_KERNEL_SHA512", kSha512Rows, kSha512LaneRankings,
                                                     kSha512Own};

}  // namespace

const FamilyTable<std::uint32_t>& sha256_table() noexcept {
  return kSha256Table;
}
const FamilyTable<std::uint64_t>& sha512_table() noexcept {
  return kSha512Table;
}

}  // namespace shasta::detail
