// lane_table.hpp: each family's lane (many-message) kernels, with the name of the single-stream
// kernel each goes with and what it needs of the CPU.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "../cpu/cpu_features.hpp"
#include "shasta/detail/lanes.hpp"

namespace shasta::detail {

template <class Fn>
struct LaneEntry {
  std::string_view name;
  bool (*supported)(const CpuFeatures&) noexcept;
  std::size_t lanes;
  Fn fn;
  Fn tail_fn;  // for runs of padding blocks; nullptr: fn (see LaneKernel)
};

// Only the lane kernels this build compiled; possibly none.
std::span<const LaneEntry<CompressLanes256>> sha256_lane_table() noexcept;
std::span<const LaneEntry<CompressLanes512>> sha512_lane_table() noexcept;

}  // namespace shasta::detail
