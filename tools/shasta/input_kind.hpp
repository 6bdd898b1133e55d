// input_kind.hpp: what an operand names, from one stat: a regular file and its size, or a stream,
// whose bytes are gone once read (a FIFO, a character device, a socket; standard input, "-",
// always). The scheduler reads a stream in its turn, as GNU's one thread reads it; the keyed
// commands refuse a key read from the stream that a FILE or a check line would read again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace shasta::cli {

struct StreamId {
  unsigned long long device, inode;
  bool operator==(const StreamId&) const = default;
};

struct InputKind {
  bool standard_input = false;                // named "-"
  std::optional<std::uint64_t> regular_size;  // a regular file's size (standard input's too)
  // A FIFO's, character device's or socket's device and inode. None for "-" on a regular file:
  // another name for that file (/dev/stdin) opens it anew, from its start.
  std::optional<StreamId> stream_id;

  // Read in its turn: a FIFO, character device, socket, or "-".
  bool stream() const { return standard_input || stream_id.has_value(); }
};

// Never fails: a name that cannot be examined (missing, standard input closed) is neither a
// regular file nor, unless it is "-", a stream.
InputKind input_kind(const std::string& name);

// True when reading `a` consumes what reading `b` would read, so they cannot both be inputs: both
// standard input ("-"), or one pipe, terminal or socket under two names ("-" and /dev/stdin).
bool same_stream(const InputKind& a, const InputKind& b);
bool same_input_stream(const std::string& a, const std::string& b);

// The size of a regular file; nullopt when it is not one or cannot be examined.
std::optional<std::uint64_t> regular_file_size(const std::string& name);

}  // namespace shasta::cli
