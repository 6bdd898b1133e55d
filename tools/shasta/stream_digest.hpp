// stream_digest.hpp: digests several large files side by side. Each is read a chunk at a time into
// a buffer of its own and the chunks of all of them are hashed together on the kernel's lanes
// (Digester::update_many); a file that ends hands its lane to the next file of the list.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "batch_digest.hpp"
#include "digester.hpp"

namespace shasta::cli {

// Files per group (the most; files_per_group(lanes) in batch_digest.hpp says how many): two per
// lane, so that lanes freed early find work.
inline constexpr std::size_t kStreamFiles = kBatchFiles;
// Bytes read from each file at a time: a multiple of both block sizes; four lanes' buffers
// (256 KiB) stay in this Zen 3's 512 KiB L2 cache.
inline constexpr std::size_t kStreamChunk = std::size_t{64} << 10;

// Digests names[i] into results[i] (at most kStreamFiles names; "-" is not one of them).
// `prototype.lanes()` files are read at once.
void digest_streams(std::span<const std::string> names, const Digester& prototype, std::span<FileDigest> results,
                    std::atomic<std::uint64_t>* bytes_done);

}  // namespace shasta::cli
