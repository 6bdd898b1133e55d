// guarded_memory.hpp: writable memory that ends just before an inaccessible page, so that a read
// past its end faults in any build, not only under ASan.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

namespace shasta::test {

class GuardedMemory {
 public:
  // Room for at least `bytes` before the guard page.
  explicit GuardedMemory(std::size_t bytes) {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (bytes + page - 1) / page * page + page;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap");
    base_ = static_cast<std::uint8_t*>(p);
    end_ = base_ + size_ - page;
    if (mprotect(end_, page, PROT_NONE) != 0) throw std::runtime_error("mprotect");
  }
  GuardedMemory(const GuardedMemory&) = delete;
  GuardedMemory& operator=(const GuardedMemory&) = delete;
  ~GuardedMemory() { munmap(base_, size_); }
  // The first byte of the guard page: n bytes placed at end() - n are the last readable ones.
  std::uint8_t* end() const { return end_; }

 private:
  std::uint8_t* base_ = nullptr;
  std::uint8_t* end_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace shasta::test
