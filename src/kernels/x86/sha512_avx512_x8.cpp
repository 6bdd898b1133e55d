// sha512_avx512_x8.cpp: SHA-512 compression (FIPS 180-4 section 6.4.2) of eight independent
// streams, one per 64-bit lane of each zmm register; the rounds, the schedule (run inside the
// rounds) and the feed-forward are avx512_lane_rounds.hpp's, shared with the SHA-256 lanes. Here:
// the 8x8 transpose that puts each stream's words and state in its lane, and the block loops.
// Needs AVX-512F and BW (vpshufb on zmm), and VL as built (-mavx512vl).
// In cache on Zen 4 (double-pumped zmm): 1.27 cycles a byte of each stream with GCC 12, 1.13 with
// clang 14, against a floor of about 1.05 (2,150 vector operations a block at two a cycle); the
// AVX2 five-stream loop there took 2.4-2.8.
#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "avx512_lane_rounds.hpp"

namespace shasta::kernels::avx512 {
namespace {

using Rounds = LaneRounds<Sha512Words>;
using Work = Rounds::Work;

// Prefetch distance: each stream's block (two lines) four blocks ahead (as the x4 and x5 loops do).
constexpr std::size_t kAhead = 4 * 128;

// The 8x8 transpose of 64-bit words: row l (eight words of stream l) to column j (word j of every
// stream, stream l in lane l). Within each 128-bit quarter, unpacks put word 2q + j of streams 2i
// and 2i + 1 together in t[2i + j]; a 4x4 transpose of whole quarters (vshufi64x2) then gathers
// the four pairs of streams. 24 shuffles; it is its own inverse.
[[gnu::always_inline]] inline void transpose8(V& r0, V& r1, V& r2, V& r3, V& r4, V& r5, V& r6, V& r7) noexcept {
  const V t0 = _mm512_unpacklo_epi64(r0, r1), t1 = _mm512_unpackhi_epi64(r0, r1);
  const V t2 = _mm512_unpacklo_epi64(r2, r3), t3 = _mm512_unpackhi_epi64(r2, r3);
  const V t4 = _mm512_unpacklo_epi64(r4, r5), t5 = _mm512_unpackhi_epi64(r4, r5);
  const V t6 = _mm512_unpacklo_epi64(r6, r7), t7 = _mm512_unpackhi_epi64(r6, r7);
  // Quarters q of t[2i + j] hold word 2q + j of streams 2i, 2i + 1; column 2q + j wants them in
  // quarter i.
  const V s0 = _mm512_shuffle_i64x2(t0, t2, 0x44), s1 = _mm512_shuffle_i64x2(t0, t2, 0xee);
  const V s2 = _mm512_shuffle_i64x2(t4, t6, 0x44), s3 = _mm512_shuffle_i64x2(t4, t6, 0xee);
  const V s4 = _mm512_shuffle_i64x2(t1, t3, 0x44), s5 = _mm512_shuffle_i64x2(t1, t3, 0xee);
  const V s6 = _mm512_shuffle_i64x2(t5, t7, 0x44), s7 = _mm512_shuffle_i64x2(t5, t7, 0xee);
  r0 = _mm512_shuffle_i64x2(s0, s2, 0x88);  // quarter 0 of t0, t2, t4, t6: word 0
  r2 = _mm512_shuffle_i64x2(s0, s2, 0xdd);  // quarter 1: word 2
  r4 = _mm512_shuffle_i64x2(s1, s3, 0x88);  // quarter 2: word 4
  r6 = _mm512_shuffle_i64x2(s1, s3, 0xdd);  // quarter 3: word 6
  r1 = _mm512_shuffle_i64x2(s4, s6, 0x88);  // the same of t1, t3, t5, t7: words 1, 3, 5, 7
  r3 = _mm512_shuffle_i64x2(s4, s6, 0xdd);
  r5 = _mm512_shuffle_i64x2(s5, s7, 0x88);
  r7 = _mm512_shuffle_i64x2(s5, s7, 0xdd);
}

[[gnu::always_inline]] inline void load_state(std::uint64_t* const states[], Work& s) noexcept {
  s.a = _mm512_loadu_si512(states[0]), s.b = _mm512_loadu_si512(states[1]);
  s.c = _mm512_loadu_si512(states[2]), s.d = _mm512_loadu_si512(states[3]);
  s.e = _mm512_loadu_si512(states[4]), s.f = _mm512_loadu_si512(states[5]);
  s.g = _mm512_loadu_si512(states[6]), s.h = _mm512_loadu_si512(states[7]);
  transpose8(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h);
}

[[gnu::always_inline]] inline void store_state(std::uint64_t* const states[], Work s) noexcept {
  transpose8(s.a, s.b, s.c, s.d, s.e, s.f, s.g, s.h);
  _mm512_storeu_si512(states[0], s.a), _mm512_storeu_si512(states[1], s.b);
  _mm512_storeu_si512(states[2], s.c), _mm512_storeu_si512(states[3], s.d);
  _mm512_storeu_si512(states[4], s.e), _mm512_storeu_si512(states[5], s.f);
  _mm512_storeu_si512(states[6], s.g), _mm512_storeu_si512(states[7], s.h);
}

// Words 8c..8c+7 of every stream's block at offset off, as columns, byte-swapped.
[[gnu::always_inline]] inline void load_words(const std::uint8_t* const blocks[], std::size_t off, V bswap,
                                              V* w) noexcept {
  V r[8];
#pragma GCC unroll 16
  for (int l = 0; l < 8; ++l) r[l] = _mm512_loadu_si512(blocks[l] + off);
  transpose8(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
#pragma GCC unroll 16
  for (int j = 0; j < 8; ++j) w[j] = _mm512_shuffle_epi8(r[j], bswap);
}

// Per 128-bit quarter: big-endian 64-bit words to little-endian, and back.
[[gnu::always_inline]] inline V bswap_mask() noexcept {
  return _mm512_set4_epi64(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL, 0x0001020304050607LL);
}

// The block loop: n >= 1 blocks of every stream into s. Every stream advances by 128 bytes a block,
// so one offset serves all eight pointers. kPrefetch: the main loop asks for each stream's block
// four ahead; the loop for padding blocks (one a call) does not, and so is also another loop.
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb(Work& s, const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const V bswap = bswap_mask();
  std::size_t off = 0;
  do {
    V w[16];
    load_words(blocks, off, bswap, w);
    load_words(blocks, off + 64, bswap, w + 8);
    if constexpr (kPrefetch) {
#pragma GCC unroll 16
      for (int l = 0; l < 8; ++l) {
        _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead + 64), _MM_HINT_T0);
      }
    }
    Rounds::compress_block(s, w);
    off += 128;
  } while (--n != 0);
}

template <bool kPrefetch>
[[gnu::always_inline]] inline void compress_lanes(std::uint64_t* const states[], const std::uint8_t* const blocks[],
                                                  std::size_t n) noexcept {
  if (n == 0) return;
  Work s;
  load_state(states, s);
  absorb<kPrefetch>(s, blocks, n);
  store_state(states, s);
}

}  // namespace

void sha512_compress_x8(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<true>(states, blocks, n);
}

void sha512_compress_x8_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<false>(states, blocks, n);
}

void sha512_hash_x8(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept {
  Work s = Rounds::broadcast_iv(iv);
  if (whole != 0) absorb<true>(s, msgs, whole);
  if (tails != nullptr) absorb<false>(s, tails, 1);
  if (shared_wk != nullptr) Rounds::absorb_shared(s, shared_wk);
  std::uint64_t* words[8];
  for (int l = 0; l < 8; ++l) words[l] = reinterpret_cast<std::uint64_t*>(out[l]);
  store_state(words, Rounds::big_endian(s, bswap_mask()));
}

}  // namespace shasta::kernels::avx512

// ---- Sixteen streams: two groups of eight, for messages of one length ----
// Two groups' rounds interleaved fill the vector pipes that one group's chains leave idle on Zen 5
// (LaneRounds' pair functions say how); each block's W+K of both groups is 160 vectors, 10 KiB of
// stack. In cache on an EPYC Zen 5 (family 26 model 2), 16 streams of 2 KiB, best of 30: 0.70
// cycles a byte against two x8 calls' 0.81.
namespace shasta::kernels::avx512 {
namespace {

// n >= 1 blocks of all 16 streams (group p: blocks[0..7], q: blocks[8..15]); kPrefetch as in absorb.
template <bool kPrefetch>
[[gnu::always_inline]] inline void absorb_pair(Work& p, Work& q, const std::uint8_t* const blocks[],
                                               std::size_t n) noexcept {
  const V bswap = bswap_mask();
  alignas(64) V wk[160];
  std::size_t off = 0;
  do {
    {
      V w[16], u[16];
      load_words(blocks, off, bswap, w);
      load_words(blocks, off + 64, bswap, w + 8);
      load_words(blocks + 8, off, bswap, u);
      load_words(blocks + 8, off + 64, bswap, u + 8);
      if constexpr (kPrefetch) {
#pragma GCC unroll 16
        for (int l = 0; l < 16; ++l) {
          _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead), _MM_HINT_T0);
          _mm_prefetch(reinterpret_cast<const char*>(blocks[l] + off + kAhead + 64), _MM_HINT_T0);
        }
      }
      Rounds::schedule_pair(wk, w, u);
    }
    Rounds::compress_pair_of_groups(p, q, Rounds::StackWk{wk, wk + Rounds::kRounds});
    off += 128;
  } while (--n != 0);
}

}  // namespace

void sha512_hash_x16(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept {
  Work p = Rounds::broadcast_iv(iv);
  Work q = p;
  if (whole != 0) absorb_pair<true>(p, q, msgs, whole);
  if (tails != nullptr) absorb_pair<false>(p, q, tails, 1);
  if (shared_wk != nullptr) Rounds::compress_pair_of_groups(p, q, Rounds::SharedWk{shared_wk});
  const V bswap = bswap_mask();
  std::uint64_t* words[16];
  for (int l = 0; l < 16; ++l) words[l] = reinterpret_cast<std::uint64_t*>(out[l]);
  store_state(words, Rounds::big_endian(p, bswap));
  store_state(words + 8, Rounds::big_endian(q, bswap));
}

}  // namespace shasta::kernels::avx512
