// read_ahead.cpp: see read_ahead.hpp. A ring of four 1 MiB chunks between the reader thread and
// this one; each side waits only when the ring is full (reader) or empty (hasher). The chunks are
// two huge pages, kept by the hashing thread for its next file: where the hypervisor shadows page
// tables (a PVM guest, Zen 5) their 1,024 4 KiB pages' first writes cost 10 ms, and a 20 MiB file
// took 28-29 ms with the reader thread against 18.6-18.8 without it.
#include "read_ahead.hpp"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <system_error>
#include <thread>

#include "aligned_buffer.hpp"
#include "file_reader.hpp"

namespace shasta::cli {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr std::size_t kSlots = 4;

struct Chunk {
  std::uint8_t* data = nullptr;  // kChunk bytes
  std::size_t size = 0;
  int error = 0;
  bool last = false;  // end of file or an error: the reader stops after this chunk
};

class Ring {
 public:
  explicit Ring(std::uint8_t* buffer) {
    for (std::size_t i = 0; i < kSlots; ++i) chunks_[i].data = buffer + i * kChunk;
  }

  // Reader side: the slot to fill next, once the hasher has finished with it.
  Chunk& slot_to_fill() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return filled_ - emptied_ < kSlots; });
    return chunks_[filled_ % kSlots];
  }
  void filled() {
    {
      std::lock_guard lock(mutex_);
      ++filled_;
    }
    changed_.notify_one();
  }
  // Hasher side.
  Chunk& slot_to_hash() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return filled_ > emptied_; });
    return chunks_[emptied_ % kSlots];
  }
  void emptied() {
    {
      std::lock_guard lock(mutex_);
      ++emptied_;
    }
    changed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;  // one waiter at a time: the ring is either full or empty
  std::array<Chunk, kSlots> chunks_;
  std::uint64_t filled_ = 0;
  std::uint64_t emptied_ = 0;
};

// Reads up to `limit` bytes (at most one chunk) into the chunk; `last` at the end of the file, on an
// error, or when the limit is reached.
void fill(int fd, Chunk& chunk, std::uint64_t limit) {
  chunk.size = 0;
  chunk.error = 0;
  chunk.last = false;
  const std::size_t want = limit < kChunk ? static_cast<std::size_t>(limit) : kChunk;
  while (chunk.size < want) {
    const ssize_t n = ::read(fd, chunk.data + chunk.size, want - chunk.size);
    if (n == 0) {
      chunk.last = true;
      return;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      chunk.error = errno;
      chunk.last = true;
      return;
    }
    chunk.size += static_cast<std::size_t>(n);
  }
  if (want == limit) chunk.last = true;
}

}  // namespace

int read_ahead(int fd, std::uint64_t limit, const std::function<void(const std::uint8_t*, std::size_t)>& consume) {
  thread_local const HugeBuffer buffer(kSlots * kChunk);
  if (buffer.data() == nullptr) return kReadAheadUnavailable;
  Ring ring(buffer.data());
  std::thread reader;
  try {
    reader = std::thread([&ring, fd, limit] {
      for (std::uint64_t left = limit;;) {
        Chunk& chunk = ring.slot_to_fill();
        fill(fd, chunk, left);
        left -= chunk.size;
        const bool last = chunk.last;
        ring.filled();
        if (last) return;
      }
    });
  } catch (const std::system_error&) {
    return kReadAheadUnavailable;  // nothing read yet
  }
  int error = 0;
  for (;;) {
    Chunk& chunk = ring.slot_to_hash();
    if (chunk.size != 0) consume(chunk.data, chunk.size);
    const bool last = chunk.last;
    error = chunk.error;
    ring.emptied();
    if (last) break;
  }
  reader.join();
  return error;
}

int digest_descriptor_read_ahead(int fd, Digester& digester, std::atomic<std::uint64_t>* bytes_done) {
  const int err =
      read_ahead(fd, std::numeric_limits<std::uint64_t>::max(), [&](const std::uint8_t* data, std::size_t size) {
        digester.update(data, size);
        if (bytes_done != nullptr) bytes_done->fetch_add(size, std::memory_order_relaxed);
      });
  // Without its buffer or thread, read here as any file is.
  return err == kReadAheadUnavailable ? digest_descriptor(fd, digester, bytes_done) : err;
}

}  // namespace shasta::cli
