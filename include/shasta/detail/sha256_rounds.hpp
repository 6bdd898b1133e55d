// sha256_rounds.hpp: the SHA-256 compression function of FIPS 180-4 section 6.2.2 in portable,
// constexpr C++. The `portable` kernel compiles it; the streaming core runs it in constant evaluation.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace shasta::detail {

// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes.
inline constexpr std::array<std::uint32_t, 64> kSha256K = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

constexpr std::uint32_t load_be32(const std::uint8_t* p) noexcept {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

// sha256_round is one round of section 6.2.2 step 3 with the variables renamed instead of moved:
// the caller rotates the argument order, so only `d` and `h` are written.
constexpr void sha256_round(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t& d, std::uint32_t e,
                            std::uint32_t f, std::uint32_t g, std::uint32_t& h, std::uint32_t kw) noexcept {
  const std::uint32_t t1 = h + (std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25)) + (g ^ (e & (f ^ g))) + kw;
  const std::uint32_t t2 = (std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22)) + ((a & b) ^ (c & (a ^ b)));
  d += t1;
  h = t1 + t2;
}

// sha256_schedule turns w[i mod 16] from W(i-16) into W(i), the message schedule of step 1.
constexpr void sha256_schedule(std::uint32_t (&w)[16], std::size_t i) noexcept {
  const std::uint32_t w15 = w[(i + 1) & 15];
  const std::uint32_t w2 = w[(i + 14) & 15];
  const std::uint32_t s0 = std::rotr(w15, 7) ^ std::rotr(w15, 18) ^ (w15 >> 3);
  const std::uint32_t s1 = std::rotr(w2, 17) ^ std::rotr(w2, 19) ^ (w2 >> 10);
  w[i & 15] += s0 + w[(i + 9) & 15] + s1;
}

// sha256_block_wk is one block's message schedule plus the round constants, W(t) + K(t) for the
// 64 rounds: what a lane kernel adds in each round, worked out once for a block that every message
// of a call shares (the padding block of messages of one length).
constexpr std::array<std::uint32_t, 64> sha256_block_wk(const std::uint8_t* block) noexcept {
  std::uint32_t w[16];
  for (std::size_t i = 0; i < 16; ++i) w[i] = load_be32(block + 4 * i);
  std::array<std::uint32_t, 64> wk{};
  for (std::size_t i = 0; i < 64; ++i) {
    if (i >= 16) sha256_schedule(w, i);
    wk[i] = w[i & 15] + kSha256K[i];
  }
  return wk;
}

// sha256_compress_portable absorbs `n` 64-byte blocks into `state`; the kernel ABI of src/kernels/kernel_abi.hpp.
constexpr void sha256_compress_portable(std::uint32_t* state, const std::uint8_t* blocks, std::size_t n) noexcept {
  for (; n != 0; --n, blocks += 64) {
    std::uint32_t w[16];
    for (std::size_t i = 0; i < 16; ++i) w[i] = load_be32(blocks + 4 * i);
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    std::uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
#pragma GCC unroll 8
    for (std::size_t i = 0; i < 64; i += 8) {
      // W(i) is scheduled just before its round, as the round needs it: fewer values live at once.
      const auto wk = [&w, i](std::size_t j) {
        if (i >= 16) sha256_schedule(w, i + j);
        return kSha256K[i + j] + w[(i + j) & 15];
      };
      sha256_round(a, b, c, d, e, f, g, h, wk(0));
      sha256_round(h, a, b, c, d, e, f, g, wk(1));
      sha256_round(g, h, a, b, c, d, e, f, wk(2));
      sha256_round(f, g, h, a, b, c, d, e, wk(3));
      sha256_round(e, f, g, h, a, b, c, d, wk(4));
      sha256_round(d, e, f, g, h, a, b, c, wk(5));
      sha256_round(c, d, e, f, g, h, a, b, wk(6));
      sha256_round(b, c, d, e, f, g, h, a, wk(7));
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
