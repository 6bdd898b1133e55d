// wipe.cpp: the stack burns (wipe_stack_below and the others: wipe.hpp, lanes.hpp), and
// secure_wipe_out_of_line for compilers without GCC-style asm. explicit_bzero (glibc 2.25, the
// BSDs) is a promise not to be optimised away; elsewhere a volatile loop does the same.
#include "shasta/detail/wipe.hpp"

#include <cstring>

#include "shasta/detail/lanes.hpp"

#if defined(__GLIBC__) || defined(__FreeBSD__) || defined(__OpenBSD__)
#include <strings.h>
#define SHASTA_HAVE_EXPLICIT_BZERO 1
#endif

namespace shasta::detail {

void secure_wipe_out_of_line(void* p, std::size_t size) noexcept {
  if (p == nullptr || size == 0) return;
#ifdef SHASTA_HAVE_EXPLICIT_BZERO
  explicit_bzero(p, size);
#else
  volatile unsigned char* v = static_cast<volatile unsigned char*>(p);
  for (std::size_t i = 0; i < size; ++i) v[i] = 0;
#endif
}

// The one body of the stack burns below: zeroes the `n` bytes of a `Depth`-byte area nearest its
// top, which lies just below the burn's caller once inlined into a function that is not. No
// alignas on `area`: a frame aligned past the ABI's is realigned at run time, and the slack (up to
// 60 bytes on i686) would leave the top of the kernel's frame, just below the caller's, unwiped
// whenever the caller's stack pointer fell badly (WipeStackBelow tests every offset).
template <std::size_t Depth>
[[gnu::always_inline]] inline void wipe_top_of_frame(std::size_t n) noexcept {
  unsigned char area[Depth];
  secure_wipe(area + Depth - n, n);
}

[[gnu::noinline]] void wipe_stack_below() noexcept {
  wipe_top_of_frame<kStackBurn>(kStackBurn);
}

[[gnu::noinline]] void wipe_lane_stack_below() noexcept {
  wipe_top_of_frame<kLaneStackBurn>(kLaneStackBurn);
}

// n <= kStackBurn: kernel_table.cpp asserts it of every row's stack_burn.
[[gnu::noinline]] void wipe_nearest_stack_below(std::size_t n) noexcept {
  wipe_top_of_frame<kStackBurn>(n);
}

}  // namespace shasta::detail
