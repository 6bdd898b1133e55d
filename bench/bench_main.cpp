// bench_main.cpp: the benchmark binary's main: records the kernels and the measured clock in the
// JSON context that scripts/bench-ratio reads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "shasta/kernels.hpp"

namespace {

// measured_ghz times a chain of dependent adds, one cycle each, for cycles/byte without perf counters.
double measured_ghz() {
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    std::uint64_t x = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 20000000; ++i) {
#if defined(__x86_64__)
      __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0" : "+r"(x));
#elif defined(__aarch64__)
      __asm__ volatile("add %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1\n\tadd %0, %0, #1" : "+r"(x));
#endif
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 80e6 / s / 1e9);
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
