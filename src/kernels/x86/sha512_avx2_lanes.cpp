// sha512_avx2_lanes.cpp: SHA-512 compression (FIPS 180-4 section 6.4.2) of four (and five)
// independent streams, one per 64-bit lane of each AVX2 register (the multi-buffer layout of
// Intel's "Multi-Buffer Hashing" papers, Guilford et al.); rotations as two shifts and an or, the
// schedule in the rounds.
// On ELF targets the lane kernel is the five-stream assembly loop (sha512_avx2_x5_blocks.S: these
// four and a fifth on the general registers); these intrinsics then run its padding blocks.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"

#ifdef SHASTA_HAVE_AVX2_X5_ASM
// The block loop in assembly (sha512_avx2_x5_blocks.S): streams 0..3 as columns a..h (lane l:
// stream l), stream 4 in natural order; all updated in place; n >= 1.
extern "C" void shasta_sha512_avx2_x5_blocks(__m256i columns[8], const std::uint8_t* const blocks[5], std::size_t n,
                                             const std::uint64_t (*k)[4], std::uint64_t fifth[8]) noexcept;
#endif

namespace shasta::kernels::avx2 {
namespace {

using V = __m256i;

[[gnu::always_inline]] inline V add(V x, V y) noexcept {
  return _mm256_add_epi64(x, y);
}
[[gnu::always_inline]] inline V xor3(V x, V y, V z) noexcept {
  return _mm256_xor_si256(_mm256_xor_si256(x, y), z);
}

// AVX2 has no 64-bit rotate: two shifts whose bits do not overlap, joined with or.
template <int R>
[[gnu::always_inline]] inline V rotr(V x) noexcept {
  return _mm256_or_si256(_mm256_srli_epi64(x, R), _mm256_slli_epi64(x, 64 - R));
}

// A rotation by 8 is a byte shuffle: one instruction rather than three.
[[gnu::always_inline]] inline V rotr8(V x) noexcept {
  const V bytes =
      _mm256_set_epi64x(0x080f0e0d0c0b0a09LL, 0x0007060504030201LL, 0x080f0e0d0c0b0a09LL, 0x0007060504030201LL);
  return _mm256_shuffle_epi8(x, bytes);
}

// sigma0, sigma1 of the schedule and Sigma0, Sigma1 of the rounds (FIPS 180-4 eqs. 4.10-4.13).
[[gnu::always_inline]] inline V s0(V x) noexcept {
  return xor3(rotr<1>(x), rotr8(x), _mm256_srli_epi64(x, 7));
}
[[gnu::always_inline]] inline V s1(V x) noexcept {
  return xor3(rotr<19>(x), rotr<61>(x), _mm256_srli_epi64(x, 6));
}
[[gnu::always_inline]] inline V big_s0(V x) noexcept {
  return xor3(rotr<28>(x), rotr<34>(x), rotr<39>(x));
}
[[gnu::always_inline]] inline V big_s1(V x) noexcept {
  return xor3(rotr<14>(x), rotr<18>(x), rotr<41>(x));
}

// One round with the working variables renamed by the caller: only d and h change. Maj(a,b,c) is
// b ^ ((a ^ b) & (b ^ c)), with b ^ c carried over from the previous round's a ^ b.
[[gnu::always_inline]] inline void round(V a, V b, V& d, V e, V f, V g, V& h, V& bxc, V wk) noexcept {
  const V ch = _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g);
  const V t1 = add(add(h, wk), add(big_s1(e), ch));
  const V axb = _mm256_xor_si256(a, b);
  const V maj = _mm256_xor_si256(b, _mm256_and_si256(axb, bxc));
  bxc = axb;
  d = add(d, t1);
  h = add(t1, add(big_s0(a), maj));
}

struct Work {
  V a, b, c, d, e, f, g, h, bxc;
};

// W+K of round t0 + I. With kSched it first extends the window w (W[t-16..t-1] at index t mod 16)
// by this round's word, so the schedule runs inside the rounds.
template <int I, bool kSched>
[[gnu::always_inline]] inline V wk(V* w, const std::uint64_t (*k)[4]) noexcept {
  constexpr int j = I & 15;
  if constexpr (kSched) w[j] = add(add(w[j], s0(w[(j + 1) & 15])), add(w[(j + 9) & 15], s1(w[(j + 14) & 15])));
  return add(w[j], _mm256_load_si256(reinterpret_cast<const V*>(k[I])));
}

// Sixteen rounds from round t0 (k = kSha512RoundConstantsX4.k + t0: each K[t] four times, so each
// W+K is one add with a memory operand). The roles move by one each round and are home after eight.
template <bool kSched>
[[gnu::always_inline]] inline void rounds16(Work& s, V* w, const std::uint64_t (*k)[4]) noexcept {
  round(s.a, s.b, s.d, s.e, s.f, s.g, s.h, s.bxc, wk<0, kSched>(w, k));
  round(s.h, s.a, s.c, s.d, s.e, s.f, s.g, s.bxc, wk<1, kSched>(w, k));
  round(s.g, s.h, s.b, s.c, s.d, s.e, s.f, s.bxc, wk<2, kSched>(w, k));
  round(s.f, s.g, s.a, s.b, s.c, s.d, s.e, s.bxc, wk<3, kSched>(w, k));
  round(s.e, s.f, s.h, s.a, s.b, s.c, s.d, s.bxc, wk<4, kSched>(w, k));
  round(s.d, s.e, s.g, s.h, s.a, s.b, s.c, s.bxc, wk<5, kSched>(w, k));
  round(s.c, s.d, s.f, s.g, s.h, s.a, s.b, s.bxc, wk<6, kSched>(w, k));
  round(s.b, s.c, s.e, s.f, s.g, s.h, s.a, s.bxc, wk<7, kSched>(w, k));
  round(s.a, s.b, s.d, s.e, s.f, s.g, s.h, s.bxc, wk<8, kSched>(w, k));
  round(s.h, s.a, s.c, s.d, s.e, s.f, s.g, s.bxc, wk<9, kSched>(w, k));
  round(s.g, s.h, s.b, s.c, s.d, s.e, s.f, s.bxc, wk<10, kSched>(w, k));
  round(s.f, s.g, s.a, s.b, s.c, s.d, s.e, s.bxc, wk<11, kSched>(w, k));
  round(s.e, s.f, s.h, s.a, s.b, s.c, s.d, s.bxc, wk<12, kSched>(w, k));
  round(s.d, s.e, s.g, s.h, s.a, s.b, s.c, s.bxc, wk<13, kSched>(w, k));
  round(s.c, s.d, s.f, s.g, s.h, s.a, s.b, s.bxc, wk<14, kSched>(w, k));
  round(s.b, s.c, s.e, s.f, s.g, s.h, s.a, s.bxc, wk<15, kSched>(w, k));
}

// Rows r0..r3 (one per stream, four words each) to columns (one word of every stream each).
[[gnu::always_inline]] inline void transpose(V& r0, V& r1, V& r2, V& r3) noexcept {
  const V t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
  const V t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
  r0 = _mm256_permute2x128_si256(t0, t2, 0x20);
  r1 = _mm256_permute2x128_si256(t1, t3, 0x20);
  r2 = _mm256_permute2x128_si256(t0, t2, 0x31);
  r3 = _mm256_permute2x128_si256(t1, t3, 0x31);
}

[[gnu::always_inline]] inline V load(const void* p) noexcept {
  return _mm256_loadu_si256(static_cast<const V*>(p));
}

[[gnu::always_inline]] inline void store(void* p, V v) noexcept {
  _mm256_storeu_si256(static_cast<V*>(p), v);
}

// The block loop in intrinsics (non-ELF targets' lane kernel; the assembly one's padding blocks).
void blocks_intrinsics(Work& s, const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const V bswap =
      _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
  const std::uint8_t* p0 = blocks[0];
  const std::uint8_t* p1 = blocks[1];
  const std::uint8_t* p2 = blocks[2];
  const std::uint8_t* p3 = blocks[3];
  alignas(32) V w[16];
  do {
    for (int j = 0; j < 16; j += 4) {
      V r0 = load(p0 + 8 * j), r1 = load(p1 + 8 * j), r2 = load(p2 + 8 * j), r3 = load(p3 + 8 * j);
      transpose(r0, r1, r2, r3);
      w[j] = _mm256_shuffle_epi8(r0, bswap);
      w[j + 1] = _mm256_shuffle_epi8(r1, bswap);
      w[j + 2] = _mm256_shuffle_epi8(r2, bswap);
      w[j + 3] = _mm256_shuffle_epi8(r3, bswap);
    }
    p0 += 128, p1 += 128, p2 += 128, p3 += 128;
    const Work in = s;
    s.bxc = _mm256_xor_si256(s.b, s.c);
    rounds16<false>(s, w, kSha512RoundConstantsX4.k);
    for (int t = 16; t < 80; t += 16) rounds16<true>(s, w, kSha512RoundConstantsX4.k + t);
    s.a = add(s.a, in.a), s.b = add(s.b, in.b), s.c = add(s.c, in.c), s.d = add(s.d, in.d);
    s.e = add(s.e, in.e), s.f = add(s.f, in.f), s.g = add(s.g, in.g), s.h = add(s.h, in.h);
  } while (--n != 0);
}

// The states of streams 0..3 as columns (one stream a lane) and back.
[[gnu::always_inline]] inline void load_columns(std::uint64_t* const states[], Work& s) noexcept {
  V r0 = load(states[0]), r1 = load(states[1]), r2 = load(states[2]), r3 = load(states[3]);
  transpose(r0, r1, r2, r3);
  s.a = r0, s.b = r1, s.c = r2, s.d = r3;
  r0 = load(states[0] + 4), r1 = load(states[1] + 4), r2 = load(states[2] + 4), r3 = load(states[3] + 4);
  transpose(r0, r1, r2, r3);
  s.e = r0, s.f = r1, s.g = r2, s.h = r3;
}

[[gnu::always_inline]] inline void store_columns(const Work& s, std::uint64_t* const states[]) noexcept {
  V r0 = s.a, r1 = s.b, r2 = s.c, r3 = s.d;
  transpose(r0, r1, r2, r3);
  store(states[0], r0), store(states[1], r1), store(states[2], r2), store(states[3], r3);
  r0 = s.e, r1 = s.f, r2 = s.g, r3 = s.h;
  transpose(r0, r1, r2, r3);
  store(states[0] + 4, r0), store(states[1] + 4, r1), store(states[2] + 4, r2), store(states[3] + 4, r3);
}

[[gnu::always_inline]] inline void compress_columns(std::uint64_t* const states[], const std::uint8_t* const blocks[],
                                                    std::size_t n,
                                                    void (*run_blocks)(Work&, const std::uint8_t* const[],
                                                                       std::size_t) noexcept) noexcept {
  Work s;
  load_columns(states, s);
  run_blocks(s, blocks, n);
  store_columns(s, states);
}

}  // namespace

void sha512_compress_x4(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;
  compress_columns(states, blocks, n, blocks_intrinsics);
}

#ifdef SHASTA_HAVE_AVX2_X5_ASM
void sha512_compress_x5(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;
  Work s;
  load_columns(states, s);
  V columns[8] = {s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h};
  shasta_sha512_avx2_x5_blocks(columns, blocks, n, kSha512RoundConstantsX4.k, states[4]);
  s.a = columns[0], s.b = columns[1], s.c = columns[2], s.d = columns[3];
  s.e = columns[4], s.f = columns[5], s.g = columns[6], s.h = columns[7];
  store_columns(s, states);
}

void sha512_compress_x5_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  sha512_compress_x4(states, blocks, n);
  sha512_compress(states[4], blocks[4], n);
}
#endif

}  // namespace shasta::kernels::avx2
