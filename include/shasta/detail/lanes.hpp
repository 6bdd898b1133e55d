// lanes.hpp: the many-message (lane) kernel that goes with each family's active kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace shasta::detail {

// A lane kernel absorbs `n` whole blocks into each of its `lanes` independent streams (stream l:
// state states[l], blocks from blocks[l]); the same signature as src/kernels/kernel_abi.hpp.
using CompressLanes256 = void (*)(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                                  std::size_t n) noexcept;
using CompressLanes512 = void (*)(std::uint64_t* const states[], const std::uint8_t* const blocks[],
                                  std::size_t n) noexcept;

template <class Fn>
struct LaneKernel {
  std::string_view name;  // the single-stream kernel it belongs to, e.g. "shani"
  std::size_t lanes;      // 0 with a null fn: none, use the single-stream kernel
  Fn fn;
};

// The lane kernel of the family's active kernel (same name, so SHASTA_KERNEL and force_kernel
// choose both), or {name, 0, nullptr} when that kernel has none.
LaneKernel<CompressLanes256> active_lanes_256() noexcept;
LaneKernel<CompressLanes512> active_lanes_512() noexcept;

}  // namespace shasta::detail
