// sha256_armv8.cpp: SHA-256 compression on the Armv8 SHA2 instructions (FEAT_SHA256: SHA256H, SHA256H2,
// SHA256SU0, SHA256SU1; Arm ARM C7.2), four rounds per SHA256H/SHA256H2 pair; rounds as FIPS 180-4 6.2.2.
// Little-endian only: the message words are byte-swapped with REV32, which assumes an LE load.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#if defined(__ARM_BIG_ENDIAN)
#error "sha256_armv8.cpp assumes little-endian lanes (REV32 of the loaded message bytes)"
#endif

namespace shasta::kernels::armv8 {
namespace {

// Four rounds. SHA256H overwrites ABCD, and SHA256H2 needs the ABCD from before it, hence the copy.
[[gnu::always_inline]] inline void rounds4(uint32x4_t& abcd, uint32x4_t& efgh, uint32x4_t wk) noexcept {
  const uint32x4_t abcd_in = abcd;
  abcd = vsha256hq_u32(abcd, efgh, wk);
  efgh = vsha256h2q_u32(efgh, abcd_in, wk);
}

// W[t..t+3] from W[t-16..t-1], given as four vectors oldest first (FIPS 180-4 6.2.2 step 1).
[[gnu::always_inline]] inline uint32x4_t schedule(uint32x4_t w0, uint32x4_t w1, uint32x4_t w2, uint32x4_t w3) noexcept {
  return vsha256su1q_u32(vsha256su0q_u32(w0, w1), w2, w3);
}

[[gnu::always_inline]] inline uint32x4_t load_be(const std::uint8_t* p) noexcept {
  return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  if (n == 0) return;

  // All 64 constants live in 16 registers for the whole call: with the state (2), its copy for the
  // feed-forward (2), the message (4) and two temporaries that is 26 of the 32 vector registers.
  const std::uint32_t* kk = kSha256RoundConstants.k;
  const uint32x4_t k0 = vld1q_u32(kk + 0), k1 = vld1q_u32(kk + 4), k2 = vld1q_u32(kk + 8), k3 = vld1q_u32(kk + 12),
                   k4 = vld1q_u32(kk + 16), k5 = vld1q_u32(kk + 20), k6 = vld1q_u32(kk + 24), k7 = vld1q_u32(kk + 28),
                   k8 = vld1q_u32(kk + 32), k9 = vld1q_u32(kk + 36), k10 = vld1q_u32(kk + 40), k11 = vld1q_u32(kk + 44),
                   k12 = vld1q_u32(kk + 48), k13 = vld1q_u32(kk + 52), k14 = vld1q_u32(kk + 56),
                   k15 = vld1q_u32(kk + 60);

  // H0..H3 and H4..H7 in natural order are exactly the ABCD and EFGH operands the instructions take.
  uint32x4_t abcd = vld1q_u32(state);
  uint32x4_t efgh = vld1q_u32(state + 4);

  do {
    const uint32x4_t abcd_saved = abcd, efgh_saved = efgh;
    uint32x4_t m0 = load_be(blocks), m1 = load_be(blocks + 16), m2 = load_be(blocks + 32), m3 = load_be(blocks + 48);

    // Rounds 0-47: each group of four consumes one message vector and then replaces it with the
    // words sixteen rounds later.
    rounds4(abcd, efgh, vaddq_u32(m0, k0)), m0 = schedule(m0, m1, m2, m3);
    rounds4(abcd, efgh, vaddq_u32(m1, k1)), m1 = schedule(m1, m2, m3, m0);
    rounds4(abcd, efgh, vaddq_u32(m2, k2)), m2 = schedule(m2, m3, m0, m1);
    rounds4(abcd, efgh, vaddq_u32(m3, k3)), m3 = schedule(m3, m0, m1, m2);
    rounds4(abcd, efgh, vaddq_u32(m0, k4)), m0 = schedule(m0, m1, m2, m3);
    rounds4(abcd, efgh, vaddq_u32(m1, k5)), m1 = schedule(m1, m2, m3, m0);
    rounds4(abcd, efgh, vaddq_u32(m2, k6)), m2 = schedule(m2, m3, m0, m1);
    rounds4(abcd, efgh, vaddq_u32(m3, k7)), m3 = schedule(m3, m0, m1, m2);
    rounds4(abcd, efgh, vaddq_u32(m0, k8)), m0 = schedule(m0, m1, m2, m3);
    rounds4(abcd, efgh, vaddq_u32(m1, k9)), m1 = schedule(m1, m2, m3, m0);
    rounds4(abcd, efgh, vaddq_u32(m2, k10)), m2 = schedule(m2, m3, m0, m1);
    rounds4(abcd, efgh, vaddq_u32(m3, k11)), m3 = schedule(m3, m0, m1, m2);
    // Rounds 48-63: the schedule is complete.
    rounds4(abcd, efgh, vaddq_u32(m0, k12));
    rounds4(abcd, efgh, vaddq_u32(m1, k13));
    rounds4(abcd, efgh, vaddq_u32(m2, k14));
    rounds4(abcd, efgh, vaddq_u32(m3, k15));

    abcd = vaddq_u32(abcd, abcd_saved);
    efgh = vaddq_u32(efgh, efgh_saved);
    blocks += 64;
  } while (--n != 0);

  vst1q_u32(state, abcd);
  vst1q_u32(state + 4, efgh);
}

}  // namespace shasta::kernels::armv8
