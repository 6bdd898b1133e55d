// sha256_avx2_x8.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) of eight independent streams,
// one per 32-bit lane of each AVX2 register (the multi-buffer layout of Intel's "Multi-Buffer
// Hashing" papers, Guilford et al.); rotations as two shifts, the schedule in the rounds. For CPUs
// without SHA-NI: where SHA-NI is present its interleaved kernel is the faster one.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::avx2 {
namespace {

using V = __m256i;

[[gnu::always_inline]] inline V add(V x, V y) noexcept {
  return _mm256_add_epi32(x, y);
}
[[gnu::always_inline]] inline V xor2(V x, V y) noexcept {
  return _mm256_xor_si256(x, y);
}

// AVX2 has no 32-bit rotate, and none of SHA-256's rotations is a whole number of bytes, so each is
// two shifts. The halves of every rotation in a sigma go into one balanced xor tree (their bits do
// not overlap, so xor stands for or): six shifts and five xors, four deep.
template <int R>
[[gnu::always_inline]] inline V shr(V x) noexcept {
  return _mm256_srli_epi32(x, R);
}
template <int R>
[[gnu::always_inline]] inline V shl(V x) noexcept {
  return _mm256_slli_epi32(x, R);
}
template <int R0, int R1, int R2>
[[gnu::always_inline]] inline V rotr3(V x) noexcept {
  const V r = xor2(xor2(shr<R0>(x), shl<32 - R0>(x)), shr<R1>(x));
  const V l = xor2(xor2(shl<32 - R1>(x), shr<R2>(x)), shl<32 - R2>(x));
  return xor2(r, l);
}

// sigma0, sigma1 of the schedule and Sigma0, Sigma1 of the rounds (FIPS 180-4 eqs. 4.4-4.7).
[[gnu::always_inline]] inline V s0(V x) noexcept {
  return xor2(xor2(xor2(shr<7>(x), shl<25>(x)), xor2(shr<18>(x), shl<14>(x))), shr<3>(x));
}
[[gnu::always_inline]] inline V s1(V x) noexcept {
  return xor2(xor2(xor2(shr<17>(x), shl<15>(x)), xor2(shr<19>(x), shl<13>(x))), shr<10>(x));
}
[[gnu::always_inline]] inline V big_s0(V x) noexcept {
  return rotr3<2, 13, 22>(x);
}
[[gnu::always_inline]] inline V big_s1(V x) noexcept {
  return rotr3<6, 11, 25>(x);
}

// One round with the working variables renamed by the caller: only d and h change. Maj(a,b,c) is
// b ^ ((a ^ b) & (b ^ c)), with b ^ c carried over from the previous round's a ^ b.
[[gnu::always_inline]] inline void round(V a, V b, V& d, V e, V f, V g, V& h, V& bxc, V wk) noexcept {
  const V ch = xor2(_mm256_and_si256(xor2(f, g), e), g);
  const V t1 = add(add(h, wk), add(big_s1(e), ch));
  const V axb = xor2(a, b);
  const V maj = xor2(b, _mm256_and_si256(axb, bxc));
  bxc = axb;
  d = add(d, t1);
  h = add(t1, add(big_s0(a), maj));
}

struct Work {
  V a, b, c, d, e, f, g, h, bxc;
};

// W+K of round t0 + I. With kSched it first extends the window w (W[t-16..t-1] at index t mod 16)
// by this round's word, so the schedule runs inside the rounds.
template <int I, bool kSched>
[[gnu::always_inline]] inline V wk(V* w, const std::uint32_t (*k)[8]) noexcept {
  constexpr int j = I & 15;
  if constexpr (kSched) w[j] = add(add(w[j], s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], s1(w[(j + 14) & 15])));
  return add(w[j], _mm256_load_si256(reinterpret_cast<const V*>(k[I])));
}

// Sixteen rounds from round t0 (k = kSha256RoundConstantsX8.k + t0: each K[t] eight times, so each
// W+K is one add with a memory operand). The roles move by one each round and are home after eight.
template <bool kSched>
[[gnu::always_inline]] inline void rounds16(Work& s, V* w, const std::uint32_t (*k)[8]) noexcept {
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

// The 8x8 transpose of 32-bit words, split: row l holds four words of stream l in its low half and
// the same four of stream l + 4 in its high half, so the 128-bit halves never mix and a 4x4
// transpose within each half turns rows r0..r3 into columns (one word of all eight streams each).
// It is its own inverse, so the same steps turn columns back into rows.
[[gnu::always_inline]] inline void transpose4(V& r0, V& r1, V& r2, V& r3) noexcept {
  const V t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
  const V t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
  r0 = _mm256_unpacklo_epi64(t0, t2);
  r1 = _mm256_unpackhi_epi64(t0, t2);
  r2 = _mm256_unpacklo_epi64(t1, t3);
  r3 = _mm256_unpackhi_epi64(t1, t3);
}

// Row l of a transpose4: the 16 bytes at lo in the low half, those at hi in the high half.
[[gnu::always_inline]] inline V load2(const void* lo, const void* hi) noexcept {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(static_cast<const __m128i*>(lo))),
                                 _mm_loadu_si128(static_cast<const __m128i*>(hi)), 1);
}

[[gnu::always_inline]] inline void store2(void* lo, void* hi, V v) noexcept {
  _mm_storeu_si128(static_cast<__m128i*>(lo), _mm256_castsi256_si128(v));
  _mm_storeu_si128(static_cast<__m128i*>(hi), _mm256_extracti128_si256(v, 1));
}

// Words 4c..4c+3 of the eight states as columns.
[[gnu::always_inline]] inline void load_state(std::uint32_t* const st[], int c, V& x0, V& x1, V& x2, V& x3) noexcept {
  x0 = load2(st[0] + 4 * c, st[4] + 4 * c);
  x1 = load2(st[1] + 4 * c, st[5] + 4 * c);
  x2 = load2(st[2] + 4 * c, st[6] + 4 * c);
  x3 = load2(st[3] + 4 * c, st[7] + 4 * c);
  transpose4(x0, x1, x2, x3);
}

[[gnu::always_inline]] inline void store_state(std::uint32_t* const st[], int c, V x0, V x1, V x2, V x3) noexcept {
  transpose4(x0, x1, x2, x3);
  store2(st[0] + 4 * c, st[4] + 4 * c, x0);
  store2(st[1] + 4 * c, st[5] + 4 * c, x1);
  store2(st[2] + 4 * c, st[6] + 4 * c, x2);
  store2(st[3] + 4 * c, st[7] + 4 * c, x3);
}

}  // namespace

void sha256_compress_x8(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;
  const V bswap =
      _mm256_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL, 0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  Work s;
  load_state(states, 0, s.a, s.b, s.c, s.d);
  load_state(states, 1, s.e, s.f, s.g, s.h);
  const std::uint8_t* p[8];
  for (int l = 0; l < 8; ++l) p[l] = blocks[l];
  alignas(32) V w[16];
  do {
    for (int j = 0; j < 16; j += 4) {
      V r0 = load2(p[0] + 4 * j, p[4] + 4 * j), r1 = load2(p[1] + 4 * j, p[5] + 4 * j);
      V r2 = load2(p[2] + 4 * j, p[6] + 4 * j), r3 = load2(p[3] + 4 * j, p[7] + 4 * j);
      transpose4(r0, r1, r2, r3);
      w[j] = _mm256_shuffle_epi8(r0, bswap);
      w[j + 1] = _mm256_shuffle_epi8(r1, bswap);
      w[j + 2] = _mm256_shuffle_epi8(r2, bswap);
      w[j + 3] = _mm256_shuffle_epi8(r3, bswap);
    }
    for (auto& q : p) q += 64;
    const Work in = s;
    s.bxc = xor2(s.b, s.c);
    rounds16<false>(s, w, kSha256RoundConstantsX8.k);
    for (int t = 16; t < 64; t += 16) rounds16<true>(s, w, kSha256RoundConstantsX8.k + t);
    s.a = add(s.a, in.a), s.b = add(s.b, in.b), s.c = add(s.c, in.c), s.d = add(s.d, in.d);
    s.e = add(s.e, in.e), s.f = add(s.f, in.f), s.g = add(s.g, in.g), s.h = add(s.h, in.h);
  } while (--n != 0);
  store_state(states, 0, s.a, s.b, s.c, s.d);
  store_state(states, 1, s.e, s.f, s.g, s.h);
}

}  // namespace shasta::kernels::avx2
