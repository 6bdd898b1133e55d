// sha256_avx2.cpp: SHA-256 compression on AVX2 + BMI2: the scalar rorx rounds of
// sha256_rorx_rounds.hpp, with the schedule's rotations built from shifts (AVX2 has no rotate).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "sha256_rorx_rounds.hpp"

namespace shasta::kernels::avx2 {
namespace {

struct ShiftSchedule {
  // sigma1 of words 0 and 2 of each 128-bit lane of `dup`, where each 64-bit element holds one word
  // twice: a 64-bit right shift of (x:x) leaves the 32-bit rotation in the low half.
  [[gnu::always_inline]] static __m256i sigma1_pairs(__m256i dup) noexcept {
    return _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(dup, 17), _mm256_srli_epi64(dup, 19)),
                            _mm256_srli_epi32(dup, 10));
  }

  // W[t..t+3] for both blocks from x0 = W[t-16..t-13] .. x3 = W[t-4..t-1]. sigma1 needs
  // W[t-2..t+1], half of which is computed here, so it is done in two halves.
  [[gnu::always_inline]] static __m256i next(__m256i x0, __m256i x1, __m256i x2, __m256i x3) noexcept {
    const __m256i w15 = _mm256_alignr_epi8(x1, x0, 4);
    const __m256i w7 = _mm256_alignr_epi8(x3, x2, 4);
    // sigma0 = ror7 ^ ror18 ^ shr3, each rotation as two shifts with disjoint bits.
    const __m256i s0 =
        _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi32(w15, 7), _mm256_slli_epi32(w15, 25)),
                                          _mm256_xor_si256(_mm256_srli_epi32(w15, 18), _mm256_slli_epi32(w15, 14))),
                         _mm256_srli_epi32(w15, 3));
    __m256i w = _mm256_add_epi32(_mm256_add_epi32(x0, w7), s0);

    // Gather the two sigma1 results into words 0-1 (then 2-3) and zero the other two.
    const __m256i to_low = _mm256_set_epi64x(-1, 0x0b0a090803020100LL, -1, 0x0b0a090803020100LL);
    const __m256i to_high = _mm256_set_epi64x(0x0b0a090803020100LL, -1, 0x0b0a090803020100LL, -1);
    w = _mm256_add_epi32(w, _mm256_shuffle_epi8(sigma1_pairs(_mm256_shuffle_epi32(x3, 0xFA)), to_low));
    return _mm256_add_epi32(w, _mm256_shuffle_epi8(sigma1_pairs(_mm256_shuffle_epi32(w, 0x50)), to_high));
  }
};

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha256_rorx::compress_blocks<ShiftSchedule>(state, blocks, n);
}

}  // namespace shasta::kernels::avx2
