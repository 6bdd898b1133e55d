// sha512_rorx_rounds.hpp: SHA-512 compression (FIPS 180-4 section 6.4.2) on the general registers,
// scalar BMI2 rorx rounds (Guilford et al., "Fast SHA512 Implementations on Intel Architecture
// Processors", Intel, 2012), with the message schedule of two blocks side by side in a ymm register's
// two 128-bit lanes (the layout of OpenSSL's sha512-x86_64 AVX2 path). The schedule step and the
// round's form are the caller's: sha512_avx2.cpp builds each rotation from two shifts and takes the
// fewest operations a round (on targets other than ELF: there sha512_avx2_blocks.S writes the same
// by hand), sha512_avx512.cpp uses AVX-512VL's vprorq and vpternlogq and the shortest chain.
// Include this only from files compiled with -mavx2 -mbmi2 (or more): these inline functions carry
// those instructions, and a copy built without the flags must never exist (all of it has internal
// linkage).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::sha512_rorx {
namespace {

// The compilers turn this into rorx under -mbmi2: no flags written, source kept intact.
[[gnu::always_inline]] inline std::uint64_t rotr(std::uint64_t x, int r) noexcept {
  return (x >> r) | (x << (64 - r));
}

// An empty asm that the optimiser cannot see through: it pins the order of a sum, and stops the
// compiler from hoisting the constant loads or forwarding the W+K stores into vector extracts.
template <class T>
[[gnu::always_inline]] inline T hide(T v) noexcept {
  __asm__("" : "+r"(v));
  return v;
}

// A volatile asm is a barrier to g++'s post-allocation scheduler, which then cannot mix the
// schedule's code into the rounds. Whether that pays depends on the core and the round's form, so
// the rounds' policy says (kFenceSchedule): without it, the short-chain rounds were about 7% slower
// (g++, 551bc84); with it, the fewest-operations rounds are about 7% slower on Zen 3.
template <class Round>
[[gnu::always_inline]] inline void fence() noexcept {
  if constexpr (Round::kFenceSchedule) __asm__ volatile("");
}

// The chaining values before a block stay in memory, and the feed-forward adds them with a load
// folded into the add, so the next block waits on one add. Held in variables, g++ spilled them
// (there are no registers for them), added each into its spill slot and loaded it back: a store
// forwarded on the way from one block to the next, every block.
struct ChainingValues {
  alignas(64) std::uint64_t v[8];

  [[gnu::always_inline]] void save(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d,
                                   std::uint64_t e, std::uint64_t f, std::uint64_t g, std::uint64_t h) noexcept {
    v[0] = a;
    v[1] = b;
    v[2] = c;
    v[3] = d;
    v[4] = e;
    v[5] = f;
    v[6] = g;
    v[7] = h;
  }

  [[gnu::always_inline]] static void add(std::uint64_t& x, const std::uint64_t& saved) noexcept {
    __asm__("add %1, %0" : "+r"(x) : "m"(saved) : "cc");
  }

  [[gnu::always_inline]] void feed_forward(std::uint64_t& a, std::uint64_t& b, std::uint64_t& c, std::uint64_t& d,
                                           std::uint64_t& e, std::uint64_t& f, std::uint64_t& g,
                                           std::uint64_t& h) const noexcept {
    add(a, v[0]);
    add(b, v[1]);
    add(c, v[2]);
    add(d, v[3]);
    add(e, v[4]);
    add(f, v[5]);
    add(g, v[6]);
    add(h, v[7]);
  }
};

// One round with the working variables renamed by the caller rather than moved; only d and h
// change, and bxc carries b ^ c from round to round. Two ways to write it, picked per kernel by the
// rounds' policy, because the cores differ in what bounds them.
//
// ShortChainRound: e and a each depend on their previous value through four operations, at 24
// operations a round. d + h + W + K is ready early (hidden, else g++ folds it into that chain), so
// new e is that plus Ch, then plus Sigma1. New a is T1 + Sigma0 + Maj = new e - d + Sigma0 + Maj,
// with Maj(a,b,c) = (a & (b ^ c)) + (b & c), bnc carrying b & c as bxc carries b ^ c. For cores
// with the ALUs to spare (Zen 5's six), where the chain bounds the round.
struct ShortChainRound {
  // The first block's 64 scheduled rounds unrolled four times, as they were when the avx512 row
  // was measured on Zen 5 (35e0453).
  static constexpr bool kCompactCode = false;
  static constexpr bool kFenceSchedule = true;

  [[gnu::always_inline]] static void step(std::uint64_t a, std::uint64_t b, std::uint64_t& d, std::uint64_t e,
                                          std::uint64_t f, std::uint64_t g, std::uint64_t& h, std::uint64_t& bxc,
                                          std::uint64_t& bnc, std::uint64_t wk) noexcept {
    const std::uint64_t dhw = hide(d + h + wk);
    const std::uint64_t ch = ((f ^ g) & e) ^ g;
    const std::uint64_t sigma1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41);
    const std::uint64_t rest = hide(hide(bnc - d) + (a & bxc));
    d = hide(hide(dhw + ch) + sigma1);
    const std::uint64_t sigma0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39);
    h = hide(d + rest) + sigma0;
    bxc = a ^ b;
    bnc = a & b;
  }
};

// FewestOpsRound: 22 operations and two register copies a round, at five on each chain: T1 = h + W
// + K + Ch + Sigma1, with Ch(e,f,g) = ((f ^ g) & e) ^ g (one copy; (e & f) + (~e & g) takes two
// copies and one more operation without BMI1's andn, as the avx2 row is built, and was 3.5%
// slower), new e = d + T1, new a = T1 + Sigma0 + Maj, with Maj(a,b,c) = ((a ^ b) & (b ^ c)) ^ b and
// a ^ b carried as the next round's b ^ c. For cores whose ALUs bound the round: Zen 3 has four,
// and runs rorx on two of them (1.92 a cycle); there this round is 2-9% faster than the other on
// one block to 1 MiB (doc/performance.md). Its code is compact too: Zen 3's op cache does not hold
// the first block's 64 rounds unrolled, and decoding them cost 9% on 1 MiB, 13% on 64 bytes.
struct FewestOpsRound {
  static constexpr bool kCompactCode = true;
  static constexpr bool kFenceSchedule = false;

  [[gnu::always_inline]] static void step(std::uint64_t a, std::uint64_t b, std::uint64_t& d, std::uint64_t e,
                                          std::uint64_t f, std::uint64_t g, std::uint64_t& h, std::uint64_t& bxc,
                                          std::uint64_t& /*bnc*/, std::uint64_t wk) noexcept {
    const std::uint64_t sigma1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41);
    const std::uint64_t t1 = hide(hide(h + wk) + (((f ^ g) & e) ^ g)) + sigma1;
    d += t1;
    const std::uint64_t axb = a ^ b;
    const std::uint64_t maj = (axb & bxc) ^ b;
    bxc = axb;
    const std::uint64_t sigma0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39);
    h = hide(t1 + maj) + sigma0;
  }
};

// Four rounds; W+K for them sits at wk[0], wk[1], wk[4], wk[5] (two words per block in each
// schedule vector). Afterwards the roles move by four (a..h become e,f,g,h,a,b,c,d).
template <class Round>
[[gnu::always_inline]] inline void rounds4(std::uint64_t& a, std::uint64_t& b, std::uint64_t& c, std::uint64_t& d,
                                           std::uint64_t& e, std::uint64_t& f, std::uint64_t& g, std::uint64_t& h,
                                           std::uint64_t& bxc, std::uint64_t& bnc, const std::uint64_t* wk) noexcept {
  Round::step(a, b, d, e, f, g, h, bxc, bnc, wk[0]);
  Round::step(h, a, c, d, e, f, g, bxc, bnc, wk[1]);
  Round::step(g, h, b, c, d, e, f, bxc, bnc, wk[4]);
  Round::step(f, g, a, b, c, d, e, bxc, bnc, wk[5]);
}

// Stores words 2i, 2i+1 of both blocks plus K[2i], K[2i+1] at wk[4i..4i+3].
[[gnu::always_inline]] inline void put_wk(std::uint64_t* wk, const std::uint64_t* k, int i, __m256i w) noexcept {
  const __m256i k2 = _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(k + 2 * i)));
  _mm256_store_si256(reinterpret_cast<__m256i*>(wk + 4 * i), _mm256_add_epi64(w, k2));
}

// Absorbs n blocks into state. Schedule::next(x0, x1, x4, x5, x7) returns W[t], W[t+1] of both
// blocks (FIPS 180-4 eq. 6.4.2 step 1), where xj holds W[t-16+2j..t-15+2j]: two words per lane
// keep sigma1's input, W[t-2..t-1], inside one finished vector.
template <class Schedule, class Round>
[[gnu::always_inline]] inline void compress_blocks(std::uint64_t state[8], const std::uint8_t* blocks,
                                                std::size_t n) noexcept {
  // Per 128-bit lane: big-endian 64-bit words to little-endian.
  const __m256i bswap =
      _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
  // W+K of words 2i, 2i+1: first block at wk[4i], wk[4i+1], second block at wk[4i+2], wk[4i+3].
  alignas(32) std::uint64_t wk[160];
  ChainingValues saved;

  std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
  std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];

  while (n != 0) {
    const bool pair = n >= 2;
    const std::uint64_t* k = hide(kSha512RoundConstants.k);
    const std::uint64_t* rk = hide(static_cast<const std::uint64_t*>(wk));
    // With one block left, the second lane just repeats it and its rounds are skipped.
    const auto* p0 = reinterpret_cast<const __m128i*>(blocks);
    const auto* p1 = reinterpret_cast<const __m128i*>(pair ? blocks + 128 : blocks);
    __m256i x[8];
    for (int i = 0; i < 8; ++i) {
      const __m256i raw =
          _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(p0 + i)), _mm_loadu_si128(p1 + i), 1);
      x[i] = _mm256_shuffle_epi8(raw, bswap);
      put_wk(wk, k, i, x[i]);
    }
    __m256i x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];

    // First block: each two rounds of 0-63 run beside the schedule step for sixteen words later.
    saved.save(a, b, c, d, e, f, g, h);
    std::uint64_t bxc = b ^ c, bnc = b & c;
    const auto sixteen_rounds = [&](int i) __attribute__((always_inline)) {
      x0 = Schedule::next(x0, x1, x4, x5, x7);
      put_wk(wk, k, i + 8, x0);
      x1 = Schedule::next(x1, x2, x5, x6, x0);
      put_wk(wk, k, i + 9, x1);
      rounds4<Round>(a, b, c, d, e, f, g, h, bxc, bnc, rk + 4 * i);
      fence<Round>();
      x2 = Schedule::next(x2, x3, x6, x7, x1);
      put_wk(wk, k, i + 10, x2);
      x3 = Schedule::next(x3, x4, x7, x0, x2);
      put_wk(wk, k, i + 11, x3);
      rounds4<Round>(e, f, g, h, a, b, c, d, bxc, bnc, rk + 4 * (i + 2));
      fence<Round>();
      x4 = Schedule::next(x4, x5, x0, x1, x3);
      put_wk(wk, k, i + 12, x4);
      x5 = Schedule::next(x5, x6, x1, x2, x4);
      put_wk(wk, k, i + 13, x5);
      rounds4<Round>(a, b, c, d, e, f, g, h, bxc, bnc, rk + 4 * (i + 4));
      fence<Round>();
      x6 = Schedule::next(x6, x7, x2, x3, x5);
      put_wk(wk, k, i + 14, x6);
      x7 = Schedule::next(x7, x0, x3, x4, x6);
      put_wk(wk, k, i + 15, x7);
      rounds4<Round>(e, f, g, h, a, b, c, d, bxc, bnc, rk + 4 * (i + 6));
      fence<Round>();
    };
    if constexpr (Round::kCompactCode) {
#pragma GCC unroll 1
      for (int i = 0; i < 32; i += 8) sixteen_rounds(i);
    } else {
#pragma GCC unroll 4
      for (int i = 0; i < 32; i += 8) sixteen_rounds(i);
    }
#pragma GCC unroll 2
    for (int i = 32; i < 40; i += 4) {
      rounds4<Round>(a, b, c, d, e, f, g, h, bxc, bnc, rk + 4 * i);
      rounds4<Round>(e, f, g, h, a, b, c, d, bxc, bnc, rk + 4 * (i + 2));
    }
    saved.feed_forward(a, b, c, d, e, f, g, h);

    if (pair) {
      // Second block: its whole schedule is already in wk.
      saved.save(a, b, c, d, e, f, g, h);
      bxc = b ^ c;
      bnc = b & c;
      for (int i = 0; i < 40; i += 4) {
        rounds4<Round>(a, b, c, d, e, f, g, h, bxc, bnc, rk + 4 * i + 2);
        rounds4<Round>(e, f, g, h, a, b, c, d, bxc, bnc, rk + 4 * (i + 2) + 2);
      }
      saved.feed_forward(a, b, c, d, e, f, g, h);
    }
    blocks += pair ? 256 : 128;
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
}  // namespace shasta::kernels::sha512_rorx
