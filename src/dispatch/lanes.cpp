// lanes.cpp: the lane kernel that goes with each family's active kernel, found by its name, so
// SHASTA_KERNEL and force_kernel choose it along with the single-stream kernel.
#include "lane_table.hpp"
#include "shasta/kernels.hpp"

namespace shasta::detail {
namespace {

template <class Fn>
LaneKernel<Fn> lookup(std::span<const LaneEntry<Fn>> table, Family family) noexcept {
  const std::string_view name = active_kernel(family);
  for (const auto& entry : table) {
    if (entry.name == name && entry.supported(cpu_features_detected())) {
      return {name, entry.lanes, entry.fn, entry.tail_fn != nullptr ? entry.tail_fn : entry.fn};
    }
  }
  return {name, 0, nullptr, nullptr};
}

}  // namespace

LaneKernel<CompressLanes256> active_lanes_256() noexcept {
  return lookup(sha256_lane_table(), Family::sha224_256);
}
LaneKernel<CompressLanes512> active_lanes_512() noexcept {
  return lookup(sha512_lane_table(), Family::sha384_512);
}

}  // namespace shasta::detail
