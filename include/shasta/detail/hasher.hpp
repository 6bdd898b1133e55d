// hasher.hpp: the Merkle-Damgard streaming core shared by the six SHA-2 algorithms: the partial
// block, the padding and the length of FIPS 180-4 section 5.1. Whole blocks go straight from the
// caller's buffer to the kernel in one call; only a tail is copied.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

#include "../error.hpp"
#include "algorithms.hpp"
#include "whole_stores.hpp"
#include "wipe.hpp"

namespace shasta::detail {

struct HasherTestAccess;  // defined by the tests only, to inject a length past what can be hashed

// to_big_endian is the word whose bytes in memory are `v` big-endian (a byte swap on x86 and ARM).
template <class Word>
constexpr Word to_big_endian(Word v) noexcept {
  if constexpr (std::endian::native == std::endian::little) {
    if constexpr (sizeof(Word) == 4) v = __builtin_bswap32(v);
    if constexpr (sizeof(Word) == 8) v = __builtin_bswap64(v);
  }
  return v;
}

// store_be_word writes `v` big-endian at `p`: one byte-swapped store at run time.
template <class Word>
constexpr void store_be_word(Word v, std::uint8_t* p) noexcept {
  if (std::is_constant_evaluated()) {
    for (std::size_t i = 0; i < sizeof(Word); ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * (sizeof(Word) - 1 - i)));
  } else {
    v = to_big_endian(v);
    std::memcpy(p, &v, sizeof v);
  }
}

// store_digest writes the first `out.size()` bytes of `state` as big-endian words (section 6.2.2 step 4).
template <class Word>
constexpr void store_digest(const std::array<Word, 8>& state, std::span<std::uint8_t> out) noexcept {
  const std::size_t whole = out.size() / sizeof(Word);
  for (std::size_t w = 0; w < whole; ++w) store_be_word(state[w], out.data() + w * sizeof(Word));
  for (std::size_t i = whole * sizeof(Word); i < out.size(); ++i) {
    const std::size_t shift = 8 * (sizeof(Word) - 1 - i % sizeof(Word));
    out[i] = static_cast<std::uint8_t>(state[i / sizeof(Word)] >> shift);
  }
}

// pad_tail writes the padding of FIPS 180-4 section 5.1 after the `tail` message bytes at the front
// of `blocks` (room for two blocks), for a message of `bytes_hi:bytes_lo` bytes in all, and returns
// how many blocks to absorb: one, or two when the length no longer fits after the tail.
template <class Family>
constexpr std::size_t pad_tail(std::uint8_t* blocks, std::size_t tail, std::uint64_t bytes_lo,
                               std::uint64_t bytes_hi) noexcept {
  constexpr std::size_t kB = Family::kBlockSize;
  constexpr std::size_t kL = Family::kLengthSize;
  const std::size_t n = tail + 1 + kL > kB ? 2 : 1;
  const std::size_t end = n * kB;
  blocks[tail] = 0x80;
  std::fill(blocks + tail + 1, blocks + end - 8, std::uint8_t{0});
  if constexpr (kL == 16) {
    // The high 64 bits of the 128-bit bit count: the byte count's top three bits carry in.
    store_be_word<std::uint64_t>((bytes_hi << 3) | (bytes_lo >> 61), blocks + end - 16);
  }
  store_be_word<std::uint64_t>(bytes_lo << 3, blocks + end - 8);
  return n;
}

// FinishWork is resume_and_finish's scratch: the chaining state and the padded blocks.
template <class Family>
struct FinishWork {
  std::array<typename Family::Word, 8> state;
  alignas(64) std::array<std::uint8_t, 3 * Family::kBlockSize> blocks;  // every byte used is written first
};

// CompressLast is the kernel call that absorbs a message's padded last blocks: the family's
// compression. HMAC passes one that goes on into the outer block (hmac.hpp).
template <class Family>
struct CompressLast {
  constexpr void operator()(typename Family::Word* state, const std::uint8_t* blocks, std::size_t n) const noexcept {
    Family::compress(state, blocks, n);
  }
};

// pad_and_compress absorbs the last `n` < 2 blocks of a message (`total_hi:total_lo` bytes in all)
// with its padding in one call of `last`, from a copy in work.blocks. At run time the copy is
// written 16 bytes a store, so that the kernel's loads need not wait for it (whole_stores.hpp).
template <class Family, class Last>
constexpr void pad_and_compress(FinishWork<Family>& work, const std::uint8_t* p, std::size_t n, std::uint64_t total_lo,
                                std::uint64_t total_hi, Last& last) noexcept {
  constexpr std::size_t kB = Family::kBlockSize;
  if constexpr (whole_stores_apply) {
    if (!std::is_constant_evaluated()) {
      const std::size_t count = write_padded_tail<kB, Family::kLengthSize>(
          work.blocks.data(), p, n, (total_hi << 3) | (total_lo >> 61), total_lo << 3);
      last(work.state.data(), work.blocks.data(), count);
      return;
    }
  }
  const std::size_t whole = n >= kB ? 1 : 0;
  std::copy(p, p + whole * kB + (n - whole * kB), work.blocks.data());
  const std::size_t pad = pad_tail<Family>(work.blocks.data() + whole * kB, n - whole * kB, total_lo, total_hi);
  last(work.state.data(), work.blocks.data(), whole + pad);
}

// resume_and_finish_state completes a message whose first `prior_hi:prior_lo` bytes (whole blocks)
// left `start`, with its last `n` bytes at `p`, and returns the final chaining state (the digest
// before it becomes bytes). A short message (under two blocks) is copied with its padding into a
// local buffer and absorbed in one kernel call: the kernel's entry and exit (state loads, shuffles
// and stores) come once, not twice. A longer one has its whole blocks but the last compressed
// straight from `p`, then the last whole block and the padded tail in one more call, of `last`.
// With kWipe the local state and buffer are erased before returning (HMAC's secret states).
template <Sha2Algorithm Alg, bool kWipe = false, class Last = CompressLast<typename Alg::Family>>
constexpr std::array<typename Alg::Family::Word, 8> resume_and_finish_state(
    const std::array<typename Alg::Family::Word, 8>& start, std::uint64_t prior_lo, std::uint64_t prior_hi,
    const std::uint8_t* p, std::size_t n, Last last = {}) noexcept {
  using Family = typename Alg::Family;
  constexpr std::size_t kB = Family::kBlockSize;
  FinishWork<Family> work;
  work.state = start;
  const std::uint64_t total_lo = prior_lo + n;
  const std::uint64_t total_hi = prior_hi + (total_lo < n);
  const std::size_t direct = n < 2 * kB ? 0 : (n / kB - 1) * kB;  // all whole blocks but the last
  if (direct != 0) Family::compress(work.state.data(), p, direct / kB);
  pad_and_compress<Family>(work, p + direct, n - direct, total_lo, total_hi, last);
  const std::array<typename Family::Word, 8> state = work.state;
  if constexpr (kWipe) {
    if (!std::is_constant_evaluated()) secure_wipe(&work, sizeof work);
  }
  return state;
}

// digest_bytes is a final state's digest: at run time written 16 bytes a store where its size
// allows (store_digest_chunks in whole_stores.hpp says why). The size is tested here, where it is
// a constant: the same test inside store_digest, on a span's size, cost chained SHA-256 one-shots
// of 64 bytes 3 ns (91 -> 94, Zen 5).
template <Sha2Algorithm Alg>
constexpr std::array<std::uint8_t, Alg::kDigestSize> digest_bytes(
    const std::array<typename Alg::Family::Word, 8>& state) noexcept {
  std::array<std::uint8_t, Alg::kDigestSize> out{};
  if constexpr (whole_stores_apply && Alg::kDigestSize % 16 == 0) {
    if (!std::is_constant_evaluated()) {
      store_digest_chunks(state.data(), Alg::kDigestSize, out.data());
      return out;
    }
  }
  store_digest(state, std::span<std::uint8_t>(out));
  return out;
}

// leading_bytes is the digest of a state whose words were written back big-endian (a digest's
// bytes): its first kDigestSize bytes, copied straight (a copy of the whole state first would be
// one more copy of a secret digest, a long HMAC key's, left on the stack).
template <Sha2Algorithm Alg>
std::array<std::uint8_t, Alg::kDigestSize> leading_bytes(
    const std::array<typename Alg::Family::Word, 8>& state) noexcept {
  std::array<std::uint8_t, Alg::kDigestSize> out;
  std::memcpy(out.data(), state.data(), Alg::kDigestSize);
  return out;
}

// resume_and_finish is resume_and_finish_state's digest. Where the active kernel has a
// compression that writes the digest's bytes itself (SHA-NI), its last call is that one, and the
// digest is their copy.
template <Sha2Algorithm Alg, bool kWipe = false>
constexpr std::array<std::uint8_t, Alg::kDigestSize> resume_and_finish(
    const std::array<typename Alg::Family::Word, 8>& start, std::uint64_t prior_lo, std::uint64_t prior_hi,
    const std::uint8_t* p, std::size_t n) noexcept {
  using Word = typename Alg::Family::Word;
  bool as_bytes = false;  // the last call wrote the digest's bytes over the state
  const auto last = [&as_bytes](Word* state, const std::uint8_t* blocks, std::size_t count) noexcept {
    if (!std::is_constant_evaluated()) {
      as_bytes = compress_to_digest_active(state, blocks, count);
      if (as_bytes) return;
    }
    Alg::Family::compress(state, blocks, count);
  };
  std::array<Word, 8> state = resume_and_finish_state<Alg, kWipe>(start, prior_lo, prior_hi, p, n, last);
  std::array<std::uint8_t, Alg::kDigestSize> out = as_bytes ? leading_bytes<Alg>(state) : digest_bytes<Alg>(state);
  if constexpr (kWipe) {
    if (!std::is_constant_evaluated()) secure_wipe(&state, sizeof state);
  }
  return out;
}

struct ManyAccess;  // src/many.cpp: update_many feeds several hashers' whole blocks to the lanes
struct MacAccess;   // hmac.hpp: a streamed MAC's inner hash ends in the call that runs its outer block

// Hasher is one SHA-2 algorithm's streaming state. It is a plain value: copy it to fork a running
// hash. It never allocates.
template <Sha2Algorithm Alg>
class Hasher {
  using Family = typename Alg::Family;

 public:
  using Algorithm = Alg;
  using Word = typename Family::Word;
  using ChainingState = std::array<Word, 8>;
  static constexpr std::size_t digest_size = Alg::kDigestSize;
  static constexpr std::size_t block_size = Family::kBlockSize;
  using Digest = std::array<std::uint8_t, digest_size>;

  constexpr Hasher() noexcept = default;

  // Hasher(chaining, blocks) resumes a message whose first `blocks` whole blocks left the state
  // `chaining`: HMAC's prepared pads start here. SHA-512's 128-bit count takes the bytes of 2^57
  // blocks or more whole.
  constexpr Hasher(const ChainingState& chaining, std::uint64_t blocks) noexcept
      : state_(chaining), bytes_lo_(blocks * block_size), bytes_hi_(blocks >> (64 - kBlockShift)) {}

  // resume makes this hasher what Hasher(chaining, blocks) makes, in place: an HMAC restarting under
  // its key assigns no temporary, whose copy of the secret state would stay on the stack.
  constexpr void resume(const ChainingState& chaining, std::uint64_t blocks) noexcept {
    state_ = chaining;
    bytes_lo_ = blocks * block_size;
    bytes_hi_ = blocks >> (64 - kBlockShift);
    buffered_ = 0;
  }

  // bytes_counted is the message length so far, modulo 2^64 (SHA-512's count has 64 bits more).
  constexpr std::uint64_t bytes_counted() const noexcept { return bytes_lo_; }

  // chaining_state is the state after the whole blocks absorbed so far.
  constexpr const ChainingState& chaining_state() const noexcept { return state_; }

  // initial_state is the algorithm's IV (FIPS 180-4 section 5.3).
  static constexpr ChainingState initial_state() noexcept { return Alg::kIv; }

  // compress_blocks absorbs `n` whole blocks into a bare chaining state on the active kernel.
  static void compress_blocks(ChainingState& state, const std::uint8_t* blocks, std::size_t n) noexcept {
    Family::compress(state.data(), blocks, n);
  }

  // reset starts a new message, as a newly made Hasher does.
  constexpr void reset() noexcept { *this = Hasher(); }

  // update absorbs more of the message.
  constexpr Hasher& update(std::span<const std::uint8_t> data) noexcept {
    absorb(data.data(), data.size());
    return *this;
  }
  Hasher& update(std::span<const std::byte> data) noexcept {
    absorb(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
    return *this;
  }
  Hasher& update(const void* data, std::size_t len) noexcept {
    absorb(static_cast<const std::uint8_t*>(data), len);
    return *this;
  }
  constexpr Hasher& update(std::string_view text) noexcept {
    if (std::is_constant_evaluated()) {
      // Constant evaluation cannot reinterpret chars as bytes: convert them a block at a time.
      std::array<std::uint8_t, block_size> bytes{};
      for (std::size_t done = 0; done < text.size();) {
        const std::size_t n = std::min(block_size, text.size() - done);
        for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>(text[done + i]);
        absorb(bytes.data(), n);
        done += n;
      }
    } else {
      absorb(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    }
    return *this;
  }

  // finalize_into writes the digest into the first `digest_size` bytes of `out` and starts a new
  // message. A shorter `out` is refused with Error::output_too_small and the state is kept.
  constexpr Error finalize_into(std::span<std::uint8_t> out) noexcept {
    if (out.size() < digest_size) return Error::output_too_small;
    // The state may be secret (a long HMAC key hashed down to its digest): the padding's scratch
    // copy is wiped, and so is this copy of the digest.
    Digest digest = resume_and_finish<Alg, true>(state_, prior_lo(), prior_hi(), buffer_.data(), buffered_);
    std::copy(digest.begin(), digest.end(), out.begin());
    if (!std::is_constant_evaluated()) secure_wipe(&digest, sizeof digest);
    reset();
    return Error::ok;
  }

  // finalize returns the digest and starts a new message.
  constexpr Digest finalize() noexcept {
    Digest out{};
    finalize_into(out);
    return out;
  }

 private:
  friend struct HasherTestAccess;
  friend struct ManyAccess;
  friend struct MacAccess;

  constexpr void absorb(const std::uint8_t* p, std::size_t n) noexcept {
    count(n);
    absorb_counted(p, n);
  }

  constexpr void count(std::size_t n) noexcept {
    bytes_lo_ += n;
    bytes_hi_ += bytes_lo_ < n;  // carry; only SHA-512's 128-bit count ever reads it
  }

  // absorb_counted absorbs bytes already added to the length.
  constexpr void absorb_counted(const std::uint8_t* p, std::size_t n) noexcept {
    if (buffered_ != 0) {
      const std::size_t take = std::min(block_size - buffered_, n);
      std::copy(p, p + take, buffer_.data() + buffered_);
      buffered_ += take;
      p += take;
      n -= take;
      if (buffered_ < block_size) return;
      Family::compress(state_.data(), buffer_.data(), 1);
      buffered_ = 0;
    }
    const std::size_t whole = n / block_size;
    if (whole != 0) Family::compress(state_.data(), p, whole);
    p += whole * block_size;
    n -= whole * block_size;
    std::copy(p, p + n, buffer_.data());
    buffered_ = n;
  }

  // prior_lo and prior_hi are the length before the buffered bytes: whole blocks.
  constexpr std::uint64_t prior_lo() const noexcept { return bytes_lo_ - buffered_; }
  constexpr std::uint64_t prior_hi() const noexcept { return bytes_hi_ - (bytes_lo_ < buffered_); }

  static constexpr int kBlockShift = std::countr_zero(block_size);  // block_size is 2^kBlockShift

  std::array<Word, 8> state_ = Alg::kIv;
  std::array<std::uint8_t, block_size> buffer_{};
  std::uint64_t bytes_lo_ = 0;
  std::uint64_t bytes_hi_ = 0;
  std::size_t buffered_ = 0;
};

// one_shot hashes a whole message.
template <Sha2Algorithm Alg>
constexpr std::array<std::uint8_t, Alg::kDigestSize> one_shot(const std::uint8_t* p, std::size_t n) noexcept {
  return resume_and_finish<Alg>(Alg::kIv, 0, 0, p, n);
}

}  // namespace shasta::detail
