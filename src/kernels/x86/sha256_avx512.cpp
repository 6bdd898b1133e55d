// sha256_avx512.cpp: SHA-256 compression for CPUs with AVX-512VL, for those without SHA-NI (Intel's
// Skylake-SP and Cascade Lake): the scalar rorx rounds of sha256_rorx_rounds.hpp, the schedule's
// sigmas each two vprord, one shift and one vpternlogd, and sigma1's two halves added under a mask
// instead of gathered by byte shuffles (20 vector operations for four words where AVX2 takes 29).
// ymm registers only, so no 512-bit frequency licence on Intel.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "sha256_rorx_rounds.hpp"

namespace shasta::kernels::avx512 {
namespace {

struct RotateSchedule {
  // ror17 ^ ror19 ^ shr10 (0x96 is the three-way xor).
  [[gnu::always_inline]] static __m256i sigma1(__m256i x) noexcept {
    return _mm256_ternarylogic_epi32(_mm256_ror_epi32(x, 17), _mm256_ror_epi32(x, 19), _mm256_srli_epi32(x, 10), 0x96);
  }

  // W[t..t+3] for both blocks from x0 = W[t-16..t-13] .. x3 = W[t-4..t-1]. sigma1 needs
  // W[t-2..t+1], half of which is computed here, so it is done in two halves: words 0-1 of each
  // 128-bit lane (mask 0x33) from W[t-2..t-1], then words 2-3 (0xCC) from the new W[t..t+1].
  [[gnu::always_inline]] static __m256i next(__m256i x0, __m256i x1, __m256i x2, __m256i x3) noexcept {
    const __m256i w15 = _mm256_alignr_epi8(x1, x0, 4);
    const __m256i w7 = _mm256_alignr_epi8(x3, x2, 4);
    const __m256i s0 =
        _mm256_ternarylogic_epi32(_mm256_ror_epi32(w15, 7), _mm256_ror_epi32(w15, 18), _mm256_srli_epi32(w15, 3), 0x96);
    __m256i w = _mm256_add_epi32(_mm256_add_epi32(x0, w7), s0);
    w = _mm256_mask_add_epi32(w, 0x33, w, sigma1(_mm256_shuffle_epi32(x3, 0xEE)));
    return _mm256_mask_add_epi32(w, 0xCC, w, sigma1(_mm256_shuffle_epi32(w, 0x44)));
  }
};

}  // namespace

void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha256_rorx::compress_blocks<RotateSchedule>(state, blocks, n);
}

}  // namespace shasta::kernels::avx512
