// sha256_portable.cpp: the `portable` SHA-256 kernel, for every CPU: the constexpr rounds of
// sha256_rounds.hpp compiled for run time.
#include "kernel_abi.hpp"
#include "shasta/detail/sha256_rounds.hpp"
#include "shasta/detail/wipe.hpp"

namespace shasta::kernels::portable {
namespace {

// The rounds in a frame of their own, which wipe_stack_below's frame then covers.
[[gnu::noinline]] void rounds(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  detail::sha256_compress_portable(state, blocks, n);
}

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  rounds(state, blocks, n);
  detail::wipe_stack_below();  // the new state, spilled by the rounds where registers run short
}

}  // namespace shasta::kernels::portable
