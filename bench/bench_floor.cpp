// bench_floor.cpp: the latency floor under HMAC, HKDF, TLS 1.3 and PBKDF2: one compression of one
// block after another, each starting from the state the last one left (so none overlaps the next),
// on the active kernel. A prepared-key HMAC-SHA256 of 64 bytes is a call of two blocks (the message
// and its padding) then one block, a PBKDF2 iteration two blocks, a TLS 1.3 expand_label two after
// its key's pair; scripts/bench-ratio sets these floors against the chained calls they bound.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>

#include "shasta/detail/lanes.hpp"
#include "shasta/sha2.hpp"

namespace {

// kBlocks blocks a kernel call, each call starting from the state the last one left; the rate is
// blocks per second. With kBlocks = 2 the kernel's entry and exit (state loads, shuffles, stores)
// come once for two blocks: the floor of a 64-byte SHA-256 one-shot that makes one call.
template <class H, std::size_t kBlocks = 1>
void floor_chained_compressions(benchmark::State& s) {
  std::array<std::uint8_t, kBlocks * H::block_size> block{};
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = static_cast<std::uint8_t>(i * 7);
  auto state = H::initial_state();
  for (auto _ : s) {
    H::compress_blocks(state, block.data(), kBlocks);
    benchmark::DoNotOptimize(state);
  }
  s.SetItemsProcessed(s.iterations() * static_cast<std::int64_t>(kBlocks));
}

void floor_sha256_compression(benchmark::State& s) {
  floor_chained_compressions<shasta::Sha256>(s);
}
void floor_sha512_compression(benchmark::State& s) {
  floor_chained_compressions<shasta::Sha512>(s);
}

void floor_sha256_two_block_calls(benchmark::State& s) {
  floor_chained_compressions<shasta::Sha256, 2>(s);
}

// One block into each of two states at once, as a fresh HMAC key's ipad and opad blocks go
// (detail::compress_pair: the active kernel's two-lane kernel where it has one), call after call.
// On SHA-NI CPUs whose sha256rnds2 issues only every 3 cycles (Golden Cove, Emerald Rapids) a pair
// takes more than one block's latency; on Zen about one.
void floor_sha256_pair(benchmark::State& s) {
  std::array<std::uint8_t, 64> block_a{}, block_b{};
  for (std::size_t i = 0; i < 64; ++i) block_a[i] = static_cast<std::uint8_t>(i * 7), block_b[i] = static_cast<std::uint8_t>(i * 5);
  auto a = shasta::Sha256::initial_state(), b = a;
  for (auto _ : s) {
    shasta::detail::compress_pair(a.data(), block_a.data(), b.data(), block_b.data());
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
  s.SetItemsProcessed(s.iterations());
}

BENCHMARK(floor_sha256_compression);
BENCHMARK(floor_sha256_pair);
BENCHMARK(floor_sha256_two_block_calls);
BENCHMARK(floor_sha512_compression);

}  // namespace
