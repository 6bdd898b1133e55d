// sha256_shani_lanes.cpp: SHA-256 compression (FIPS 180-4 section 6.2.2) of two and of four
// independent streams on the x86 SHA extensions, interleaved so that each stream's sha256rnds2
// latency hides the others' (the multi-buffer idea of Linux's sha256_ni_asm.S finup2x; register
// layout of Intel's whitepaper). Four lanes measured best (4 KiB messages: 2 lanes 1.43x OpenSSL,
// 3 lanes 1.70x, 4 1.80x); their block loop is in assembly (sha256_shani_x4_blocks.S) where the
// platform takes it (ELF), in the intrinsics below elsewhere, and the two-lane loop always in
// intrinsics. The four-lane hash call takes messages of one length from the IV to their digests.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "../kernel_abi.hpp"
#include "shani_rounds.hpp"

#ifdef SHASTA_HAVE_SHANI_X4_ASM
// The block loop of the four-lane kernel, in assembly (sha256_shani_x4_blocks.S): the states in
// the instructions' order (ABEF, CDGH of stream 0, then of stream 1, ...), updated in place; n >= 1.
extern "C" void shasta_sha256_shani_x4_blocks(__m128i packed[8], const std::uint8_t* const blocks[4], std::size_t n,
                                              const std::uint32_t k[64]) noexcept;
#endif

namespace shasta::kernels::shani {
namespace {

// Four rounds of one stream with this group's constants already loaded (shared by the lanes).
[[gnu::always_inline]] inline void rounds4(__m128i& abef, __m128i& cdgh, __m128i w, __m128i k) noexcept {
  rounds4_wk(abef, cdgh, _mm_add_epi32(w, k));
}

// One stream's registers: its chaining state in the instruction's order and its 16-word window.
struct Stream {
  __m128i abef, cdgh, w0, w1, w2, w3;
};

[[gnu::always_inline]] inline void load_state(Stream& s, const std::uint32_t* state) noexcept {
  const Packed p = pack({_mm_loadu_si128(reinterpret_cast<const __m128i*>(state)),
                         _mm_loadu_si128(reinterpret_cast<const __m128i*>(state + 4))});
  s.abef = p.abef;
  s.cdgh = p.cdgh;
}

[[gnu::always_inline]] inline void store_state(const Stream& s, std::uint32_t* state) noexcept {
  const Natural n = unpack({s.abef, s.cdgh});
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state), n.lo);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state + 4), n.hi);
}

[[gnu::always_inline]] inline void load_block(Stream& s, const std::uint8_t* block) noexcept {
  const __m128i bswap = word_byte_swap();
  const auto* p = reinterpret_cast<const __m128i*>(block);
  s.w0 = _mm_shuffle_epi8(_mm_loadu_si128(p + 0), bswap);
  s.w1 = _mm_shuffle_epi8(_mm_loadu_si128(p + 1), bswap);
  s.w2 = _mm_shuffle_epi8(_mm_loadu_si128(p + 2), bswap);
  s.w3 = _mm_shuffle_epi8(_mm_loadu_si128(p + 3), bswap);
}

// Sixteen rounds of group g (rounds 16g .. 16g+15) on every stream, each four-round step of a
// stream followed by the same step of the next, so that the streams' dependency chains overlap.
template <std::size_t L>
[[gnu::always_inline]] inline void rounds16(Stream (&s)[L], int g, bool sched) noexcept {
  const auto* k = reinterpret_cast<const __m128i*>(kSha256RoundConstants.k + 16 * g);
  const __m128i k0 = _mm_load_si128(k), k1 = _mm_load_si128(k + 1);
  const __m128i k2 = _mm_load_si128(k + 2), k3 = _mm_load_si128(k + 3);
  for (std::size_t l = 0; l < L; ++l) {
    if (sched) s[l].w0 = schedule(s[l].w0, s[l].w1, s[l].w2, s[l].w3);
    rounds4(s[l].abef, s[l].cdgh, s[l].w0, k0);
  }
  for (std::size_t l = 0; l < L; ++l) {
    if (sched) s[l].w1 = schedule(s[l].w1, s[l].w2, s[l].w3, s[l].w0);
    rounds4(s[l].abef, s[l].cdgh, s[l].w1, k1);
  }
  for (std::size_t l = 0; l < L; ++l) {
    if (sched) s[l].w2 = schedule(s[l].w2, s[l].w3, s[l].w0, s[l].w1);
    rounds4(s[l].abef, s[l].cdgh, s[l].w2, k2);
  }
  for (std::size_t l = 0; l < L; ++l) {
    if (sched) s[l].w3 = schedule(s[l].w3, s[l].w0, s[l].w1, s[l].w2);
    rounds4(s[l].abef, s[l].cdgh, s[l].w3, k3);
  }
}

// absorb runs n >= 1 blocks of each stream through the intrinsics block loop.
template <std::size_t L>
[[gnu::always_inline]] inline void absorb(Stream (&s)[L], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  const std::uint8_t* p[L];
  for (std::size_t l = 0; l < L; ++l) p[l] = blocks[l];
  do {
    __m128i abef_in[L], cdgh_in[L];
    for (std::size_t l = 0; l < L; ++l) {
      abef_in[l] = s[l].abef;
      cdgh_in[l] = s[l].cdgh;
      load_block(s[l], p[l]);
      p[l] += 64;
    }
    rounds16<L>(s, 0, false);
    rounds16<L>(s, 1, true);
    rounds16<L>(s, 2, true);
    rounds16<L>(s, 3, true);
    for (std::size_t l = 0; l < L; ++l) {
      s[l].abef = _mm_add_epi32(s[l].abef, abef_in[l]);
      s[l].cdgh = _mm_add_epi32(s[l].cdgh, cdgh_in[l]);
    }
  } while (--n != 0);
}

// absorb_x4 runs n >= 1 blocks of each of four streams through the fastest block loop this build has.
[[gnu::always_inline]] inline void absorb_x4(Stream (&s)[4], const std::uint8_t* const blocks[],
                                             std::size_t n) noexcept {
#ifndef SHASTA_HAVE_SHANI_X4_ASM
  absorb<4>(s, blocks, n);
#else
  __m128i packed[8];
  for (std::size_t l = 0; l < 4; ++l) {
    packed[2 * l] = s[l].abef;
    packed[2 * l + 1] = s[l].cdgh;
  }
  shasta_sha256_shani_x4_blocks(packed, blocks, n, kSha256RoundConstants.k);
  for (std::size_t l = 0; l < 4; ++l) {
    s[l].abef = packed[2 * l];
    s[l].cdgh = packed[2 * l + 1];
  }
#endif
}

// absorb_shared_wk runs a block every stream shares, given as its W+K: rounds only, and each W+K
// load serves every stream.
template <std::size_t L>
[[gnu::always_inline]] inline void absorb_shared_wk(Stream (&s)[L], const std::uint32_t* wk) noexcept {
  __m128i abef_in[L], cdgh_in[L];
  for (std::size_t l = 0; l < L; ++l) {
    abef_in[l] = s[l].abef;
    cdgh_in[l] = s[l].cdgh;
  }
  for (std::size_t t = 0; t < 64; t += 4) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(wk + t));
    for (std::size_t l = 0; l < L; ++l) rounds4_wk(s[l].abef, s[l].cdgh, x);
  }
  for (std::size_t l = 0; l < L; ++l) {
    s[l].abef = _mm_add_epi32(s[l].abef, abef_in[l]);
    s[l].cdgh = _mm_add_epi32(s[l].cdgh, cdgh_in[l]);
  }
}

// store_digest writes a stream's state as big-endian words: the SHA-256 digest.
[[gnu::always_inline]] inline void store_digest(const Stream& s, std::uint8_t* out) noexcept {
  const __m128i bswap = word_byte_swap();
  const Natural n = unpack({s.abef, s.cdgh});
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(n.lo, bswap));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), _mm_shuffle_epi8(n.hi, bswap));
}

template <std::size_t L>
[[gnu::always_inline]] inline void compress_lanes(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                                                  std::size_t n) noexcept {
  if (n == 0) return;
  Stream s[L];
  for (std::size_t l = 0; l < L; ++l) load_state(s[l], states[l]);
  absorb<L>(s, blocks, n);
  for (std::size_t l = 0; l < L; ++l) store_state(s[l], states[l]);
}

}  // namespace

void sha256_compress_x4(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  if (n == 0) return;
  Stream s[4];
  for (std::size_t l = 0; l < 4; ++l) load_state(s[l], states[l]);
  absorb_x4(s, blocks, n);
  for (std::size_t l = 0; l < 4; ++l) store_state(s[l], states[l]);
}

// The state stays packed from the IV to the digest; the padded tails go through the intrinsics
// loop, as tail_fn's do (LaneKernel::tail_fn says why).
void sha256_hash_x4(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept {
  Stream s[4];
  for (std::size_t l = 0; l < 4; ++l) load_state(s[l], iv);
  if (whole != 0) absorb_x4(s, msgs, whole);
  if (tails != nullptr) absorb<4>(s, tails, 1);
  if (shared_wk != nullptr) absorb_shared_wk<4>(s, shared_wk);
  for (std::size_t l = 0; l < 4; ++l) store_digest(s[l], out[l]);
}

#ifdef SHASTA_HAVE_SHANI_X4_ASM
void sha256_compress_x4_tail(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                             std::size_t n) noexcept {
  compress_lanes<4>(states, blocks, n);
}
#endif

void sha256_compress_x2(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept {
  compress_lanes<2>(states, blocks, n);
}

}  // namespace shasta::kernels::shani
