// sha512_avx2.cpp: SHA-512 compression on AVX2 + BMI2: the scalar rorx rounds of
// sha512_rorx_rounds.hpp in their fewest-operations form (the form for Zen 3's four ALUs), with
// the schedule's rotations built from shifts (AVX2 has no rotate).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "sha512_rorx_rounds.hpp"

namespace shasta::kernels::avx2 {
namespace {

struct ShiftSchedule {
  // W[t], W[t+1] for both blocks, where xj holds W[t-16+2j..t-15+2j]. Each rotation as two shifts
  // with disjoint bits, so they combine with xor. Chains rather than trees: this work has slack,
  // and fewer temporaries mean fewer vector spills.
  [[gnu::always_inline]] static __m256i next(__m256i x0, __m256i x1, __m256i x4, __m256i x5, __m256i x7) noexcept {
    const __m256i w15 = _mm256_alignr_epi8(x1, x0, 8);
    __m256i s0 = _mm256_srli_epi64(w15, 7);
    s0 = _mm256_xor_si256(s0, _mm256_srli_epi64(w15, 1));
    s0 = _mm256_xor_si256(s0, _mm256_slli_epi64(w15, 63));
    s0 = _mm256_xor_si256(s0, _mm256_srli_epi64(w15, 8));
    s0 = _mm256_xor_si256(s0, _mm256_slli_epi64(w15, 56));
    __m256i s1 = _mm256_srli_epi64(x7, 6);
    s1 = _mm256_xor_si256(s1, _mm256_srli_epi64(x7, 19));
    s1 = _mm256_xor_si256(s1, _mm256_slli_epi64(x7, 45));
    s1 = _mm256_xor_si256(s1, _mm256_srli_epi64(x7, 61));
    s1 = _mm256_xor_si256(s1, _mm256_slli_epi64(x7, 3));
    x0 = _mm256_add_epi64(x0, _mm256_alignr_epi8(x5, x4, 8));
    x0 = _mm256_add_epi64(x0, s0);
    return _mm256_add_epi64(x0, s1);
  }
};

}  // namespace

void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha512_rorx::compress_blocks<ShiftSchedule, sha512_rorx::FewestOpsRound>(state, blocks, n);
}

}  // namespace shasta::kernels::avx2
