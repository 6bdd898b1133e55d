// pairs.cpp: compress_pair. A two-lane kernel is used only while its own single-stream kernel is
// the active one: that kernel passed the CPU check, and SHASTA_KERNEL / force_kernel choose both.
// (The AVX2 SHA-512 lane kernel has none here: it takes as long for two lanes as for four, about
// twice the single-stream kernel's two blocks.)
#include "../kernels/kernel_abi.hpp"
#include "shasta/detail/compress.hpp"
#include "shasta/detail/lanes.hpp"

namespace shasta::detail {
namespace {

template <class Single, class Lanes>
struct PairEntry {
  Single single;
  Lanes pair;
};

// A trailing empty entry keeps each array non-empty whatever the build left out.
constexpr PairEntry<Compress256, CompressLanes256> kSha256Pairs[] = {
#ifdef SHASTA_HAVE_SHANI_X4
    {kernels::shani::sha256_compress, kernels::shani::sha256_compress_x2},
#endif
#ifdef SHASTA_HAVE_ARMV8_X2
    {kernels::armv8::sha256_compress, kernels::armv8::sha256_compress_x2},
#endif
    {nullptr, nullptr},
};

constexpr PairEntry<Compress512, CompressLanes512> kSha512Pairs[] = {
#ifdef SHASTA_HAVE_ARMV8_SHA512_X2
    {kernels::armv8::sha512_compress, kernels::armv8::sha512_compress_x2},
#endif
    {nullptr, nullptr},
};

template <class Word, class Single, class Lanes, std::size_t N>
void pair_on(const PairEntry<Single, Lanes> (&table)[N], Word* state_a, const std::uint8_t* block_a, Word* state_b,
             const std::uint8_t* block_b) noexcept {
  const Single active = resolved_kernel(static_cast<const Word*>(nullptr));
  for (std::size_t i = 0; i + 1 < N; ++i) {
    if (table[i].single != active) continue;
    Word* const states[2] = {state_a, state_b};
    const std::uint8_t* const blocks[2] = {block_a, block_b};
    table[i].pair(states, blocks, 1);
    return;
  }
  active(state_a, block_a, 1);
  active(state_b, block_b, 1);
}

}  // namespace

void compress_pair(std::uint32_t* state_a, const std::uint8_t* block_a, std::uint32_t* state_b,
                   const std::uint8_t* block_b) noexcept {
  pair_on(kSha256Pairs, state_a, block_a, state_b, block_b);
}

void compress_pair(std::uint64_t* state_a, const std::uint8_t* block_a, std::uint64_t* state_b,
                   const std::uint8_t* block_b) noexcept {
  pair_on(kSha512Pairs, state_a, block_a, state_b, block_b);
}

}  // namespace shasta::detail
