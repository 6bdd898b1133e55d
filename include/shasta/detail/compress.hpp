// compress.hpp: how the streaming core reaches the compression kernel chosen at run time.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shasta::detail {

using Compress256 = void (*)(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
using Compress512 = void (*)(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

// The active kernel of each family. Each starts at a resolver that picks the best kernel for this
// CPU (and SHASTA_KERNEL) on first use, so the hot path is one load and one indirect call.
extern std::atomic<Compress256> g_sha256_kernel;
extern std::atomic<Compress512> g_sha512_kernel;

// The active kernel itself, resolved first if no call has resolved it yet.
Compress256 resolved_kernel(const std::uint32_t*) noexcept;
Compress512 resolved_kernel(const std::uint64_t*) noexcept;

inline void compress_active(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  g_sha256_kernel.load(std::memory_order_acquire)(state, blocks, n);
}

inline void compress_active(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  g_sha512_kernel.load(std::memory_order_acquire)(state, blocks, n);
}

}  // namespace shasta::detail
