// shani_rounds.hpp: the SHA-NI round and schedule steps shared by the SHA-NI kernel files. Include
// it only from files compiled with the SHA-NI flags (-msha -mssse3 -msse4.1): these inline
// functions carry those instructions, and a copy built without the flags must never exist.
#pragma once

#include <immintrin.h>

#include "../kernel_abi.hpp"

namespace shasta::kernels::shani {
namespace {

// word_byte_swap is the pshufb mask between big-endian 32-bit words and the lanes' order (the same
// both ways): message words in, digests out.
[[gnu::always_inline]] inline __m128i word_byte_swap() noexcept {
  return _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
}

// Four rounds: sha256rnds2 takes two W+K words from the low half of its third operand, and each
// call turns (CDGH, ABEF) into the new ABEF, so the two registers swap roles between the calls.
[[gnu::always_inline]] inline void rounds4_wk(__m128i& abef, __m128i& cdgh, __m128i wk) noexcept {
  cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
  abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
}

// Rounds 4 group .. 4 group + 3 with message words w, the round constants at k.
[[gnu::always_inline]] inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i w, const std::uint32_t* k,
                                           int group) noexcept {
  rounds4_wk(abef, cdgh, _mm_add_epi32(w, _mm_load_si128(reinterpret_cast<const __m128i*>(k + 4 * group))));
}
[[gnu::always_inline]] inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i w, int group) noexcept {
  rounds4(abef, cdgh, w, kSha256RoundConstants.k, group);
}

// round_constants_per_block is the round constants' address, hidden from the optimizer each time
// it is taken: a block loop that takes it once per block keeps its constants' loads in the loop.
// GCC 12 otherwise hoists the loads out of it and, short of registers, copies the constants to
// the stack before the first block: a dozen loads and stores for the HMAC finish's one- to
// three-block calls (not timed apart; the same in sha256_compress's block loop showed no change,
// and it keeps GCC's hoisting and copies).
[[gnu::always_inline]] inline const std::uint32_t* round_constants_per_block() noexcept {
  const std::uint32_t* k = kSha256RoundConstants.k;
  asm volatile("" : "+r"(k));
  return k;
}

// W[t..t+3] from w0 = W[t-16..t-13] .. w3 = W[t-4..t-1]: msg1 adds sigma0, the alignr supplies
// W[t-7..t-4], and msg2 adds sigma1 (including the in-vector dependency on W[t], W[t+1]).
[[gnu::always_inline]] inline __m128i schedule(__m128i w0, __m128i w1, __m128i w2, __m128i w3) noexcept {
  const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
  return _mm_sha256msg2_epu32(partial, w3);
}

// A state in natural order (two registers: H0..H3, H4..H7) and in the instructions' order
// (ABEF, CDGH: lane 3 first), and the shuffles between them.
struct Natural {
  __m128i lo, hi;
};
struct Packed {
  __m128i abef, cdgh;
};

[[gnu::always_inline]] inline Packed pack(Natural s) noexcept {
  const __m128i cdab = _mm_shuffle_epi32(s.lo, 0xB1);
  const __m128i efgh = _mm_shuffle_epi32(s.hi, 0x1B);
  return {_mm_alignr_epi8(cdab, efgh, 8), _mm_blend_epi16(efgh, cdab, 0xF0)};
}

[[gnu::always_inline]] inline Natural unpack(Packed s) noexcept {
  const __m128i feba = _mm_shuffle_epi32(s.abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(s.cdgh, 0xB1);
  return {_mm_blend_epi16(feba, dchg, 0xF0), _mm_alignr_epi8(dchg, feba, 8)};
}

}  // namespace
}  // namespace shasta::kernels::shani
