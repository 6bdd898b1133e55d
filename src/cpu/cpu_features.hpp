// cpu_features.hpp: the instruction-set features the kernels need, read once from the CPU and OS.
#pragma once

namespace shasta::detail {

struct CpuFeatures {
  // x86-64: CPUID leaf 1 ECX, leaf 7 EBX, and XGETBV for the OS's saving of XMM and YMM state.
  bool ssse3 = false;
  bool sse41 = false;
  bool avx2 = false;  // AVX2 and the OS's YMM state
  bool bmi2 = false;
  bool sha = false;
  // aarch64: HWCAP_SHA2 / FEAT_SHA256 and HWCAP_SHA512 / FEAT_SHA512.
  bool arm_sha2 = false;
  bool arm_sha512 = false;
};

// cpu_features_detected reads the features on first call; later calls return the same object.
const CpuFeatures& cpu_features_detected() noexcept;

}  // namespace shasta::detail
