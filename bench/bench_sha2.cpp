// bench_sha2.cpp: shasta against OpenSSL's fastest calls in the same binary, one message at a time:
// EVP with an EVP_MD fetched once on a reused EVP_MD_CTX (openssl_<x>) and the low-level
// SHA*_Init/Update/Final (openssl_ll_<x>). scripts/bench-ratio prints the ratio to the faster.
// SHASTA_KERNEL chooses shasta's kernel; OPENSSL_ia32cap masks OpenSSL's.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <cstdint>

#include "inputs.hpp"
#include "openssl_fastest.hpp"
#include "shasta/sha2.hpp"

namespace {

using shasta::bench::message;

template <class OneShot>
void shasta_one_shot(benchmark::State& state, const OneShot& hash) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = message(size);
  for (auto _ : state) {
    auto digest = hash(data.data(), size);
    benchmark::DoNotOptimize(digest);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

void openssl_evp(benchmark::State& state, const EVP_MD* md) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = message(size);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  for (auto _ : state) {
    EVP_DigestInit_ex(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, data.data(), size);
    EVP_DigestFinal_ex(ctx, out, &len);
    benchmark::DoNotOptimize(out);
  }
  EVP_MD_CTX_free(ctx);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

void openssl_low_level(benchmark::State& state, void (*hash)(const unsigned char*, std::size_t, unsigned char*)) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = message(size);
  unsigned char out[64];
  for (auto _ : state) {
    hash(data.data(), size, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t size : {64, 1024, 16 * 1024, 1024 * 1024}) b->Arg(size);
}

void shasta_sha256(benchmark::State& s) {
  shasta_one_shot(s, shasta::sha256);
}
void shasta_sha512(benchmark::State& s) {
  shasta_one_shot(s, shasta::sha512);
}
void openssl_sha256(benchmark::State& s) {
  openssl_evp(s, shasta::bench::sha256_md());
}
void openssl_sha512(benchmark::State& s) {
  openssl_evp(s, shasta::bench::sha512_md());
}
void openssl_ll_sha256(benchmark::State& s) {
  openssl_low_level(s, shasta::bench::low_level_sha256);
}
void openssl_ll_sha512(benchmark::State& s) {
  openssl_low_level(s, shasta::bench::low_level_sha512);
}

BENCHMARK(shasta_sha256)->Apply(sizes);
BENCHMARK(openssl_sha256)->Apply(sizes);
BENCHMARK(shasta_sha512)->Apply(sizes);
BENCHMARK(openssl_sha512)->Apply(sizes);
BENCHMARK(openssl_ll_sha256)->Apply(sizes);
BENCHMARK(openssl_ll_sha512)->Apply(sizes);

}  // namespace
