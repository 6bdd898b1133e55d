// sha256_avx512_x16.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) of sixteen independent
// streams, one per 32-bit lane of each zmm register; the rounds, the schedule (run inside the
// rounds) and the feed-forward are avx512_lane_rounds.hpp's, shared with the SHA-512 lanes. Here:
// the 16x16 transpose that puts each stream's words and state in its lane, and the block loops.
// Needs AVX-512F and BW (vpshufb on zmm), and VL as built (-mavx512vl lets GCC EVEX-encode the
// 256-bit state rows).
// In cache on Zen 4 (double-pumped zmm): 1.05 cycles a byte of each stream with GCC 12, 0.92 with
// clang 14, against a floor of about 0.85 (1,750 vector operations a block at two a cycle); the
// SHA-NI four-stream loop there took 0.88-1.1, the AVX2 eight-lane kernel 2.1 (all before the
// round's sums were pinned, see LaneRounds::pin). On Zen 5, whose 512-bit operations take two
// cycles but issue four at a time, the rounds' dependency chains are the bound: 0.88 c/B with GCC's
// own order of the sums, 0.69 pinned (the SHA-512 x8 kernel: 1.05 -> 0.82).
#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "avx512_lane_rounds.hpp"

namespace shasta::kernels::avx512 {
namespace {

using Rounds = LaneRounds<Sha256Words>;
using Work = Rounds::Work;

// Prefetch distance: each stream's block four blocks ahead (as the x4 and x5 loops do).
constexpr std::size_t kAhead = 4 * 64;

// The 16x16 transpose of 32-bit words: row l (sixteen words of stream l) to column j (word j of
// every stream, stream l in lane l). Within each 128-bit quarter, unpacks put word 4q + j of
// streams 4i..4i+3 together in u[4i + j]; a 4x4 transpose of whole quarters (vshufi32x4) then
// gathers the four groups of streams. 64 shuffles; it is its own inverse.
[[gnu::always_inline]] inline void transpose16(V (&r)[16]) noexcept {
  V t[16], u[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; i += 4) {
    u[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
#pragma GCC unroll 16
  for (int j = 0; j < 4; ++j) {
    // Quarters q of u[4i + j] hold word 4q + j of streams 4i..4i+3; column 4q + j wants them in
    // quarter i.
    const V s0 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0x44);       // u[j].0 u[j].1 u[4+j].0 u[4+j].1
    const V s1 = _mm512_shuffle_i32x4(u[j], u[4 + j], 0xee);       // quarters 2 and 3 likewise
    const V s2 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0x44);
    const V s3 = _mm512_shuffle_i32x4(u[8 + j], u[12 + j], 0xee);
    r[j] = _mm512_shuffle_i32x4(s0, s2, 0x88);       // quarter 0 of each of the four
    r[4 + j] = _mm512_shuffle_i32x4(s0, s2, 0xdd);   // quarter 1
    r[8 + j] = _mm512_shuffle_i32x4(s1, s3, 0x88);   // quarter 2
    r[12 + j] = _mm512_shuffle_i32x4(s1, s3, 0xdd);  // quarter 3
  }
}

// The sixteen states as columns a..h (the rows' upper halves are zero and come out as the unused
// columns 8..15) and back.
[[gnu::always_inline]] inline void load_state(std::uint32_t* const states[], Work& s) noexcept {
  V r[16];
#pragma GCC unroll 16
  for (int l = 0; l < 16; ++l) {
    r[l] = _mm512_zextsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(states[l])));
  }
  transpose16(r);
  s = Work{r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]};
}

[[gnu::always_inline]] inline void store_state(std::uint32_t* const states[], const Work& s) noexcept {
  const V z = _mm512_setzero_si512();
  V r[16] = {s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h, z, z, z, z, z, z, z, z};
  transpose16(r);
#pragma GCC unroll 16
  for (int l = 0; l < 16; ++l) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(states[l]), _mm512_castsi512_si256(r[l]));
  }
}

[[gnu::always_inline]] inline V bswap_mask() noexcept {
  return _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
}

// One block of sixteen streams (byte offset `off` of each) as the words of its rounds. kPrefetch:
// ask for each stream's block four ahead (the main loops; not the loops over padding blocks).
template <bool kPrefetch>
[[gnu::always_inline]] inline void load_words(V (&w)[16], const std::uint8_t* const blocks[], std::size_t off,
                                              V bswap) noexcept {
#pragma GCC unroll 16
  for (int l = 0; l < 16; ++l) w[l] = _mm512_loadu_si512(blocks[l] + off);
  if constexpr (kPrefetch) {
#pragma GCC unroll 16
    for (int l = 0; l < 16; ++l) _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead), _MM_HINT_T0);
  }
  transpose16(w);
#pragma GCC unroll 16
  for (auto& x : w) x = _mm512_shuffle_epi8(x, bswap);
}

// The block loop: n >= 1 blocks of every stream into s. Every stream advances by 64 bytes a block,
// so one offset serves all sixteen pointers. The loop for padding blocks (one a call) does not
// prefetch, and so is also another loop.
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb(Work& s, const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const V bswap = bswap_mask();
  std::size_t off = 0;
  do {
    V w[16];
    load_words<kPrefetch>(w, blocks, off, bswap);
    Rounds::compress_block(s, w);
    off += 64;
  } while (--n != 0);
}

template <bool kPrefetch>
[[gnu::always_inline]] inline void compress_lanes(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                                                  std::size_t n) noexcept {
  if (n == 0) return;
  Work s;
  load_state(states, s);
  absorb<kPrefetch>(s, blocks, n);
  store_state(states, s);
}

}  // namespace

void sha256_compress_x16(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<true>(states, blocks, n);
}

void sha256_compress_x16_tail(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                              std::size_t n) noexcept {
  compress_lanes<false>(states, blocks, n);
}

void sha256_hash_x16(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept {
  Work s = Rounds::broadcast_iv(iv);
  if (whole != 0) absorb<true>(s, msgs, whole);
  if (tails != nullptr) absorb<false>(s, tails, 1);
  if (shared_wk != nullptr) Rounds::absorb_shared(s, shared_wk);
  std::uint32_t* words[16];
  for (int l = 0; l < 16; ++l) words[l] = reinterpret_cast<std::uint32_t*>(out[l]);
  store_state(words, Rounds::big_endian(s, bswap_mask()));
}

}  // namespace shasta::kernels::avx512

// ---- Thirty-two streams: two groups of sixteen, for messages of one length ----
// Two groups' rounds interleaved fill the vector pipes that one group's chains leave idle on Zen 5
// (LaneRounds' pair functions say how). In cache on an EPYC Zen 5 (family 26 model 2,
// bench/probe_avx512_lanes.cpp's method): 0.59-0.60 cycles a byte against x16's 0.68, and a shared
// padding block, rounds alone, 0.37.
namespace shasta::kernels::avx512 {
namespace {

// n >= 1 blocks of all 32 streams (groups p: blocks[0..15], q: blocks[16..31]).
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb_pair(Work& p, Work& q, const std::uint8_t* const blocks[],
                                               std::size_t n) noexcept {
  const V bswap = bswap_mask();
  alignas(64) V wk[128];
  std::size_t off = 0;
  do {
    {
      V w[16], u[16];
      load_words<kPrefetch>(w, blocks, off, bswap);
      load_words<kPrefetch>(u, blocks + 16, off, bswap);
      Rounds::schedule_pair(wk, w, u);
    }
    Rounds::compress_pair_of_groups(p, q, Rounds::StackWk{wk, wk + Rounds::kRounds});
    off += 64;
  } while (--n != 0);
}

}  // namespace

void sha256_hash_x32(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept {
  Work p = Rounds::broadcast_iv(iv);
  Work q = p;
  if (whole != 0) absorb_pair<true>(p, q, msgs, whole);
  if (tails != nullptr) absorb_pair<false>(p, q, tails, 1);
  if (shared_wk != nullptr) Rounds::compress_pair_of_groups(p, q, Rounds::SharedWk{shared_wk});
  const V bswap = bswap_mask();
  std::uint32_t* words[32];
  for (int l = 0; l < 32; ++l) words[l] = reinterpret_cast<std::uint32_t*>(out[l]);
  store_state(words, Rounds::big_endian(p, bswap));
  store_state(words + 16, Rounds::big_endian(q, bswap));
}

}  // namespace shasta::kernels::avx512
