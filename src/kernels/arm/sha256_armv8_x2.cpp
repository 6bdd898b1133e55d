// sha256_armv8_x2.cpp: SHA-256 compression of two independent streams on the Armv8 SHA2 instructions
// (FEAT_SHA256: SHA256H, SHA256H2, SHA256SU0, SHA256SU1; Arm ARM C7.2), interleaved instruction by
// instruction so that one stream's SHA256H/SHA256H2 latency chain hides the other's; rounds as
// FIPS 180-4 6.2.2, the same four-round steps as sha256_armv8.cpp.
// Little-endian only: the message words are byte-swapped with REV32, which assumes an LE load.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#if defined(__ARM_BIG_ENDIAN)
#error "sha256_armv8_x2.cpp assumes little-endian lanes (REV32 of the loaded message bytes)"
#endif

namespace shasta::kernels::armv8 {
namespace {

// One stream's registers: H0..H3 and H4..H7 as the ABCD and EFGH operands, and the 16-word window.
struct Stream {
  uint32x4_t abcd, efgh, m0, m1, m2, m3;
};

[[gnu::always_inline]] inline uint32x4_t load_be(const std::uint8_t* p) noexcept {
  return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

// Four rounds of both streams, with w the message vector of each and k the four constants they share.
// SHA256H overwrites ABCD, and SHA256H2 needs the ABCD from before it, hence the copies.
[[gnu::always_inline]] inline void rounds4(Stream& a, Stream& b, uint32x4_t wa, uint32x4_t wb, uint32x4_t k) noexcept {
  const uint32x4_t wka = vaddq_u32(wa, k);
  const uint32x4_t wkb = vaddq_u32(wb, k);
  const uint32x4_t abcd_a = a.abcd;
  const uint32x4_t abcd_b = b.abcd;
  a.abcd = vsha256hq_u32(a.abcd, a.efgh, wka);
  b.abcd = vsha256hq_u32(b.abcd, b.efgh, wkb);
  a.efgh = vsha256h2q_u32(a.efgh, abcd_a, wka);
  b.efgh = vsha256h2q_u32(b.efgh, abcd_b, wkb);
}

// W[t..t+3] from W[t-16..t-1], given as four vectors oldest first (FIPS 180-4 6.2.2 step 1), for
// both streams; the result replaces w0, whose words the rounds have just consumed.
[[gnu::always_inline]] inline void schedule(uint32x4_t& a0, uint32x4_t a1, uint32x4_t a2, uint32x4_t a3,
                                            uint32x4_t& b0, uint32x4_t b1, uint32x4_t b2, uint32x4_t b3) noexcept {
  a0 = vsha256su0q_u32(a0, a1);
  b0 = vsha256su0q_u32(b0, b1);
  a0 = vsha256su1q_u32(a0, a2, a3);
  b0 = vsha256su1q_u32(b0, b2, b3);
}

// Sixteen rounds (four steps) that extend the schedule; k points at their sixteen constants.
[[gnu::always_inline]] inline void rounds16_scheduling(Stream& a, Stream& b, const std::uint32_t* k) noexcept {
  rounds4(a, b, a.m0, b.m0, vld1q_u32(k + 0)), schedule(a.m0, a.m1, a.m2, a.m3, b.m0, b.m1, b.m2, b.m3);
  rounds4(a, b, a.m1, b.m1, vld1q_u32(k + 4)), schedule(a.m1, a.m2, a.m3, a.m0, b.m1, b.m2, b.m3, b.m0);
  rounds4(a, b, a.m2, b.m2, vld1q_u32(k + 8)), schedule(a.m2, a.m3, a.m0, a.m1, b.m2, b.m3, b.m0, b.m1);
  rounds4(a, b, a.m3, b.m3, vld1q_u32(k + 12)), schedule(a.m3, a.m0, a.m1, a.m2, b.m3, b.m0, b.m1, b.m2);
}

}  // namespace

void sha256_compress_x2(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;

  // The two states, their copies for the feed-forward and the two message windows take 4 + 4 + 8
  // registers: the 64 constants (16 registers) no longer fit beside them, so they are loaded as the
  // rounds use them, each load shared by both streams.
  const std::uint32_t* k = kSha256RoundConstants.k;
  std::uint32_t* const state_a = states[0];
  std::uint32_t* const state_b = states[1];
  const std::uint8_t* pa = blocks[0];
  const std::uint8_t* pb = blocks[1];
  Stream a{}, b{};
  a.abcd = vld1q_u32(state_a), a.efgh = vld1q_u32(state_a + 4);
  b.abcd = vld1q_u32(state_b), b.efgh = vld1q_u32(state_b + 4);

  do {
    // Hiding the table's address from the optimizer each block keeps the constant loads in the loop,
    // one LDR or LDP each from one base register (as in sha512_armv8.cpp).
    __asm__("" : "+r"(k));
    const uint32x4_t abcd_a = a.abcd, efgh_a = a.efgh, abcd_b = b.abcd, efgh_b = b.efgh;
    a.m0 = load_be(pa), a.m1 = load_be(pa + 16), a.m2 = load_be(pa + 32), a.m3 = load_be(pa + 48);
    b.m0 = load_be(pb), b.m1 = load_be(pb + 16), b.m2 = load_be(pb + 32), b.m3 = load_be(pb + 48);

    // Rounds 0-47 extend the schedule as they go.
    rounds16_scheduling(a, b, k + 0);
    rounds16_scheduling(a, b, k + 16);
    rounds16_scheduling(a, b, k + 32);
    // Rounds 48-63: the schedule is complete.
    rounds4(a, b, a.m0, b.m0, vld1q_u32(k + 48));
    rounds4(a, b, a.m1, b.m1, vld1q_u32(k + 52));
    rounds4(a, b, a.m2, b.m2, vld1q_u32(k + 56));
    rounds4(a, b, a.m3, b.m3, vld1q_u32(k + 60));

    a.abcd = vaddq_u32(a.abcd, abcd_a), a.efgh = vaddq_u32(a.efgh, efgh_a);
    b.abcd = vaddq_u32(b.abcd, abcd_b), b.efgh = vaddq_u32(b.efgh, efgh_b);
    pa += 64;
    pb += 64;
  } while (--n != 0);

  vst1q_u32(state_a, a.abcd), vst1q_u32(state_a + 4, a.efgh);
  vst1q_u32(state_b, b.abcd), vst1q_u32(state_b + 4, b.efgh);
}

}  // namespace shasta::kernels::armv8
