// kernel_table.hpp: each family's kernels in priority order, with what each needs of the CPU.
#pragma once

#include <span>
#include <string_view>

#include "../cpu/cpu_features.hpp"
#include "shasta/detail/compress.hpp"

namespace shasta::detail {

template <class Fn>
struct KernelEntry {
  std::string_view name;
  bool (*supported)(const CpuFeatures&) noexcept;
  Fn fn;
};

// The tables hold only the kernels this build compiled (SHASTA_ENABLE_<KERNEL> in CMake); the last
// entry of each is `portable`, which every CPU has.
std::span<const KernelEntry<Compress256>> sha256_kernel_table() noexcept;
std::span<const KernelEntry<Compress512>> sha512_kernel_table() noexcept;

}  // namespace shasta::detail
