// wipe.cpp: wipe_stack_below (wipe.hpp), and secure_wipe_out_of_line for compilers without
// GCC-style asm. explicit_bzero (glibc 2.25, the BSDs) is a promise not to be optimised away;
// elsewhere a volatile loop does the same.
#include "shasta/detail/wipe.hpp"

#include <cstring>

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

// No alignas on `area`: a frame aligned past the ABI's is realigned at run time, and the slack
// (up to 60 bytes on i686) would leave the top of the kernel's frame, just below the caller's,
// unwiped whenever the caller's stack pointer fell badly (WipeStackBelow tests every offset).
[[gnu::noinline]] void wipe_stack_below() noexcept {
  unsigned char area[kStackBurn];
  secure_wipe(area, sizeof area);
}

[[gnu::noinline]] void wipe_lane_stack_below() noexcept {
  unsigned char area[kLaneStackBurn];
  secure_wipe(area, sizeof area);
}

}  // namespace shasta::detail
