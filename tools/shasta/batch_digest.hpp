// batch_digest.hpp: digests a few small files at once. Each is read whole into a buffer of its own
// and the lot are hashed side by side on the kernel's lanes (as many as shasta::lane_count says, e.g.
// SHA-NI runs 4 SHA-256 streams, AVX2 5 SHA-512 streams), which beats hashing them one after
// another; a file that turns out larger than its buffer is streamed as usual.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "digester.hpp"
#include "file_reader.hpp"

namespace shasta::cli {

struct FileDigest {
  int error = 0;  // errno of a failed open or read
  std::string hex;
};

// Digests one file (or standard input) on its own, through digest_file's one buffer: any file the
// side-by-side paths have no memory for (a small RLIMIT_AS) still gets its digest.
FileDigest digest_alone(const std::string& name, const Digester& prototype, std::atomic<std::uint64_t>* bytes_done,
                        ReadAhead read_ahead = ReadAhead::off);

// Files below this size (by stat, before reading) are batched. Measured with SHA-NI: 5,000 files of
// 1-8 KiB take 71 ms with -j1 batched vs 81 ms one by one (-j2: 51 vs 68 ms); with a 1 MiB limit,
// 2,000 files of 4 KiB-1 MiB gained 5% at -j1 but lost 15% at -j2 (8 MiB of buffers per thread
// leave the caches), so larger files stream.
inline constexpr std::uint64_t kBatchFileLimit = std::uint64_t{128} << 10;
// Files per batch: two per lane, so lanes stay busy while sizes differ (8 for SHA-NI's 4 lanes, 32
// for AVX-512's 16: a group smaller than the lane count would never reach the lanes at all).
inline constexpr std::size_t kBatchFiles = 32;  // the most
static_assert(kBatchFiles <= Digester::kMaxManyMessages);
constexpr std::size_t files_per_group(std::size_t lanes) noexcept {
  return std::clamp<std::size_t>(2 * lanes, 8, kBatchFiles);
}

// Digests names[i] into results[i] (at most kBatchFiles names; "-" is not one of them).
// `expected_bytes` (the files' sizes by stat, summed over this batch or more) picks the buffers'
// pages (batch_digest.cpp).
void digest_batch(std::span<const std::string> names, const Digester& prototype, std::span<FileDigest> results,
                  std::atomic<std::uint64_t>* bytes_done, std::uint64_t expected_bytes);

}  // namespace shasta::cli
