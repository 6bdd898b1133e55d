// huge_pages.hpp: memory mapped in 2 MiB transparent huge pages, for buffers that are written in
// full soon after they are mapped. Shared by the CLI and the Python extension; not part of the
// library, not installed. Linux marks the pages with MADV_HUGEPAGE; elsewhere, or where the kernel
// has no transparent huge pages, they are ordinary 4 KiB pages.
//
// Why: where the hypervisor shadows the guest's page tables (a PVM guest, EPYC Zen 5, Linux 6.18)
// the first write to each new 4 KiB page costs 4-10 us, and a huge page is one entry: mapping,
// populating and writing fresh memory cost 0.11 us a 4 KiB page in huge pages. On bare metal one
// huge page in place of 512 faults costs less too, but its first touch zeroes 2 MiB at once, so a
// buffer that is mostly left unwritten is better in 4 KiB pages.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace shasta::common {

inline constexpr std::size_t kHugePage = std::size_t{2} << 20;

// map_huge_pages maps `size` bytes (a multiple of kHugePage) aligned to kHugePage and marked for
// huge pages; null if mmap fails. Unmap with munmap, whole or in parts.
inline void* map_huge_pages(std::size_t size) {
  void* raw = ::mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  const std::uintptr_t end = start + size + kHugePage;
  if (aligned + size < end) ::munmap(reinterpret_cast<void*>(aligned + size), end - (aligned + size));
#ifdef MADV_HUGEPAGE
  (void)::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);  // refused without THP: 4 KiB pages
#endif
  return reinterpret_cast<void*>(aligned);
}

// HugeBuffer: at least `size` bytes in huge pages, unmapped when it goes; data() is null when out
// of memory.
class HugeBuffer {
 public:
  explicit HugeBuffer(std::size_t size)
      : size_((size + kHugePage - 1) & ~(kHugePage - 1)), data_(static_cast<std::uint8_t*>(map_huge_pages(size_))) {}
  ~HugeBuffer() {
    if (data_ != nullptr) ::munmap(data_, size_);
  }
  HugeBuffer(const HugeBuffer&) = delete;
  HugeBuffer& operator=(const HugeBuffer&) = delete;
  std::uint8_t* data() const { return data_; }

 private:
  std::size_t size_;
  std::uint8_t* data_;
};

}  // namespace shasta::common
