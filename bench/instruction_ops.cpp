// instruction_ops.cpp: the benchmark operations whose instruction counts scripts/instruction-guard
// keeps (bench/instruction_baseline.json). Run under
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect=shasta_guard_measured
//            --dump-after=shasta_guard_measured instruction_ops
// Each operation is called once to warm up (the kernel choice, first-touch page faults), then
// `reps` times inside shasta_guard_measured, the only function whose instructions are counted;
// callgrind writes one profile per call, in the order of the lines this program prints:
//   NAME DIVISOR      (the profile's instruction count / DIVISOR = instructions per operation)
// `instruction_ops --list` prints the lines without running anything.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "shasta/hkdf.hpp"
#include "shasta/hmac.hpp"
#include "shasta/many.hpp"
#include "shasta/pbkdf2.hpp"
#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

namespace {

template <class T>
void consume(const T& value) {
  asm volatile("" : : "r"(&value) : "memory");
}

alignas(64) std::array<std::uint8_t, 16 * 4096> g_data;
const std::uint8_t kKey[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                               17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};

struct Op {
  const char* name;
  unsigned reps;
  unsigned per_rep;  // operations in one rep (PBKDF2 iterations, hash_many messages)
  void (*run)();
};

template <class H, std::size_t N>
void cpp_one_shot() {
  if constexpr (std::is_same_v<H, shasta::Sha256>) consume(shasta::sha256(g_data.data(), N));
  else consume(shasta::sha512(g_data.data(), N));
}

template <shasta_alg A, std::size_t N>
void c_one_shot() {
  unsigned char out[64];
  consume(shasta_hash(A, g_data.data(), N, out, sizeof out));
  consume(out);
}

template <class H>
void hmac_fresh() {
  consume(shasta::hmac<H>(shasta::ByteView(kKey, sizeof kKey), shasta::ByteView(g_data.data(), 64)));
}

template <class H>
const shasta::HmacKey<H>& prepared_key() {
  static const shasta::HmacKey<H> key{shasta::ByteView(kKey, sizeof kKey)};
  return key;
}

template <class H>
void hmac_prepared() {
  consume(shasta::hmac(prepared_key<H>(), shasta::ByteView(g_data.data(), 64)));
}

template <class H>
void expand_label() {
  std::array<std::uint8_t, H::digest_size> out;
  consume(shasta::tls13_expand_label<H>(shasta::ByteView(g_data.data(), H::digest_size), "c hs traffic",
                                        shasta::ByteView(g_data.data() + 64, H::digest_size), out));
  consume(out);
}

constexpr unsigned kPbkdf2Iterations = 1000;
template <class H>
void pbkdf2() {
  std::array<std::uint8_t, H::digest_size> dk;
  consume(shasta::pbkdf2_hmac<H>(shasta::ByteView(kKey, 16), shasta::ByteView(kKey + 16, 16), kPbkdf2Iterations, dk));
  consume(dk);
}

constexpr unsigned kMany = 16;
template <class H, std::size_t N>
void hash_many() {
  std::array<shasta::ByteView, kMany> msgs;
  for (unsigned i = 0; i < kMany; ++i) msgs[i] = shasta::ByteView(g_data.data() + i * N, N);
  std::array<std::uint8_t, kMany * H::digest_size> out;
  consume(shasta::hash_many<H>(msgs, out));
  consume(out);
}

const Op kOps[] = {
    {"cpp_sha256_64", 100, 1, cpp_one_shot<shasta::Sha256, 64>},
    {"cpp_sha256_4k", 20, 1, cpp_one_shot<shasta::Sha256, 4096>},
    {"cpp_sha512_64", 100, 1, cpp_one_shot<shasta::Sha512, 64>},
    {"cpp_sha512_4k", 20, 1, cpp_one_shot<shasta::Sha512, 4096>},
    {"c_sha256_64", 100, 1, c_one_shot<SHASTA_SHA256, 64>},
    {"c_sha256_4k", 20, 1, c_one_shot<SHASTA_SHA256, 4096>},
    {"c_sha512_64", 100, 1, c_one_shot<SHASTA_SHA512, 64>},
    {"c_sha512_4k", 20, 1, c_one_shot<SHASTA_SHA512, 4096>},
    {"hmac_sha256_fresh_64", 100, 1, hmac_fresh<shasta::Sha256>},
    {"hmac_sha256_prepared_64", 100, 1, hmac_prepared<shasta::Sha256>},
    {"hmac_sha512_fresh_64", 100, 1, hmac_fresh<shasta::Sha512>},
    {"hmac_sha512_prepared_64", 100, 1, hmac_prepared<shasta::Sha512>},
    {"expand_label_sha256", 100, 1, expand_label<shasta::Sha256>},
    {"expand_label_sha384", 100, 1, expand_label<shasta::Sha384>},
    {"pbkdf2_sha256_iteration", 2, kPbkdf2Iterations, pbkdf2<shasta::Sha256>},
    {"pbkdf2_sha512_iteration", 2, kPbkdf2Iterations, pbkdf2<shasta::Sha512>},
    {"hash_many_sha256_64", 20, kMany, hash_many<shasta::Sha256, 64>},
    {"hash_many_sha256_4k", 4, kMany, hash_many<shasta::Sha256, 4096>},
    {"hash_many_sha512_4k", 4, kMany, hash_many<shasta::Sha512, 4096>},
};

}  // namespace

// The one function callgrind counts (--toggle-collect) and dumps after (--dump-after).
extern "C" __attribute__((noinline, used)) void shasta_guard_measured(const Op* op) {
  for (unsigned r = 0; r < op->reps; ++r) op->run();
  asm volatile("" : : : "memory");
}

int main(int argc, char** argv) {
  const bool list = argc > 1 && std::string_view(argv[1]) == "--list";
  for (std::size_t i = 0; i < g_data.size(); ++i) g_data[i] = static_cast<std::uint8_t>(i * 131 + 7);
  for (const Op& op : kOps) {
    std::printf("%s %u\n", op.name, op.reps * op.per_rep);
    if (list) continue;
    op.run();  // warm-up, not counted
    shasta_guard_measured(&op);
  }
  std::printf("kernels %s %s\n", shasta_kernel_name(SHASTA_SHA256), shasta_kernel_name(SHASTA_SHA512));
  return 0;
}
