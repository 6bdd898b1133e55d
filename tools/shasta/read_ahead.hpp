// read_ahead.hpp: one big file with a core to spare: a second thread reads the next chunks while
// this one hashes, so the copy out of the page cache overlaps the hashing instead of adding to it.
// Measured, a page-cached 1 GiB file, best of 6: SHA-256 (SHA-NI) 709 -> 678 ms, against 640 ms for
// hashing the same bytes already in memory; SHA-512 (AVX2) 1123 -> 1107 ms.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "digester.hpp"

namespace shasta::cli {

// Files at least this large are worth a reader thread.
inline constexpr std::uint64_t kReadAheadMinimum = std::uint64_t{16} << 20;

// read_ahead's answer when it could not have its buffer or its thread: nothing was read.
inline constexpr int kReadAheadUnavailable = -1;

// Reads what is left of `fd`, up to `limit` bytes, on a second thread in 1 MiB chunks, and hands
// each chunk to `consume` on this one, in order. Returns 0, the errno of a failed read (after the
// chunks read before it were consumed), or kReadAheadUnavailable.
int read_ahead(int fd, std::uint64_t limit, const std::function<void(const std::uint8_t*, std::size_t)>& consume);

// Like digest_descriptor (file_reader.hpp): digests what is left of `fd`; 0 or errno.
int digest_descriptor_read_ahead(int fd, Digester& digester, std::atomic<std::uint64_t>* bytes_done);

}  // namespace shasta::cli
