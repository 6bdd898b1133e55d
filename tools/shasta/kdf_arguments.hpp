// kdf_arguments.hpp: what `shasta hkdf` and `shasta pbkdf2` share: byte strings given as hex, text
// or a file, lengths and counts, and printing the derived bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "output.hpp"
#include "secret.hpp"

namespace shasta::cli {

// A byte-string argument: where it comes from. Secrets never need argv: a file ("-": stdin) works.
struct ByteSource {
  enum class Kind { none, hex, text, file } kind = Kind::none;
  std::string value;  // wiped with the source: it may be a secret's hex
  ~ByteSource() { wipe_string(value); }
};

// Whether a ByteSource holds a secret: its errors say so (a terminal would show it as typed).
enum class Secrecy { secret, public_value };

// Fills `out`; on failure reports "NAME: why" and returns false. `what` names the value ("salt").
bool load_bytes(const ByteSource& source, std::string_view what, Secrecy secrecy, Secret& out, Output& output);

// A decimal count in [minimum, maximum]; nullopt if `text` is not one.
std::optional<std::uint64_t> parse_count(std::string_view text, std::uint64_t minimum, std::uint64_t maximum);

// The bytes in lower-case hex and a newline, to stdout; then the exit status (1 on a write error).
int print_hex_result(std::span<const std::uint8_t> bytes, Output& output);

}  // namespace shasta::cli
