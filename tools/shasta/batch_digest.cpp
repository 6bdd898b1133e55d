// batch_digest.cpp: see batch_digest.hpp.
#include "batch_digest.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "aligned_buffer.hpp"
#include "file_reader.hpp"
#include "input_files.hpp"
#include "shasta/hex.hpp"

namespace shasta::cli {
namespace {

// Buffers for kBatchFiles files of up to kBatchFileLimit bytes, per thread, at kBatchFileLimit
// apart; null when out of memory. A batch that reads 1 MiB or more reads into huge pages, where the
// first touch of a 2 MiB page costs less than its 4 KiB pages' faults would: where the hypervisor
// shadows page tables (a PVM guest, Zen 5) a 4 KiB page's first write costs about 10 us, and 600
// files of 4 KiB-1 MiB (-j1) took 1,216 faults and 67.6-70.4 ms, against 100 and 49.2-50.3. A few small
// files read into 4 KiB pages: a huge page's first touch in a fresh process cost 0.3-0.7 ms there
// (zeroing 2 MiB, and more), which made `shasta sum` of 2-8 files of 3 KB 10-30% slower.
constexpr std::uint64_t kHugePagesFrom = std::uint64_t{1} << 20;

std::uint8_t* batch_buffers(std::uint64_t expected_bytes) {
  thread_local bool huge = false;  // once a thread has them, it keeps to them
  huge = huge || expected_bytes >= kHugePagesFrom;
  if (!huge) {
    thread_local const AlignedBuffer small_pages = allocate_aligned(kBatchFiles * kBatchFileLimit);
    return small_pages.get();
  }
  thread_local const HugeBuffer huge_pages(kBatchFiles * kBatchFileLimit);
  return huge_pages.data();
}

}  // namespace

FileDigest digest_alone(const std::string& name, const Digester& prototype, std::atomic<std::uint64_t>* bytes_done,
                        ReadAhead read_ahead) {
  FileDigest result;
  std::unique_ptr<Digester> digester = prototype.fresh();
  result.error = digest_file(name, *digester, bytes_done, read_ahead);
  if (result.error != 0) return result;
  std::uint8_t digest[64];
  digester->finish(digest);
  result.hex = to_hex({digest, digester->digest_size()});
  return result;
}

void digest_batch(std::span<const std::string> names, const Digester& prototype, std::span<FileDigest> results,
                  std::atomic<std::uint64_t>* bytes_done, std::uint64_t expected_bytes) {
  std::uint8_t* const buffers = batch_buffers(expected_bytes);
  if (buffers == nullptr) {  // no memory for the batch: one by one
    for (std::size_t i = 0; i < names.size(); ++i) results[i] = digest_alone(names[i], prototype, bytes_done);
    return;
  }
  std::array<std::span<const std::uint8_t>, kBatchFiles> whole;  // files read to their end
  std::array<std::size_t, kBatchFiles> whole_index{};
  std::size_t whole_count = 0;
  std::uint8_t digest[64];
  const std::size_t size = prototype.digest_size();

  for (std::size_t i = 0; i < names.size(); ++i) {
    const int fd = open_input(names[i], WhenShort::wait);  // one at a time: nothing of ours is open
    if (fd < 0) {
      results[i].error = -fd;
      continue;
    }
    std::uint8_t* buffer = buffers + i * kBatchFileLimit;
    const long long got = read_fully(fd, buffer, kBatchFileLimit);
    if (got < 0) {
      results[i].error = static_cast<int>(-got);
    } else if (static_cast<std::uint64_t>(got) < kBatchFileLimit) {
      whole[whole_count] = {buffer, static_cast<std::size_t>(got)};
      whole_index[whole_count++] = i;
      if (bytes_done != nullptr) bytes_done->fetch_add(static_cast<std::uint64_t>(got), std::memory_order_relaxed);
    } else {  // grew since it was measured: stream the rest
      std::unique_ptr<Digester> digester = prototype.fresh();
      digester->update(buffer, kBatchFileLimit);
      results[i].error = digest_descriptor(fd, *digester, bytes_done);
      if (results[i].error == 0) {
        digester->finish(digest);
        results[i].hex = to_hex({digest, size});
      }
    }
    close_input(fd);
  }

  std::uint8_t digests[kBatchFiles * 64];
  const std::span<const std::span<const std::uint8_t>> messages(whole.data(), whole_count);
  if (!prototype.digest_many(messages, digests)) {
    std::unique_ptr<Digester> digester = prototype.fresh();
    for (std::size_t k = 0; k < whole_count; ++k) {
      digester->update(whole[k].data(), whole[k].size());
      digester->finish(digests + k * size);
    }
  }
  for (std::size_t k = 0; k < whole_count; ++k) results[whole_index[k]].hex = to_hex({digests + k * size, size});
}

}  // namespace shasta::cli
