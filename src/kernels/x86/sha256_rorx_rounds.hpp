// sha256_rorx_rounds.hpp: SHA-256 compression (FIPS 180-4 section 6.2.2) on the general registers,
// scalar BMI2 rorx rounds, with the message schedule of two blocks side by side in a ymm register's
// two 128-bit lanes, after Gulley et al., "Fast SHA-256 Implementations on Intel Architecture
// Processors" (Intel, 2012). The schedule step is the caller's: sha256_avx2.cpp builds each
// rotation from shifts, sha256_avx512.cpp uses AVX-512VL's vprord and vpternlogd. Include this
// only from files compiled with -mavx2 -mbmi2 (or more): these inline functions carry those
// instructions, and a copy built without the flags must never exist (all of it has internal
// linkage).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::sha256_rorx {
namespace {

// The compilers turn this into rorx under -mbmi2: no flags written, source kept intact.
[[gnu::always_inline]] inline std::uint32_t rotr(std::uint32_t x, int r) noexcept {
  return (x >> r) | (x << (32 - r));
}

// An empty asm that the optimiser cannot see through: it pins the order of a sum, and stops the
// compiler from hoisting the constant loads or forwarding the W+K stores into vector extracts.
template <class T>
[[gnu::always_inline]] inline T hide(T v) noexcept {
  __asm__("" : "+r"(v));
  return v;
}

// One round with the working variables renamed by the caller rather than moved; only d and h
// change. The sums are ordered so that e and a each depend on their previous value through four
// operations: d + h + W + K is ready early, so new e is that plus Ch, then plus Sigma1. New a is
// T1 + Sigma0 + Maj = new e - d + Sigma0 + Maj, with Maj(a,b,c) = (a & (b ^ c)) + (b & c) and
// b ^ c, b & c carried over from the previous round's a ^ b, a & b.
[[gnu::always_inline]] inline void step(std::uint32_t a, std::uint32_t b, std::uint32_t& d, std::uint32_t e,
                                        std::uint32_t f, std::uint32_t g, std::uint32_t& h, std::uint32_t& bxc,
                                        std::uint32_t& bnc, std::uint32_t wk) noexcept {
  const std::uint32_t dhw = d + h + wk;
  const std::uint32_t ch = ((f ^ g) & e) ^ g;
  const std::uint32_t sigma1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
  const std::uint32_t rest = hide(hide(bnc - d) + (a & bxc));
  d = hide(hide(dhw + ch) + sigma1);
  const std::uint32_t sigma0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
  h = hide(d + rest) + sigma0;
  bxc = a ^ b;
  bnc = a & b;
}

// Four rounds on W+K words wk[0..3]; afterwards the roles move by four (a..h become e,f,g,h,a,b,c,d).
[[gnu::always_inline]] inline void rounds4(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d,
                                           std::uint32_t& e, std::uint32_t& f, std::uint32_t& g, std::uint32_t& h,
                                           std::uint32_t& bxc, std::uint32_t& bnc, const std::uint32_t* wk) noexcept {
  step(a, b, d, e, f, g, h, bxc, bnc, wk[0]);
  step(h, a, c, d, e, f, g, bxc, bnc, wk[1]);
  step(g, h, b, c, d, e, f, bxc, bnc, wk[2]);
  step(f, g, a, b, c, d, e, bxc, bnc, wk[3]);
}

// Stores words 4i..4i+3 of both blocks plus K[4i..4i+3] at wk[8i..8i+7].
[[gnu::always_inline]] inline void put_wk(std::uint32_t* wk, const std::uint32_t* k, int i, __m256i w) noexcept {
  const __m256i k4 = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k + 4 * i)));
  _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 8 * i), _mm256_add_epi32(w, k4));
}

// Absorbs n blocks into state. Schedule::next(x0, x1, x2, x3) returns W[t..t+3] of both blocks
// (FIPS 180-4 eq. 6.2.2 step 1) from x0 = W[t-16..t-13] .. x3 = W[t-4..t-1].
template <class Schedule>
[[gnu::always_inline]] inline void compress_blocks(std::uint32_t state[8], const std::uint8_t* blocks,
                                                std::size_t n) noexcept {
  // Per 128-bit lane: big-endian words to little-endian.
  const __m256i bswap =
      _mm256_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL, 0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  // W+K of words 4i..4i+3: first block at wk[8i..8i+3], second block at wk[8i+4..8i+7].
  alignas(32) std::uint32_t wk[128];

  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

  while (n != 0) {
    const bool pair = n >= 2;
    const std::uint32_t* k = hide(kSha256RoundConstants.k);
    const std::uint32_t* rk = hide(static_cast<const std::uint32_t*>(wk));
    // With one block left, the second lane just repeats it and its rounds are skipped.
    const auto* p0 = reinterpret_cast<const __m128i*>(blocks);
    const auto* p1 = reinterpret_cast<const __m128i*>(pair ? blocks + 64 : blocks);
    __m256i x[4];
    for (int i = 0; i < 4; ++i) {
      const __m256i raw =
          _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(p0 + i)), _mm_loadu_si128(p1 + i), 1);
      x[i] = _mm256_shuffle_epi8(raw, bswap);
      put_wk(wk, k, i, x[i]);
    }
    __m256i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];

    // First block: rounds 0-47 each run beside the schedule step for sixteen words later.
    std::uint32_t a0 = a, b0 = b, c0 = c, d0 = d, e0 = e, f0 = f, g0 = g, h0 = h;
    std::uint32_t bxc = b ^ c, bnc = b & c;
#pragma GCC unroll 3
    for (int i = 0; i < 12; i += 4) {
      rounds4(a, b, c, d, e, f, g, h, bxc, bnc, rk + 8 * i);
      x0 = Schedule::next(x0, x1, x2, x3);
      put_wk(wk, k, i + 4, x0);
      rounds4(e, f, g, h, a, b, c, d, bxc, bnc, rk + 8 * (i + 1));
      x1 = Schedule::next(x1, x2, x3, x0);
      put_wk(wk, k, i + 5, x1);
      rounds4(a, b, c, d, e, f, g, h, bxc, bnc, rk + 8 * (i + 2));
      x2 = Schedule::next(x2, x3, x0, x1);
      put_wk(wk, k, i + 6, x2);
      rounds4(e, f, g, h, a, b, c, d, bxc, bnc, rk + 8 * (i + 3));
      x3 = Schedule::next(x3, x0, x1, x2);
      put_wk(wk, k, i + 7, x3);
    }
#pragma GCC unroll 2
    for (int i = 12; i < 16; i += 2) {
      rounds4(a, b, c, d, e, f, g, h, bxc, bnc, rk + 8 * i);
      rounds4(e, f, g, h, a, b, c, d, bxc, bnc, rk + 8 * (i + 1));
    }
    a += a0;
    b += b0;
    c += c0;
    d += d0;
    e += e0;
    f += f0;
    g += g0;
    h += h0;

    if (pair) {
      // Second block: its whole schedule is already in wk.
      a0 = a;
      b0 = b;
      c0 = c;
      d0 = d;
      e0 = e;
      f0 = f;
      g0 = g;
      h0 = h;
      bxc = b ^ c;
      bnc = b & c;
      for (int i = 0; i < 16; i += 2) {
        rounds4(a, b, c, d, e, f, g, h, bxc, bnc, rk + 8 * i + 4);
        rounds4(e, f, g, h, a, b, c, d, bxc, bnc, rk + 8 * (i + 1) + 4);
      }
      a += a0;
      b += b0;
      c += c0;
      d += d0;
      e += e0;
      f += f0;
      g += g0;
      h += h0;
    }
    blocks += pair ? 128 : 64;
    n -= pair ? 2 : 1;
  }

  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
  state[4] = e;
  state[5] = f;
  state[6] = g;
  state[7] = h;
}

}  // namespace
}  // namespace shasta::kernels::sha256_rorx
