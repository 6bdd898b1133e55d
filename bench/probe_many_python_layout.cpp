// probe_many_python_layout.cpp: what the Python package's hash_many_into can reach at best. It hashes
// 100,000 messages of 64 bytes through hash_many in chunks of 1,024 (the Python binding's chunk),
// laid out contiguously and as CPython's `bytes` objects are (each object 112 bytes apart, its data
// 32 bytes in). Not part of the CMake build; against the library built in build/:
//   g++ -std=c++20 -O2 -Iinclude bench/probe_many_python_layout.cpp build/libshasta.a -o probe && ./probe
// Nanoseconds a message, the best of 30 runs. KVM's family 6 model 167 Xeon, 2026-12-03, two runs:
// 42-46 contiguous, 47-54 at the bytes objects' stride, where Python's hash_many_into took 51-56.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "shasta/many.hpp"
#include "shasta/sha2.hpp"

int main() {
  constexpr std::size_t kCount = 100000, kChunk = 1024, kSize = 64;
  for (const std::size_t stride : {std::size_t{64}, std::size_t{112}}) {
    const std::size_t offset = stride == 112 ? 32 : 0;  // a bytes object's header before its data
    std::vector<std::uint8_t> pool(kCount * stride + offset);
    for (std::size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<std::uint8_t>(i * 131);
    std::vector<shasta::ByteView> views(kCount);
    for (std::size_t i = 0; i < kCount; ++i) views[i] = shasta::ByteView(pool.data() + i * stride + offset, kSize);
    std::vector<std::uint8_t> out(kCount * shasta::Sha256::digest_size);
    double best = 1e9;
    for (int run = 0; run < 30; ++run) {
      const auto t0 = std::chrono::steady_clock::now();
      for (std::size_t first = 0; first < kCount; first += kChunk) {
        const std::size_t n = std::min(kChunk, kCount - first);
        (void)shasta::hash_many<shasta::Sha256>(
            std::span<const shasta::ByteView>(views.data() + first, n),
            std::span<std::uint8_t>(out.data() + first * shasta::Sha256::digest_size, n * shasta::Sha256::digest_size));
      }
      best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("stride %3zu: %5.1f ns a message\n", stride, best / kCount * 1e9);
  }
}
