// hkdf.hpp: HKDF (RFC 5869) and the TLS 1.3 key schedule's HKDF-Expand-Label and Derive-Secret
// (RFC 8446 section 7.1), on prepared keys: a PRK or secret is prepared once for all its output
// blocks. Refusals write nothing.
//
//   auto prk = shasta::hkdf_extract<shasta::Sha256>(salt, ikm);
//   std::array<std::uint8_t, 42> okm;
//   shasta::Error e = shasta::hkdf_expand<shasta::Sha256>(prk, info, okm);
//   e = shasta::tls13_expand_label<shasta::Sha256>(secret, "key", {}, key16);
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "hmac.hpp"

namespace shasta {

// hkdf_extract is HKDF-Extract(salt, IKM) = HMAC-H(salt, IKM); an empty salt acts as HashLen zeros.
template <class H>
typename H::Digest hkdf_extract(ByteView salt, ByteView ikm) noexcept {
  return hmac<H>(salt, ikm);
}

namespace detail {
// InfoBytes is HKDF's info as one byte string. An info source hands its bytes, piece by piece, to
// a sink (emit) so that hkdf_expand can lay them out without a copy of its own in between.
struct InfoBytes {
  ByteView bytes;
  std::size_t size() const noexcept { return bytes.size(); }
  bool overlaps(ByteView out) const noexcept { return detail::overlaps(bytes, out); }
  template <class Sink>
  void emit(Sink&& sink) const noexcept {
    sink(bytes.data(), bytes.size());
  }
};

// Up to this much info, HKDF's T(i-1) || info || i is laid out with its padding in one stack buffer
// and compressed straight from it (TLS 1.3's HkdfLabel is at most 514 bytes); longer info streams
// through a hasher.
inline constexpr std::size_t kHkdfInlineInfo = 576;

// HkdfMessage is that buffer: T(i-1) in its first HashLen bytes, then info, i and the padding.
template <class H>
using HkdfMessage = std::array<std::uint8_t, (H::digest_size + kHkdfInlineInfo + 2 + H::Algorithm::Family::kLengthSize +
                                              H::block_size - 1) / H::block_size * H::block_size>;

// lay_out_hkdf_message writes T(i-1) || info || i (T(0) empty; info at most kHkdfInlineInfo
// bytes) with its padding into `message`, 16 bytes a store (whole_stores.hpp: the kernel's loads
// take their data from those stores, and no second pass copies and pads it), and returns the
// number of blocks.
// (Writer is a parameter only so that a 32-bit target, which has no ChunkWriter, never needs one.)
template <class H, class Info, class Writer = ChunkWriter>
std::size_t lay_out_hkdf_message(const Info& info, const typename H::Digest& previous, std::uint8_t counter,
                                 HkdfMessage<H>& message) noexcept {
  Writer writer(message.data());
  if (counter > 1) writer.append(previous.data(), H::digest_size);
  info.emit([&writer](const std::uint8_t* p, std::size_t n) { writer.append(p, n); });
  writer.append_byte(counter);
  return writer.template finish_padded<H::block_size, H::Algorithm::Family::kLengthSize>(H::block_size);
}

// hkdf_block returns T(i) = HMAC(PRK, T(i-1) || info || i), info at most kHkdfInlineInfo bytes;
// `inner` (the PRK's inner state on entry) is left holding a secret state for the caller to wipe.
// Where whole stores do not apply, `message` holds info after HashLen bytes.
template <class H, class Info>
typename H::Digest hkdf_block(const HmacKey<H>& prk, typename H::ChainingState& inner, const Info& info,
                              const typename H::Digest& previous, std::uint8_t counter,
                              HkdfMessage<H>& message) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  if constexpr (whole_stores_apply) {
    return tag_of_last_inner_blocks(prk, inner, message.data(),
                                    lay_out_hkdf_message<H>(info, previous, counter, message));
  } else {
    const std::size_t skip = counter > 1 ? 0 : kHashLen;
    std::copy(previous.begin(), previous.end(), message.begin());
    message[kHashLen + info.size()] = counter;
    inner = resume_and_finish_state<typename H::Algorithm, true>(inner, H::block_size, 0, message.data() + skip,
                                                                 kHashLen - skip + info.size() + 1);
    return outer_hash_of_state(prk, inner);
  }
}

// hkdf_expand_info is hkdf_expand with its info from any source (InfoBytes, Tls13Label).
template <class H, class Info>
Error hkdf_expand_info(const HmacKey<H>& prk, const Info& info, std::span<std::uint8_t> okm) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  if (okm.size() > 255 * kHashLen) return Error::output_too_long;
  alignas(64) HkdfMessage<H> message;
  if constexpr (whole_stores_apply) {
    // T(1) alone (TLS 1.3's keys, IVs and secrets): straight from the outer hash to okm, with
    // none of the loop's copies of T(i-1). Measured 111-112 -> 103-104 ns for Expand-Label of 32
    // bytes under a prepared secret on the Zen 5 (the loop with T(1) ending it: 128).
    if (!okm.empty() && okm.size() <= kHashLen && info.size() <= kHkdfInlineInfo) {
      typename H::ChainingState inner = prk.inner_state();
      typename H::Digest t = hkdf_block(prk, inner, info, {}, 1, message);
      std::copy(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(okm.size()), okm.begin());
      wipe_object(t);
      wipe_object(inner);
      wipe_kernel_stack<H>();
      return Error::ok;
    }
  }
  typename H::Digest t{};
  if constexpr (!whole_stores_apply) {  // info copied once, after T(i-1)
    std::uint8_t* at = message.data() + kHashLen;
    if (info.size() <= kHkdfInlineInfo) {
      info.emit([&at](const std::uint8_t* p, std::size_t n) { at = std::copy(p, p + n, at); });
    }
  }
  std::size_t done = 0;
  for (std::uint8_t counter = 1; done < okm.size(); ++counter) {
    // T(i) = HMAC(PRK, T(i-1) || info || i). It is made in place and then copied: assigned
    // straight to `t`, it would pass through a temporary on the stack that nothing wipes.
    if (info.size() <= kHkdfInlineInfo) {
      typename H::ChainingState inner = prk.inner_state();
      typename H::Digest next = hkdf_block(prk, inner, info, t, counter, message);
      t = next;
      wipe_object(next);
      wipe_object(inner);
    } else {
      H inner = prk.inner();
      if (counter > 1) inner.update(std::span<const std::uint8_t>(t));
      info.emit([&inner](const std::uint8_t* p, std::size_t n) { inner.update(std::span<const std::uint8_t>(p, n)); });
      inner.update(std::span<const std::uint8_t>(&counter, 1));
      typename H::Digest next = finish_hmac(prk, inner);
      t = next;
      wipe_object(next);
      wipe_object(inner);
    }
    const std::size_t n = std::min(kHashLen, okm.size() - done);
    std::copy(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n), okm.begin() + static_cast<std::ptrdiff_t>(done));
    done += n;
  }
  wipe_object(t);
  secure_wipe(message.data(), kHashLen);
  wipe_kernel_stack<H>();  // the W+K of T(i-1) and of the last inner digest, on the stack below
  return Error::ok;
}

}  // namespace detail

namespace detail {
// output_overlap_error: info (or a TLS 1.3 label or context) is read again for each output block,
// after the earlier ones are written, so an output of more than one block over it would be wrong:
// refused. One block is made whole before it is written, so it may lie anywhere.
template <class H, class Info>
Error output_overlap_error(const Info& info, std::span<const std::uint8_t> okm) noexcept {
  return okm.size() > H::digest_size && info.overlaps(okm) ? Error::overlapping_buffers : Error::ok;
}
}  // namespace detail

// hkdf_expand fills `okm` with HKDF-Expand(PRK, info, okm.size()). Refused: Error::output_too_long
// over 255 x HashLen bytes; Error::overlapping_buffers for an `okm` of more than HashLen bytes
// over `info` (nor, for the TLS 1.3 calls below, the label or context). `okm` may overlap the PRK.
template <class H>
Error hkdf_expand(const HmacKey<H>& prk, ByteView info, std::span<std::uint8_t> okm) noexcept {
  if (const Error e = detail::output_overlap_error<H>(detail::InfoBytes{info}, okm); e != Error::ok) return e;
  return detail::hkdf_expand_info(prk, detail::InfoBytes{info}, okm);
}

// hkdf_expand with a raw PRK also refuses one shorter than HashLen (Error::prk_too_short). Every
// refusal comes before the PRK is hashed.
template <class H>
Error hkdf_expand(ByteView prk, ByteView info, std::span<std::uint8_t> okm) noexcept {
  if (prk.size() < H::digest_size) return Error::prk_too_short;
  if (okm.size() > 255 * H::digest_size) return Error::output_too_long;
  if (const Error e = detail::output_overlap_error<H>(detail::InfoBytes{info}, okm); e != Error::ok) return e;
  return detail::hkdf_expand_info(HmacKey<H>(prk), detail::InfoBytes{info}, okm);
}

// hkdf is Extract then Expand; a refused output length is refused before anything is hashed.
template <class H>
Error hkdf(ByteView salt, ByteView ikm, ByteView info, std::span<std::uint8_t> okm) noexcept {
  if (okm.size() > 255 * H::digest_size) return Error::output_too_long;
  if (const Error e = detail::output_overlap_error<H>(detail::InfoBytes{info}, okm); e != Error::ok) return e;
  typename H::Digest prk = hkdf_extract<H>(salt, ikm);
  const Error e = detail::hkdf_expand_info(HmacKey<H>(prk), detail::InfoBytes{info}, okm);
  detail::wipe_object(prk);
  return e;
}

// tls13_expand_label is HKDF-Expand-Label(Secret, Label, Context, okm.size()) of RFC 8446 section
// 7.1: `label` without the "tls13 " prefix. Refused: a label over 249 bytes, a context over 255,
// an output over 65535 bytes or over 255 x HashLen.
namespace detail {
inline constexpr std::string_view kTls13LabelPrefix = "tls13 ";

// tls13_label_error is what HKDF-Expand-Label refuses, checked before any secret is hashed.
template <class H>
Error tls13_label_error(std::string_view label, ByteView context, std::size_t out_size) noexcept {
  if (label.size() > 255 - kTls13LabelPrefix.size()) return Error::label_too_long;
  if (context.size() > 255) return Error::context_too_long;
  if (out_size > 65535 || out_size > 255 * H::digest_size) return Error::output_too_long;
  return Error::ok;
}
}  // namespace detail

namespace detail {
// Tls13Label is an HkdfLabel: struct { uint16 length; opaque label<7..255>; opaque
// context<0..255>; } HkdfLabel (RFC 8446 section 7.1), for an output of `out_size` bytes. It is
// an info source for hkdf_expand_info: its pieces go from where they are straight into HKDF's
// block, so no byte copy of them is on the way to the kernel's loads.
class Tls13Label {
 public:
  Tls13Label(std::string_view label, ByteView context, std::size_t out_size) noexcept
      : context_size_(static_cast<std::uint8_t>(context.size())), label_(label), context_(context) {
    // The length, the label's length byte and "tls13 " are one piece for the writer rather than
    // two (Expand-Label of 32 bytes under a prepared secret on Zen 5, scripts/bench-ratio: 107-108
    // -> 97-99 ns). Its first eight bytes are made in a register and stored at once, so that the
    // writer's 8-byte load of them takes its data from that one store.
    const std::uint64_t first8 = (out_size >> 8 & 0xff) | (out_size & 0xff) << 8 |
                                 std::uint64_t{static_cast<std::uint8_t>(kTls13LabelPrefix.size() + label.size())} << 16 |
                                 kTls13PrefixFirst5 << 24;
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(head_, &first8, 8);
    } else {
      for (std::size_t i = 0; i < 8; ++i) head_[i] = static_cast<std::uint8_t>(first8 >> (8 * i));
    }
    head_[8] = static_cast<std::uint8_t>(kTls13LabelPrefix[5]);
  }

  std::size_t size() const noexcept { return sizeof head_ + label_.size() + 1 + context_.size(); }
  bool overlaps(ByteView out) const noexcept {
    return detail::overlaps(ByteView(label_.data(), label_.size()), out) || detail::overlaps(context_, out);
  }

  template <class Sink>
  void emit(Sink&& sink) const noexcept {
    sink(head_, sizeof head_);
    sink(reinterpret_cast<const std::uint8_t*>(label_.data()), label_.size());
    sink(&context_size_, 1);
    sink(context_.data(), context_.size());
  }

 private:
  // "tls13 "'s first five bytes, little-endian
  static constexpr std::uint64_t kTls13PrefixFirst5 = [] {
    static_assert(kTls13LabelPrefix.size() == 6);
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < 5; ++i) w |= std::uint64_t{static_cast<std::uint8_t>(kTls13LabelPrefix[i])} << (8 * i);
    return w;
  }();
  std::uint8_t head_[9];  // uint16 length, the label's length byte, "tls13 "
  std::uint8_t context_size_;
  std::string_view label_;
  ByteView context_;
};
}  // namespace detail

template <class H>
Error tls13_expand_label(const HmacKey<H>& secret, std::string_view label, ByteView context,
                         std::span<std::uint8_t> out) noexcept {
  if (const Error e = detail::tls13_label_error<H>(label, context, out.size()); e != Error::ok) return e;
  const detail::Tls13Label info(label, context, out.size());
  if (const Error e = detail::output_overlap_error<H>(info, out); e != Error::ok) return e;
  return detail::hkdf_expand_info(secret, info, out);
}

template <class H>
Error tls13_expand_label(ByteView secret, std::string_view label, ByteView context,
                         std::span<std::uint8_t> out) noexcept {
  if (secret.size() < H::digest_size) return Error::prk_too_short;
  if (const Error e = detail::tls13_label_error<H>(label, context, out.size()); e != Error::ok) return e;
  const detail::Tls13Label info(label, context, out.size());
  if (const Error e = detail::output_overlap_error<H>(info, out); e != Error::ok) return e;
  return detail::hkdf_expand_info(HmacKey<H>(secret), info, out);
}

// tls13_derive_secret is Derive-Secret(Secret, Label, Messages) = HKDF-Expand-Label(Secret, Label,
// Transcript-Hash(Messages), HashLen); the caller passes the transcript hash. It writes HashLen
// bytes into `out` (Error::output_too_small when shorter). A transcript hash is HashLen bytes, that
// of no messages too (the "derived" steps hash the empty string): any other length is refused
// (Error::transcript_hash_size), since the key it gave would silently differ from every peer's.
template <class H>
Error tls13_derive_secret(const HmacKey<H>& secret, std::string_view label, ByteView transcript_hash,
                          std::span<std::uint8_t> out) noexcept {
  if (out.size() < H::digest_size) return Error::output_too_small;
  if (transcript_hash.size() != H::digest_size) return Error::transcript_hash_size;
  return tls13_expand_label(secret, label, transcript_hash, out.first(H::digest_size));
}

template <class H>
Error tls13_derive_secret(ByteView secret, std::string_view label, ByteView transcript_hash,
                          std::span<std::uint8_t> out) noexcept {
  if (out.size() < H::digest_size) return Error::output_too_small;
  if (transcript_hash.size() != H::digest_size) return Error::transcript_hash_size;
  return tls13_expand_label<H>(secret, label, transcript_hash, out.first(H::digest_size));
}

}  // namespace shasta
