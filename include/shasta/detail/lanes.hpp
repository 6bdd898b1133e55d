// lanes.hpp: the many-message (lane) kernel that goes with each family's active kernel.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compress.hpp"

namespace shasta::detail {

// A lane kernel absorbs `n` whole blocks into each of its `lanes` independent streams (stream l:
// state states[l], blocks from blocks[l]); the same signature as src/kernels/kernel_abi.hpp.
template <class Word>
using CompressLanes = void (*)(Word* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
using CompressLanes256 = CompressLanes<std::uint32_t>;
using CompressLanes512 = CompressLanes<std::uint64_t>;

// A hash kernel takes `lanes` messages of one length from the IV to their final states in one
// call (the hash calls of src/kernels/kernel_abi.hpp): their whole blocks, then their own
// padded tails if tails is not null, then the padding block they share as its W+K if not null;
// each state is written to out[l] as big-endian words, 8 x sizeof(Word) bytes.
template <class Word>
using HashLanes = void (*)(std::uint8_t* const out[], const Word iv[8], const std::uint8_t* const msgs[],
                           std::size_t whole, const std::uint8_t* const tails[], const Word* shared_wk) noexcept;

template <class Word>
struct LaneKernel {
  std::string_view name;  // the kernel it belongs to, e.g. "shani" (with lanes 0: the active kernel)
  std::size_t lanes;      // 0 with a null fn: none, use the single-stream kernel
  std::size_t min_busy;   // the fewest busy lanes for which a call beats single-stream calls
  CompressLanes<Word> fn;
  // tail_fn does what fn does in another block loop; the many-message engine runs the padding
  // blocks of its messages on it. The hardware prefetcher learns the stride of each load
  // instruction: padding blocks read through fn's loads would break the stride it learned on the
  // messages' data (10,000 x 4 KiB out of cache on SHA-NI: 7.5% slower; through another loop, 1.5%).
  CompressLanes<Word> tail_fn;
  HashLanes<Word> hash;  // null where the kernel has none: the engine runs fn and tail_fn instead
  // wide_hash: the hash call over wide_lanes messages (more than `lanes`: two groups side by side,
  // where one group's rounds leave the CPU's pipes idle), for the engine's groups of messages of
  // one length; null and 0 where the kernel or the CPU's ranking has none.
  HashLanes<Word> wide_hash = nullptr;
  std::size_t wide_lanes = 0;
};

// The lane kernel of the family's active selection: the forced kernel's own (SHASTA_KERNEL and
// force_kernel choose both), or the best for this CPU; {name, 0, nullptr} when it has none.
LaneKernel<std::uint32_t> active_lanes_256() noexcept;
LaneKernel<std::uint64_t> active_lanes_512() noexcept;

// compress_pair absorbs one block into each of two independent states: interleaved on the active
// kernel's two-lane kernel where it has one (SHA-NI, ARMv8), so the pair costs about one block's
// latency; else one after the other. HMAC uses it for a key's ipad and opad blocks.
void compress_pair(std::uint32_t* state_a, const std::uint8_t* block_a, std::uint32_t* state_b,
                   const std::uint8_t* block_b) noexcept;
void compress_pair(std::uint64_t* state_a, const std::uint8_t* block_a, std::uint64_t* state_b,
                   const std::uint8_t* block_b) noexcept;

// wipe_nearest_stack_below zeroes the `n` bytes of stack nearest below its caller (n at most
// kStackBurn), where the kernels just called had their frames.
void wipe_nearest_stack_below(std::size_t n) noexcept;

// wipe_kernel_stack_below zeroes the stack below its caller as deep as the family's kernels may
// have left a block's schedule there (the deepest stack_burn of its selections, compress.hpp):
// HMAC calls it once a secret block (a pad, an inner digest, HKDF's T) has been compressed. Read
// inline and sized per kernel because it sits on every MAC's path and the fast rows leave little
// or nothing.
template <class Word>
inline void wipe_kernel_stack_below(const Word* tag) noexcept {
  const std::size_t burn = deepest_stack_burn(tag).load(std::memory_order_acquire);
  if (burn != 0) wipe_nearest_stack_below(burn);
}

}  // namespace shasta::detail
