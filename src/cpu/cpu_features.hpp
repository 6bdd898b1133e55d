// cpu_features.hpp: the instruction-set features the kernels need, as data (a set that can be
// printed and faked in tests), read once from the CPU and OS.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace shasta::detail {

// Feature: one CPU (and OS) capability a kernel may need. Each x86 vector feature includes the OS's
// saving of its register state (XGETBV), so a CPU whose OS does not save ZMM never has avx512f.
enum class Feature : unsigned {
  ssse3,       // CPUID.1:ECX.9
  sse41,       // CPUID.1:ECX.19
  sha,         // CPUID.7.0:EBX.29 (SHA-NI)
  avx2,        // CPUID.7.0:EBX.5, with XCR0 bits 1-2 (XMM, YMM)
  bmi2,        // CPUID.7.0:EBX.8
  avx512f,     // CPUID.7.0:EBX.16, with XCR0 bits 1-2 and 5-7 (opmask, ZMM_Hi256, Hi16_ZMM)
  avx512bw,    // CPUID.7.0:EBX.30, the same XCR0 bits
  avx512vl,    // CPUID.7.0:EBX.31, the same XCR0 bits
  arm_sha2,    // aarch64 FEAT_SHA256 (HWCAP_SHA2)
  arm_sha512,  // aarch64 FEAT_SHA512 (HWCAP_SHA512)
  arm_sha3,    // aarch64 FEAT_SHA3 (HWCAP_SHA3): GCC and Clang enable SHA512's instructions only with
               // SHA3's (+sha3), which a compiler may then emit (EOR3, BCAX, XAR, RAX1)
  count
};

// feature_name spells a feature as `shasta info` and cpu_features() print it.
constexpr std::string_view feature_name(Feature f) noexcept {
  constexpr std::string_view kNames[] = {"ssse3",    "sse4.1",   "sha",  "avx2",   "bmi2", "avx512f",
                                         "avx512bw", "avx512vl", "sha2", "sha512", "sha3"};
  return kNames[static_cast<unsigned>(f)];
}

struct FeatureSet {
  std::uint32_t bits = 0;

  constexpr FeatureSet() = default;
  constexpr FeatureSet(std::initializer_list<Feature> features) noexcept {
    for (Feature f : features) bits |= 1u << static_cast<unsigned>(f);
  }
  constexpr bool has(Feature f) const noexcept { return (bits >> static_cast<unsigned>(f)) & 1u; }
  constexpr bool contains(FeatureSet needs) const noexcept { return (bits & needs.bits) == needs.bits; }
  constexpr void add(Feature f, bool present) noexcept { bits |= (present ? 1u : 0u) << static_cast<unsigned>(f); }
  constexpr bool empty() const noexcept { return bits == 0; }
};

// CpuVendor: whose cores these are. The lane kernels rank differently on them (sha256rnds2 issues
// every 3 cycles on Intel's Golden Cove; Zen 5's AVX-512 runs 512 bits a cycle where Zen 4's is
// double-pumped): kernel_table.cpp keeps the rule.
enum class CpuVendor { other, intel, amd };

struct CpuFeatures {
  FeatureSet features;
  CpuVendor vendor = CpuVendor::other;
  unsigned family = 0;  // x86 display family (CPUID.1:EAX base + extended): 0x19 Zen 3/4, 0x1A Zen 5
};

// cpu_features_detected reads the features on first call; later calls return the same object.
const CpuFeatures& cpu_features_detected() noexcept;

}  // namespace shasta::detail
