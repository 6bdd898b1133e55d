// hex.hpp: lowercase hex out, either case in; usable in constant expressions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "error.hpp"

namespace shasta {

// to_hex spells `bytes` as lowercase hex, two characters a byte.
constexpr std::string to_hex(std::span<const std::uint8_t> bytes) {
  constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * bytes.size(), '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

namespace detail {
constexpr int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace detail

// from_hex decodes `hex` into exactly `out.size()` bytes. Error::invalid_hex when `hex` is not
// 2 * out.size() hex digits; `out` is then left unspecified.
constexpr Error from_hex(std::string_view hex, std::span<std::uint8_t> out) noexcept {
  if (hex.size() != 2 * out.size()) return Error::invalid_hex;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = detail::hex_value(hex[2 * i]);
    const int lo = detail::hex_value(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return Error::invalid_hex;
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return Error::ok;
}

// from_hex<N> decodes exactly N bytes, e.g. a digest: `from_hex<32>("ba7816bf...")`.
template <std::size_t N>
constexpr std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view hex) noexcept {
  std::array<std::uint8_t, N> out{};
  if (from_hex(hex, out) != Error::ok) return std::nullopt;
  return out;
}

// from_hex decodes any even number of hex digits.
inline std::optional<std::vector<std::uint8_t>> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> out(hex.size() / 2);
  if (from_hex(hex, out) != Error::ok) return std::nullopt;
  return out;
}

}  // namespace shasta
