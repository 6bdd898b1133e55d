// sha256_shani.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) on the x86 SHA extensions,
// following the register layout of Intel's "Intel SHA Extensions" whitepaper (Gulley et al., 2013).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "shani_rounds.hpp"

namespace shasta::kernels::shani {

namespace {

// The block loop of both calls below; kDigest: the state's words written back big-endian (a
// digest's bytes), byte-swapped here with one shuffle a register.
template <bool kDigest>
[[gnu::always_inline]] inline void compress_blocks(std::uint32_t state[8], const std::uint8_t* blocks,
                                                   std::size_t n) noexcept {

  const __m128i bswap = word_byte_swap();

  // Natural H0..H7 order to the instructions' ABEF / CDGH lane order.
  const Packed start = pack({_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4))});
  __m128i abef = start.abef;
  __m128i cdgh = start.cdgh;

  for (; n != 0; --n) {
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
  }

  Natural end = unpack({abef, cdgh});
  if constexpr (kDigest) {
    end.lo = _mm_shuffle_epi8(end.lo, bswap);  // the same mask: big-endian words both ways
    end.hi = _mm_shuffle_epi8(end.hi, bswap);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), end.lo);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), end.hi);
}

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  if (n == 0) return;
  compress_blocks<false>(state, blocks, n);
}

void sha256_compress_to_digest(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  compress_blocks<true>(state, blocks, n);
}

}  // namespace shasta::kernels::shani
