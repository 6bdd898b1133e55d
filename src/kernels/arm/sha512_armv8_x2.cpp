// sha512_armv8_x2.cpp: SHA-512 compression of two independent streams on the Armv8.2 SHA512 instructions
// (FEAT_SHA512: SHA512H, SHA512H2, SHA512SU0, SHA512SU1; Arm ARM C7.2), interleaved instruction by
// instruction so that one stream's SHA512H/SHA512H2 latency chain hides the other's; rounds as
// FIPS 180-4 6.4.2, the same two-round steps as sha512_armv8.cpp.
// Little-endian only: the message words are byte-swapped with REV64, which assumes an LE load.
#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#if defined(__ARM_BIG_ENDIAN)
#error "sha512_armv8_x2.cpp assumes little-endian lanes (REV64 of the loaded message bytes)"
#endif

namespace shasta::kernels::armv8 {
namespace {

// One stream's registers: the working variables as four vectors, low lane first (ab = {a, b},
// cd = {c, d}, ef = {e, f}, gh = {g, h}; the state H0..H7 in natural order loads into exactly this
// layout), and its sixteen-word window as eight pairs.
struct Stream {
  uint64x2_t ab, cd, ef, gh;
  uint64x2_t m0, m1, m2, m3, m4, m5, m6, m7;
};

// Rounds t and t+1 of both streams, with kw = {K[t] + W[t], K[t+1] + W[t+1]} of each. SHA512H takes
// {g + KW[t+1], h + KW[t]}, {f, g} and {d, e} and yields {T1[t+1], T1[t]}; SHA512H2 takes that, {c, d}
// and {a, b} and yields the new {a, b}. Two rounds later c, d are the old a, b, g, h the old e, f,
// and e, f are c, d plus T1.
[[gnu::always_inline]] inline void rounds2(Stream& a, Stream& b, uint64x2_t wa, uint64x2_t wb, uint64x2_t k) noexcept {
  const uint64x2_t kwa = vaddq_u64(wa, k);
  const uint64x2_t kwb = vaddq_u64(wb, k);
  const uint64x2_t hg_kwa = vaddq_u64(a.gh, vextq_u64(kwa, kwa, 1));
  const uint64x2_t hg_kwb = vaddq_u64(b.gh, vextq_u64(kwb, kwb, 1));
  const uint64x2_t fga = vextq_u64(a.ef, a.gh, 1);
  const uint64x2_t fgb = vextq_u64(b.ef, b.gh, 1);
  const uint64x2_t dea = vextq_u64(a.cd, a.ef, 1);
  const uint64x2_t deb = vextq_u64(b.cd, b.ef, 1);
  const uint64x2_t t1a = vsha512hq_u64(hg_kwa, fga, dea);
  const uint64x2_t t1b = vsha512hq_u64(hg_kwb, fgb, deb);
  // The new e, f first: SHA512H2 overwrites its T1 operand.
  const uint64x2_t efa = vaddq_u64(a.cd, t1a);
  const uint64x2_t efb = vaddq_u64(b.cd, t1b);
  const uint64x2_t aba = vsha512h2q_u64(t1a, a.cd, a.ab);
  const uint64x2_t abb = vsha512h2q_u64(t1b, b.cd, b.ab);
  a.gh = a.ef, b.gh = b.ef;
  a.ef = efa, b.ef = efb;
  a.cd = a.ab, b.cd = b.ab;
  a.ab = aba, b.ab = abb;
}

// W[t], W[t+1] from W[t-16..t-1] held in eight pairs: w0 = {W[t-16], W[t-15]}, w1 the next pair,
// w4w5 = {W[t-7], W[t-6]} and w7 = {W[t-2], W[t-1]} (FIPS 180-4 6.4.2 step 1), for both streams;
// the result replaces w0, whose words the rounds have just consumed.
[[gnu::always_inline]] inline void schedule(uint64x2_t& a0, uint64x2_t a1, uint64x2_t a4, uint64x2_t a5, uint64x2_t a7,
                                            uint64x2_t& b0, uint64x2_t b1, uint64x2_t b4, uint64x2_t b5,
                                            uint64x2_t b7) noexcept {
  const uint64x2_t a45 = vextq_u64(a4, a5, 1);
  const uint64x2_t b45 = vextq_u64(b4, b5, 1);
  a0 = vsha512su0q_u64(a0, a1);
  b0 = vsha512su0q_u64(b0, b1);
  a0 = vsha512su1q_u64(a0, a7, a45);
  b0 = vsha512su1q_u64(b0, b7, b45);
}

[[gnu::always_inline]] inline uint64x2_t load_be(const std::uint8_t* p) noexcept {
  return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

[[gnu::always_inline]] inline void load_block(Stream& s, const std::uint8_t* p) noexcept {
  s.m0 = load_be(p), s.m1 = load_be(p + 16), s.m2 = load_be(p + 32), s.m3 = load_be(p + 48);
  s.m4 = load_be(p + 64), s.m5 = load_be(p + 80), s.m6 = load_be(p + 96), s.m7 = load_be(p + 112);
}

// Sixteen rounds on the eight message pairs of both streams, each pair then replaced by the one
// eight pairs later; k points at the sixteen constants. The pairs rotate, so the newest is always w7's.
[[gnu::always_inline]] inline void rounds16_scheduling(Stream& a, Stream& b, const std::uint64_t* k) noexcept {
  rounds2(a, b, a.m0, b.m0, vld1q_u64(k + 0)), schedule(a.m0, a.m1, a.m4, a.m5, a.m7, b.m0, b.m1, b.m4, b.m5, b.m7);
  rounds2(a, b, a.m1, b.m1, vld1q_u64(k + 2)), schedule(a.m1, a.m2, a.m5, a.m6, a.m0, b.m1, b.m2, b.m5, b.m6, b.m0);
  rounds2(a, b, a.m2, b.m2, vld1q_u64(k + 4)), schedule(a.m2, a.m3, a.m6, a.m7, a.m1, b.m2, b.m3, b.m6, b.m7, b.m1);
  rounds2(a, b, a.m3, b.m3, vld1q_u64(k + 6)), schedule(a.m3, a.m4, a.m7, a.m0, a.m2, b.m3, b.m4, b.m7, b.m0, b.m2);
  rounds2(a, b, a.m4, b.m4, vld1q_u64(k + 8)), schedule(a.m4, a.m5, a.m0, a.m1, a.m3, b.m4, b.m5, b.m0, b.m1, b.m3);
  rounds2(a, b, a.m5, b.m5, vld1q_u64(k + 10)), schedule(a.m5, a.m6, a.m1, a.m2, a.m4, b.m5, b.m6, b.m1, b.m2, b.m4);
  rounds2(a, b, a.m6, b.m6, vld1q_u64(k + 12)), schedule(a.m6, a.m7, a.m2, a.m3, a.m5, b.m6, b.m7, b.m2, b.m3, b.m5);
  rounds2(a, b, a.m7, b.m7, vld1q_u64(k + 14)), schedule(a.m7, a.m0, a.m3, a.m4, a.m6, b.m7, b.m0, b.m3, b.m4, b.m6);
}

// The copy of one stream's state for the feed-forward, in general-purpose registers: the two states
// (8 vectors) and the two windows (16) leave the 32 vector registers too few for the copies as well
// as the rounds' temporaries, and 16 of the 31 general-purpose registers are otherwise idle here.
struct Saved {
  std::uint64_t h0, h1, h2, h3, h4, h5, h6, h7;
};

[[gnu::always_inline]] inline void save(Saved& c, const Stream& s) noexcept {
  std::uint64_t h0 = vgetq_lane_u64(s.ab, 0), h1 = vgetq_lane_u64(s.ab, 1), h2 = vgetq_lane_u64(s.cd, 0),
                h3 = vgetq_lane_u64(s.cd, 1), h4 = vgetq_lane_u64(s.ef, 0), h5 = vgetq_lane_u64(s.ef, 1),
                h6 = vgetq_lane_u64(s.gh, 0), h7 = vgetq_lane_u64(s.gh, 1);
  // Pins the copies to general-purpose registers (the "r" class) right after the moves out.
  __asm__("" : "+r"(h0), "+r"(h1), "+r"(h2), "+r"(h3), "+r"(h4), "+r"(h5), "+r"(h6), "+r"(h7));
  c = Saved{h0, h1, h2, h3, h4, h5, h6, h7};
}

[[gnu::always_inline]] inline uint64x2_t pair(std::uint64_t lo, std::uint64_t hi) noexcept {
  return vsetq_lane_u64(hi, vdupq_n_u64(lo), 1);
}

[[gnu::always_inline]] inline void feed_forward(Stream& s, const Saved& c) noexcept {
  s.ab = vaddq_u64(s.ab, pair(c.h0, c.h1));
  s.cd = vaddq_u64(s.cd, pair(c.h2, c.h3));
  s.ef = vaddq_u64(s.ef, pair(c.h4, c.h5));
  s.gh = vaddq_u64(s.gh, pair(c.h6, c.h7));
}

}  // namespace

// As in sha512_armv8.cpp: GCC's scheduler before register allocation stretches the rotating live
// ranges past the 32 registers; without it the window and the states stay in registers.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-schedule-insns")
#endif
void sha512_compress_x2(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;

  // 80 constants would take 40 registers: they are loaded from memory as the rounds use them, each
  // load shared by both streams.
  const std::uint64_t* k = kSha512RoundConstants.k;
  std::uint64_t* const state_a = states[0];
  std::uint64_t* const state_b = states[1];
  const std::uint8_t* pa = blocks[0];
  const std::uint8_t* pb = blocks[1];
  Stream a{}, b{};
  a.ab = vld1q_u64(state_a), a.cd = vld1q_u64(state_a + 2), a.ef = vld1q_u64(state_a + 4), a.gh = vld1q_u64(state_a + 6);
  b.ab = vld1q_u64(state_b), b.cd = vld1q_u64(state_b + 2), b.ef = vld1q_u64(state_b + 4), b.gh = vld1q_u64(state_b + 6);

  do {
    // Hiding the table's address from the optimizer each block keeps the constant loads in the loop,
    // one LDR or LDP each from one base register (as in sha512_armv8.cpp).
    __asm__("" : "+r"(k));
    Saved saved_a, saved_b;
    save(saved_a, a);
    save(saved_b, b);
    load_block(a, pa);
    load_block(b, pb);

    // Rounds 0-63 extend the schedule as they go.
    rounds16_scheduling(a, b, k + 0);
    rounds16_scheduling(a, b, k + 16);
    rounds16_scheduling(a, b, k + 32);
    rounds16_scheduling(a, b, k + 48);
    // Rounds 64-79: the schedule is complete.
    rounds2(a, b, a.m0, b.m0, vld1q_u64(k + 64));
    rounds2(a, b, a.m1, b.m1, vld1q_u64(k + 66));
    rounds2(a, b, a.m2, b.m2, vld1q_u64(k + 68));
    rounds2(a, b, a.m3, b.m3, vld1q_u64(k + 70));
    rounds2(a, b, a.m4, b.m4, vld1q_u64(k + 72));
    rounds2(a, b, a.m5, b.m5, vld1q_u64(k + 74));
    rounds2(a, b, a.m6, b.m6, vld1q_u64(k + 76));
    rounds2(a, b, a.m7, b.m7, vld1q_u64(k + 78));

    feed_forward(a, saved_a);
    feed_forward(b, saved_b);
    pa += 128;
    pb += 128;
  } while (--n != 0);

  vst1q_u64(state_a, a.ab), vst1q_u64(state_a + 2, a.cd), vst1q_u64(state_a + 4, a.ef), vst1q_u64(state_a + 6, a.gh);
  vst1q_u64(state_b, b.ab), vst1q_u64(state_b + 2, b.cd), vst1q_u64(state_b + 4, b.ef), vst1q_u64(state_b + 6, b.gh);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

}  // namespace shasta::kernels::armv8
