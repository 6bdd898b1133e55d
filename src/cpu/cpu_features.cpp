// cpu_features.cpp: CPUID and XGETBV on x86-64 (Intel SDM vol. 2A, CPUID; vol. 1 section 13.3),
// getauxval on Linux aarch64, sysctlbyname on Apple silicon.
#include "cpu_features.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#elif defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>
#endif

namespace shasta::detail {
namespace {

#if defined(__x86_64__) || defined(_M_X64)
// os_saves_ymm asks XGETBV whether the OS saves XMM (bit 1) and YMM (bit 2) state on a context
// switch. The instruction is encoded by hand so that this file needs no -mxsave.
bool os_saves_ymm() noexcept {
  unsigned eax = 0, edx = 0;
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
  return (eax & 0x6) == 0x6;
}

CpuFeatures detect() noexcept {
  CpuFeatures f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return f;
  const unsigned max_leaf = eax;
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  f.ssse3 = (ecx >> 9) & 1;
  f.sse41 = (ecx >> 19) & 1;
  const bool osxsave = (ecx >> 27) & 1;
  const bool avx = (ecx >> 28) & 1;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const bool ymm = avx && osxsave && os_saves_ymm();
    f.avx2 = ymm && ((ebx >> 5) & 1);
    f.bmi2 = (ebx >> 8) & 1;
    f.sha = (ebx >> 29) & 1;
  }
  return f;
}
#elif defined(__aarch64__) && defined(__linux__)
CpuFeatures detect() noexcept {
  CpuFeatures f;
  const unsigned long hwcap = getauxval(AT_HWCAP);
  f.arm_sha2 = (hwcap & HWCAP_SHA2) != 0;
  f.arm_sha512 = (hwcap & HWCAP_SHA512) != 0;
  return f;
}
#elif defined(__aarch64__) && defined(__APPLE__)
bool sysctl_flag(const char* name) noexcept {
  int value = 0;
  size_t size = sizeof value;
  return sysctlbyname(name, &value, &size, nullptr, 0) == 0 && value != 0;
}
CpuFeatures detect() noexcept {
  CpuFeatures f;
  f.arm_sha2 = sysctl_flag("hw.optional.arm.FEAT_SHA256");
  f.arm_sha512 = sysctl_flag("hw.optional.arm.FEAT_SHA512");
  return f;
}
#else
CpuFeatures detect() noexcept {
  return {};
}
#endif

}  // namespace

const CpuFeatures& cpu_features_detected() noexcept {
  static const CpuFeatures features = detect();
  return features;
}

}  // namespace shasta::detail
