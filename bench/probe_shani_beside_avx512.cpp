// probe_shani_beside_avx512.cpp: would a hybrid lane kernel pay on Intel, SHA-NI streams run in the
// same loop as the AVX-512 x16 rounds, on the ports the x16 loop leaves? It times 68 zmm operations
// shaped like four x16 rounds (6 vprord, 4 vpternlogd, 7 vpaddd a round), alone and with SHA-NI
// quads (4 rounds and a schedule step of one stream) between them. Not part of the CMake build:
//   g++ -std=c++20 -O2 bench/probe_shani_beside_avx512.cpp -o probe && ./probe
// Cycles from a dependent imul chain (3 cycles a step), the best of 7 runs.
// KVM's family 6 model 167 Xeon (Sapphire/Emerald Rapids class), 2026-12-03, three runs: the 68 zmm
// operations 34.6-38.2 cycles; each SHA-NI quad beside them added 5.5-8.0 cycles (7.3-8.0 with 4 or
// 8 quads an iteration), so a SHA-NI block (16 quads) costs the loop about 120 cycles, where a 17th
// AVX-512 lane costs 925 / 16 = 58. SHA-NI alone: a quad 13-14 cycles in one stream (the rnds2 chain),
// 7.6-7.8 in two. On this core the hybrid loses. Not yet run on Zen 4 or Zen 5, where SHA-NI is
// cheaper and may leave room beside the x16 rounds.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
#define ZOPS                                                                                                 \
  "vprord $6, %%zmm16, %%zmm24\n vprord $11, %%zmm17, %%zmm25\n vprord $25, %%zmm18, %%zmm26\n"              \
  "vpternlogd $0x96, %%zmm24, %%zmm25, %%zmm26\n vpaddd %%zmm26, %%zmm19, %%zmm19\n"                         \
  "vpternlogd $0xca, %%zmm20, %%zmm21, %%zmm27\n vpaddd %%zmm27, %%zmm19, %%zmm28\n"                         \
  "vprord $2, %%zmm20, %%zmm29\n vprord $13, %%zmm21, %%zmm30\n vprord $22, %%zmm22, %%zmm31\n"              \
  "vpternlogd $0x96, %%zmm29, %%zmm30, %%zmm31\n vpternlogd $0xe8, %%zmm16, %%zmm17, %%zmm24\n"              \
  "vpaddd %%zmm31, %%zmm24, %%zmm25\n vpaddd %%zmm28, %%zmm25, %%zmm26\n vpaddd %%zmm28, %%zmm23, %%zmm27\n" \
  "vpaddd %%zmm26, %%zmm16, %%zmm16\n vpaddd %%zmm27, %%zmm20, %%zmm20\n"
// One SHA-NI quad (4 rounds and one schedule step) of stream A: state xmm1/xmm2, words xmm3..xmm6, K xmm15.
#define QA                                                                          \
  "movdqa %%xmm3, %%xmm0\n paddd %%xmm15, %%xmm0\n"                                 \
  "sha256rnds2 %%xmm0, %%xmm1, %%xmm2\n pshufd $0x0e, %%xmm0, %%xmm0\n"             \
  "sha256rnds2 %%xmm0, %%xmm2, %%xmm1\n"                                             \
  "sha256msg1 %%xmm4, %%xmm3\n movdqa %%xmm6, %%xmm7\n palignr $4, %%xmm5, %%xmm7\n" \
  "paddd %%xmm7, %%xmm3\n sha256msg2 %%xmm6, %%xmm3\n"
// stream B: state xmm8/xmm9, words xmm10..xmm13, tmp xmm14
#define QB                                                                                \
  "movdqa %%xmm10, %%xmm0\n paddd %%xmm15, %%xmm0\n"                                      \
  "sha256rnds2 %%xmm0, %%xmm8, %%xmm9\n pshufd $0x0e, %%xmm0, %%xmm0\n"                   \
  "sha256rnds2 %%xmm0, %%xmm9, %%xmm8\n"                                                   \
  "sha256msg1 %%xmm11, %%xmm10\n movdqa %%xmm13, %%xmm14\n palignr $4, %%xmm12, %%xmm14\n" \
  "paddd %%xmm14, %%xmm10\n sha256msg2 %%xmm13, %%xmm10\n"
#define Z4 ZOPS ZOPS ZOPS ZOPS
template <int V>
double run(long it) {
  double t0 = now();
  for (long i = 0; i < it; ++i) {
    if constexpr (V == 0) asm volatile(Z4 ::: "memory");
    if constexpr (V == 1) asm volatile(ZOPS QA ZOPS ZOPS ZOPS ::: "memory");
    if constexpr (V == 2) asm volatile(ZOPS QA ZOPS ZOPS QA ZOPS ::: "memory");
    if constexpr (V == 3) asm volatile(ZOPS QA ZOPS QB ZOPS QA ZOPS QB ::: "memory");
    if constexpr (V == 4) asm volatile(ZOPS QA QB ZOPS QA QB ZOPS QA QB ZOPS QA QB ::: "memory");
    if constexpr (V == 5) asm volatile(QA QA QA QA ::: "memory");
    if constexpr (V == 6) asm volatile(QA QB QA QB ::: "memory");
  }
  return now() - t0;
}
double clock_ghz() {
  long n = 100000000;
  uint64_t x = 3;
  double t0 = now();
  for (long i = 0; i < n; i += 8)
    asm volatile(
        "imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, %0\n imul %0, "
        "%0\n"
        : "+r"(x));
  return 3.0 * n / (now() - t0) / 1e9;
}
int main() {
  const long it = 10000000;
  double b[7];
  std::fill(b, b + 7, 1e9);
  double g = 0;
  for (int r = 0; r < 7; ++r) {
    g = std::max(g, clock_ghz());
    b[0] = std::min(b[0], run<0>(it));
    b[1] = std::min(b[1], run<1>(it));
    b[2] = std::min(b[2], run<2>(it));
    b[3] = std::min(b[3], run<3>(it));
    b[4] = std::min(b[4], run<4>(it));
    b[5] = std::min(b[5], run<5>(it));
    b[6] = std::min(b[6], run<6>(it));
  }
  const char* nm[7] = {"68 zmm ops (4 x16 rounds)", "+1 SHA-NI quad",        "+2 quads, one stream",
                       "+4 quads, two streams",     "+8 quads, two streams", "4 quads alone, one stream",
                       "4 quads alone, two streams"};
  for (int k = 0; k < 7; ++k) std::printf("%-28s %6.2f cycles/iter\n", nm[k], b[k] / it * g * 1e9);
  std::printf("clock %.2f GHz\n", g);
}
