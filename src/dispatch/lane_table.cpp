// lane_table.cpp: the lane kernels of this build. Each entry has its own CPU check, so a lane
// kernel the CPU lacks is never returned even if its name matched.
#include "lane_table.hpp"

#include "../kernels/kernel_abi.hpp"

namespace shasta::detail {
namespace {

[[maybe_unused]] bool has_shani(const CpuFeatures& f) noexcept {
  return f.sha && f.ssse3 && f.sse41;
}
[[maybe_unused]] bool has_avx2(const CpuFeatures& f) noexcept {
  return f.avx2 && f.bmi2;
}
[[maybe_unused]] bool has_arm_sha2(const CpuFeatures& f) noexcept {
  return f.arm_sha2;
}
[[maybe_unused]] bool has_arm_sha512(const CpuFeatures& f) noexcept {
  return f.arm_sha512;
}

// A trailing empty entry keeps each array non-empty whatever the build left out; it is cut off.
constexpr LaneEntry<CompressLanes256> kSha256Lanes[] = {
#ifdef SHASTA_HAVE_SHANI_X4
#ifdef SHASTA_HAVE_SHANI_X4_ASM
    {"shani", has_shani, 4, kernels::shani::sha256_compress_x4, kernels::shani::sha256_compress_x4_tail},
#else
    {"shani", has_shani, 4, kernels::shani::sha256_compress_x4, nullptr},
#endif
#endif
#ifdef SHASTA_HAVE_AVX2_X8
    {"avx2", has_avx2, 8, kernels::avx2::sha256_compress_x8, nullptr},
#endif
#ifdef SHASTA_HAVE_ARMV8_X2
    {"armv8", has_arm_sha2, 2, kernels::armv8::sha256_compress_x2, nullptr},
#endif
    {"", nullptr, 0, nullptr, nullptr},
};

constexpr LaneEntry<CompressLanes512> kSha512Lanes[] = {
#ifdef SHASTA_HAVE_AVX2_X4
#ifdef SHASTA_HAVE_AVX2_X5_ASM
    {"avx2", has_avx2, 5, kernels::avx2::sha512_compress_x5, kernels::avx2::sha512_compress_x5_tail},
#else
    {"avx2", has_avx2, 4, kernels::avx2::sha512_compress_x4, nullptr},
#endif
#endif
#ifdef SHASTA_HAVE_ARMV8_SHA512_X2
    {"armv8", has_arm_sha512, 2, kernels::armv8::sha512_compress_x2, nullptr},
#endif
    {"", nullptr, 0, nullptr, nullptr},
};

}  // namespace

std::span<const LaneEntry<CompressLanes256>> sha256_lane_table() noexcept {
  return std::span(kSha256Lanes).first(std::size(kSha256Lanes) - 1);
}
std::span<const LaneEntry<CompressLanes512>> sha512_lane_table() noexcept {
  return std::span(kSha512Lanes).first(std::size(kSha512Lanes) - 1);
}

}  // namespace shasta::detail
