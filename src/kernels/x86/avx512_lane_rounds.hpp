// avx512_lane_rounds.hpp: the rounds, schedule and feed-forward of the AVX-512 lane kernels, one
// stream in each lane of a zmm register (the multi-buffer layout of Intel's "Multi-Buffer Hashing"
// papers, Guilford et al., widened to AVX-512): sixteen SHA-256 streams in 32-bit lanes
// (sha256_avx512_x16.cpp) and eight SHA-512 streams in 64-bit lanes (sha512_avx512_x8.cpp).
// FIPS 180-4's two compressions differ only in word width, rotation amounts and round count, which
// Sha256Words and Sha512Words give; LaneRounds<Words> is the rest. Rotations are vprord/vprorq, Ch,
// Maj and the three-way xors of the sigmas are each one vpternlog, the round constants are
// broadcast memory operands. How blocks and states get into lanes (the transposes) stays in each
// kernel file. Include this only from files compiled with -mavx512f -mavx512bw -mavx512vl: these
// inline functions carry those instructions, and a copy built without the flags must never exist
// (all of it has internal linkage).
#pragma once

// GCC 12 warns, wherever an AVX-512 intrinsic is inlined, that the _mm512_undefined_epi32() inside
// it reads an uninitialized variable (its `__m512i __Y = __Y;`: GCC bug 105593, fixed in 12.3).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::avx512 {
namespace {

using V = __m512i;

// The truth tables of vpternlog with (x, y, z) as its (A, B, C): x ^ y ^ z and the majority of
// x, y, z (Maj).
constexpr int kXor3 = 0x96, kMajority = 0xE8;

// Ch(e, f, g) and Maj(a, b, c) as vpternlog's A operand takes the older g or c: the copy of A that
// its destination needs is then off the chains through e and a. Ch is (e ? f : g) with (g, e, f)
// as (A, B, C).
constexpr int kChooseGFirst = 0xB8;

// SHA-256 (FIPS 180-4 eqs. 4.4-4.7): 32-bit words, 64 rounds. Each sigma is {rotation, rotation,
// shift}, each Sigma three rotations.
struct Sha256Words {
  using Word = std::uint32_t;
  static constexpr int kRounds = 64;
  static constexpr int kSigma0[3] = {7, 18, 3}, kSigma1[3] = {17, 19, 10};
  static constexpr int kBigSigma0[3] = {2, 13, 22}, kBigSigma1[3] = {6, 11, 25};
  static const Word* round_constants() noexcept { return kSha256RoundConstants.k; }

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return _mm512_add_epi32(x, y); }
  template <int R>
  [[gnu::always_inline]] static V ror(V x) noexcept {
    return _mm512_ror_epi32(x, R);
  }
  template <int S>
  [[gnu::always_inline]] static V shr(V x) noexcept {
    return _mm512_srli_epi32(x, S);
  }
  template <int kTable>
  [[gnu::always_inline]] static V ternlog(V x, V y, V z) noexcept {
    return _mm512_ternarylogic_epi32(x, y, z, kTable);
  }
  [[gnu::always_inline]] static V broadcast(Word w) noexcept { return _mm512_set1_epi32(static_cast<int>(w)); }
};

// SHA-512 (FIPS 180-4 eqs. 4.10-4.13): 64-bit words, 80 rounds.
struct Sha512Words {
  using Word = std::uint64_t;
  static constexpr int kRounds = 80;
  static constexpr int kSigma0[3] = {1, 8, 7}, kSigma1[3] = {19, 61, 6};
  static constexpr int kBigSigma0[3] = {28, 34, 39}, kBigSigma1[3] = {14, 18, 41};
  static const Word* round_constants() noexcept { return kSha512RoundConstants.k; }

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return _mm512_add_epi64(x, y); }
  template <int R>
  [[gnu::always_inline]] static V ror(V x) noexcept {
    return _mm512_ror_epi64(x, R);
  }
  template <int S>
  [[gnu::always_inline]] static V shr(V x) noexcept {
    return _mm512_srli_epi64(x, S);
  }
  template <int kTable>
  [[gnu::always_inline]] static V ternlog(V x, V y, V z) noexcept {
    return _mm512_ternarylogic_epi64(x, y, z, kTable);
  }
  [[gnu::always_inline]] static V broadcast(Word w) noexcept {
    return _mm512_set1_epi64(static_cast<long long>(w));
  }
};

template <class Words>
struct LaneRounds {
  using Word = typename Words::Word;
  static constexpr int kRounds = Words::kRounds;

  // The working variables a..h of every stream, one vector each.
  struct Work {
    V a, b, c, d, e, f, g, h;
  };

  [[gnu::always_inline]] static V add(V x, V y) noexcept { return Words::add(x, y); }

  // sigma0, sigma1 of the schedule and Sigma0, Sigma1 of the rounds.
  [[gnu::always_inline]] static V s0(V x) noexcept {
    constexpr const int* r = Words::kSigma0;
    return Words::template ternlog<kXor3>(Words::template ror<r[0]>(x), Words::template ror<r[1]>(x),
                                          Words::template shr<r[2]>(x));
  }
  [[gnu::always_inline]] static V s1(V x) noexcept {
    constexpr const int* r = Words::kSigma1;
    return Words::template ternlog<kXor3>(Words::template ror<r[0]>(x), Words::template ror<r[1]>(x),
                                          Words::template shr<r[2]>(x));
  }
  [[gnu::always_inline]] static V big_s0(V x) noexcept {
    constexpr const int* r = Words::kBigSigma0;
    return Words::template ternlog<kXor3>(Words::template ror<r[0]>(x), Words::template ror<r[1]>(x),
                                          Words::template ror<r[2]>(x));
  }
  [[gnu::always_inline]] static V big_s1(V x) noexcept {
    constexpr const int* r = Words::kBigSigma1;
    return Words::template ternlog<kXor3>(Words::template ror<r[0]>(x), Words::template ror<r[1]>(x),
                                          Words::template ror<r[2]>(x));
  }

  // Keeps GCC from reassociating a round's sums: it rebuilt t1 as ((Sigma1 + h) + (Ch + W)) + K,
  // six dependent operations from e, and a chain of such rounds ran at half the speed it can.
  [[gnu::always_inline]] static V pin(V x) noexcept {
    asm("" : "+v"(x));
    return x;
  }

  // One round with the working variables renamed by the caller: only d and h change. Sigma1(e) and
  // Sigma0(a), the slowest terms, are added late: t1 = ((h + W+K) + Ch) + Sigma1(e), e' = d + t1,
  // a' = t1 + (Sigma0(a) + Maj), four operations a round on each of the chains through e and a.
  [[gnu::always_inline]] static void round(V a, V b, V c, V& d, V e, V f, V g, V& h, V wk) noexcept {
    const V x = pin(add(pin(add(h, wk)), Words::template ternlog<kChooseGFirst>(g, e, f)));
    const V t1 = pin(add(x, big_s1(e)));
    d = pin(add(d, t1));
    h = pin(add(t1, pin(add(big_s0(a), Words::template ternlog<kMajority>(c, b, a)))));
  }

  // W[t] from the window w (W[t-16..t-1] at index t mod 16, j = t mod 16), in place of W[t-16].
  [[gnu::always_inline]] static void extend(V* w, int j) noexcept {
    w[j] = add(add(w[j], s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], s1(w[(j + 14) & 15])));
  }

  // W+K of round t0 + I (k = round constants + t0: the add takes K[t] as a broadcast memory
  // operand). With kSched it first extends the window w by this round's word, so the schedule runs
  // inside the rounds.
  template <int I, bool kSched>
  [[gnu::always_inline]] static V wk(V* w, const Word* k) noexcept {
    constexpr int j = I & 15;
    if constexpr (kSched) extend(w, j);
    return add(w[j], Words::broadcast(k[I]));
  }

  // Sixteen rounds from round t0. The roles move by one each round and are home after eight.
  template <bool kSched>
  [[gnu::always_inline]] static void rounds16(Work& s, V* w, const Word* k) noexcept {
    round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, wk<0, kSched>(w, k));
    round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, wk<1, kSched>(w, k));
    round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, wk<2, kSched>(w, k));
    round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, wk<3, kSched>(w, k));
    round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, wk<4, kSched>(w, k));
    round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, wk<5, kSched>(w, k));
    round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, wk<6, kSched>(w, k));
    round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, wk<7, kSched>(w, k));
    round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, wk<8, kSched>(w, k));
    round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, wk<9, kSched>(w, k));
    round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, wk<10, kSched>(w, k));
    round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, wk<11, kSched>(w, k));
    round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, wk<12, kSched>(w, k));
    round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, wk<13, kSched>(w, k));
    round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, wk<14, kSched>(w, k));
    round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, wk<15, kSched>(w, k));
  }

  // The rounds of one block whose W+K is the same in every lane and given (wk[t] = W[t] + K[t]):
  // each is a broadcast memory operand, and there is no schedule to run.
  [[gnu::always_inline]] static void rounds16_given(Work& s, const Word* wk) noexcept {
    round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, Words::broadcast(wk[0]));
    round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, Words::broadcast(wk[1]));
    round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, Words::broadcast(wk[2]));
    round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, Words::broadcast(wk[3]));
    round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, Words::broadcast(wk[4]));
    round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, Words::broadcast(wk[5]));
    round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, Words::broadcast(wk[6]));
    round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, Words::broadcast(wk[7]));
    round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, Words::broadcast(wk[8]));
    round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, Words::broadcast(wk[9]));
    round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, Words::broadcast(wk[10]));
    round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, Words::broadcast(wk[11]));
    round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, Words::broadcast(wk[12]));
    round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, Words::broadcast(wk[13]));
    round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, Words::broadcast(wk[14]));
    round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, Words::broadcast(wk[15]));
  }

  // The feed-forward at the end of a block.
  [[gnu::always_inline]] static void add_state(Work& s, const Work& in) noexcept {
    s.a = add(s.a, in.a), s.b = add(s.b, in.b), s.c = add(s.c, in.c), s.d = add(s.d, in.d);
    s.e = add(s.e, in.e), s.f = add(s.f, in.f), s.g = add(s.g, in.g), s.h = add(s.h, in.h);
  }

  // One block of every stream: its sixteen words (the window w) already loaded.
  [[gnu::always_inline]] static void compress_block(Work& s, V* w) noexcept {
    const Work in = s;
    // The empty asm hides from GCC that the constants are the same every block: otherwise it hoists
    // all the broadcasts out of the block loop and spills them, 4 or 5 KiB of stack, rather than
    // adding each K[t] as a broadcast memory operand.
    const Word* k = Words::round_constants();
    asm("" : "+r"(k));
    rounds16<false>(s, w, k);
    rounds16<true>(s, w, k + 16);
    rounds16<true>(s, w, k + 32);
    rounds16<true>(s, w, k + 48);
    if constexpr (kRounds == 80) rounds16<true>(s, w, k + 64);
    add_state(s, in);
  }

  // One block that is the same in every stream, given as its W+K: the rounds only.
  [[gnu::always_inline]] static void absorb_shared(Work& s, const Word* wk) noexcept {
    const Work in = s;
#pragma GCC unroll 5
    for (int t = 0; t < kRounds; t += 16) rounds16_given(s, wk + t);
    add_state(s, in);
  }

  // Every stream starting from the one IV.
  [[gnu::always_inline]] static Work broadcast_iv(const Word iv[8]) noexcept {
    return Work{Words::broadcast(iv[0]), Words::broadcast(iv[1]), Words::broadcast(iv[2]), Words::broadcast(iv[3]),
                Words::broadcast(iv[4]), Words::broadcast(iv[5]), Words::broadcast(iv[6]), Words::broadcast(iv[7])};
  }

  // The states as big-endian bytes, swapped here in the vectors (bswap: each word's bytes reversed):
  // a word-by-word pass of the caller's took a tenth of hash_many's time on 64-byte messages.
  [[gnu::always_inline]] static Work big_endian(const Work& s, V bswap) noexcept {
    return Work{_mm512_shuffle_epi8(s.a, bswap), _mm512_shuffle_epi8(s.b, bswap), _mm512_shuffle_epi8(s.c, bswap),
                _mm512_shuffle_epi8(s.d, bswap), _mm512_shuffle_epi8(s.e, bswap), _mm512_shuffle_epi8(s.f, bswap),
                _mm512_shuffle_epi8(s.g, bswap), _mm512_shuffle_epi8(s.h, bswap)};
  }

  // ---- Two groups of streams side by side (the wide hash calls) ----
  // On Zen 5 one group's rounds wait on their chains (eight cycles a round from e to the next e,
  // four operations of two cycles) with the four vector pipes half idle; a second group fills them.
  // Each block's W+K of both groups is worked out first, to the stack (schedule_pair), then the
  // two groups' rounds run interleaved with W+K as a memory operand, so the two windows of sixteen
  // words need no registers (16 state vectors and a few temporaries fit in 32).

  // W+K of round t + i of group p and of group q, and those of round t + 8 + i: from the stack (a
  // block's schedule) or, for a block that every stream shares, the same broadcast word in both.
  struct StackWk {
    const V* p;
    const V* q;
    [[gnu::always_inline]] V of_p(int i) const noexcept { return _mm512_load_si512(p + i); }
    [[gnu::always_inline]] V of_q(int i) const noexcept { return _mm512_load_si512(q + i); }
    [[gnu::always_inline]] StackWk next8() const noexcept { return StackWk{p + 8, q + 8}; }
  };
  struct SharedWk {
    const Word* wk;
    [[gnu::always_inline]] V of_p(int i) const noexcept { return Words::broadcast(wk[i]); }
    [[gnu::always_inline]] V of_q(int i) const noexcept { return of_p(i); }
    [[gnu::always_inline]] SharedWk next8() const noexcept { return SharedWk{wk + 8}; }
  };

  // Eight rounds of each group, alternating; the roles move as in rounds16.
  template <class Wk>
  [[gnu::always_inline]] static void rounds8_pair(Work& p, Work& q, Wk x) noexcept {
    round(p.a, p.b, p.c, p.d, p.e, p.f, p.g, p.h, x.of_p(0));
    round(q.a, q.b, q.c, q.d, q.e, q.f, q.g, q.h, x.of_q(0));
    round(p.h, p.a, p.b, p.c, p.d, p.e, p.f, p.g, x.of_p(1));
    round(q.h, q.a, q.b, q.c, q.d, q.e, q.f, q.g, x.of_q(1));
    round(p.g, p.h, p.a, p.b, p.c, p.d, p.e, p.f, x.of_p(2));
    round(q.g, q.h, q.a, q.b, q.c, q.d, q.e, q.f, x.of_q(2));
    round(p.f, p.g, p.h, p.a, p.b, p.c, p.d, p.e, x.of_p(3));
    round(q.f, q.g, q.h, q.a, q.b, q.c, q.d, q.e, x.of_q(3));
    round(p.e, p.f, p.g, p.h, p.a, p.b, p.c, p.d, x.of_p(4));
    round(q.e, q.f, q.g, q.h, q.a, q.b, q.c, q.d, x.of_q(4));
    round(p.d, p.e, p.f, p.g, p.h, p.a, p.b, p.c, x.of_p(5));
    round(q.d, q.e, q.f, q.g, q.h, q.a, q.b, q.c, x.of_q(5));
    round(p.c, p.d, p.e, p.f, p.g, p.h, p.a, p.b, x.of_p(6));
    round(q.c, q.d, q.e, q.f, q.g, q.h, q.a, q.b, x.of_q(6));
    round(p.b, p.c, p.d, p.e, p.f, p.g, p.h, p.a, x.of_p(7));
    round(q.b, q.c, q.d, q.e, q.f, q.g, q.h, q.a, x.of_q(7));
  }

  // All rounds of both groups and the feed-forward. The loop is not unrolled: eight rounds of
  // each group are 200 to 300 instructions already.
  template <class Wk>
  [[gnu::always_inline]] static void compress_pair_of_groups(Work& p, Work& q, Wk x) noexcept {
    const Work in_p = p, in_q = q;
#pragma GCC unroll 1
    for (int t = 0; t < kRounds; t += 8) {
      rounds8_pair(p, q, x);
      x = x.next8();
    }
    add_state(p, in_p);
    add_state(q, in_q);
  }

  // W+K of all rounds of both groups, p's to wk[0..kRounds - 1] and q's after them; the two
  // schedules interleaved, each word's chain (W[t-2] through sigma1) three operations long.
  [[gnu::always_inline]] static void schedule_pair(V* wk, V (&w)[16], V (&u)[16]) noexcept {
    const Word* k = Words::round_constants();
    asm("" : "+r"(k));  // each K[t] a broadcast memory operand (compress_block says why)
#pragma GCC unroll 80
    for (int t = 0; t < kRounds; ++t) {
      const int j = t & 15;
      if (t >= 16) {
        extend(w, j);
        extend(u, j);
      }
      const V kt = Words::broadcast(k[t]);
      _mm512_store_si512(wk + t, add(w[j], kt));
      _mm512_store_si512(wk + kRounds + t, add(u[j], kt));
    }
  }
};

}  // namespace
}  // namespace shasta::kernels::avx512
