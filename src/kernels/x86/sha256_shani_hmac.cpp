// sha256_shani_hmac.cpp: HMAC-SHA256's chains of compressions on the x86 SHA extensions with every
// value in registers: a prepared-key MAC's last inner blocks and its outer block, and PBKDF2's
// iteration loop. A digest is its state words written big-endian and a block is read big-endian,
// so a compression's result is the next block's first eight message words as they stand: two
// shuffles each way instead of a store, byte swaps and a reload between the compressions.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "shani_rounds.hpp"

namespace shasta::kernels::shani {
namespace {

// The compression of one block whose words are w0..w3 from `start`, with the feed-forward; the
// round constants at k.
[[gnu::always_inline]] inline Packed compress_packed(Packed start, __m128i w0, __m128i w1, __m128i w2, __m128i w3,
                                                     const std::uint32_t* k) noexcept {
  Packed s = start;
  rounds4(s.abef, s.cdgh, w0, k, 0);
  rounds4(s.abef, s.cdgh, w1, k, 1);
  rounds4(s.abef, s.cdgh, w2, k, 2);
  rounds4(s.abef, s.cdgh, w3, k, 3);
  for (int g = 4; g < 16; g += 4) {
    w0 = schedule(w0, w1, w2, w3);
    rounds4(s.abef, s.cdgh, w0, k, g);
    w1 = schedule(w1, w2, w3, w0);
    rounds4(s.abef, s.cdgh, w1, k, g + 1);
    w2 = schedule(w2, w3, w0, w1);
    rounds4(s.abef, s.cdgh, w2, k, g + 2);
    w3 = schedule(w3, w0, w1, w2);
    rounds4(s.abef, s.cdgh, w3, k, g + 3);
  }
  return {_mm_add_epi32(s.abef, start.abef), _mm_add_epi32(s.cdgh, start.cdgh)};
}

// The same, its result in natural order: ready to be the next block's W0..W7.
[[gnu::always_inline]] inline Natural compress(Packed start, __m128i w0, __m128i w1, __m128i w2, __m128i w3,
                                               const std::uint32_t* k) noexcept {
  return unpack(compress_packed(start, w0, w1, w2, w3, k));
}

[[gnu::always_inline]] inline Natural load(const std::uint32_t* words) noexcept {
  return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(words)),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + 4))};
}

[[gnu::always_inline]] inline void store(std::uint32_t* words, Natural s) noexcept {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(words), s.lo);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(words + 4), s.hi);
}

// W8..W15 of a block that holds a 32-byte message after one block (an HMAC's outer block, a
// PBKDF2 iteration's two): 0x80 after the message, zeros, and the bit length 768.
[[gnu::always_inline]] inline __m128i pad_lo() noexcept {
  return _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000u));
}
[[gnu::always_inline]] inline __m128i pad_hi() noexcept {
  return _mm_set_epi32(768, 0, 0, 0);
}

}  // namespace

void sha256_pbkdf2_iterate(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                           std::uint32_t sum[8], std::uint64_t count) noexcept {
  const Packed inner_start = pack(load(inner));
  const Packed outer_start = pack(load(outer));
  Natural x = load(u);
  Natural t = load(sum);
  for (std::uint64_t j = 0; j < count; ++j) {
    // The constants' loads hoisted out of this loop, where they are the same for every iteration.
    const Natural y = compress(inner_start, x.lo, x.hi, pad_lo(), pad_hi(), kSha256RoundConstants.k);
    x = compress(outer_start, y.lo, y.hi, pad_lo(), pad_hi(), kSha256RoundConstants.k);
    t.lo = _mm_xor_si128(t.lo, x.lo);
    t.hi = _mm_xor_si128(t.hi, x.hi);
  }
  store(u, x);
  store(sum, t);
}

void sha256_hmac_finish(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n,
                        const std::uint32_t outer[8]) noexcept {
  const __m128i bswap = word_byte_swap();
  Packed s = pack(load(state));
  for (; n != 0; --n, blocks += 64) {
    const auto* p = reinterpret_cast<const __m128i*>(blocks);
    s = compress_packed(s, _mm_shuffle_epi8(_mm_loadu_si128(p + 0), bswap),
                        _mm_shuffle_epi8(_mm_loadu_si128(p + 1), bswap),
                        _mm_shuffle_epi8(_mm_loadu_si128(p + 2), bswap),
                        _mm_shuffle_epi8(_mm_loadu_si128(p + 3), bswap), round_constants_per_block());
  }
  // Loaded after the loop, so that the loop's registers do not spill (K^opad's state to the stack);
  // it is off the chain all the same: the CPU loads and packs it beside the inner rounds.
  const Packed outer_start = pack(load(outer));
  const Natural inner_digest = unpack(s);
  const Natural tag =
      compress(outer_start, inner_digest.lo, inner_digest.hi, pad_lo(), pad_hi(), round_constants_per_block());
  // The tag's bytes, byte-swapped here rather than by the caller: the caller's digest, read back
  // at once when it is the next message (a hash chain, HKDF's T(i)), waits for these stores only.
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), _mm_shuffle_epi8(tag.lo, bswap));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), _mm_shuffle_epi8(tag.hi, bswap));
}

}  // namespace shasta::kernels::shani
