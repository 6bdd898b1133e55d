// kernels.hpp: which compression kernel runs, and choosing one. Kernels are chosen once per family
// on first use: the best the CPU has, or the one named by the environment:
//   SHASTA_KERNEL=shani|avx512|avx2|armv8|portable   both families, where the family has that kernel
//   SHASTA_KERNEL_SHA256=..., SHASTA_KERNEL_SHA512=...   one family (wins over SHASTA_KERNEL)
// A named kernel the CPU lacks is refused (a line on stderr) and the best one is kept.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"

namespace shasta {

// Family: the kernels of `sha224_256` run SHA-224 and SHA-256; those of `sha384_512` run SHA-384,
// SHA-512, SHA-512/224 and SHA-512/256.
enum class Family { sha224_256, sha384_512 };

// KernelInfo: one row of the family's kernel table.
struct KernelInfo {
  std::string_view name;  // "shani", "avx512", "avx2", "armv8", "portable"
  bool supported;         // this CPU has what it needs
  bool active;            // it runs now
  std::string needs;      // the CPU features it needs, as cpu_features() spells them: "sha, ssse3, sse4.1"
  std::size_t lanes;      // messages its many-message kernel hashes side by side (0: it has none)
};

// kernels lists the family's kernels in this build, best first (the last is portable).
std::vector<KernelInfo> kernels(Family family);

// KernelChoice: what the family runs on now, and why.
struct KernelChoice {
  std::string_view kernel;       // the active kernel (single-stream hashing, HMAC pads, PBKDF2)
  std::string_view lane_kernel;  // whose many-message kernel hash_many and update_many use ("": none); the
                                 // best choice may take another kernel's lanes where they are faster
  std::size_t lanes;             // its lane count (0: none)
  std::string reason;            // "the best this CPU has", "forced by SHASTA_KERNEL=avx2", ...
  std::string_view lane_reason;  // why the best choice took lanes other than its kernel's own (another
                                 // kernel's, or its own without the wide call), as measured ("": its own)
  std::size_t wide_lanes = 0;    // lanes of its hash call for groups of messages of one length, where
                                 // that is wider than `lanes` (AVX-512 on Zen 5: 32 SHA-256, 16 SHA-512); 0: none
  bool forced = false;           // forced by name (SHASTA_KERNEL*, force_kernel()), not the best chosen
};

// kernel_choice says what the family runs on now (resolving it if nothing ran yet) and why.
KernelChoice kernel_choice(Family family);

// active_kernel names the kernel the family runs on now (resolving it if nothing ran yet).
std::string_view active_kernel(Family family) noexcept;

// force_kernel makes the family run on `name` from now on, for every thread. Error::unknown_kernel
// if the family has no such kernel, Error::kernel_unsupported if this CPU lacks it; either way the
// active kernel is unchanged.
Error force_kernel(Family family, std::string_view name) noexcept;

// use_best_kernel makes the family run on the best kernel this CPU has, ignoring the environment.
void use_best_kernel(Family family) noexcept;

// cpu_features names the CPU features shasta looked for and found, e.g. "ssse3 sse4.1 sha avx2 bmi2".
std::string cpu_features();

}  // namespace shasta
