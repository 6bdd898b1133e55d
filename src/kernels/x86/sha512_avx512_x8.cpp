// sha512_avx512_x8.cpp: SHA-512 compression (FIPS 180-4 section 6.4.2) of eight independent
// streams, one per 64-bit lane of each zmm register (the multi-buffer layout of Intel's
// "Multi-Buffer Hashing" papers, Guilford et al., widened to AVX-512): rotations are vprorq, Ch,
// Maj and the three-way xors of the sigmas are each one vpternlogq, the round constants are
// broadcast from kSha512RoundConstants, the schedule runs in the rounds. Needs AVX-512F and BW
// (vpshufb on zmm), and VL as built (-mavx512vl).
// In cache on Zen 4 (double-pumped zmm): 1.27 cycles a byte of each stream with GCC 12, 1.13 with
// clang 14, against a floor of about 1.05 (2,150 vector operations a block at two a cycle); the
// AVX2 five-stream loop there took 2.4-2.8.
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

// Prefetch distance: each stream's block (two lines) four blocks ahead (as the x4 and x5 loops do).
constexpr std::size_t kAhead = 4 * 128;

[[gnu::always_inline]] inline V add(V x, V y) noexcept {
  return _mm512_add_epi64(x, y);
}

// The truth tables of vpternlogq with (x, y, z) as its (A, B, C): x ^ y ^ z and the majority of
// x, y, z (Maj).
constexpr int kXor3 = 0x96, kMajority = 0xE8;

template <int R>
[[gnu::always_inline]] inline V ror(V x) noexcept {
  return _mm512_ror_epi64(x, R);
}

// sigma0, sigma1 of the schedule and Sigma0, Sigma1 of the rounds (FIPS 180-4 eqs. 4.10-4.13).
[[gnu::always_inline]] inline V s0(V x) noexcept {
  return _mm512_ternarylogic_epi64(ror<1>(x), ror<8>(x), _mm512_srli_epi64(x, 7), kXor3);
}
[[gnu::always_inline]] inline V s1(V x) noexcept {
  return _mm512_ternarylogic_epi64(ror<19>(x), ror<61>(x), _mm512_srli_epi64(x, 6), kXor3);
}
[[gnu::always_inline]] inline V big_s0(V x) noexcept {
  return _mm512_ternarylogic_epi64(ror<28>(x), ror<34>(x), ror<39>(x), kXor3);
}
[[gnu::always_inline]] inline V big_s1(V x) noexcept {
  return _mm512_ternarylogic_epi64(ror<14>(x), ror<18>(x), ror<41>(x), kXor3);
}

// Keeps GCC from reassociating a round's sums: it rebuilt t1 as ((Sigma1 + h) + (Ch + K)) + W,
// six dependent operations from e (the x16 kernel's pin() says more).
[[gnu::always_inline]] inline V pin(V x) noexcept {
  asm("" : "+v"(x));
  return x;
}

// Ch(e, f, g) and Maj(a, b, c) as vpternlog's A operand takes the older g or c: the copy of A that
// its destination needs is then off the chains through e and a. Ch is (e ? f : g) with (g, e, f)
// as (A, B, C).
constexpr int kChooseGFirst = 0xB8;

// One round with the working variables renamed by the caller: only d and h change. Sigma1(e) and
// Sigma0(a), the slowest terms, are added late: t1 = ((h + W+K) + Ch) + Sigma1(e), e' = d + t1,
// a' = t1 + (Sigma0(a) + Maj), four operations a round on each of the chains through e and a.
[[gnu::always_inline]] inline void round(V a, V b, V c, V& d, V e, V f, V g, V& h, V wk) noexcept {
  const V x = pin(add(pin(add(h, wk)), _mm512_ternarylogic_epi64(g, e, f, kChooseGFirst)));
  const V t1 = pin(add(x, big_s1(e)));
  d = pin(add(d, t1));
  h = pin(add(t1, pin(add(big_s0(a), _mm512_ternarylogic_epi64(c, b, a, kMajority)))));
}

struct Work {
  V a, b, c, d, e, f, g, h;
};

// W+K of round t0 + I (k = kSha512RoundConstants.k + t0: the add takes K[t] as a broadcast memory
// operand). With kSched it first extends the window w (W[t-16..t-1] at index t mod 16) by this
// round's word, so the schedule runs inside the rounds.
template <int I, bool kSched>
[[gnu::always_inline]] inline V wk(V* w, const std::uint64_t* k) noexcept {
  constexpr int j = I & 15;
  if constexpr (kSched) w[j] = add(add(w[j], s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], s1(w[(j + 14) & 15])));
  return add(w[j], _mm512_set1_epi64(static_cast<long long>(k[I])));
}

// The rounds of one block whose W+K is the same in every lane and given (wk[t] = W[t] + K[t]):
// each is a broadcast memory operand, and there is no schedule to run.
template <int I>
[[gnu::always_inline]] inline V wk_given(const std::uint64_t* wk) noexcept {
  return _mm512_set1_epi64(static_cast<long long>(wk[I]));
}

[[gnu::always_inline]] inline void rounds16_given(Work& s, const std::uint64_t* wk) noexcept {
  round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, wk_given<0>(wk));
  round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, wk_given<1>(wk));
  round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, wk_given<2>(wk));
  round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, wk_given<3>(wk));
  round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, wk_given<4>(wk));
  round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, wk_given<5>(wk));
  round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, wk_given<6>(wk));
  round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, wk_given<7>(wk));
  round(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, wk_given<8>(wk));
  round(s.h, s.a, s.b, s.c, s.d, s.e, s.f, s.g, wk_given<9>(wk));
  round(s.g, s.h, s.a, s.b, s.c, s.d, s.e, s.f, wk_given<10>(wk));
  round(s.f, s.g, s.h, s.a, s.b, s.c, s.d, s.e, wk_given<11>(wk));
  round(s.e, s.f, s.g, s.h, s.a, s.b, s.c, s.d, wk_given<12>(wk));
  round(s.d, s.e, s.f, s.g, s.h, s.a, s.b, s.c, wk_given<13>(wk));
  round(s.c, s.d, s.e, s.f, s.g, s.h, s.a, s.b, wk_given<14>(wk));
  round(s.b, s.c, s.d, s.e, s.f, s.g, s.h, s.a, wk_given<15>(wk));
}

// Sixteen rounds from round t0. The roles move by one each round and are home after eight.
template <bool kSched>
[[gnu::always_inline]] inline void rounds16(Work& s, V* w, const std::uint64_t* k) noexcept {
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

// The 8x8 transpose of 64-bit words: row l (eight words of stream l) to column j (word j of every
// stream, stream l in lane l). Within each 128-bit quarter, unpacks put word 2q + j of streams 2i
// and 2i + 1 together in t[2i + j]; a 4x4 transpose of whole quarters (vshufi64x2) then gathers
// the four pairs of streams. 24 shuffles; it is its own inverse.
[[gnu::always_inline]] inline void transpose8(V& r0, V& r1, V& r2, V& r3, V& r4, V& r5, V& r6, V& r7) noexcept {
  const V t0 = _mm512_unpacklo_epi64(r0, r1), t1 = _mm512_unpackhi_epi64(r0, r1);
  const V t2 = _mm512_unpacklo_epi64(r2, r3), t3 = _mm512_unpackhi_epi64(r2, r3);
  const V t4 = _mm512_unpacklo_epi64(r4, r5), t5 = _mm512_unpackhi_epi64(r4, r5);
  const V t6 = _mm512_unpacklo_epi64(r6, r7), t7 = _mm512_unpackhi_epi64(r6, r7);
  // Quarters q of t[2i + j] hold word 2q + j of streams 2i, 2i + 1; column 2q + j wants them in
  // quarter i.
  const V s0 = _mm512_shuffle_i64x2(t0, t2, 0x44), s1 = _mm512_shuffle_i64x2(t0, t2, 0xee);
  const V s2 = _mm512_shuffle_i64x2(t4, t6, 0x44), s3 = _mm512_shuffle_i64x2(t4, t6, 0xee);
  const V s4 = _mm512_shuffle_i64x2(t1, t3, 0x44), s5 = _mm512_shuffle_i64x2(t1, t3, 0xee);
  const V s6 = _mm512_shuffle_i64x2(t5, t7, 0x44), s7 = _mm512_shuffle_i64x2(t5, t7, 0xee);
  r0 = _mm512_shuffle_i64x2(s0, s2, 0x88);  // quarter 0 of t0, t2, t4, t6: word 0
  r2 = _mm512_shuffle_i64x2(s0, s2, 0xdd);  // quarter 1: word 2
  r4 = _mm512_shuffle_i64x2(s1, s3, 0x88);  // quarter 2: word 4
  r6 = _mm512_shuffle_i64x2(s1, s3, 0xdd);  // quarter 3: word 6
  r1 = _mm512_shuffle_i64x2(s4, s6, 0x88);  // the same of t1, t3, t5, t7: words 1, 3, 5, 7
  r3 = _mm512_shuffle_i64x2(s4, s6, 0xdd);
  r5 = _mm512_shuffle_i64x2(s5, s7, 0x88);
  r7 = _mm512_shuffle_i64x2(s5, s7, 0xdd);
}

[[gnu::always_inline]] inline void load_state(std::uint64_t* const states[], Work& s) noexcept {
  s.a = _mm512_loadu_si512(states[0]), s.b = _mm512_loadu_si512(states[1]);
  s.c = _mm512_loadu_si512(states[2]), s.d = _mm512_loadu_si512(states[3]);
  s.e = _mm512_loadu_si512(states[4]), s.f = _mm512_loadu_si512(states[5]);
  s.g = _mm512_loadu_si512(states[6]), s.h = _mm512_loadu_si512(states[7]);
  transpose8(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h);
}

[[gnu::always_inline]] inline void store_state(std::uint64_t* const states[], Work s) noexcept {
  transpose8(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h);
  _mm512_storeu_si512(states[0], s.a), _mm512_storeu_si512(states[1], s.b);
  _mm512_storeu_si512(states[2], s.c), _mm512_storeu_si512(states[3], s.d);
  _mm512_storeu_si512(states[4], s.e), _mm512_storeu_si512(states[5], s.f);
  _mm512_storeu_si512(states[6], s.g), _mm512_storeu_si512(states[7], s.h);
}

// Words 8c..8c+7 of every stream's block at offset off, as columns, byte-swapped.
[[gnu::always_inline]] inline void load_words(const std::uint8_t* const blocks[], std::size_t off, V bswap,
                                              V* w) noexcept {
  V r[8];
#pragma GCC unroll 16
  for (int l = 0; l < 8; ++l) r[l] = _mm512_loadu_si512(blocks[l] + off);
  transpose8(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
#pragma GCC unroll 16
  for (int j = 0; j < 8; ++j) w[j] = _mm512_shuffle_epi8(r[j], bswap);
}

// Per 128-bit quarter: big-endian 64-bit words to little-endian, and back.
[[gnu::always_inline]] inline V bswap_mask() noexcept {
  return _mm512_set4_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
}

// Every stream starting from the one IV.
[[gnu::always_inline]] inline Work broadcast_iv(const std::uint64_t iv[8]) noexcept {
  const auto col = [iv](int i) { return _mm512_set1_epi64(static_cast<long long>(iv[i])); };
  return Work{col(0), col(1), col(2), col(3), col(4), col(5), col(6), col(7)};
}

// The states as big-endian bytes, swapped here in the vectors (see sha256_hash_x16).
[[gnu::always_inline]] inline Work big_endian(const Work& s, V bswap) noexcept {
  return Work{_mm512_shuffle_epi8(s.a, bswap), _mm512_shuffle_epi8(s.b, bswap), _mm512_shuffle_epi8(s.c, bswap),
              _mm512_shuffle_epi8(s.d, bswap), _mm512_shuffle_epi8(s.e, bswap), _mm512_shuffle_epi8(s.f, bswap),
              _mm512_shuffle_epi8(s.g, bswap), _mm512_shuffle_epi8(s.h, bswap)};
}

// The feed-forward at the end of a block.
[[gnu::always_inline]] inline void add_state(Work& s, const Work& in) noexcept {
  s.a = add(s.a, in.a), s.b = add(s.b, in.b), s.c = add(s.c, in.c), s.d = add(s.d, in.d);
  s.e = add(s.e, in.e), s.f = add(s.f, in.f), s.g = add(s.g, in.g), s.h = add(s.h, in.h);
}

// The block loop: n >= 1 blocks of every stream into s. Every stream advances by 128 bytes a block,
// so one offset serves all eight pointers. kPrefetch: the main loop asks for each stream's block
// four ahead; the loop for padding blocks (one a call) does not, and so is also another loop.
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb(Work& s, const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const V bswap = bswap_mask();
  std::size_t off = 0;
  do {
    V w[16];
    load_words(blocks, off, bswap, w);
    load_words(blocks, off + 64, bswap, w + 8);
    if constexpr (kPrefetch) {
#pragma GCC unroll 16
      for (int l = 0; l < 8; ++l) {
        _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead + 64), _MM_HINT_T0);
      }
    }
    const Work in = s;
    // The empty asm hides from GCC that the constants are the same every block: otherwise it hoists
    // all 80 broadcasts out of the block loop and spills them, 5 KiB of stack, rather than adding
    // each K[t] as a broadcast memory operand.
    const std::uint64_t* k = kSha512RoundConstants.k;
    asm("" : "+r"(k));
    rounds16<false>(s, w, k);
    rounds16<true>(s, w, k + 16);
    rounds16<true>(s, w, k + 32);
    rounds16<true>(s, w, k + 48);
    rounds16<true>(s, w, k + 64);
    add_state(s, in);
    off += 128;
  } while (--n != 0);
}

// One block that is the same in every stream, given as its W+K: the rounds only.
[[gnu::always_inline]] inline void absorb_shared(Work& s, const std::uint64_t* wk) noexcept {
  const Work in = s;
#pragma GCC unroll 5
  for (int t = 0; t < 80; t += 16) rounds16_given(s, wk + t);
  add_state(s, in);
}

template <bool kPrefetch>
[[gnu::always_inline]] inline void compress_lanes(std::uint64_t* const states[], const std::uint8_t* const blocks[],
                                                  std::size_t n) noexcept {
  if (n == 0) return;
  Work s;
  load_state(states, s);
  absorb<kPrefetch>(s, blocks, n);
  store_state(states, s);
}

}  // namespace

void sha512_compress_x8(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<true>(states, blocks, n);
}

void sha512_compress_x8_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<false>(states, blocks, n);
}

void sha512_hash_x8(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept {
  Work s = broadcast_iv(iv);
  if (whole != 0) absorb<true>(s, msgs, whole);
  if (tails != nullptr) absorb<false>(s, tails, 1);
  if (shared_wk != nullptr) absorb_shared(s, shared_wk);
  std::uint64_t* words[8];
  for (int l = 0; l < 8; ++l) words[l] = reinterpret_cast<std::uint64_t*>(out[l]);
  store_state(words, big_endian(s, bswap_mask()));
}

}  // namespace shasta::kernels::avx512

// ---- Sixteen streams: two groups of eight, for messages of one length ----
// As sha256_hash_x32 (sha256_avx512_x16.cpp says why): on Zen 5 one group's rounds wait on their
// chains with the vector pipes half idle, and a second group fills them. Each block's W+K of both
// groups goes to the stack first (160 vectors, 10 KiB), then the two groups' rounds run
// interleaved with W+K as a memory operand. In cache on an EPYC Zen 5 (family 26 model 2), 16
// streams of 2 KiB, best of 30: 0.70 cycles a byte against two x8 calls' 0.81.
namespace shasta::kernels::avx512 {
namespace {

// W+K of round t + i of group p and of group q: from the stack (a block's schedule) or, for a
// block that every stream shares, the same broadcast word in both.
struct StackWk {
  const V* p;
  const V* q;
  [[gnu::always_inline]] V of_p(int i) const noexcept { return _mm512_load_si512(p + i); }
  [[gnu::always_inline]] V of_q(int i) const noexcept { return _mm512_load_si512(q + i); }
};
struct SharedWk {
  const std::uint64_t* wk;
  [[gnu::always_inline]] V of_p(int i) const noexcept { return _mm512_set1_epi64(static_cast<long long>(wk[i])); }
  [[gnu::always_inline]] V of_q(int i) const noexcept { return of_p(i); }
};

// Eight rounds of each group, alternating; the roles move as in rounds16.
template <class Wk>
[[gnu::always_inline]] inline void rounds8_pair(Work& p, Work& q, Wk x) noexcept {
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

// The 80 rounds of both groups and the feed-forward; the loop is not unrolled (eight rounds of
// each group are already about 200 instructions).
template <class Wk, class Step>
[[gnu::always_inline]] inline void compress_pair_of_groups(Work& p, Work& q, Wk x, Step step) noexcept {
  const Work in_p = p, in_q = q;
#pragma GCC unroll 1
  for (int t = 0; t < 80; t += 8) {
    rounds8_pair(p, q, x);
    x = step(x);
  }
  add_state(p, in_p);
  add_state(q, in_q);
}

// W+K of the 80 rounds of both groups, p's to wk[0..79] and q's to wk[80..159], the two
// schedules interleaved.
[[gnu::always_inline]] inline void schedule_pair(V* wk, V (&w)[16], V (&u)[16]) noexcept {
  const std::uint64_t* k = kSha512RoundConstants.k;
  asm("" : "+r"(k));  // each K[t] a broadcast memory operand (absorb says why)
#pragma GCC unroll 80
  for (int t = 0; t < 80; ++t) {
    const int j = t & 15;
    if (t >= 16) {
      w[j] = add(add(w[j], s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], s1(w[(j + 14) & 15])));
      u[j] = add(add(u[j], s0(u[(j + 1) & 15])), add(u[(j + 9) & 15], s1(u[(j + 14) & 15])));
    }
    const V kt = _mm512_set1_epi64(static_cast<long long>(k[t]));
    _mm512_store_si512(wk + t, add(w[j], kt));
    _mm512_store_si512(wk + 80 + t, add(u[j], kt));
  }
}

// n >= 1 blocks of all 16 streams (group p: blocks[0..7], q: blocks[8..15]); kPrefetch as in absorb.
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb_pair(Work& p, Work& q, const std::uint8_t* const blocks[],
                                               std::size_t n) noexcept {
  const V bswap = bswap_mask();
  alignas(64) V wk[160];
  std::size_t off = 0;
  do {
    {
      V w[16], u[16];
      load_words(blocks, off, bswap, w);
      load_words(blocks, off + 64, bswap, w + 8);
      load_words(blocks + 8, off, bswap, u);
      load_words(blocks + 8, off + 64, bswap, u + 8);
      if constexpr (kPrefetch) {
#pragma GCC unroll 16
        for (int l = 0; l < 16; ++l) {
          _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead), _MM_HINT_T0);
          _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead + 64), _MM_HINT_T0);
        }
      }
      schedule_pair(wk, w, u);
    }
    compress_pair_of_groups(p, q, StackWk{wk, wk + 80}, [](StackWk x) { return StackWk{x.p + 8, x.q + 8}; });
    off += 128;
  } while (--n != 0);
}

}  // namespace

void sha512_hash_x16(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept {
  Work p = broadcast_iv(iv);
  Work q = p;
  if (whole != 0) absorb_pair<true>(p, q, msgs, whole);
  if (tails != nullptr) absorb_pair<false>(p, q, tails, 1);
  if (shared_wk != nullptr) {
    compress_pair_of_groups(p, q, SharedWk{shared_wk}, [](SharedWk x) { return SharedWk{x.wk + 8}; });
  }
  const V bswap = bswap_mask();
  std::uint64_t* words[16];
  for (int l = 0; l < 16; ++l) words[l] = reinterpret_cast<std::uint64_t*>(out[l]);
  store_state(words, big_endian(p, bswap));
  store_state(words + 8, big_endian(q, bswap));
}

}  // namespace shasta::kernels::avx512
