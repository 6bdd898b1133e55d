// hex.hpp: lowercase hex out, either case in; from_hex is usable in constant expressions, and
// to_hex where the standard library's std::string is (GCC 12's, not Clang 14 with libstdc++ 12).
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

namespace detail {
// hex_digit spells a nibble without a branch or a table indexed by it: derived keys are printed
// in hex (shasta hkdf, pbkdf2), and their nibbles must not steer the code either. 9 - n is
// negative, all ones after the shift, exactly for the letters, which start 'a' - '0' - 10 later.
constexpr char hex_digit(int n) noexcept {
  return static_cast<char>('0' + n + (((9 - n) >> 8) & ('a' - '0' - 10)));
}
}  // namespace detail

// to_hex spells `bytes` as lowercase hex, two characters a byte.
constexpr std::string to_hex(std::span<const std::uint8_t> bytes) {
  std::string out(2 * bytes.size(), '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = detail::hex_digit(bytes[i] >> 4);
    out[2 * i + 1] = detail::hex_digit(bytes[i] & 15);
  }
  return out;
}

namespace detail {
// hex_value is the digit's value, or -1. Without a branch or a table on the character: keys are
// given in hex (shasta hmac --key-hex, the C API), and their digits must not steer the code.
// in_range is all ones where lo <= x <= hi (either difference negative sets the sign bit otherwise).
constexpr int in_range(int x, int lo, int hi) noexcept {
  return ~(((x - lo) | (hi - x)) >> 31);
}
constexpr int hex_value(char ch) noexcept {
  const int c = static_cast<unsigned char>(ch);
  const int lower = c | 0x20;  // 'A'-'F' to 'a'-'f'; nothing else lands in 'a'-'f'
  const int digit = in_range(c, '0', '9');
  const int letter = in_range(lower, 'a', 'f');
  const int valid = digit | letter;
  return ((digit & (c - '0')) | (letter & (lower - 'a' + 10)) | ~valid);
}
// all_hex: `hex` is exactly 2 * n hex digits. Every character is read either way.
constexpr bool all_hex(std::string_view hex, std::size_t n) noexcept {
  if (hex.size() % 2 != 0 || hex.size() / 2 != n) return false;
  int bad = 0;
  for (char c : hex) bad |= hex_value(c);
  return bad >= 0;
}
}  // namespace detail

// from_hex decodes `hex` into exactly `out.size()` bytes. Error::invalid_hex when `hex` is not
// 2 * out.size() hex digits; `out` is then left unspecified. Every digit is read either way: where
// a bad one is does not show in the time taken.
constexpr Error from_hex(std::string_view hex, std::span<std::uint8_t> out) noexcept {
  if (hex.size() % 2 != 0 || hex.size() / 2 != out.size()) return Error::invalid_hex;  // 2 * size can wrap
  int bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int hi = detail::hex_value(hex[2 * i]);
    const int lo = detail::hex_value(hex[2 * i + 1]);
    bad |= hi | lo;  // negative once any digit was not one
    out[i] = static_cast<std::uint8_t>(hi << 4 | (lo & 15));
  }
  return bad < 0 ? Error::invalid_hex : Error::ok;
}

// from_hex<N> decodes exactly N bytes, e.g. a digest: `from_hex<32>("ba7816bf...")`.
// The string is checked first and decoded only when good, into the returned object itself: `out`
// is the one object returned, so it is constructed in the caller's (no copy of a key left in this
// frame), and a refused string decodes to nothing there is to wipe.
template <std::size_t N>
constexpr std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view hex) noexcept {
  std::optional<std::array<std::uint8_t, N>> out;
  if (detail::all_hex(hex, N)) (void)from_hex(hex, out.emplace());
  return out;
}

// from_hex decodes any even number of hex digits (the same way).
inline std::optional<std::vector<std::uint8_t>> from_hex(std::string_view hex) {
  std::optional<std::vector<std::uint8_t>> out;
  if (detail::all_hex(hex, hex.size() / 2)) (void)from_hex(hex, out.emplace(hex.size() / 2));
  return out;
}

}  // namespace shasta
