// kernel_table.cpp: the priority tables. Each entry's `supported` check is what guarantees that its
// kernel's instructions exist before the dispatcher ever points at it.
#include "kernel_table.hpp"

#include "../kernels/kernel_abi.hpp"

namespace shasta::detail {
namespace {

[[maybe_unused]] bool any_cpu(const CpuFeatures&) noexcept {
  return true;
}
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

constexpr KernelEntry<Compress256> kSha256Kernels[] = {
#ifdef SHASTA_HAVE_SHANI
    {"shani", has_shani, kernels::shani::sha256_compress},
#endif
#ifdef SHASTA_HAVE_AVX2
    {"avx2", has_avx2, kernels::avx2::sha256_compress},
#endif
#ifdef SHASTA_HAVE_ARMV8
    {"armv8", has_arm_sha2, kernels::armv8::sha256_compress},
#endif
    {"portable", any_cpu, kernels::portable::sha256_compress},
};

constexpr KernelEntry<Compress512> kSha512Kernels[] = {
#ifdef SHASTA_HAVE_AVX2
    {"avx2", has_avx2, kernels::avx2::sha512_compress},
#endif
#ifdef SHASTA_HAVE_ARMV8_SHA512
    {"armv8", has_arm_sha512, kernels::armv8::sha512_compress},
#endif
    {"portable", any_cpu, kernels::portable::sha512_compress},
};

}  // namespace

std::span<const KernelEntry<Compress256>> sha256_kernel_table() noexcept {
  return kSha256Kernels;
}
std::span<const KernelEntry<Compress512>> sha512_kernel_table() noexcept {
  return kSha512Kernels;
}

}  // namespace shasta::detail
