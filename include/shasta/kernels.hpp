// kernels.hpp: which compression kernel runs, and choosing one. Kernels are chosen once per family
// on first use: the best the CPU has, or the one named by the environment:
//   SHASTA_KERNEL=portable|shani|avx2|armv8     both families, where the family has that kernel
//   SHASTA_KERNEL_SHA256=..., SHASTA_KERNEL_SHA512=...   one family (wins over SHASTA_KERNEL)
// A named kernel the CPU lacks is refused (a line on stderr) and the best one is kept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"

namespace shasta {

// Family: the kernels of `sha224_256` run SHA-224 and SHA-256; those of `sha384_512` run SHA-384,
// SHA-512, SHA-512/224 and SHA-512/256.
enum class Family { sha224_256, sha384_512 };

struct KernelInfo {
  std::string_view name;  // "portable", "shani", "avx2", "armv8"
  bool supported;         // this CPU has what it needs
  bool active;            // it runs now
};

// kernels lists the family's kernels in this build, best first.
std::vector<KernelInfo> kernels(Family family);

// active_kernel names the kernel the family runs on now (resolving it if nothing ran yet).
std::string_view active_kernel(Family family) noexcept;

// force_kernel makes the family run on `name` from now on, for every thread. Error::unknown_kernel
// if the family has no such kernel, Error::kernel_unsupported if this CPU lacks it; either way the
// active kernel is unchanged.
Error force_kernel(Family family, std::string_view name) noexcept;

// use_best_kernel makes the family run on the best kernel this CPU has, ignoring the environment.
void use_best_kernel(Family family) noexcept;

// cpu_features names the CPU features shasta looked for and found, e.g. "sse4.1 ssse3 avx2 bmi2 sha".
std::string cpu_features();

}  // namespace shasta
