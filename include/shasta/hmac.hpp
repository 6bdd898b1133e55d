// hmac.hpp: HMAC (RFC 2104, FIPS 198-1) over the six SHA-2 hashes, with prepared keys: the chaining
// states after the key's ipad and opad blocks are computed once, and every MAC starts from copies.
//
//   auto tag = shasta::hmac<shasta::Sha256>(key, message);
//   shasta::HmacKey<shasta::Sha256> k(key);            // two compressions, once
//   auto tag2 = shasta::hmac(k, message);              // no pad compression
//   shasta::Hmac<shasta::Sha256> mac(k); mac.update(a).update(b); auto t = mac.finalize();
//   if (shasta::hmac_verify(k, message, tag) == shasta::Error::ok) ...
//
// Secrets: no branch or memory index depends on the key or the message; keys, pads and states are
// wiped when they die. Lengths are public.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "bytes.hpp"
#include "detail/lanes.hpp"
#include "detail/wipe.hpp"
#include "error.hpp"
#include "sha2.hpp"

namespace shasta {
namespace detail {

// wipe_kernel_stack is wipe_kernel_stack_below (lanes.hpp) for H's family. A MAC's caller calls it
// after the outer hash: the kernels' W+K of the inner digest, and what the inner hash's calls left
// beneath (the message, HKDF's T(i-1)), lie on the stack below. (Called from outer_hash_of_state
// itself, it slowed a prepared-key TLS 1.3 expand_label by 11 ns on the Zen 5: the frames moved.)
template <class H>
void wipe_kernel_stack() noexcept {
  wipe_kernel_stack_below(static_cast<const typename H::Word*>(nullptr));
}

}  // namespace detail

// HmacKey is a key prepared for HMAC with hash H: the two chaining states after K^ipad and K^opad.
template <class H>
class HmacKey {
 public:
  using Hash = H;
  using ChainingState = typename H::ChainingState;
  using Word = typename H::Word;
  // export_size is the length of `export_to`'s bytes: both states as big-endian words.
  static constexpr std::size_t export_size = 2 * 8 * sizeof(Word);

  // HmacKey prepares `key`; a key longer than a block is hashed first (RFC 2104 section 2).
  explicit HmacKey(ByteView key) noexcept {
    std::array<std::uint8_t, H::block_size> ipad{};
    if (key.size() > H::block_size) {
      H hasher;  // named, so that the key's tail in its buffer can be wiped
      typename H::Digest digest = hasher.update(key.span()).finalize();
      std::copy(digest.begin(), digest.end(), ipad.begin());
      detail::wipe_object(digest);
      detail::wipe_object(hasher);
    } else {
      std::copy(key.data(), key.data() + key.size(), ipad.begin());
    }
    std::array<std::uint8_t, H::block_size> opad;
    for (std::size_t i = 0; i < H::block_size; ++i) {
      opad[i] = static_cast<std::uint8_t>(ipad[i] ^ 0x5c);
      ipad[i] ^= 0x36;
    }
    inner_ = H::initial_state();
    outer_ = H::initial_state();
    // The two blocks are independent: side by side on a two-lane kernel they take about as long as one.
    detail::compress_pair(inner_.data(), ipad.data(), outer_.data(), opad.data());
    detail::wipe_object(ipad);
    detail::wipe_object(opad);
    detail::wipe_kernel_stack<H>();  // the kernels' W+K of the pads, which give back the key
  }

  HmacKey(const HmacKey&) noexcept = default;
  HmacKey& operator=(const HmacKey&) noexcept = default;
  ~HmacKey() {
    detail::wipe_object(inner_);
    detail::wipe_object(outer_);
  }

  // export_to writes the prepared key (a secret: as sensitive as the key) into `out`.
  Error export_to(std::span<std::uint8_t> out) const noexcept {
    if (out.size() < export_size) return Error::output_too_small;
    store_words(inner_, out.data());
    store_words(outer_, out.data() + export_size / 2);
    return Error::ok;
  }

  // import_from rebuilds a key from `export_to`'s bytes; Error::invalid_export unless exactly
  // export_size bytes (the key is then unchanged).
  Error import_from(ByteView exported) noexcept {
    if (exported.size() != export_size) return Error::invalid_export;
    load_words(exported.data(), inner_);
    load_words(exported.data() + export_size / 2, outer_);
    return Error::ok;
  }

  // inner is a hasher positioned after K^ipad: the inner hash of a MAC continues from it.
  H inner() const noexcept { return H(inner_, 1); }
  // outer is a hasher positioned after K^opad.
  H outer() const noexcept { return H(outer_, 1); }

  const ChainingState& inner_state() const noexcept { return inner_; }
  const ChainingState& outer_state() const noexcept { return outer_; }

 private:
  static void store_words(const ChainingState& s, std::uint8_t* out) noexcept {
    for (std::size_t i = 0; i < 8 * sizeof(Word); ++i) {
      out[i] = static_cast<std::uint8_t>(s[i / sizeof(Word)] >> (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
    }
  }
  static void load_words(const std::uint8_t* in, ChainingState& s) noexcept {
    for (std::size_t w = 0; w < 8; ++w) {
      Word v = 0;
      for (std::size_t i = 0; i < sizeof(Word); ++i) v = static_cast<Word>(v << 8) | in[w * sizeof(Word) + i];
      s[w] = v;
    }
  }

  ChainingState inner_{};
  ChainingState outer_{};
};

namespace detail {

// The outer hash's block after HashLen bytes of inner digest: 0x80, zeros and the bit count of
// K^opad plus the digest, as words whose bytes in memory are that block.
template <class H>
constexpr std::array<typename H::Word, 16> outer_block_template() noexcept {
  std::array<std::uint8_t, H::block_size> bytes{};
  bytes[H::digest_size] = 0x80;
  const std::uint64_t bits = (H::block_size + H::digest_size) * 8;
  for (std::size_t i = 0; i < 8; ++i) bytes[H::block_size - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
  return std::bit_cast<std::array<typename H::Word, 16>>(bytes);
}

// outer_hash_of_state turns the inner hash's final state into the tag. The outer block is a copy
// of a constant template with the inner digest's words byte-swapped into its front: whole-vector
// stores the kernel's vector loads can take their data from. Digest bytes stored a byte or a word
// at a time and copied in make those loads wait for the stores to reach the cache (failed store
// forwarding), on the chain from the inner hash to the tag: 20-30 ns of a 150 ns prepared-key
// HMAC-SHA256 on Emerald Rapids.
template <class H>
typename H::Digest outer_hash_of_state(const HmacKey<H>& key, const typename H::ChainingState& inner) noexcept {
  using Word = typename H::Word;
  constexpr std::size_t kWhole = H::digest_size / sizeof(Word);
  static constexpr std::array<Word, 16> kTemplate = outer_block_template<H>();
  // word i of the outer block, as it lies in memory
  const auto word = [&inner](std::size_t i) noexcept {
    Word w = kTemplate[i];
    if (i < kWhole) w = to_big_endian(inner[i]);
    if constexpr (H::digest_size % sizeof(Word) != 0) {  // SHA-512/224: the upper half of one more word
      if (i == kWhole) w |= to_big_endian(inner[kWhole] & (~Word{0} << (8 * sizeof(Word) / 2)));
    }
    return w;
  };
  alignas(64) std::array<Word, 16> block;
  if constexpr (whole_stores_apply) {  // 16 bytes a store (the compiler wrote 4-byte ones otherwise)
    constexpr std::size_t kPerHalf = 8 / sizeof(Word);
    const auto half = [&word](std::size_t first) noexcept {
      std::uint64_t h = 0;
      for (std::size_t k = 0; k < kPerHalf; ++k) h |= std::uint64_t{word(first + k)} << (8 * sizeof(Word) * k);
      return h;
    };
    auto* const bytes = reinterpret_cast<std::uint8_t*>(block.data());
    for (std::size_t c = 0; c < H::block_size / 16; ++c) {
      store_chunk(bytes + 16 * c, Chunk{half(2 * kPerHalf * c), half(2 * kPerHalf * c + kPerHalf)});
    }
  } else {
    for (std::size_t i = 0; i < 16; ++i) block[i] = word(i);
  }
  typename H::ChainingState state = key.outer_state();
  H::compress_blocks(state, reinterpret_cast<const std::uint8_t*>(block.data()), 1);
  typename H::Digest tag{};
  store_digest(state, std::span<std::uint8_t>(tag));
  wipe_object(block);
  wipe_object(state);  // the tag as words: secret where it is HKDF's T(i) or a PRK
  return tag;
}

// absorb_last_inner_blocks absorbs a MAC's last inner blocks (`n` at `blocks`, padded) into
// `state`. Where the active kernel has an HMAC finish and the digest is the whole state, that one
// call also runs the outer block, the inner digest passed on in registers, and writes the tag's
// bytes over `state`: true. Otherwise `state` ends as the inner hash: false, and
// outer_hash_of_state goes on.
template <class H>
bool absorb_last_inner_blocks(const HmacKey<H>& key, typename H::Word* state, const std::uint8_t* blocks,
                              std::size_t n) noexcept {
  if constexpr (H::digest_size == sizeof(typename H::ChainingState)) {
    if (hmac_finish_active(state, blocks, n, key.outer_state().data())) return true;
  }
  H::Algorithm::Family::compress(state, blocks, n);
  return false;
}

// tag_after_inner is the tag once absorb_last_inner_blocks has run: the bytes it left in `inner`
// where it ran the outer block too (`tagged`), else the outer hash of the inner state there.
template <class H>
typename H::Digest tag_after_inner(const HmacKey<H>& key, const typename H::ChainingState& inner, bool tagged) noexcept {
  if (tagged) return leading_bytes<typename H::Algorithm>(inner);
  return outer_hash_of_state(key, inner);
}

// tag_of_last_inner_blocks is the tag of a MAC whose inner hash, at `inner`, ends with `n` padded
// blocks at `blocks`; `inner` is left holding a secret (a state or the tag) for the caller to wipe.
template <class H>
typename H::Digest tag_of_last_inner_blocks(const HmacKey<H>& key, typename H::ChainingState& inner,
                                            const std::uint8_t* blocks, std::size_t n) noexcept {
  return tag_after_inner(key, inner, absorb_last_inner_blocks(key, inner.data(), blocks, n));
}

// inner_then_outer is the last kernel call of a MAC's inner hash (resume_and_finish_state's
// `last`): absorb_last_inner_blocks, with `tagged` set where it ran the outer block too.
template <class H>
auto inner_then_outer(const HmacKey<H>& key, bool& tagged) noexcept {
  return [&key, &tagged](typename H::Word* state, const std::uint8_t* blocks, std::size_t n) noexcept {
    tagged = absorb_last_inner_blocks(key, state, blocks, n);
  };
}

// MacAccess (a friend of Hasher) ends a streamed MAC's inner hash as finalize would, its buffered
// tail and padding in one call of `last`, and starts the hasher on a new message.
struct MacAccess {
  template <class H, class Last>
  static typename H::ChainingState finish_state(H& h, Last last) noexcept {
    typename H::ChainingState state = resume_and_finish_state<typename H::Algorithm, true>(
        h.state_, h.prior_lo(), h.prior_hi(), h.buffer_.data(), h.buffered_, last);
    h.reset();
    return state;
  }
};

// finish_hmac turns a streamed inner hash into the tag; the hasher starts a new message.
template <class H>
typename H::Digest finish_hmac(const HmacKey<H>& key, H& inner) noexcept {
  bool tagged = false;
  typename H::ChainingState state = MacAccess::finish_state(inner, inner_then_outer(key, tagged));
  typename H::Digest tag = tag_after_inner(key, state, tagged);
  wipe_object(state);
  wipe_kernel_stack<H>();
  return tag;
}

// truncation_floor is RFC 2104 section 5's shortest acceptable tag: half the output, at least 80 bits.
template <class H>
constexpr std::size_t truncation_floor() noexcept {
  return std::max<std::size_t>(10, H::digest_size / 2);
}

// equal_in_constant_time compares two equal-length byte strings without an early exit.
inline bool equal_in_constant_time(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) noexcept {
  volatile std::uint8_t diff = 0;
  for (std::size_t i = 0; i < n; ++i) diff = static_cast<std::uint8_t>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

}  // namespace detail

// Hmac is a streaming HMAC under one key; finalize starts the next MAC under the same key.
template <class H>
class Hmac {
 public:
  static constexpr std::size_t digest_size = H::digest_size;
  using Digest = typename H::Digest;

  explicit Hmac(const HmacKey<H>& key) noexcept : key_(key), inner_(key.inner()) {}
  explicit Hmac(ByteView key) noexcept : Hmac(HmacKey<H>(key)) {}
  Hmac(const Hmac&) noexcept = default;
  Hmac& operator=(const Hmac&) noexcept = default;
  ~Hmac() { detail::wipe_object(inner_); }

  // bytes_counted is the inner hash's length so far: the key's ipad block and the message.
  std::uint64_t bytes_counted() const noexcept { return inner_.bytes_counted(); }

  Hmac& update(ByteView data) noexcept {
    inner_.update(data.span());
    return *this;
  }

  // finalize returns the tag and starts a new message under the same key.
  Digest finalize() noexcept {
    Digest tag = detail::finish_hmac(key_, inner_);
    inner_.resume(key_.inner_state(), 1);  // in place: `inner_ = key_.inner()` left a copy on the stack
    return tag;
  }

  // finalize_into writes the first `out.size()` bytes of the tag (RFC 2104 section 5 truncation),
  // 1 to digest_size of them; other sizes are refused and the state is kept.
  Error finalize_into(std::span<std::uint8_t> out) noexcept {
    if (out.empty()) return Error::output_too_small;
    if (out.size() > digest_size) return Error::output_too_long;
    Digest tag = finalize();
    std::copy(tag.begin(), tag.begin() + static_cast<std::ptrdiff_t>(out.size()), out.begin());
    detail::wipe_object(tag);
    return Error::ok;
  }

  // verify finishes the MAC and compares it with `tag` in constant time: Error::ok, tag_mismatch,
  // tag_too_short (below max(10, HashLen / 2) bytes) or output_too_long (over HashLen).
  Error verify(ByteView tag) noexcept {
    if (tag.size() > digest_size) return Error::output_too_long;
    if (tag.size() < detail::truncation_floor<H>()) return Error::tag_too_short;
    Digest mine = finalize();
    const bool same = detail::equal_in_constant_time(mine.data(), tag.data(), tag.size());
    detail::wipe_object(mine);
    return same ? Error::ok : Error::tag_mismatch;
  }

 private:
  HmacKey<H> key_;
  H inner_;
};

// hmac computes HMAC-H(key, message) in one call: the message straight from the caller's buffer
// after the prepared inner state, no streaming buffer.
template <class H>
typename H::Digest hmac(const HmacKey<H>& key, ByteView message) noexcept {
  bool tagged = false;  // the last inner call ran the outer block too: `inner` holds the tag's bytes
  typename H::ChainingState inner = detail::resume_and_finish_state<typename H::Algorithm, true>(
      key.inner_state(), H::block_size, 0, message.data(), message.size(), detail::inner_then_outer(key, tagged));
  typename H::Digest tag = detail::tag_after_inner(key, inner, tagged);
  detail::wipe_object(inner);
  detail::wipe_kernel_stack<H>();
  return tag;
}

template <class H>
typename H::Digest hmac(ByteView key, ByteView message) noexcept {
  return hmac(HmacKey<H>(key), message);
}

// hmac_verify checks `tag` (possibly truncated, see Hmac::verify) against HMAC-H(key, message).
template <class H>
Error hmac_verify(const HmacKey<H>& key, ByteView message, ByteView tag) noexcept {
  return Hmac<H>(key).update(message).verify(tag);
}

template <class H>
Error hmac_verify(ByteView key, ByteView message, ByteView tag) noexcept {
  return hmac_verify(HmacKey<H>(key), message, tag);
}

}  // namespace shasta
