// file_reader.hpp: feeds a file (or standard input, named "-") to a digester, reading large blocks
// into a reused aligned buffer. Never holds a whole file in memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "digester.hpp"

namespace shasta::cli {

enum class ReadAhead { off, on };

// Digests the named file; "-" is standard input. Returns 0, or the errno of the failed open or read
// (a directory opens and then fails to read with EISDIR, as it does for GNU). `bytes_done`, when
// given, grows as bytes are hashed (for a progress display). ReadAhead::on puts a reader thread
// ahead of the hashing for a regular file of kReadAheadMinimum bytes or more (read_ahead.hpp): for
// a run with a core to spare.
int digest_file(const std::string& name, Digester& digester, std::atomic<std::uint64_t>* bytes_done = nullptr,
                ReadAhead read_ahead = ReadAhead::off);

// Digests what is left of an open descriptor.
int digest_descriptor(int fd, Digester& digester, std::atomic<std::uint64_t>* bytes_done = nullptr);

// Reads `fd` into `buffer` until it is full or the file ends. Returns the bytes read, or -errno.
long long read_fully(int fd, std::uint8_t* buffer, std::size_t capacity);

}  // namespace shasta::cli
