// probe_avx512_lanes.cpp: checks the AVX-512 lane kernels (src/kernels/x86/sha256_avx512_x16.cpp,
// sha512_avx512_x8.cpp) lane by lane against the portable kernels, and measures them in cache next
// to the AVX2 and SHA-NI lane kernels. Not part of the CMake build; from the repository root:
//   C="g++ -std=c++20 -O2 -Iinclude -Isrc"; K=src/kernels; X=$K/x86
//   $C -mavx512f -mavx512bw -mavx512vl -c $X/sha256_avx512_x16.cpp $X/sha512_avx512_x8.cpp
//   $C -c $K/sha256_portable.cpp $K/sha512_portable.cpp $K/round_constants.cpp bench/probe_avx512_lanes.cpp
//   $C -mavx2 -mbmi2 -c $X/sha256_avx2_x8.cpp $X/sha512_avx2.cpp
//   $C -mavx2 -mbmi2 -DSHASTA_HAVE_AVX2_X5_ASM -c $X/sha512_avx2_lanes.cpp
//   $C -msha -mssse3 -msse4.1 -DSHASTA_HAVE_SHANI_X4_ASM -c $X/sha256_shani_lanes.cpp
//   $C -c $X/sha512_avx2_x5_blocks.S $X/sha256_shani_x4_blocks.S
//   $C *.o -o probe && ./probe            # checks only
//   ./probe bench [skew]                  # and speed: 4 KiB a lane, lanes `skew` bytes apart
// Cycles come from TSC ticks times the core clock measured by a dependent imul chain (3 cycles a
// step) next to each call; the best of 300 calls.
#include <immintrin.h>
#include <x86intrin.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <random>
#include <algorithm>
#include "kernels/kernel_abi.hpp"

using namespace shasta::kernels;
using L256 = void (*)(std::uint32_t* const[], const std::uint8_t* const[], std::size_t) noexcept;
using L512 = void (*)(std::uint64_t* const[], const std::uint8_t* const[], std::size_t) noexcept;

static std::mt19937_64 rng(12345);
static int failures = 0;
static int g_skew = 0;  // bytes between one lane's 4 KiB and the next's (0: all at one page offset)

template <class Word, int Lanes, int BlockBytes, class Fn, class Ref>
void check(const char* name, Fn fn, Ref ref) {
  int cases = 0;
  for (int n = 0; n <= 17; ++n) {
    for (int rep = 0; rep < 4; ++rep) {
      std::vector<std::vector<std::uint8_t>> buf(Lanes);
      const std::uint8_t* blocks[Lanes];
      Word st[Lanes][8], want[Lanes][8];
      Word* sp[Lanes];
      for (int l = 0; l < Lanes; ++l) {
        int offset = 1 + (int)(rng() % 63);
        buf[l].resize(offset + n * BlockBytes + 1);
        for (auto& b : buf[l]) b = (std::uint8_t)rng();
        blocks[l] = buf[l].data() + offset;
        for (int i = 0; i < 8; ++i) st[l][i] = want[l][i] = (Word)rng();
        sp[l] = st[l];
        ref(want[l], blocks[l], (std::size_t)n);
      }
      fn(sp, blocks, (std::size_t)n);
      for (int l = 0; l < Lanes; ++l)
        if (std::memcmp(st[l], want[l], sizeof st[l]) != 0) {
          if (failures < 10) std::printf("FAIL %s n=%d rep=%d lane=%d\n", name, n, rep, l);
          ++failures;
        }
      ++cases;
    }
  }
  std::printf("%s: %d cases checked\n", name, cases);
}

static double clock_ratio() {  // core cycles per TSC tick, from a dependent imul chain (3 cycles each)
  double best = 0;
  for (int r = 0; r < 7; ++r) {
    std::uint64_t x = 3, m = 0x9e3779b97f4a7c15ull;
    const long iters = 20000000;
    std::uint64_t t0 = __rdtsc();
    for (long i = 0; i < iters; ++i) asm volatile("imul %1, %0" : "+r"(x) : "r"(m));
    std::uint64_t t1 = __rdtsc();
    double ratio = 3.0 * iters / double(t1 - t0);
    best = std::max(best, ratio);
  }
  return best;
}

static double imul_ratio(long iters) {  // core cycles per TSC tick over one dependent imul chain
  std::uint64_t x = 3, m = 0x9e3779b97f4a7c15ull;
  std::uint64_t t0 = __rdtsc();
  for (long i = 0; i < iters; ++i) asm volatile("imul %1, %0" : "+r"(x) : "r"(m));
  std::uint64_t t1 = __rdtsc();
  return 3.0 * iters / double(t1 - t0);
}

// Cycles per stream byte: the best of 300 calls (TSC ticks), each next to an imul chain of the
// clock at that moment; the clock is the highest of those chains (interrupted ones read low).
template <class Word, int Lanes, int BlockBytes, class Fn>
double bench(Fn fn, double* clock_out, int per_lane = 4096) {
  const int stride = per_lane + g_skew;
  std::vector<std::uint8_t> data(Lanes * stride + 4096);
  for (auto& b : data) b = (std::uint8_t)rng();
  const std::uint8_t* blocks[Lanes];
  Word st[Lanes][8] = {};
  Word* sp[Lanes];
  for (int l = 0; l < Lanes; ++l) blocks[l] = data.data() + 64 - (reinterpret_cast<std::uintptr_t>(data.data()) & 63) + l * stride, sp[l] = st[l];
  const std::size_t n = per_lane / BlockBytes;
  double best = 1e30, ratio = 0;
  for (int r = 0; r < 300; ++r) {
    ratio = std::max(ratio, imul_ratio(20000));
    std::uint64_t t0 = __rdtsc();
    fn(sp, blocks, n);
    std::uint64_t t1 = __rdtsc();
    best = std::min(best, double(t1 - t0));
  }
  *clock_out = ratio;
  return best * ratio / (double(Lanes) * per_lane);
}

int main(int argc, char** argv) {
  bool do_bench = argc > 1;
  if (argc > 2) g_skew = std::atoi(argv[2]);
  check<std::uint32_t, 16, 64>("sha256_compress_x16", avx512::sha256_compress_x16, portable::sha256_compress);
  check<std::uint32_t, 16, 64>("sha256_compress_x16_tail", avx512::sha256_compress_x16_tail, portable::sha256_compress);
  check<std::uint64_t, 8, 128>("sha512_compress_x8", avx512::sha512_compress_x8, portable::sha512_compress);
  check<std::uint64_t, 8, 128>("sha512_compress_x8_tail", avx512::sha512_compress_x8_tail, portable::sha512_compress);
  std::printf("failures: %d\n", failures);
  if (!do_bench) return failures != 0;
  std::printf("core clock / TSC (long imul chain) = %.3f\n", clock_ratio());
  for (int round = 0; round < 3; ++round) {
    double c;
#define ROW(name, expr) { double cpb = expr; std::printf("%-38s %.3f cycles/B (clock/TSC %.3f)\n", name, cpb, c); }
    ROW("avx512 sha256 x16", (bench<std::uint32_t, 16, 64>(avx512::sha256_compress_x16, &c)));
    ROW("avx512 sha256 x16_tail", (bench<std::uint32_t, 16, 64>(avx512::sha256_compress_x16_tail, &c)));
    ROW("avx2 sha256 x8", (bench<std::uint32_t, 8, 64>(avx2::sha256_compress_x8, &c)));
    ROW("shani sha256 x4 (asm)", (bench<std::uint32_t, 4, 64>(shani::sha256_compress_x4, &c)));
    ROW("shani sha256 x4 (intrinsics, _tail)", (bench<std::uint32_t, 4, 64>(shani::sha256_compress_x4_tail, &c)));
    ROW("avx512 sha512 x8", (bench<std::uint64_t, 8, 128>(avx512::sha512_compress_x8, &c)));
    ROW("avx512 sha512 x8_tail", (bench<std::uint64_t, 8, 128>(avx512::sha512_compress_x8_tail, &c)));
    ROW("avx2 sha512 x4 (intrinsics)", (bench<std::uint64_t, 4, 128>(avx2::sha512_compress_x4, &c)));
    ROW("avx2 sha512 x5 (asm)", (bench<std::uint64_t, 5, 128>(avx2::sha512_compress_x5, &c)));
    std::printf("\n");
  }
  return failures != 0;
}
