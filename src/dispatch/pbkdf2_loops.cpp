// pbkdf2_loops.cpp: the PBKDF2 iteration loops that kernels have, used only while their own
// compression kernel is the active one (it passed the CPU check; SHASTA_KERNEL chooses both).
#include "../kernels/kernel_abi.hpp"
#include "shasta/detail/compress.hpp"
#include "shasta/pbkdf2.hpp"

namespace shasta::detail {

bool pbkdf2_iterate_256(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                        std::uint32_t sum[8], std::uint64_t count) noexcept {
#ifdef SHASTA_HAVE_SHANI_PBKDF2
  if (resolved_kernel(static_cast<const std::uint32_t*>(nullptr)) == kernels::shani::sha256_compress) {
    kernels::shani::sha256_pbkdf2_iterate(inner, outer, u, sum, count);
    return true;
  }
#endif
  (void)inner, (void)outer, (void)u, (void)sum, (void)count;
  return false;
}

}  // namespace shasta::detail
