// bench_main.cpp: the benchmark binary's main: records the kernels and the measured clock in the
// JSON context that scripts/bench-ratio reads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "shasta/kernels.hpp"

namespace {

// measured_ghz times a chain of dependent multiplies, for cycles/byte without perf counters.
// imul has a latency of 3 cycles on every x86-64 core since 2011; a chain of adds does not serve,
// since Intel's Golden Cove cores fold such chains at rename (they read 10-15 GHz there). On
// aarch64 mul's latency is 3 cycles on Cortex-A72/A76/Neoverse N1 and Apple cores too.
double measured_ghz() {
  constexpr double kCyclesPerMultiply = 3.0;
  constexpr int kIterations = 1000000;  // ~4 ms a repetition: short ones escape a busy machine's preemption
  double best = 0;
  for (int rep = 0; rep < 25; ++rep) {
    std::uint64_t x = 3;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kIterations; ++i) {
#if defined(__x86_64__)
      __asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
#elif defined(__aarch64__)
      __asm__ volatile("mul %0, %0, %0\n\tmul %0, %0, %0\n\tmul %0, %0, %0\n\tmul %0, %0, %0" : "+r"(x));
#endif
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 4.0 * kIterations * kCyclesPerMultiply / s / 1e9);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("shasta_sha256_kernel", std::string(shasta::active_kernel(shasta::Family::sha224_256)));
  benchmark::AddCustomContext("shasta_sha512_kernel", std::string(shasta::active_kernel(shasta::Family::sha384_512)));
  benchmark::AddCustomContext("measured_ghz", std::to_string(measured_ghz()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
