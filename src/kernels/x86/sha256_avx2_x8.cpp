// sha256_avx2_x8.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) of eight independent streams,
// one per 32-bit lane of each AVX2 register; the rounds, the schedule (run inside the rounds) and
// the feed-forward are avx2_lane_rounds.hpp's, shared with the SHA-512 lanes. Here: the split 8x8
// transpose and the block loop. For CPUs without SHA-NI: where SHA-NI is present its interleaved
// kernel is the faster one.
#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "avx2_lane_rounds.hpp"

namespace shasta::kernels::avx2 {
namespace {

using Rounds = LaneRounds<Sha256Words>;
using Work = Rounds::Work;

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
    Rounds::compress_block(s, w);
  } while (--n != 0);
  store_state(states, 0, s.a, s.b, s.c, s.d);
  store_state(states, 1, s.e, s.f, s.g, s.h);
}

}  // namespace shasta::kernels::avx2
