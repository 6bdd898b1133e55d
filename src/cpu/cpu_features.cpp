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
// xcr0 reads XCR0, the state components the OS saves on a context switch (bit 1 XMM, 2 YMM, 5
// opmask, 6 ZMM_Hi256, 7 Hi16_ZMM). XGETBV is encoded by hand so that this file needs no -mxsave.
unsigned xcr0() noexcept {
  unsigned eax = 0, edx = 0;
  __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(eax), "=d"(edx) : "c"(0));
  return eax;
}

CpuVendor vendor_of(unsigned ebx, unsigned ecx, unsigned edx) noexcept {
  if (ebx == 0x756e6547 && edx == 0x49656e69 && ecx == 0x6c65746e) return CpuVendor::intel;  // "GenuineIntel"
  if (ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163) return CpuVendor::amd;    // "AuthenticAMD"
  return CpuVendor::other;
}

// display_family: CPUID.1:EAX bits 8-11, plus bits 20-27 when those read 0xF (SDM vol. 2A, CPUID).
unsigned display_family(unsigned eax) noexcept {
  const unsigned base = (eax >> 8) & 0xf;
  return base == 0xf ? base + ((eax >> 20) & 0xff) : base;
}

CpuFeatures detect() noexcept {
  CpuFeatures cpu;
  FeatureSet& f = cpu.features;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return cpu;
  const unsigned max_leaf = eax;
  cpu.vendor = vendor_of(ebx, ecx, edx);
  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  cpu.family = display_family(eax);
  f.add(Feature::ssse3, (ecx >> 9) & 1);
  f.add(Feature::sse41, (ecx >> 19) & 1);
  const bool osxsave = (ecx >> 27) & 1;
  const bool avx = (ecx >> 28) & 1;
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    const unsigned saved = osxsave ? xcr0() : 0;
    const bool ymm = avx && (saved & 0x6) == 0x6;
    const bool zmm = ymm && (saved & 0xe0) == 0xe0;
    f.add(Feature::avx2, ymm && ((ebx >> 5) & 1));
    f.add(Feature::bmi2, (ebx >> 8) & 1);
    f.add(Feature::sha, (ebx >> 29) & 1);
    f.add(Feature::avx512f, zmm && ((ebx >> 16) & 1));
    f.add(Feature::avx512bw, zmm && ((ebx >> 30) & 1));
    f.add(Feature::avx512vl, zmm && ((ebx >> 31) & 1));
  }
  return cpu;
}
#elif defined(__aarch64__) && defined(__linux__)
CpuFeatures detect() noexcept {
  CpuFeatures cpu;
  const unsigned long hwcap = getauxval(AT_HWCAP);
  cpu.features.add(Feature::arm_sha2, (hwcap & HWCAP_SHA2) != 0);
  cpu.features.add(Feature::arm_sha512, (hwcap & HWCAP_SHA512) != 0);
  cpu.features.add(Feature::arm_sha3, (hwcap & HWCAP_SHA3) != 0);
  return cpu;
}
#elif defined(__aarch64__) && defined(__APPLE__)
bool sysctl_flag(const char* name) noexcept {
  int value = 0;
  size_t size = sizeof value;
  return sysctlbyname(name, &value, &size, nullptr, 0) == 0 && value != 0;
}
CpuFeatures detect() noexcept {
  CpuFeatures cpu;
  cpu.features.add(Feature::arm_sha2, sysctl_flag("hw.optional.arm.FEAT_SHA256"));
  cpu.features.add(Feature::arm_sha512, sysctl_flag("hw.optional.arm.FEAT_SHA512"));
  cpu.features.add(Feature::arm_sha3, sysctl_flag("hw.optional.arm.FEAT_SHA3"));
  return cpu;
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
