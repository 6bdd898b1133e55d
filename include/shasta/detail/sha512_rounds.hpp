// sha512_rounds.hpp: the SHA-512 compression function of FIPS 180-4 section 6.4.2 in portable,
// constexpr C++. The `portable` kernel compiles it; the streaming core runs it in constant evaluation.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace shasta::detail {

// FIPS 180-4 section 4.2.3: the first 64 bits of the fractional parts of the cube roots of the first
// 80 primes.
inline constexpr std::array<std::uint64_t, 80> kSha512K = {
    0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull, 0x3956c25bf348b538ull,
    0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull, 0xd807aa98a3030242ull, 0x12835b0145706fbeull,
    0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull, 0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull,
    0xc19bf174cf692694ull, 0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,
    0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull, 0x983e5152ee66dfabull,
    0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull, 0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull,
    0x06ca6351e003826full, 0x142929670a0e6e70ull, 0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull,
    0x53380d139d95b3dfull, 0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,
    0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull, 0xd192e819d6ef5218ull,
    0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull, 0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull,
    0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull, 0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull,
    0x682e6ff3d6b2b8a3ull, 0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,
    0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull, 0xca273eceea26619cull,
    0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull, 0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull,
    0x113f9804bef90daeull, 0x1b710b35131c471bull, 0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull,
    0x431d67c49c100d4cull, 0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull};

constexpr std::uint64_t load_be64(const std::uint8_t* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

// sha512_round is one round of section 6.4.2 step 3; the caller rotates the argument order.
constexpr void sha512_round(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& d, std::uint64_t e,
                            std::uint64_t f, std::uint64_t g, std::uint64_t& h, std::uint64_t kw) noexcept {
  const std::uint64_t t1 = h + (std::rotr(e, 14) ^ std::rotr(e, 18) ^ std::rotr(e, 41)) + (g ^ (e & (f ^ g))) + kw;
  const std::uint64_t t2 = (std::rotr(a, 28) ^ std::rotr(a, 34) ^ std::rotr(a, 39)) + ((a & b) ^ (c & (a ^ b)));
  d += t1;
  h = t1 + t2;
}

// sha512_schedule turns w[i mod 16] from W(i-16) into W(i).
constexpr void sha512_schedule(std::uint64_t (&w)[16], std::size_t i) noexcept {
  const std::uint64_t w15 = w[(i + 1) & 15];
  const std::uint64_t w2 = w[(i + 14) & 15];
  const std::uint64_t s0 = std::rotr(w15, 1) ^ std::rotr(w15, 8) ^ (w15 >> 7);
  const std::uint64_t s1 = std::rotr(w2, 19) ^ std::rotr(w2, 61) ^ (w2 >> 6);
  w[i & 15] += s0 + w[(i + 9) & 15] + s1;
}

// sha512_block_wk: W(t) + K(t) for the 80 rounds of one block (sha256_block_wk says why).
constexpr std::array<std::uint64_t, 80> sha512_block_wk(const std::uint8_t* block) noexcept {
  std::uint64_t w[16];
  for (std::size_t i = 0; i < 16; ++i) w[i] = load_be64(block + 8 * i);
  std::array<std::uint64_t, 80> wk{};
  for (std::size_t i = 0; i < 80; ++i) {
    if (i >= 16) sha512_schedule(w, i);
    wk[i] = w[i & 15] + kSha512K[i];
  }
  return wk;
}

// sha512_compress_portable absorbs `n` 128-byte blocks into `state`; the kernel ABI of src/kernels/kernel_abi.hpp.
constexpr void sha512_compress_portable(std::uint64_t* state, const std::uint8_t* blocks, std::size_t n) noexcept {
  for (; n != 0; --n, blocks += 128) {
    std::uint64_t w[16];
    for (std::size_t i = 0; i < 16; ++i) w[i] = load_be64(blocks + 8 * i);
    std::uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
#pragma GCC unroll 10
    for (std::size_t i = 0; i < 80; i += 8) {
      // W(i) is scheduled just before its round, as the round needs it: fewer values live at once.
      const auto wk = [&w, i](std::size_t j) {
        if (i >= 16) sha512_schedule(w, i + j);
        return kSha512K[i + j] + w[(i + j) & 15];
      };
      sha512_round(a, b, c, d, e, f, g, h, wk(0));
      sha512_round(h, a, b, c, d, e, f, g, wk(1));
      sha512_round(g, h, a, b, c, d, e, f, wk(2));
      sha512_round(f, g, h, a, b, c, d, e, wk(3));
      sha512_round(e, f, g, h, a, b, c, d, wk(4));
      sha512_round(d, e, f, g, h, a, b, c, wk(5));
      sha512_round(c, d, e, f, g, h, a, b, wk(6));
      sha512_round(b, c, d, e, f, g, h, a, wk(7));
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

}  // namespace shasta::detail
