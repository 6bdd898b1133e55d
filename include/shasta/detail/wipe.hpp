// wipe.hpp: erasing secrets in a way the optimiser cannot drop.
#pragma once

#include <cstddef>
#include <cstring>

namespace shasta::detail {

// secure_wipe zeroes `size` bytes at `p`. On GCC and Clang the memset is followed by an empty asm
// that takes `p` and clobbers memory, so the compiler must assume the zeros are read and cannot drop
// them as dead stores (BoringSSL's OPENSSL_cleanse does the same); it stays inline, so a small wipe
// costs a few stores rather than a library call. Elsewhere it calls explicit_bzero or a volatile
// loop (secure_wipe_out_of_line).
void secure_wipe_out_of_line(void* p, std::size_t size) noexcept;

inline void secure_wipe(void* p, std::size_t size) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  std::memset(p, 0, size);
  __asm__ __volatile__("" : : "r"(p) : "memory");
#else
  secure_wipe_out_of_line(p, size);
#endif
}

// wipe_stack_below zeroes kStackBurn bytes of stack below its caller's frame: where a kernel called
// from that frame just had its own. A kernel cannot wipe what the compiler spilled of its registers
// to its frame, and those can be secrets: SHA-NI's PBKDF2 loop keeps U and T there (368 bytes of
// frame with GCC 12), and the portable rounds on s390x the new state (400 bytes), which can be an
// HKDF block past what the caller asked for. So the kernel's caller calls this once it has
// returned; it is not inlined, so that its frame lies where the kernel's did.
inline constexpr std::size_t kStackBurn = 2048;
void wipe_stack_below() noexcept;

// wipe_lane_stack_below does the same to kLaneStackBurn bytes, for a caller of lane kernels: the
// AVX-512 ones keep a pair of blocks' W+K for every lane in their frame (8 KiB for 16 SHA-256
// lanes, 10 KiB for 8 SHA-512 lanes). PBKDF2 calls it once, after its last output block.
inline constexpr std::size_t kLaneStackBurn = 32 * 1024;
void wipe_lane_stack_below() noexcept;

// wipe_object zeroes a trivially copyable object in place.
template <class T>
void wipe_object(T& object) noexcept {
  secure_wipe(static_cast<void*>(&object), sizeof object);
}

}  // namespace shasta::detail
