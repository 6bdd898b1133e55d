// aligned_buffer.hpp: page-aligned read buffers, and huge-page ones (common/huge_pages.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "huge_pages.hpp"

namespace shasta::cli {

struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};

using AlignedBuffer = std::unique_ptr<std::uint8_t, FreeDeleter>;

// `size` bytes aligned to 4096 (a multiple of 4096); null when out of memory.
inline AlignedBuffer allocate_aligned(std::size_t size) {
  return AlignedBuffer(static_cast<std::uint8_t*>(std::aligned_alloc(4096, size)));
}

using common::HugeBuffer;  // read buffers that are filled as soon as they are mapped

}  // namespace shasta::cli
