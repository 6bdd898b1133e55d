// fsverity_file.hpp: the fs-verity digest of one file, read as fsverity-utils reads it: the data
// size is the size fstat gives when the file is opened, and exactly that many bytes are read (a
// pipe counts as empty; a file that shrinks is "unexpected end-of-file").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "shasta/fsverity.hpp"

namespace shasta::cli {

// Bytes read at a time: a multiple of every block size up to 1 MiB, so pieces stay block-aligned.
inline constexpr std::size_t kFsverityReadSize = std::size_t{1} << 20;

// Digests the file `name` with `builder` into `digest`, reading through `buffer`
// (kFsverityReadSize bytes). Returns "" or fsverity's messages, lines joined by "\nERROR: ":
// `parameter_error`, when given, once the file is open and examined (libfsverity's order).
std::string fsverity_digest_file(const char* name, FsverityBuilder& builder, std::uint8_t* buffer,
                                 std::span<std::uint8_t> digest, const std::optional<std::string>& parameter_error);

}  // namespace shasta::cli
