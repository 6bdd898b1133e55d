// avx2_lane_rounds.hpp: the rounds and feed-forward of the AVX2 lane kernels, one stream in each
// lane of a ymm register (the multi-buffer layout of Intel's "Multi-Buffer Hashing" papers,
// Guilford et al.): eight SHA-256 streams in 32-bit lanes (sha256_avx2_x8.cpp) and four SHA-512
// streams in 64-bit lanes (sha512_avx2_lanes.cpp). AVX2 has no rotate, so each word width builds
// its sigmas its own way (Sha256Words, Sha512Words); LaneRounds<Words> is the rest: the round, the
// schedule run inside the rounds, one block's compression. How blocks and states get into lanes
// (the transposes) stays in each kernel file. Include this only from files compiled with -mavx2:
// these inline functions carry AVX2 instructions, and a copy built without the flags must never
// exist (all of it has internal linkage).
#pragma once

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::avx2 {
namespace {

using V = __m256i;

[[gnu::always_inline]] inline V xor2(V x, V y) noexcept {
  return _mm256_xor_si256(x, y);
}

// SHA-256 (FIPS 180-4 eqs. 4.4-4.7): 32-bit words, 64 rounds, K[t] eight times a row.
struct Sha256Words {
  using Word = std::uint32_t;
  static constexpr int kRounds = 64;
  using KRow = std::uint32_t[8];
  static const KRow* round_constants() noexcept { return kSha256RoundConstantsX8.k; }

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return _mm256_add_epi32(x, y); }

  // None of SHA-256's rotations is a whole number of bytes, so each is two shifts. The halves of
  // every rotation in a sigma go into one balanced xor tree (their bits do not overlap, so xor
  // stands for or): six shifts and five xors, four deep.
  template <int R>
  [[gnu::always_inline]] static V shr(V x) noexcept {
    return _mm256_srli_epi32(x, R);
  }
  template <int R>
  [[gnu::always_inline]] static V shl(V x) noexcept {
    return _mm256_slli_epi32(x, R);
  }
  template <int R0, int R1, int R2>
  [[gnu::always_inline]] static V rotr3(V x) noexcept {
    const V r = xor2(xor2(shr<R0>(x), shl<32 - R0>(x)), shr<R1>(x));
    const V l = xor2(xor2(shl<32 - R1>(x), shr<R2>(x)), shl<32 - R2>(x));
    return xor2(r, l);
  }

  [[gnu::always_inline]] static V s0(V x) noexcept {
    return xor2(xor2(xor2(shr<7>(x), shl<25>(x)), xor2(shr<18>(x), shl<14>(x))), shr<3>(x));
  }
  [[gnu::always_inline]] static V s1(V x) noexcept {
    return xor2(xor2(xor2(shr<17>(x), shl<15>(x)), xor2(shr<19>(x), shl<13>(x))), shr<10>(x));
  }
  [[gnu::always_inline]] static V big_s0(V x) noexcept { return rotr3<2, 13, 22>(x); }
  [[gnu::always_inline]] static V big_s1(V x) noexcept { return rotr3<6, 11, 25>(x); }
};

// SHA-512 (FIPS 180-4 eqs. 4.10-4.13): 64-bit words, 80 rounds, K[t] four times a row.
struct Sha512Words {
  using Word = std::uint64_t;
  static constexpr int kRounds = 80;
  using KRow = std::uint64_t[4];
  static const KRow* round_constants() noexcept { return kSha512RoundConstantsX4.k; }

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return _mm256_add_epi64(x, y); }
  [[gnu::always_inline]] static V xor3(V x, V y, V z) noexcept { return xor2(xor2(x, y), z); }

  // Two shifts whose bits do not overlap, joined with or.
  template <int R>
  [[gnu::always_inline]] static V rotr(V x) noexcept {
    return _mm256_or_si256(_mm256_srli_epi64(x, R), _mm256_slli_epi64(x, 64 - R));
  }
  // A rotation by 8 is a byte shuffle: one instruction rather than three.
  [[gnu::always_inline]] static V rotr8(V x) noexcept {
    const V bytes =
        _mm256_set_epi64x(0x080f0e0d0c0b0a09LL, 0x0007060504030201LL, 0x080f0e0d0c0b0a09LL, 0x0007060504030201LL);
    return _mm256_shuffle_epi8(x, bytes);
  }

  [[gnu::always_inline]] static V s0(V x) noexcept { return xor3(rotr<1>(x), rotr8(x), _mm256_srli_epi64(x, 7)); }
  [[gnu::always_inline]] static V s1(V x) noexcept { return xor3(rotr<19>(x), rotr<61>(x), _mm256_srli_epi64(x, 6)); }
  [[gnu::always_inline]] static V big_s0(V x) noexcept { return xor3(rotr<28>(x), rotr<34>(x), rotr<39>(x)); }
  [[gnu::always_inline]] static V big_s1(V x) noexcept { return xor3(rotr<14>(x), rotr<18>(x), rotr<41>(x)); }
};

template <class Words>
struct LaneRounds {
  using KRow = typename Words::KRow;

  // The working variables a..h of every stream, one vector each, and b ^ c for the next Maj.
  struct Work {
    V a, b, c, d, e, f, g, h, bxc;
  };

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return Words::add(x, y); }

  // One round with the working variables renamed by the caller: only d and h change. Maj(a,b,c)
  // is b ^ ((a ^ b) & (b ^ c)), with b ^ c carried over from the previous round's a ^ b.
  [[gnu::always_inline]] static void round(V a, V b, V& d, V e, V f, V g, V& h, V& bxc, V wk) noexcept {
    const V ch = xor2(_mm256_and_si256(xor2(f, g), e), g);
    const V t1 = add(add(h, wk), add(Words::big_s1(e), ch));
    const V axb = xor2(a, b);
    const V maj = xor2(b, _mm256_and_si256(axb, bxc));
    bxc = axb;
    d = add(d, t1);
    h = add(t1, add(Words::big_s0(a), maj));
  }

  // W+K of round t0 + I (k = the round constants' rows + t0: each K[t] once a lane, so each W+K is
  // one add with a memory operand). With kSched it first extends the window w (W[t-16..t-1] at
  // index t mod 16) by this round's word, so the schedule runs inside the rounds.
  template <int I, bool kSched>
  [[gnu::always_inline]] static V wk(V* w, const KRow* k) noexcept {
    constexpr int j = I & 15;
    if constexpr (kSched) {
      w[j] = add(add(w[j], Words::s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], Words::s1(w[(j + 14) & 15])));
    }
    return add(w[j], _mm256_load_si256(reinterpret_cast<const V*>(k[I])));
  }

  // Sixteen rounds from round t0. The roles move by one each round and are home after eight.
  template <bool kSched>
  [[gnu::always_inline]] static void rounds16(Work& s, V* w, const KRow* k) noexcept {
    round(s.a, s.b, s.d, s.e, s.f, s.g, s.h, s.bxc, wk<0, kSched>(w, k));
    round(s.h, s.a, s.c, s.d, s.e, s.f, s.g, s.bxc, wk<1, kSched>(w, k));
    round(s.g, s.h, s.b, s.c, s.d, s.e, s.f, s.bxc, wk<2, kSched>(w, k));
    round(s.f, s.g, s.a, s.b, s.c, s.d, s.e, s.bxc, wk<3, kSched>(w, k));
    round(s.e, s.f, s.h, s.a, s.b, s.c, s.d, s.bxc, wk<4, kSched>(w, k));
    round(s.d, s.e, s.g, s.h, s.a, s.b, s.c, s.bxc, wk<5, kSched>(w, k));
    round(s.c, s.d, s.f, s.g, s.h, s.a, s.b, s.bxc, wk<6, kSched>(w, k));
    round(s.b, s.c, s.e, s.f, s.g, s.h, s.a, s.bxc, wk<7, kSched>(w, k));
    round(s.a, s.b, s.d, s.e, s.f, s.g, s.h, s.bxc, wk<8, kSched>(w, k));
    round(s.h, s.a, s.c, s.d, s.e, s.f, s.g, s.bxc, wk<9, kSched>(w, k));
    round(s.g, s.h, s.b, s.c, s.d, s.e, s.f, s.bxc, wk<10, kSched>(w, k));
    round(s.f, s.g, s.a, s.b, s.c, s.d, s.e, s.bxc, wk<11, kSched>(w, k));
    round(s.e, s.f, s.h, s.a, s.b, s.c, s.d, s.bxc, wk<12, kSched>(w, k));
    round(s.d, s.e, s.g, s.h, s.a, s.b, s.c, s.bxc, wk<13, kSched>(w, k));
    round(s.c, s.d, s.f, s.g, s.h, s.a, s.b, s.bxc, wk<14, kSched>(w, k));
    round(s.b, s.c, s.e, s.f, s.g, s.h, s.a, s.bxc, wk<15, kSched>(w, k));
  }

  // The feed-forward: the chaining values before the block added to the working variables.
  [[gnu::always_inline]] static void add_state(Work& s, const Work& in) noexcept {
    s.a = add(s.a, in.a), s.b = add(s.b, in.b), s.c = add(s.c, in.c), s.d = add(s.d, in.d);
    s.e = add(s.e, in.e), s.f = add(s.f, in.f), s.g = add(s.g, in.g), s.h = add(s.h, in.h);
  }

  // One block of every stream: its sixteen words (the window w) already loaded, byte-swapped.
  [[gnu::always_inline]] static void compress_block(Work& s, V* w) noexcept {
    const Work in = s;
    s.bxc = xor2(s.b, s.c);
    rounds16<false>(s, w, Words::round_constants());
    for (int t = 16; t < Words::kRounds; t += 16) rounds16<true>(s, w, Words::round_constants() + t);
    add_state(s, in);
  }
};

}  // namespace
}  // namespace shasta::kernels::avx2
