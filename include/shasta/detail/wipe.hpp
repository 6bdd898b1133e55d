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

// scrub_stack zeroes kStackScrubBytes of stack just below its caller's frame: where the locals of a
// function that the caller has just called were. The portable kernels call it after their rounds,
// which keep the new state in their frame where registers run short (s390x; 400 bytes there), and
// that state can be a secret: an HKDF block past what the caller asked for, a PBKDF2 U value.
inline constexpr std::size_t kStackScrubBytes = 1024;
void scrub_stack() noexcept;

// wipe_object zeroes a trivially copyable object in place.
template <class T>
void wipe_object(T& object) noexcept {
  secure_wipe(static_cast<void*>(&object), sizeof object);
}

}  // namespace shasta::detail
