// sha512_avx512.cpp: SHA-512 compression for CPUs with AVX-512VL: the scalar rorx rounds of
// sha512_rorx_rounds.hpp, the schedule's sigmas each two vprorq, one shift and one vpternlogq
// (four operations where AVX2 needs nine). The rounds are the bound, and on Zen 5 this leaves
// the schedule's share at nothing: one block 4-5% faster, many blocks 3-4% (bench floor_sha512).
// ymm registers only, so no 512-bit frequency licence on Intel.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "sha512_rorx_rounds.hpp"

namespace shasta::kernels::avx512 {
namespace {

struct RotateSchedule {
  // W[t], W[t+1] for both blocks, where xj holds W[t-16+2j..t-15+2j]. 0x96 is the three-way xor.
  [[gnu::always_inline]] static __m256i next(__m256i x0, __m256i x1, __m256i x4, __m256i x5, __m256i x7) noexcept {
    const __m256i w15 = _mm256_alignr_epi8(x1, x0, 8);
    const __m256i s0 =
        _mm256_ternarylogic_epi64(_mm256_ror_epi64(w15, 1), _mm256_ror_epi64(w15, 8), _mm256_srli_epi64(w15, 7), 0x96);
    const __m256i s1 =
        _mm256_ternarylogic_epi64(_mm256_ror_epi64(x7, 19), _mm256_ror_epi64(x7, 61), _mm256_srli_epi64(x7, 6), 0x96);
    x0 = _mm256_add_epi64(x0, _mm256_alignr_epi8(x5, x4, 8));
    x0 = _mm256_add_epi64(x0, s0);
    return _mm256_add_epi64(x0, s1);
  }
};

}  // namespace

void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  sha512_rorx::compress_blocks<RotateSchedule, sha512_rorx::ShortChainRound>(state, blocks, n);
}

}  // namespace shasta::kernels::avx512
