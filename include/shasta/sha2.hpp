// sha2.hpp: the SHA-2 family of FIPS 180-4: streaming hashers and one-shot functions.
//
//   shasta::Sha256 h;  h.update(part1).update(part2);  auto digest = h.finalize();
//   auto digest = shasta::sha512(bytes);
//   static_assert(shasta::sha256("abc") == *shasta::from_hex<32>("ba7816bf..."));
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "detail/hasher.hpp"
#include "error.hpp"
#include "hex.hpp"

namespace shasta {

using Sha224 = detail::Hasher<detail::Sha224Algorithm>;
using Sha256 = detail::Hasher<detail::Sha256Algorithm>;
using Sha384 = detail::Hasher<detail::Sha384Algorithm>;
using Sha512 = detail::Hasher<detail::Sha512Algorithm>;
using Sha512_224 = detail::Hasher<detail::Sha512_224Algorithm>;
using Sha512_256 = detail::Hasher<detail::Sha512_256Algorithm>;

namespace detail {

// OneShot is the callable behind `shasta::sha256(data)` and its siblings.
template <Sha2Algorithm Alg>
struct OneShot {
  using Digest = std::array<std::uint8_t, Alg::kDigestSize>;

  constexpr Digest operator()(std::span<const std::uint8_t> data) const noexcept {
    return one_shot<Alg>(data.data(), data.size());
  }
  Digest operator()(std::span<const std::byte> data) const noexcept {
    return one_shot<Alg>(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  Digest operator()(const void* data, std::size_t len) const noexcept {
    return one_shot<Alg>(static_cast<const std::uint8_t*>(data), len);
  }
  constexpr Digest operator()(std::string_view text) const noexcept {
    if (std::is_constant_evaluated()) return Hasher<Alg>().update(text).finalize();
    return one_shot<Alg>(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  }
};

}  // namespace detail

inline constexpr detail::OneShot<detail::Sha224Algorithm> sha224{};
inline constexpr detail::OneShot<detail::Sha256Algorithm> sha256{};
inline constexpr detail::OneShot<detail::Sha384Algorithm> sha384{};
inline constexpr detail::OneShot<detail::Sha512Algorithm> sha512{};
inline constexpr detail::OneShot<detail::Sha512_224Algorithm> sha512_224{};
inline constexpr detail::OneShot<detail::Sha512_256Algorithm> sha512_256{};

}  // namespace shasta
