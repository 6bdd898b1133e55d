// kdf_arguments.cpp: see kdf_arguments.hpp.
#include "kdf_arguments.hpp"

#include <charconv>
#include <cstdlib>

#include "shasta/detail/wipe.hpp"
#include "shasta/hex.hpp"

namespace shasta::cli {

bool load_bytes(const ByteSource& source, std::string_view what, Secrecy secrecy, Secret& out, Output& output) {
  switch (source.kind) {
    case ByteSource::Kind::none: return true;
    case ByteSource::Kind::text:
      out.append(reinterpret_cast<const std::uint8_t*>(source.value.data()), source.value.size());
      return true;
    case ByteSource::Kind::hex:
      if (decode_hex_secret(source.value, out)) return true;
      output.usage_error(std::string(what) + ": not hex (pairs of digits 0-9, a-f)");
      return false;
    case ByteSource::Kind::file:
      if (const int err = read_secret_file(source.value, out); err != 0) {
        output.error(source.value + ": " + secret_file_error(err, secrecy == Secrecy::secret ? "" : what));
        return false;
      }
      return true;
  }
  return false;
}

std::optional<std::uint64_t> parse_count(std::string_view text, std::uint64_t minimum, std::uint64_t maximum) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < minimum || value > maximum) return std::nullopt;
  return value;
}

// Spelled here rather than with shasta::to_hex: the line is secret (a derived key), so it is built
// in one buffer reserved up front, and the one wipe reaches every byte of it. hex_digit computes
// each digit: no table indexed by the key's nibbles.
int print_hex_result(std::span<const std::uint8_t> bytes, Output& output) {
  std::string line;
  line.reserve(2 * bytes.size() + 1);
  for (std::uint8_t b : bytes) {
    line += detail::hex_digit(b >> 4);
    line += detail::hex_digit(b & 15);
  }
  line += '\n';
  output.out(line);
  detail::secure_wipe(line.data(), line.size());
  return output.report_write_error() ? EXIT_FAILURE : EXIT_SUCCESS;
}

}  // namespace shasta::cli
