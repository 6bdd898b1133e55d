// sha512_avx2.cpp: SHA-512 compression on AVX2 + BMI2 (the avx2 row). On ELF targets it is the
// block loop in assembly (sha512_avx2_blocks.S); elsewhere the scalar rorx rounds of
// sha512_rorx_rounds.hpp in their fewest-operations form (the form for Zen 3's four ALUs), with the
// schedule's rotations built from shifts (AVX2 has no rotate). Both take the same method; the
// assembly's order of the schedule among the rounds is set by hand, and on Zen 3 it runs 6% faster
// than g++'s (doc/performance.md).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#ifdef SHASTA_HAVE_AVX2_SHA512_ASM
// The block loop in assembly: state updated in place; n >= 1.
extern "C" void shasta_sha512_avx2_blocks(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n,
                                          const std::uint64_t (*k_pairs)[4]) noexcept;
#else
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
}  // namespace shasta::kernels::avx2
#endif

namespace shasta::kernels::avx2 {

void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
#ifdef SHASTA_HAVE_AVX2_SHA512_ASM
  if (n != 0) shasta_sha512_avx2_blocks(state, blocks, n, kSha512RoundConstantsPairs.k);
#else
  sha512_rorx::compress_blocks<ShiftSchedule, sha512_rorx::FewestOpsRound>(state, blocks, n);
#endif
}

}  // namespace shasta::kernels::avx2
