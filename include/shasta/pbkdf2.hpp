// pbkdf2.hpp: PBKDF2 (RFC 8018 section 5.2) with HMAC over the six SHA-2 hashes. The password's
// pads are prepared once; each iteration is exactly two kernel calls on pre-padded one-block
// buffers (U(j-1) under K^ipad, then the inner digest under K^opad): no streaming machinery.
//
//   std::array<std::uint8_t, 32> dk;
//   shasta::Error e = shasta::pbkdf2_hmac<shasta::Sha256>(password, salt, 600000, dk);
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "hmac.hpp"

namespace shasta {

namespace detail {

// load_be reads `n` bytes as the leading big-endian words of a state (the rest zero).
template <class Word>
inline std::array<Word, 8> load_be(const std::uint8_t* in, std::size_t n) noexcept {
  std::array<Word, 8> state{};
  for (std::size_t i = 0; i < n; ++i) {
    state[i / sizeof(Word)] |= static_cast<Word>(Word{in[i]} << (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
  }
  return state;
}

// pad_after_digest lays out a block holding a HashLen-byte message that follows one already
// absorbed block: the digest bytes go at the front, then 0x80, zeros and the bit length of
// block + HashLen bytes (FIPS 180-4 section 5.1).
template <class H>
void pad_after_digest(std::array<std::uint8_t, H::block_size>& block) noexcept {
  constexpr std::size_t kLengthSize = H::block_size == 64 ? 8 : 16;
  block.fill(0);
  block[H::digest_size] = 0x80;
  const std::uint64_t bits = 8 * (H::block_size + H::digest_size);
  for (std::size_t i = 0; i < 8; ++i) {
    block[H::block_size - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
  }
  static_assert(H::digest_size + 1 + kLengthSize <= H::block_size, "the digest must fit one padded block");
}

}  // namespace detail

// pbkdf2_hmac fills `out` with PBKDF2-HMAC-H(password, salt, iterations). Refused, with nothing
// written: zero iterations (Error::zero_iterations), an empty output (Error::output_too_small), an
// output over (2^32 - 1) x HashLen bytes (Error::output_too_long).
template <class H>
Error pbkdf2_hmac(ByteView password, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  if (iterations == 0) return Error::zero_iterations;
  if (out.empty()) return Error::output_too_small;
  if (out.size() / kHashLen > 0xFFFFFFFFull - (out.size() % kHashLen != 0)) return Error::output_too_long;

  const HmacKey<H> key(password);
  using State = typename H::ChainingState;
  std::array<std::uint8_t, H::block_size> inner_block, outer_block;
  detail::pad_after_digest<H>(inner_block);
  detail::pad_after_digest<H>(outer_block);
  State state{}, sum{};
  std::size_t done = 0;
  for (std::uint32_t index = 1; done < out.size(); ++index) {
    // U1 = HMAC(P, S || INT(index)), through the streaming inner hash since S has any length.
    const std::uint8_t be_index[4] = {static_cast<std::uint8_t>(index >> 24), static_cast<std::uint8_t>(index >> 16),
                                      static_cast<std::uint8_t>(index >> 8), static_cast<std::uint8_t>(index)};
    H inner = key.inner();
    inner.update(salt.span()).update(std::span<const std::uint8_t>(be_index));
    typename H::Digest u = detail::finish_hmac(key, inner);
    detail::wipe_object(inner);
    std::copy(u.begin(), u.end(), inner_block.begin());
    sum = detail::load_be<typename H::Word>(u.data(), kHashLen);
    detail::wipe_object(u);
    for (std::uint64_t j = 1; j < iterations; ++j) {
      state = key.inner_state();
      H::compress_blocks(state, inner_block.data(), 1);
      detail::store_digest(state, std::span(outer_block).first(kHashLen));
      state = key.outer_state();
      H::compress_blocks(state, outer_block.data(), 1);
      detail::store_digest(state, std::span(inner_block).first(kHashLen));
      for (std::size_t w = 0; w < 8; ++w) sum[w] ^= state[w];
    }
    const std::size_t n = std::min(kHashLen, out.size() - done);
    detail::store_digest(sum, out.subspan(done, n));
    done += n;
  }
  detail::wipe_object(state);
  detail::wipe_object(sum);
  detail::wipe_object(inner_block);
  detail::wipe_object(outer_block);
  return Error::ok;
}

}  // namespace shasta
