// algorithms.hpp: the two SHA-2 families and the six algorithms of FIPS 180-4, as traits for the
// streaming core. The algorithms of a family differ only in initial value and output length.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>

#include "compress.hpp"
#include "sha256_rounds.hpp"
#include "sha512_rounds.hpp"

namespace shasta::detail {

// Sha256Family: 32-bit words, 64-byte blocks, a 64-bit bit count (FIPS 180-4 section 5.1.1).
struct Sha256Family {
  using Word = std::uint32_t;
  static constexpr std::size_t kBlockSize = 64;
  static constexpr std::size_t kLengthSize = 8;
  static constexpr void compress(Word* state, const std::uint8_t* blocks, std::size_t n) noexcept {
    if (std::is_constant_evaluated()) {
      sha256_compress_portable(state, blocks, n);
    } else {
      compress_active(state, blocks, n);
    }
  }
};

// Sha512Family: 64-bit words, 128-byte blocks, a 128-bit bit count (FIPS 180-4 section 5.1.2).
struct Sha512Family {
  using Word = std::uint64_t;
  static constexpr std::size_t kBlockSize = 128;
  static constexpr std::size_t kLengthSize = 16;
  static constexpr void compress(Word* state, const std::uint8_t* blocks, std::size_t n) noexcept {
    if (std::is_constant_evaluated()) {
      sha512_compress_portable(state, blocks, n);
    } else {
      compress_active(state, blocks, n);
    }
  }
};

// Sha2Algorithm is what the streaming core needs of an algorithm: its family, IV and digest size.
template <class A>
concept Sha2Algorithm = requires {
  typename A::Family;
  { A::kIv } -> std::convertible_to<std::array<typename A::Family::Word, 8>>;
  { A::kDigestSize } -> std::convertible_to<std::size_t>;
  requires A::kDigestSize <= 8 * sizeof(typename A::Family::Word);
};

// FIPS 180-4 section 5.3.2 (the low halves of SHA-384's initial words).
struct Sha224Algorithm {
  using Family = Sha256Family;
  static constexpr std::size_t kDigestSize = 28;
  static constexpr std::array<std::uint32_t, 8> kIv = {0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
                                                       0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u};
};

// FIPS 180-4 section 5.3.3.
struct Sha256Algorithm {
  using Family = Sha256Family;
  static constexpr std::size_t kDigestSize = 32;
  static constexpr std::array<std::uint32_t, 8> kIv = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                                       0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
};

// FIPS 180-4 section 5.3.4.
struct Sha384Algorithm {
  using Family = Sha512Family;
  static constexpr std::size_t kDigestSize = 48;
  static constexpr std::array<std::uint64_t, 8> kIv = {
      0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull, 0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,
      0x67332667ffc00b31ull, 0x8eb44a8768581511ull, 0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull};
};

// FIPS 180-4 section 5.3.5.
struct Sha512Algorithm {
  using Family = Sha512Family;
  static constexpr std::size_t kDigestSize = 64;
  static constexpr std::array<std::uint64_t, 8> kIv = {
      0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,
      0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull};
};

// FIPS 180-4 section 5.3.6.1 (the output of the SHA-512/t IV generation function for t = 224).
struct Sha512_224Algorithm {
  using Family = Sha512Family;
  static constexpr std::size_t kDigestSize = 28;
  static constexpr std::array<std::uint64_t, 8> kIv = {
      0x8c3d37c819544da2ull, 0x73e1996689dcd4d6ull, 0x1dfab7ae32ff9c82ull, 0x679dd514582f9fcfull,
      0x0f6d2b697bd44da8ull, 0x77e36f7304c48942ull, 0x3f9d85a86a1d36c8ull, 0x1112e6ad91d692a1ull};
};

// FIPS 180-4 section 5.3.6.2 (t = 256).
struct Sha512_256Algorithm {
  using Family = Sha512Family;
  static constexpr std::size_t kDigestSize = 32;
  static constexpr std::array<std::uint64_t, 8> kIv = {
      0x22312194fc2bf72cull, 0x9f555fa3c84c64c2ull, 0x2393b86b6f53b151ull, 0x963877195940eabdull,
      0x96283ee2a88effe3ull, 0xbe5e1e2553863992ull, 0x2b0199fc2c85b8aaull, 0x0eb72ddc81c52ca2ull};
};

}  // namespace shasta::detail
