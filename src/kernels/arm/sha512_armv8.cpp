// sha512_armv8.cpp: SHA-512 compression on the Armv8.2 SHA512 instructions (FEAT_SHA512: SHA512H, SHA512H2,
// SHA512SU0, SHA512SU1; Arm ARM C7.2), two rounds per SHA512H/SHA512H2 pair; rounds as FIPS 180-4 6.4.2.
// Little-endian only: the message words are byte-swapped with REV64, which assumes an LE load.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#if defined(__ARM_BIG_ENDIAN)
#error "sha512_armv8.cpp assumes little-endian lanes (REV64 of the loaded message bytes)"
#endif

namespace shasta::kernels::armv8 {
namespace {

// The working variables as four vectors, low lane first: ab = {a, b}, cd = {c, d}, ef = {e, f}, gh = {g, h};
// the state H0..H7 in natural order loads into exactly this layout.
struct Working {
  uint64x2_t ab, cd, ef, gh;
};

// Rounds t and t+1, with kw = {K[t] + W[t], K[t+1] + W[t+1]}. SHA512H takes {g + KW[t+1], h + KW[t]},
// {f, g} and {d, e} and yields {T1[t+1], T1[t]}; SHA512H2 takes that, {c, d} and {a, b} and yields the
// new {a, b}. Two rounds later c, d are the old a, b, g, h the old e, f, and e, f are c, d plus T1.
[[gnu::always_inline]] inline void rounds2(Working& s, uint64x2_t kw) noexcept {
  const uint64x2_t hg_kw = vaddq_u64(s.gh, vextq_u64(kw, kw, 1));
  const uint64x2_t fg = vextq_u64(s.ef, s.gh, 1);
  const uint64x2_t de = vextq_u64(s.cd, s.ef, 1);
  const uint64x2_t t1 = vsha512hq_u64(hg_kw, fg, de);
  // The new e, f first: SHA512H2 overwrites its T1 operand.
  const uint64x2_t ef = vaddq_u64(s.cd, t1);
  const uint64x2_t ab = vsha512h2q_u64(t1, s.cd, s.ab);
  s.gh = s.ef;
  s.ef = ef;
  s.cd = s.ab;
  s.ab = ab;
}

// W[t], W[t+1] from W[t-16..t-1] held in eight vectors: w0 = {W[t-16], W[t-15]}, w1 the next pair,
// w4w5 = {W[t-7], W[t-6]} and w7 = {W[t-2], W[t-1]} (FIPS 180-4 6.4.2 step 1).
[[gnu::always_inline]] inline uint64x2_t schedule(uint64x2_t w0, uint64x2_t w1, uint64x2_t w4, uint64x2_t w5,
                                                  uint64x2_t w7) noexcept {
  return vsha512su1q_u64(vsha512su0q_u64(w0, w1), w7, vextq_u64(w4, w5, 1));
}

[[gnu::always_inline]] inline uint64x2_t load_be(const std::uint8_t* p) noexcept {
  return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

// Sixteen rounds on the eight message pairs, each pair then replaced by the one eight pairs later;
// k points at the sixteen constants. The arguments rotate, so the newest pair is always w7's.
[[gnu::always_inline]] inline void rounds16_scheduling(Working& s, uint64x2_t& m0, uint64x2_t& m1, uint64x2_t& m2,
                                                       uint64x2_t& m3, uint64x2_t& m4, uint64x2_t& m5, uint64x2_t& m6,
                                                       uint64x2_t& m7, const std::uint64_t* k) noexcept {
  rounds2(s, vaddq_u64(m0, vld1q_u64(k + 0))), m0 = schedule(m0, m1, m4, m5, m7);
  rounds2(s, vaddq_u64(m1, vld1q_u64(k + 2))), m1 = schedule(m1, m2, m5, m6, m0);
  rounds2(s, vaddq_u64(m2, vld1q_u64(k + 4))), m2 = schedule(m2, m3, m6, m7, m1);
  rounds2(s, vaddq_u64(m3, vld1q_u64(k + 6))), m3 = schedule(m3, m4, m7, m0, m2);
  rounds2(s, vaddq_u64(m4, vld1q_u64(k + 8))), m4 = schedule(m4, m5, m0, m1, m3);
  rounds2(s, vaddq_u64(m5, vld1q_u64(k + 10))), m5 = schedule(m5, m6, m1, m2, m4);
  rounds2(s, vaddq_u64(m6, vld1q_u64(k + 12))), m6 = schedule(m6, m7, m2, m3, m5);
  rounds2(s, vaddq_u64(m7, vld1q_u64(k + 14))), m7 = schedule(m7, m0, m3, m4, m6);
}

}  // namespace

// GCC's scheduler before register allocation stretches the rotating live ranges, and every
// destructive SHA512H2/SHA512SU0 then needs a copy (about 45 MOVs a block). Without it: none.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-schedule-insns")
#endif
void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  if (n == 0) return;

  // 80 constants would take 40 registers, more than the 32 there are: they are loaded from memory
  // as the rounds use them. The state, its copy and the message take 4 + 4 + 8.
  const std::uint64_t* k = kSha512RoundConstants.k;
  Working s{vld1q_u64(state), vld1q_u64(state + 2), vld1q_u64(state + 4), vld1q_u64(state + 6)};

  do {
    // Hiding the table's address from the optimizer each block keeps the constant loads in the loop,
    // one LDR or LDP each from one base register; otherwise GCC hoists them, spills them to the stack
    // and reloads them from there, or rebuilds every address with an ADRP.
    __asm__("" : "+r"(k));
    const Working saved = s;
    uint64x2_t m0 = load_be(blocks), m1 = load_be(blocks + 16), m2 = load_be(blocks + 32), m3 = load_be(blocks + 48),
               m4 = load_be(blocks + 64), m5 = load_be(blocks + 80), m6 = load_be(blocks + 96),
               m7 = load_be(blocks + 112);

    // Rounds 0-63 extend the schedule as they go.
    rounds16_scheduling(s, m0, m1, m2, m3, m4, m5, m6, m7, k + 0);
    rounds16_scheduling(s, m0, m1, m2, m3, m4, m5, m6, m7, k + 16);
    rounds16_scheduling(s, m0, m1, m2, m3, m4, m5, m6, m7, k + 32);
    rounds16_scheduling(s, m0, m1, m2, m3, m4, m5, m6, m7, k + 48);
    // Rounds 64-79: the schedule is complete.
    rounds2(s, vaddq_u64(m0, vld1q_u64(k + 64)));
    rounds2(s, vaddq_u64(m1, vld1q_u64(k + 66)));
    rounds2(s, vaddq_u64(m2, vld1q_u64(k + 68)));
    rounds2(s, vaddq_u64(m3, vld1q_u64(k + 70)));
    rounds2(s, vaddq_u64(m4, vld1q_u64(k + 72)));
    rounds2(s, vaddq_u64(m5, vld1q_u64(k + 74)));
    rounds2(s, vaddq_u64(m6, vld1q_u64(k + 76)));
    rounds2(s, vaddq_u64(m7, vld1q_u64(k + 78)));

    s.ab = vaddq_u64(s.ab, saved.ab);
    s.cd = vaddq_u64(s.cd, saved.cd);
    s.ef = vaddq_u64(s.ef, saved.ef);
    s.gh = vaddq_u64(s.gh, saved.gh);
    blocks += 128;
  } while (--n != 0);

  vst1q_u64(state, s.ab);
  vst1q_u64(state + 2, s.cd);
  vst1q_u64(state + 4, s.ef);
  vst1q_u64(state + 6, s.gh);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

}  // namespace shasta::kernels::armv8
