// bench_sha2.cpp: shasta against OpenSSL's fastest calls in the same binary, one message at a time:
// EVP with an EVP_MD fetched once on a reused EVP_MD_CTX (openssl_<x>) and the low-level
// SHA*_Init/Update/Final (openssl_ll_<x>). scripts/bench-ratio prints the ratio to the faster.
// shasta_chained_<x>/64 (and OpenSSL's low-level openssl_ll_chained_<x>/64) hash each message
// after the last: the latency that scripts/bench-ratio compares with the floors.
// SHASTA_KERNEL chooses shasta's kernel; OPENSSL_ia32cap masks OpenSSL's.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "inputs.hpp"
#include "openssl_fastest.hpp"
#include "shasta/sha2.hpp"

namespace {

using shasta::bench::message;
using shasta::bench::openssl_matches;

std::size_t arg_size(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

template <class OneShot>
void shasta_one_shot(benchmark::State& state, const OneShot& hash) {
  const std::size_t size = arg_size(state);
  const auto& data = message(size);
  for (auto _ : state) {
    auto digest = hash(data.data(), size);
    benchmark::DoNotOptimize(digest);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

template <class OneShot>
void openssl_evp(benchmark::State& state, const EVP_MD* md, const OneShot& reference) {
  const std::size_t size = arg_size(state);
  const auto& data = message(size);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  const auto digest = [&] {
    return EVP_DigestInit_ex(ctx, md, nullptr) == 1 && EVP_DigestUpdate(ctx, data.data(), size) == 1 &&
           EVP_DigestFinal_ex(ctx, out, &len) == 1;
  };
  state.SetLabel(shasta::bench::kEvpDigestCall);
  if (openssl_matches(state, digest(), reference(data.data(), size), out)) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(digest());
      benchmark::DoNotOptimize(out);
    }
  }
  EVP_MD_CTX_free(ctx);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

template <class OneShot>
void openssl_low_level(benchmark::State& state, shasta::bench::LowLevelHash hash, const OneShot& reference) {
  const std::size_t size = arg_size(state);
  const auto& data = message(size);
  unsigned char out[64];
  state.SetLabel(hash.call);
  if (!openssl_matches(state, hash.hash(data.data(), size, out), reference(data.data(), size), out)) return;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hash.hash(data.data(), size, out));
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

// Chained: each digest is written over the start of the message the next call hashes, so a call
// cannot begin before the last one ends, as the floors' compressions cannot (with one message
// hashed again and again the CPU overlaps consecutive calls, and a call looks faster than its
// latency). hash_over(p, n) hashes p[0, n) and writes the digest at p.
template <class HashOver>
void chained_one_shots(benchmark::State& state, const HashOver& hash_over) {
  const std::size_t size = arg_size(state);
  std::vector<std::uint8_t> data = message(size);
  for (auto _ : state) {
    hash_over(data.data(), size);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

template <class OneShot>
void shasta_chained(benchmark::State& state, const OneShot& hash) {
  chained_one_shots(state, [&hash](std::uint8_t* p, std::size_t n) {
    const auto digest = hash(p, n);
    std::copy(digest.begin(), digest.end(), p);
  });
}

// The low-level calls only: for 64-byte messages they beat EVP (bench-ratio's table says by how much).
template <class OneShot>
void openssl_ll_chained(benchmark::State& state, shasta::bench::LowLevelHash hash, const OneShot& reference) {
  std::vector<std::uint8_t> first = message(arg_size(state));
  const auto expected = reference(first.data(), first.size());
  state.SetLabel(hash.call);
  if (!openssl_matches(state, hash.hash(first.data(), first.size(), first.data()), expected, first.data())) return;
  chained_one_shots(state, [hash](std::uint8_t* p, std::size_t n) { hash.hash(p, n, p); });
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
  openssl_evp(s, shasta::bench::sha256_md(), shasta::sha256);
}
void openssl_sha512(benchmark::State& s) {
  openssl_evp(s, shasta::bench::sha512_md(), shasta::sha512);
}
void openssl_ll_sha256(benchmark::State& s) {
  openssl_low_level(s, shasta::bench::kLowLevelSha256, shasta::sha256);
}
void openssl_ll_sha512(benchmark::State& s) {
  openssl_low_level(s, shasta::bench::kLowLevelSha512, shasta::sha512);
}
void shasta_chained_sha256(benchmark::State& s) {
  shasta_chained(s, shasta::sha256);
}
void shasta_chained_sha512(benchmark::State& s) {
  shasta_chained(s, shasta::sha512);
}
void openssl_ll_chained_sha256(benchmark::State& s) {
  openssl_ll_chained(s, shasta::bench::kLowLevelSha256, shasta::sha256);
}
void openssl_ll_chained_sha512(benchmark::State& s) {
  openssl_ll_chained(s, shasta::bench::kLowLevelSha512, shasta::sha512);
}

BENCHMARK(shasta_sha256)->Apply(sizes);
BENCHMARK(openssl_sha256)->Apply(sizes);
BENCHMARK(shasta_sha512)->Apply(sizes);
BENCHMARK(openssl_sha512)->Apply(sizes);
BENCHMARK(openssl_ll_sha256)->Apply(sizes);
BENCHMARK(openssl_ll_sha512)->Apply(sizes);
BENCHMARK(shasta_chained_sha256)->Arg(64);
BENCHMARK(shasta_chained_sha512)->Arg(64);
BENCHMARK(openssl_ll_chained_sha256)->Arg(64);
BENCHMARK(openssl_ll_chained_sha512)->Arg(64);

}  // namespace
