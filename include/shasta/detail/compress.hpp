// compress.hpp: how the streaming core reaches the compression kernel chosen at run time.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace shasta::detail {

template <class Word>
using CompressFn = void (*)(Word state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

// An HMAC finish absorbs `n` blocks (the message's last, padded) into `state`, an inner hash, then
// the outer block (the inner digest and its padding) from `outer`, K^opad's state, and writes the
// tag over `state`: its bytes, the words big-endian. The inner digest never leaves the registers.
// For the family's full-width digest (SHA-256, SHA-512) only.
template <class Word>
using HmacFinishFn = void (*)(Word state[8], const std::uint8_t* blocks, std::size_t n, const Word outer[8]) noexcept;

template <class Word>
struct KernelRow;  // src/dispatch/kernel_table.hpp
template <class Word>
struct LaneRow;

// Selection: what a family runs on now, an immutable object that the family's one atomic pointer
// points at. `compress` comes first and is the row's own, so the hot path is one load of the
// pointer, one of the function and an indirect call; `compress_to_digest` and `hmac_finish` (the
// row's, or null) the same. Before the first use the pointer holds a resolver whose `compress`
// chooses (the best kernel for this CPU, or SHASTA_KERNEL's) and goes on, and whose other calls
// are null.
template <class Word>
struct Selection {
  CompressFn<Word> compress;
  CompressFn<Word> compress_to_digest;  // the row's (kernel_table.hpp), or null
  HmacFinishFn<Word> hmac_finish;
  const KernelRow<Word>* row;   // nullptr only in the resolver
  const LaneRow<Word>* lanes;   // nullptr: no lane kernel
  std::size_t stack_burn;       // the row's (kernel_table.hpp); installed, it raises deepest_stack_burn
};

extern std::atomic<const Selection<std::uint32_t>*> g_sha256_selection;
extern std::atomic<const Selection<std::uint64_t>*> g_sha512_selection;

inline std::atomic<const Selection<std::uint32_t>*>& selection_slot(const std::uint32_t*) noexcept {
  return g_sha256_selection;
}
inline std::atomic<const Selection<std::uint64_t>*>& selection_slot(const std::uint64_t*) noexcept {
  return g_sha512_selection;
}

// The deepest stack_burn of every selection the family has had (only ever raised, before a selection
// is installed): what a MAC's wipe reads. The selection read after its compressions could be one
// another thread forced meanwhile, with a shallower burn than the frames those compressions left.
// Without force_kernel or use_best_kernel it is the one selection's burn.
extern std::atomic<std::size_t> g_sha256_deepest_burn;
extern std::atomic<std::size_t> g_sha512_deepest_burn;

inline std::atomic<std::size_t>& deepest_stack_burn(const std::uint32_t*) noexcept { return g_sha256_deepest_burn; }
inline std::atomic<std::size_t>& deepest_stack_burn(const std::uint64_t*) noexcept { return g_sha512_deepest_burn; }

// The family's selection, resolved first if no call has resolved it yet.
const Selection<std::uint32_t>& resolved_selection(const std::uint32_t*) noexcept;
const Selection<std::uint64_t>& resolved_selection(const std::uint64_t*) noexcept;

inline void compress_active(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  g_sha256_selection.load(std::memory_order_acquire)->compress(state, blocks, n);
}

inline void compress_active(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  g_sha512_selection.load(std::memory_order_acquire)->compress(state, blocks, n);
}

// hmac_finish_active: where the active kernel has an HMAC finish (SHA-NI), absorbs `n` padded
// blocks into `state` (an inner hash) and then the outer block from `outer` (K^opad's state) in one
// call, writes the tag's bytes over `state` and returns true; else returns false and touches nothing.
// For full-width digests only (SHA-256, SHA-512): the outer block it pads holds 8 words.
template <class Word>
inline bool hmac_finish_active(Word state[8], const std::uint8_t* blocks, std::size_t n, const Word outer[8]) noexcept {
  const HmacFinishFn<Word> finish = selection_slot(state).load(std::memory_order_acquire)->hmac_finish;
  if (finish == nullptr) return false;
  finish(state, blocks, n, outer);
  return true;
}

// compress_to_digest_active: where the active kernel has one (SHA-NI), absorbs `n` blocks into
// `state` and writes its words back big-endian (a digest's bytes) in one call, and returns true;
// else returns false and touches nothing.
template <class Word>
inline bool compress_to_digest_active(Word state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  const CompressFn<Word> to_digest = selection_slot(state).load(std::memory_order_acquire)->compress_to_digest;
  if (to_digest == nullptr) return false;
  to_digest(state, blocks, n);
  return true;
}

}  // namespace shasta::detail
