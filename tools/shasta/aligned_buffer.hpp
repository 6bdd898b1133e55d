// aligned_buffer.hpp: page-aligned read buffers, mapped where they are large.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

namespace shasta::cli {

struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};

using AlignedBuffer = std::unique_ptr<std::uint8_t, FreeDeleter>;

// `size` bytes aligned to 4096 (a multiple of 4096); null when out of memory.
inline AlignedBuffer allocate_aligned(std::size_t size) {
  return AlignedBuffer(static_cast<std::uint8_t*>(std::aligned_alloc(4096, size)));
}

// A buffer of whole 2 MiB huge pages, unmapped when it goes.
class HugeBuffer {
 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  // At least `size` bytes in 2 MiB-aligned huge pages where the kernel has them (4 KiB pages
  // otherwise); data() is null when out of memory.
  explicit HugeBuffer(std::size_t size) : size_((size + kHugePage - 1) & ~(kHugePage - 1)) {
    void* raw = ::mmap(nullptr, size_ + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return;
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
    if (aligned > start) ::munmap(raw, aligned - start);
    if (aligned < start + kHugePage) ::munmap(reinterpret_cast<void*>(aligned + size_), start + kHugePage - aligned);
    data_ = reinterpret_cast<std::uint8_t*>(aligned);
#ifdef MADV_HUGEPAGE
    (void)::madvise(data_, size_, MADV_HUGEPAGE);
#endif
  }
  ~HugeBuffer() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  HugeBuffer(const HugeBuffer&) = delete;
  HugeBuffer& operator=(const HugeBuffer&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  std::size_t size_;
  std::uint8_t* data_ = nullptr;
};

}  // namespace shasta::cli
