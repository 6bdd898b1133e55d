// sha256_shani_pbkdf2.cpp: PBKDF2-HMAC-SHA256's iteration loop on the x86 SHA extensions with every
// value in registers. An iteration is two one-block compressions, U = HMAC(P, U): the inner from
// K^ipad's state over U and its padding, the outer from K^opad's state over the inner digest and
// its padding. A digest is its state words written big-endian and a block is read big-endian, so
// a compression's result is the next block's first eight message words as they stand: two
// shuffles each way instead of a store, byte swaps and a reload between the compressions.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "shani_rounds.hpp"

namespace shasta::kernels::shani {
namespace {

// The compression of one block whose words are w0..w3 from `start`, with the feed-forward; the
// result in natural order, ready to be the next block's W0..W7.
[[gnu::always_inline]] inline Natural compress(Packed start, __m128i w0, __m128i w1, __m128i w2,
                                               __m128i w3) noexcept {
  Packed s = start;
  rounds4(s.abef, s.cdgh, w0, 0);
  rounds4(s.abef, s.cdgh, w1, 1);
  rounds4(s.abef, s.cdgh, w2, 2);
  rounds4(s.abef, s.cdgh, w3, 3);
  for (int g = 4; g < 16; g += 4) {
    w0 = schedule(w0, w1, w2, w3);
    rounds4(s.abef, s.cdgh, w0, g);
    w1 = schedule(w1, w2, w3, w0);
    rounds4(s.abef, s.cdgh, w1, g + 1);
    w2 = schedule(w2, w3, w0, w1);
    rounds4(s.abef, s.cdgh, w2, g + 2);
    w3 = schedule(w3, w0, w1, w2);
    rounds4(s.abef, s.cdgh, w3, g + 3);
  }
  return unpack({_mm_add_epi32(s.abef, start.abef), _mm_add_epi32(s.cdgh, start.cdgh)});
}

[[gnu::always_inline]] inline Natural load(const std::uint32_t* words) noexcept {
  return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(words)),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + 4))};
}

[[gnu::always_inline]] inline void store(std::uint32_t* words, Natural s) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(words), s.lo);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(words + 4), s.hi);
}

}  // namespace

void sha256_pbkdf2_iterate(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                           std::uint32_t sum[8], std::uint64_t count) noexcept {
  const Packed inner_start = pack(load(inner));
  const Packed outer_start = pack(load(outer));
  // W8..W15 of both blocks: 0x80 after the 32-byte message, zeros, and the bit length of one
  // block plus 32 bytes (768).
  const __m128i pad_lo = _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000u));
  const __m128i pad_hi = _mm_set_epi32(768, 0, 0, 0);
  Natural x = load(u);
  Natural t = load(sum);
  for (std::uint64_t j = 0; j < count; ++j) {
    const Natural y = compress(inner_start, x.lo, x.hi, pad_lo, pad_hi);
    x = compress(outer_start, y.lo, y.hi, pad_lo, pad_hi);
    t.lo = _mm_xor_si128(t.lo, x.lo);
    t.hi = _mm_xor_si128(t.hi, x.hi);
  }
  store(u, x);
  store(sum, t);
}

}  // namespace shasta::kernels::shani
