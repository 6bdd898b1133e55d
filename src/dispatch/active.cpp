// active.cpp: the parts of each family's active selection that the library's users take: its lane
// kernel (hash_many, update_many, PBKDF2's output blocks), its pair kernel (HMAC's pads) and its
// PBKDF2 loop, each a field of a row that passed its CPU check.

#include "kernel_table.hpp"
#include "shasta/detail/lanes.hpp"
#include "shasta/detail/wipe.hpp"
#include "../pbkdf2_loop.hpp"

namespace shasta::detail {
namespace {

template <class Word>
LaneKernel<Word> active_lanes_of() noexcept {
  const Selection<Word>& s = resolved_selection(static_cast<const Word*>(nullptr));
  if (s.lanes == nullptr) return {s.row->name, 0, 0, nullptr, nullptr, nullptr};
  return {s.lanes->kernel,  s.lanes->lanes, s.lanes->min_busy,  s.lanes->fn,
          s.lanes->tail_fn, s.lanes->hash,  s.lanes->wide_hash, s.lanes->wide_lanes};
}

template <class Word>
void pair_on_active(Word* state_a, const std::uint8_t* block_a, Word* state_b, const std::uint8_t* block_b) noexcept {
  const Selection<Word>& s = resolved_selection(static_cast<const Word*>(nullptr));
  if (s.row->pair == nullptr) {
    s.compress(state_a, block_a, 1);
    s.compress(state_b, block_b, 1);
    return;
  }
  Word* const states[2] = {state_a, state_b};
  const std::uint8_t* const blocks[2] = {block_a, block_b};
  s.row->pair(states, blocks, 1);
}

}  // namespace

LaneKernel<std::uint32_t> active_lanes_256() noexcept {
  return active_lanes_of<std::uint32_t>();
}
LaneKernel<std::uint64_t> active_lanes_512() noexcept {
  return active_lanes_of<std::uint64_t>();
}

void compress_pair(std::uint32_t* state_a, const std::uint8_t* block_a, std::uint32_t* state_b,
                   const std::uint8_t* block_b) noexcept {
  pair_on_active(state_a, block_a, state_b, block_b);
}
void compress_pair(std::uint64_t* state_a, const std::uint8_t* block_a, std::uint64_t* state_b,
                   const std::uint8_t* block_b) noexcept {
  pair_on_active(state_a, block_a, state_b, block_b);
}

bool pbkdf2_iterate_256(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                        std::uint32_t sum[8], std::uint64_t count) noexcept {
  const Selection<std::uint32_t>& s = resolved_selection(static_cast<const std::uint32_t*>(nullptr));
  if (s.row->pbkdf2 == nullptr) return false;
  s.row->pbkdf2(inner, outer, u, sum, count);
  wipe_stack_below();
  return true;
}

}  // namespace shasta::detail
