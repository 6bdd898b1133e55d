// hex_fuzzer.cpp: from_hex never reads past its input, accepts exactly the even-length strings of
// hex digits, and round-trips through to_hex (lowercased).
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "shasta/hex.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto bytes = shasta::from_hex(text);
  bool valid = size % 2 == 0;
  for (char c : text) valid = valid && std::isxdigit(static_cast<unsigned char>(c)) != 0;
  if (bytes.has_value() != valid) std::abort();
  if (!bytes) return 0;
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (shasta::to_hex(*bytes) != lower) std::abort();
  return 0;
}
