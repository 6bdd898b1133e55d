// sha256_shani.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) on the x86 SHA extensions,
// following the register layout of Intel's "Intel SHA Extensions" whitepaper (Gulley et al., 2013).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

namespace shasta::kernels::shani {
namespace {

// Four rounds: sha256rnds2 takes two W+K words from the low half of its third operand, and each
// call turns (CDGH, ABEF) into the new ABEF, so the two registers swap roles between the calls.
[[gnu::always_inline]] inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i w, int group) noexcept {
  const __m128i wk =
      _mm_add_epi32(w, _mm_load_si128(reinterpret_cast<const __m128i*>(kSha256RoundConstants.k + 4 * group)));
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
  abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
}

// W[t..t+3] from w0 = W[t-16..t-13] .. w3 = W[t-4..t-1]: msg1 adds sigma0, the alignr supplies
// W[t-7..t-4], and msg2 adds sigma1 (including the in-vector dependency on W[t], W[t+1]).
[[gnu::always_inline]] inline __m128i schedule(__m128i w0, __m128i w1, __m128i w2, __m128i w3) noexcept {
  const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
  return _mm_sha256msg2_epu32(partial, w3);
}

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  if (n == 0) return;

  // Big-endian message words to little-endian lanes.
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

  // Natural H0..H7 order to the instruction's ABEF / CDGH lane order (lane 3 first).
  const __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state));
  const __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4));
  const __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

  do {
    const __m128i abef_in = abef;
    const __m128i cdgh_in = cdgh;
    const auto* p = reinterpret_cast<const __m128i*>(blocks);
    __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128(p + 0), bswap);
    __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128(p + 1), bswap);
    __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128(p + 2), bswap);
    __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128(p + 3), bswap);

    rounds4(abef, cdgh, w0, 0);
    rounds4(abef, cdgh, w1, 1);
    rounds4(abef, cdgh, w2, 2);
    rounds4(abef, cdgh, w3, 3);
    // Each schedule step feeds the very next four rounds, so the out-of-order core overlaps the
    // msg1/msg2 work with the rnds2 latency chain.
    for (int g = 4; g < 16; g += 4) {
      w0 = schedule(w0, w1, w2, w3);
      rounds4(abef, cdgh, w0, g);
      w1 = schedule(w1, w2, w3, w0);
      rounds4(abef, cdgh, w1, g + 1);
      w2 = schedule(w2, w3, w0, w1);
      rounds4(abef, cdgh, w2, g + 2);
      w3 = schedule(w3, w0, w1, w2);
      rounds4(abef, cdgh, w3, g + 3);
    }

    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
    blocks += 64;
  } while (--n != 0);

  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_alignr_epi8(dchg, feba, 8));
}

}  // namespace shasta::kernels::shani
