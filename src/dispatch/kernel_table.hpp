// kernel_table.hpp: one descriptor (row) per kernel, in one table per family, best first. Every
// fact about a kernel is in its row: its name, the CPU features it needs (data, printed by `shasta
// info`), its single-stream compression, its lane kernel, its two-lane pair kernel, PBKDF2 loop, HMAC
// finish and compression to the digest.
// Dispatch, HMAC, the many-message engine, PBKDF2, the C API, `shasta info`, the tests and the
// benchmarks read these rows; nothing looks a kernel up by name or by function pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "../cpu/cpu_features.hpp"
#include "shasta/detail/compress.hpp"
#include "shasta/detail/lanes.hpp"

namespace shasta::detail {

template <class Word>
using LanesFn = CompressLanes<Word>;  // detail/lanes.hpp

// A PBKDF2 loop runs `count` more iterations from U (the state words of the last U) under a key's
// inner and outer states, XORing each U into `sum`; U and sum are written back.
template <class Word>
using Pbkdf2LoopFn = void (*)(const Word inner[8], const Word outer[8], Word u[8], Word sum[8],
                              std::uint64_t count) noexcept;

// LaneRow: a many-message kernel. `tail_fn` runs the padding blocks in a second block loop (never
// null: `fn` itself where the kernel has only one; LaneKernel in detail/lanes.hpp says why).
// `min_busy`: the fewest busy lanes for which one call beats single-stream calls (its cost in
// single-stream blocks, measured, rounded up; PBKDF2's output blocks and update_many's groups).
// `hash` (may be null) takes messages of one length from the IV to the end in one call;
// `wide_hash` (may be null) does the same over `wide_lanes` messages (LaneKernel says when).
template <class Word>
struct LaneRow {
  std::string_view kernel;  // the name of the row it belongs to
  FeatureSet needs;
  std::size_t lanes;
  std::size_t min_busy;
  LanesFn<Word> fn;
  LanesFn<Word> tail_fn;
  HashLanes<Word> hash = nullptr;
  HashLanes<Word> wide_hash = nullptr;
  std::size_t wide_lanes = 0;
};

template <class Word>
struct KernelRow {
  std::string_view name;  // the same everywhere: SHASTA_KERNEL, force_kernel, test and bench labels
  FeatureSet needs;
  CompressFn<Word> compress;
  const LaneRow<Word>* lanes;  // nullptr: none (the many-message engine hashes one by one)
  LanesFn<Word> pair;          // two lanes a block each (HMAC's pads); nullptr: two compress calls
  Pbkdf2LoopFn<Word> pbkdf2;   // nullptr: PBKDF2 iterates on `compress`
  HmacFinishFn<Word> hmac_finish;  // compress.hpp; nullptr: `compress`, then the outer block in hmac.hpp
  // `compress`, then the state's words written back big-endian (a digest's bytes: the kernel's
  // own shuffle, stores a next hash can read at once); nullptr: the caller writes the digest.
  CompressFn<Word> compress_to_digest;
  // How far below its caller a `compress`, `pair`, `hmac_finish` or `compress_to_digest` call may
  // leave the block's W+K (or a spill of it), which gives back a secret block (HMAC's pads, an
  // inner digest): the bytes wipe_kernel_stack_below clears
  // after a secret one. 0: the kernel wipes its own frame (portable). Measured by tests/wipe_test.cpp
  // on GCC 12 and Clang 14, then given room.
  std::size_t stack_burn;
};

// LaneRanking: which lane kernel the best choice takes on one vendor's CPUs from a family on, best
// first (a kernel whose features are missing is passed over); the first ranking that applies wins.
// On other CPUs, and where no ranked kernel is present, the best row's own lane kernel is taken.
// `why` is the measurement behind it.
template <class Word>
struct LaneRanking {
  CpuVendor vendor;
  unsigned min_cpu_family;  // 0: every family of the vendor (CpuFeatures::family)
  std::span<const LaneRow<Word>* const> order;
  std::string_view why;
};

template <class Word>
struct FamilyTable {
  std::string_view family_variable;  // "SHASTA_KERNEL_SHA256": this family's own environment variable
  std::span<const KernelRow<Word>> rows;  // only what this build compiled; the last row is portable
  std::span<const LaneRanking<Word>> lane_rankings;
  std::span<const Selection<Word>> own;  // own[i]: rows[i] with its own lane kernel (a forced choice)
};

// The tables of this build (kernel_table.cpp).
const FamilyTable<std::uint32_t>& sha256_table() noexcept;
const FamilyTable<std::uint64_t>& sha512_table() noexcept;

inline const FamilyTable<std::uint32_t>& table_of(const std::uint32_t*) noexcept {
  return sha256_table();
}
inline const FamilyTable<std::uint64_t>& table_of(const std::uint64_t*) noexcept {
  return sha512_table();
}

}  // namespace shasta::detail
