// sha256_portable.cpp: the `portable` SHA-256 kernel, for every CPU: the constexpr rounds of
// sha256_rounds.hpp compiled for run time.
#include "kernel_abi.hpp"
#include "shasta/detail/sha256_rounds.hpp"

namespace shasta::kernels::portable {

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  detail::sha256_compress_portable(state, blocks, n);
}

}  // namespace shasta::kernels::portable
