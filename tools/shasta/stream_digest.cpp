// stream_digest.cpp: see stream_digest.hpp.
#include "stream_digest.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>

#include "aligned_buffer.hpp"
#include "file_reader.hpp"
#include "input_files.hpp"
#include "shasta/hex.hpp"

namespace shasta::cli {
namespace {

// Digester::kMaxManyMessages chunk buffers, per thread, in huge pages (batch_digest.cpp says why;
// streams are several files of 128 KiB or more); null when out of memory.
std::uint8_t* chunk_buffers() {
  thread_local const HugeBuffer buffers(Digester::kMaxManyMessages * kStreamChunk);
  return buffers.data();
}

// One lane: the file it reads now.
struct Lane {
  std::size_t file = 0;  // index into names / results
  int fd = -1;
  std::unique_ptr<Digester> digester;
};

}  // namespace

void digest_streams(std::span<const std::string> names, const Digester& prototype, std::span<FileDigest> results,
                    std::atomic<std::uint64_t>* bytes_done) {
  const std::size_t width = std::clamp<std::size_t>(prototype.lanes(), 1, Digester::kMaxManyMessages);
  std::uint8_t* const buffers = chunk_buffers();
  if (buffers == nullptr) {  // no memory for the lanes' chunks: one by one
    for (std::size_t i = 0; i < names.size(); ++i) results[i] = digest_alone(names[i], prototype, bytes_done);
    return;
  }
  std::array<Lane, Digester::kMaxManyMessages> lanes;
  std::size_t busy = 0;
  std::size_t next = 0;
  // Opens the next file that opens into lanes[busy]; a file that fails to open is reported. False
  // when no file is left, or descriptors ran short while lanes hold some: the file waits for a
  // lane of ours to finish (input_files.hpp), and the lanes run on as they are.
  const auto fill_lane = [&] {
    while (next < names.size()) {
      const std::size_t file = next++;
      const int fd = open_input(names[file], busy == 0 ? WhenShort::wait : WhenShort::give_up);
      if (fd < 0 && busy != 0 && out_of_descriptors(-fd)) {
        --next;
        return false;
      }
      if (fd < 0) {
        results[file].error = -fd;
        continue;
      }
      (void)::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
      lanes[busy] = {file, fd, prototype.fresh()};
      ++busy;
      return true;
    }
    return false;
  };
  while (busy < width && fill_lane()) {
  }

  std::array<Digester*, Digester::kMaxManyMessages> digesters;
  std::array<std::span<const std::uint8_t>, Digester::kMaxManyMessages> chunks;
  std::array<bool, Digester::kMaxManyMessages> ended;
  while (busy != 0) {
    for (std::size_t l = 0; l < busy; ++l) {
      std::uint8_t* buffer = buffers + l * kStreamChunk;
      const long long got = read_fully(lanes[l].fd, buffer, kStreamChunk);
      if (got < 0) results[lanes[l].file].error = static_cast<int>(-got);
      const std::size_t size = got < 0 ? 0 : static_cast<std::size_t>(got);
      digesters[l] = lanes[l].digester.get();
      chunks[l] = {buffer, size};
      ended[l] = size < kStreamChunk;
      if (bytes_done != nullptr) bytes_done->fetch_add(size, std::memory_order_relaxed);
    }
    const std::span<Digester* const> running(digesters.data(), busy);
    const std::span<const std::span<const std::uint8_t>> read(chunks.data(), busy);
    if (!prototype.update_many(running, read)) {
      for (std::size_t l = 0; l < busy; ++l) digesters[l]->update(chunks[l].data(), chunks[l].size());
    }
    // Finished lanes give their place to the next files; the last lane moves into a freed place.
    for (std::size_t l = busy; l-- > 0;) {
      if (!ended[l]) continue;
      Lane& lane = lanes[l];
      FileDigest& result = results[lane.file];
      if (result.error == 0) {
        std::uint8_t digest[64];
        lane.digester->finish(digest);
        result.hex = to_hex({digest, lane.digester->digest_size()});
      }
      close_input(lane.fd);
      if (l + 1 != busy) lane = std::move(lanes[busy - 1]);
      lanes[--busy] = Lane{};
    }
    while (busy < width && fill_lane()) {
    }
  }
}

}  // namespace shasta::cli
