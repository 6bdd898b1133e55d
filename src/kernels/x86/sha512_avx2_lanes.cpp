// sha512_avx2_lanes.cpp: SHA-512 compression (FIPS 180-4 section 6.4.2) of four (and five)
// independent streams, one per 64-bit lane of each AVX2 register; the rounds, the schedule (run
// inside the rounds) and the feed-forward are avx2_lane_rounds.hpp's, shared with the SHA-256
// lanes. Here: the 4x4 transpose and the block loop.
// On ELF targets the lane kernel is the five-stream assembly loop (sha512_avx2_x5_blocks.S: these
// four and a fifth on the general registers); these intrinsics then run its padding blocks, and
// its hash call takes five messages of one length from the IV to their digests.
#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "avx2_lane_rounds.hpp"
#include "sha512_rorx_rounds.hpp"

#ifdef SHASTA_HAVE_AVX2_X5_ASM
// The block loop in assembly (sha512_avx2_x5_blocks.S): streams 0..3 as columns a..h (lane l:
// stream l), stream 4 in natural order; all updated in place; n >= 1.
extern "C" void shasta_sha512_avx2_x5_blocks(__m256i columns[8], const std::uint8_t* const blocks[5], std::size_t n,
                                             const std::uint64_t (*k)[4], std::uint64_t fifth[8]) noexcept;
#endif

namespace shasta::kernels::avx2 {
namespace {

using Rounds = LaneRounds<Sha512Words>;
using Work = Rounds::Work;

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

// The working variables from the assembly loop's columns (a..h, lane l: stream l).
[[gnu::always_inline]] inline Work from_columns(const V columns[8]) noexcept {
  Work s;
  s.a = columns[0], s.b = columns[1], s.c = columns[2], s.d = columns[3];
  s.e = columns[4], s.f = columns[5], s.g = columns[6], s.h = columns[7];
  return s;
}

// The byte shuffle between big-endian 64-bit words and native ones (either way).
[[gnu::always_inline]] inline V word_byte_swap() noexcept {
  return _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
}

// The block loop in intrinsics (non-ELF targets' lane kernel; the assembly one's padding blocks).
void blocks_intrinsics(Work& s, const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const V bswap = word_byte_swap();
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
    Rounds::compress_block(s, w);
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
  store_columns(from_columns(columns), states);
}

void sha512_compress_x5_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  sha512_compress_x4(states, blocks, n);
  sha512_compress(states[4], blocks[4], n);
}

namespace {

// The fifth stream's working variables, on the general registers, and b ^ c for the next Maj
// (bnc: the round's unused argument). Its round is the single-stream avx2 row's (FewestOpsRound:
// Zen 3's ALUs bound it), with internal linkage like everything built with these flags.
struct Scalar {
  std::uint64_t a, b, c, d, e, f, g, h, bxc, bnc;
};
using ScalarRound = sha512_rorx::FewestOpsRound;

// Eight rounds of a block every stream shares, from t: the four vector streams and the fifth side
// by side, each round's W+K loaded once for all five, so the fifth's rounds fill the integer ALUs
// that the vector rounds' chains leave idle.
[[gnu::always_inline]] inline void shared_rounds8(Work& s, Scalar& x, const std::uint64_t* wk) noexcept {
  const auto all = [wk](int i) { return _mm256_set1_epi64x(static_cast<long long>(wk[i])); };
  Rounds::round(s.a, s.b, s.d, s.e, s.f, s.g, s.h, s.bxc, all(0));
  ScalarRound::step(x.a, x.b, x.d, x.e, x.f, x.g, x.h, x.bxc, x.bnc, wk[0]);
  Rounds::round(s.h, s.a, s.c, s.d, s.e, s.f, s.g, s.bxc, all(1));
  ScalarRound::step(x.h, x.a, x.c, x.d, x.e, x.f, x.g, x.bxc, x.bnc, wk[1]);
  Rounds::round(s.g, s.h, s.b, s.c, s.d, s.e, s.f, s.bxc, all(2));
  ScalarRound::step(x.g, x.h, x.b, x.c, x.d, x.e, x.f, x.bxc, x.bnc, wk[2]);
  Rounds::round(s.f, s.g, s.a, s.b, s.c, s.d, s.e, s.bxc, all(3));
  ScalarRound::step(x.f, x.g, x.a, x.b, x.c, x.d, x.e, x.bxc, x.bnc, wk[3]);
  Rounds::round(s.e, s.f, s.h, s.a, s.b, s.c, s.d, s.bxc, all(4));
  ScalarRound::step(x.e, x.f, x.h, x.a, x.b, x.c, x.d, x.bxc, x.bnc, wk[4]);
  Rounds::round(s.d, s.e, s.g, s.h, s.a, s.b, s.c, s.bxc, all(5));
  ScalarRound::step(x.d, x.e, x.g, x.h, x.a, x.b, x.c, x.bxc, x.bnc, wk[5]);
  Rounds::round(s.c, s.d, s.f, s.g, s.h, s.a, s.b, s.bxc, all(6));
  ScalarRound::step(x.c, x.d, x.f, x.g, x.h, x.a, x.b, x.bxc, x.bnc, wk[6]);
  Rounds::round(s.b, s.c, s.e, s.f, s.g, s.h, s.a, s.bxc, all(7));
  ScalarRound::step(x.b, x.c, x.e, x.f, x.g, x.h, x.a, x.bxc, x.bnc, wk[7]);
}

// absorb_shared_wk runs the shared block, given as its W+K, on all five streams: rounds only.
[[gnu::always_inline]] inline void absorb_shared_wk(Work& s, std::uint64_t fifth[8], const std::uint64_t* wk) noexcept {
  const Work in = s;
  Scalar x = {fifth[0], fifth[1], fifth[2], fifth[3], fifth[4], fifth[5], fifth[6], fifth[7], fifth[1] ^ fifth[2], 0};
  s.bxc = xor2(s.b, s.c);
  for (int t = 0; t < 80; t += 8) shared_rounds8(s, x, wk + t);
  Rounds::add_state(s, in);
  fifth[0] += x.a, fifth[1] += x.b, fifth[2] += x.c, fifth[3] += x.d;
  fifth[4] += x.e, fifth[5] += x.f, fifth[6] += x.g, fifth[7] += x.h;
}

// store_digests writes streams 0..3 (columns) as big-endian words to out[0..3].
[[gnu::always_inline]] inline void store_digests(const Work& s, std::uint8_t* const out[]) noexcept {
  const V bswap = word_byte_swap();
  V r0 = s.a, r1 = s.b, r2 = s.c, r3 = s.d;
  transpose(r0, r1, r2, r3);
  store(out[0], _mm256_shuffle_epi8(r0, bswap)), store(out[1], _mm256_shuffle_epi8(r1, bswap));
  store(out[2], _mm256_shuffle_epi8(r2, bswap)), store(out[3], _mm256_shuffle_epi8(r3, bswap));
  r0 = s.e, r1 = s.f, r2 = s.g, r3 = s.h;
  transpose(r0, r1, r2, r3);
  store(out[0] + 32, _mm256_shuffle_epi8(r0, bswap)), store(out[1] + 32, _mm256_shuffle_epi8(r1, bswap));
  store(out[2] + 32, _mm256_shuffle_epi8(r2, bswap)), store(out[3] + 32, _mm256_shuffle_epi8(r3, bswap));
}

}  // namespace

// Streams 0..3 stay in columns from the IV (every lane the same: no transpose) to the digests.
// Unlike tail_fn's, the padded tails go through the assembly loop too: on Zen 3, 1.27x faster for
// messages of 200 bytes and 1.08x for 1,000 than through the intrinsics loop and the single-stream
// kernel, and no slower out of cache (10,000 x 4,000 bytes), where tail_fn's separate loop kept the
// SHA-NI lanes' data loads' stride (LaneKernel::tail_fn): this loop prefetches its own.
void sha512_hash_x5(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept {
  V columns[8];
  for (int i = 0; i < 8; ++i) columns[i] = _mm256_set1_epi64x(static_cast<long long>(iv[i]));
  std::uint64_t fifth[8];
  for (int i = 0; i < 8; ++i) fifth[i] = iv[i];
  if (whole != 0) shasta_sha512_avx2_x5_blocks(columns, msgs, whole, kSha512RoundConstantsX4.k, fifth);
  if (tails != nullptr) shasta_sha512_avx2_x5_blocks(columns, tails, 1, kSha512RoundConstantsX4.k, fifth);
  Work s = from_columns(columns);
  if (shared_wk != nullptr) absorb_shared_wk(s, fifth, shared_wk);
  store_digests(s, out);
  for (int i = 0; i < 8; ++i) {
    const std::uint64_t be = __builtin_bswap64(fifth[i]);
    __builtin_memcpy(out[4] + 8 * i, &be, 8);
  }
}
#endif

}  // namespace shasta::kernels::avx2
