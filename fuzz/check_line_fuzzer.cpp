// check_line_fuzzer.cpp: any bytes as a check file. Each line goes through the --check grammar as
// sha256sum -c does; nothing may crash, and every line accepted must describe a real line: the hex
// is 64 hex digits, the name holds no NUL, and the line sha*sum would write for that hex and name
// (tagged, and untagged when the name is not empty) reads back as the same pair.
#include <cstddef>
#include <cstdint>
#include <cctype>
#include <cstdlib>
#include <string>
#include <string_view>

#include "check_line.hpp"
#include "sum_format.hpp"

namespace {

using shasta::cli::CheckLineParser;
using shasta::cli::ChecksumLine;

void require(bool condition) {
  if (!condition) std::abort();
}

void check_round_trip(const ChecksumLine& parsed, bool tagged) {
  const shasta::cli::LineStyle style{"SHA256", tagged, false, '\n'};
  std::string line = shasta::cli::format_sum_line(parsed.hex, parsed.name, style);
  line.pop_back();
  CheckLineParser fresh("SHA256", 64);
  const auto again = fresh.parse(line);
  require(again.has_value());
  require(again->hex == parsed.hex && again->name == parsed.name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view file(reinterpret_cast<const char*>(data), size);
  // One parser for the file (the format lock carries over), with `shasta sum`'s other tags: one
  // begins another, as OpenSSL's "SHA2-512" begins "SHA2-512/256".
  CheckLineParser parser("SHA256", 64, {"SHA2-256", "SHA2-256/x"});
  while (!file.empty()) {
    const std::size_t end = file.find('\n');
    std::string_view line = file.substr(0, end);
    file.remove_prefix(end == std::string_view::npos ? file.size() : end + 1);
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto parsed = parser.parse(line);
    if (!parsed) continue;
    require(parsed->hex.size() == 64);
    for (char c : parsed->hex) require(std::isxdigit(static_cast<unsigned char>(c)) != 0);
    require(parsed->name.find('\0') == std::string::npos);
    check_round_trip(*parsed, true);
    if (!parsed->name.empty()) check_round_trip(*parsed, false);
  }
  return 0;
}
