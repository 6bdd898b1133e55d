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
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "hmac.hpp"

namespace shasta {

// hkdf_extract is HKDF-Extract(salt, IKM) = HMAC-H(salt, IKM); an empty salt acts as HashLen zeros.
template <class H>
typename H::Digest hkdf_extract(ByteView salt, ByteView ikm) noexcept {
  return hmac<H>(salt, ikm);
}

// hkdf_expand fills `okm` with HKDF-Expand(PRK, info, okm.size()). Refused: Error::output_too_long
// over 255 x HashLen bytes.
template <class H>
Error hkdf_expand(const HmacKey<H>& prk, ByteView info, std::span<std::uint8_t> okm) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  // Up to this much info, T(i-1) || info || i is laid out in one stack buffer and hashed straight
  // from it (TLS 1.3's HkdfLabel is at most 514 bytes); longer info streams through a hasher.
  constexpr std::size_t kInlineInfo = 576;
  if (okm.size() > 255 * kHashLen) return Error::output_too_long;
  typename H::Digest t{};
  // 15 bytes to spare: the chunk writer's last chunk is written whole.
  alignas(16) std::array<std::uint8_t, kHashLen + kInlineInfo + 1 + 15> message;
  const bool inline_info = info.size() <= kInlineInfo;
  if constexpr (!detail::whole_stores_apply) {
    if (inline_info) std::copy(info.data(), info.data() + info.size(), message.begin() + kHashLen);
  }
  std::size_t done = 0;
  for (std::uint8_t counter = 1; done < okm.size(); ++counter) {
    // T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty.
    if (inline_info) {
      const std::size_t skip = counter > 1 ? 0 : kHashLen;
      if constexpr (detail::whole_stores_apply) {  // laid out 16 bytes a store: whole_stores.hpp
        detail::ChunkWriter writer(message.data() + skip);
        if (counter > 1) writer.append(t.data(), kHashLen);
        writer.append(info.data(), info.size());
        writer.append_byte(counter);
        writer.finish();
      } else {
        std::copy(t.begin(), t.end(), message.begin());
        message[kHashLen + info.size()] = counter;
      }
      typename H::ChainingState inner = detail::resume_and_finish_state<typename H::Algorithm, true>(
          prk.inner_state(), H::block_size, 0, message.data() + skip, kHashLen - skip + info.size() + 1);
      // T(i) is made in place and then copied: assigned straight to `t`, it would pass through
      // a temporary on the stack that nothing wipes.
      typename H::Digest next = detail::outer_hash_of_state(prk, inner);
      t = next;
      detail::wipe_object(next);
      detail::wipe_object(inner);
    } else {
      H inner = prk.inner();
      if (counter > 1) inner.update(std::span<const std::uint8_t>(t));
      inner.update(info.span()).update(std::span<const std::uint8_t>(&counter, 1));
      typename H::Digest next = detail::finish_hmac(prk, inner);
      t = next;
      detail::wipe_object(next);
      detail::wipe_object(inner);
    }
    const std::size_t n = std::min(kHashLen, okm.size() - done);
    std::copy(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(n), okm.begin() + static_cast<std::ptrdiff_t>(done));
    done += n;
  }
  detail::wipe_object(t);
  detail::secure_wipe(message.data(), kHashLen);
  return Error::ok;
}

// hkdf_expand with a raw PRK also refuses one shorter than HashLen (Error::prk_too_short). Every
// refusal comes before the PRK is hashed.
template <class H>
Error hkdf_expand(ByteView prk, ByteView info, std::span<std::uint8_t> okm) noexcept {
  if (prk.size() < H::digest_size) return Error::prk_too_short;
  if (okm.size() > 255 * H::digest_size) return Error::output_too_long;
  return hkdf_expand(HmacKey<H>(prk), info, okm);
}

// hkdf is Extract then Expand; a refused output length is refused before anything is hashed.
template <class H>
Error hkdf(ByteView salt, ByteView ikm, ByteView info, std::span<std::uint8_t> okm) noexcept {
  if (okm.size() > 255 * H::digest_size) return Error::output_too_long;
  typename H::Digest prk = hkdf_extract<H>(salt, ikm);
  const Error e = hkdf_expand(HmacKey<H>(prk), info, okm);
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
// Tls13Label holds an HkdfLabel: struct { uint16 length; opaque label<7..255>; opaque
// context<0..255>; } HkdfLabel (RFC 8446 section 7.1), for an output of `out_size` bytes.
struct Tls13Label {
  std::array<std::uint8_t, 2 + 1 + 255 + 1 + 255> bytes;
  std::size_t size = 0;

  Tls13Label(std::string_view label, ByteView context, std::size_t out_size) noexcept {
    const std::uint8_t head[3] = {static_cast<std::uint8_t>(out_size >> 8), static_cast<std::uint8_t>(out_size),
                                  static_cast<std::uint8_t>(kTls13LabelPrefix.size() + label.size())};
    const auto context_size = static_cast<std::uint8_t>(context.size());
    append(head, sizeof head);
    append(kTls13LabelPrefix.data(), kTls13LabelPrefix.size());
    append(label.data(), label.size());
    append(&context_size, 1);
    append(context.data(), context.size());
  }
  ByteView view() const noexcept { return ByteView(bytes.data(), size); }

 private:
  void append(const void* p, std::size_t len) noexcept {
    const auto* from = static_cast<const std::uint8_t*>(p);
    std::copy(from, from + len, bytes.data() + size);
    size += len;
  }
};
}  // namespace detail

template <class H>
Error tls13_expand_label(const HmacKey<H>& secret, std::string_view label, ByteView context,
                         std::span<std::uint8_t> out) noexcept {
  if (const Error e = detail::tls13_label_error<H>(label, context, out.size()); e != Error::ok) return e;
  const detail::Tls13Label info(label, context, out.size());
  return hkdf_expand(secret, info.view(), out);  // HkdfLabel is public: no wipe
}

template <class H>
Error tls13_expand_label(ByteView secret, std::string_view label, ByteView context,
                         std::span<std::uint8_t> out) noexcept {
  if (secret.size() < H::digest_size) return Error::prk_too_short;
  if (const Error e = detail::tls13_label_error<H>(label, context, out.size()); e != Error::ok) return e;
  // The label first: its byte stores reach the cache while the key's pads are hashed, so the
  // inner block's loads find them there instead of waiting for them (whole_stores.hpp).
  const detail::Tls13Label info(label, context, out.size());
  return hkdf_expand(HmacKey<H>(secret), info.view(), out);
}

// tls13_derive_secret is Derive-Secret(Secret, Label, Messages) = HKDF-Expand-Label(Secret, Label,
// Transcript-Hash(Messages), HashLen); the caller passes the transcript hash. It writes HashLen
// bytes into `out` (Error::output_too_small when shorter).
template <class H>
Error tls13_derive_secret(const HmacKey<H>& secret, std::string_view label, ByteView transcript_hash,
                          std::span<std::uint8_t> out) noexcept {
  if (out.size() < H::digest_size) return Error::output_too_small;
  return tls13_expand_label(secret, label, transcript_hash, out.first(H::digest_size));
}

template <class H>
Error tls13_derive_secret(ByteView secret, std::string_view label, ByteView transcript_hash,
                          std::span<std::uint8_t> out) noexcept {
  if (out.size() < H::digest_size) return Error::output_too_small;
  return tls13_expand_label<H>(secret, label, transcript_hash, out.first(H::digest_size));
}

}  // namespace shasta
