// bench_many.cpp: many independent messages: shasta's hash_many against OpenSSL's fastest calls one
// message after another (EVP with a fetched EVP_MD on a reused context: openssl_many_<x>; the
// low-level SHA*_Init/Update/Final: openssl_ll_many_<x>), 10,000 messages of 4 KiB and of 64 bytes
// (Merkle nodes), and files' sizes: 64 calls of 32 messages of 4-128 KiB (many_sha256_files, as the
// CLI and hash_files batch small files; shasta_many_sha256_files_per_call/N: the same in calls of N).
// scripts/bench-ratio pairs shasta_many_<x> with the faster.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "openssl_fastest.hpp"
#include "shasta/many.hpp"
#include "shasta/merkle.hpp"

namespace {

constexpr std::size_t kCount = 10000;

// Distinct data per message, so no lane sees another's cache lines.
const std::vector<std::uint8_t>& pool(std::size_t size) {
  static std::vector<std::uint8_t> data;
  if (data.size() < kCount * size) {
    data.resize(kCount * size);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + (i >> 9));
  }
  return data;
}

// same_size_messages: kCount messages of `size` bytes, one after another in the pool.
std::vector<shasta::ByteView> same_size_messages(std::size_t size) {
  const auto& data = pool(size);
  std::vector<shasta::ByteView> views;
  for (std::size_t i = 0; i < kCount; ++i) views.emplace_back(data.data() + i * size, size);
  return views;
}

// Files' sizes: kFileCalls calls of kFilesPerCall messages, log-uniform from 4 to 128 KiB in a fixed
// random order (not sorted: hash_many takes each call's longest first itself).
constexpr std::size_t kFileCalls = 64, kFilesPerCall = 32;

const std::vector<shasta::ByteView>& file_sized_messages() {
  static std::vector<std::uint8_t> data;
  static std::vector<shasta::ByteView> views;
  if (views.empty()) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> log_size(std::log(4096.0), std::log(131072.0));
    std::vector<std::size_t> sizes(kFileCalls * kFilesPerCall);
    for (auto& size : sizes) size = static_cast<std::size_t>(std::exp(log_size(rng)));
    std::size_t total = 0;
    for (std::size_t size : sizes) total += size;
    data.resize(total);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + (i >> 9));
    std::size_t at = 0;
    for (std::size_t size : sizes) {
      views.emplace_back(data.data() + at, size);
      at += size;
    }
  }
  return views;
}

void count_bytes(benchmark::State& state, std::span<const shasta::ByteView> views) {
  std::size_t total = 0;
  for (const auto& v : views) total += v.size();
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(total));
}

// The three ways to hash `views`: shasta's hash_many, `per_call` messages a call; OpenSSL one
// message after another through EVP (a fetched EVP_MD, a reused context) or the low-level calls.
template <class H>
void shasta_many_calls(benchmark::State& state, std::span<const shasta::ByteView> views, std::size_t per_call) {
  std::vector<std::uint8_t> out(views.size() * H::digest_size);
  for (auto _ : state) {
    for (std::size_t first = 0; first < views.size(); first += per_call) {
      const std::size_t n = std::min(per_call, views.size() - first);
      benchmark::DoNotOptimize(
          shasta::hash_many<H>(views.subspan(first, n), std::span(out).subspan(first * H::digest_size)));
    }
    benchmark::ClobberMemory();
  }
  count_bytes(state, views);
}

void openssl_many_calls(benchmark::State& state, std::span<const shasta::ByteView> views, const EVP_MD* md) {
  std::vector<std::uint8_t> out(views.size() * EVP_MAX_MD_SIZE);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < views.size(); ++i) {
      EVP_DigestInit_ex(ctx, md, nullptr);
      EVP_DigestUpdate(ctx, views[i].data(), views[i].size());
      EVP_DigestFinal_ex(ctx, out.data() + i * EVP_MAX_MD_SIZE, &len);
    }
    benchmark::ClobberMemory();
  }
  EVP_MD_CTX_free(ctx);
  count_bytes(state, views);
}

void openssl_ll_many_calls(benchmark::State& state, std::span<const shasta::ByteView> views,
                           void (*hash)(const unsigned char*, std::size_t, unsigned char*)) {
  std::vector<std::uint8_t> out(views.size() * 64);
  for (auto _ : state) {
    for (std::size_t i = 0; i < views.size(); ++i) hash(views[i].data(), views[i].size(), out.data() + i * 64);
    benchmark::ClobberMemory();
  }
  count_bytes(state, views);
}

std::size_t arg_size(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

template <class H>
void shasta_many(benchmark::State& state) {
  shasta_many_calls<H>(state, same_size_messages(arg_size(state)), kCount);
}

template <class H>
void shasta_many_64(benchmark::State& state) {
  const auto& data = pool(64);
  const std::span<const std::array<std::uint8_t, 64>> nodes(
      reinterpret_cast<const std::array<std::uint8_t, 64>*>(data.data()), kCount);
  std::vector<std::uint8_t> out(kCount * H::digest_size);
  for (auto _ : state) {
    benchmark::DoNotOptimize(shasta::hash_many_64<H>(nodes, out));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kCount * 64));
}

void openssl_many(benchmark::State& state, const EVP_MD* md) {
  openssl_many_calls(state, same_size_messages(arg_size(state)), md);
}

void openssl_ll_many(benchmark::State& state, void (*hash)(const unsigned char*, std::size_t, unsigned char*)) {
  openssl_ll_many_calls(state, same_size_messages(arg_size(state)), hash);
}

void shasta_many_sha256_files(benchmark::State& s) {
  shasta_many_calls<shasta::Sha256>(s, file_sized_messages(), kFilesPerCall);
}
// The same messages in calls of state.range(0) (no OpenSSL pair: bench-ratio leaves it out).
void shasta_many_sha256_files_per_call(benchmark::State& s) {
  shasta_many_calls<shasta::Sha256>(s, file_sized_messages(), arg_size(s));
}
void openssl_many_sha256_files(benchmark::State& s) {
  openssl_many_calls(s, file_sized_messages(), shasta::bench::sha256_md());
}
void openssl_ll_many_sha256_files(benchmark::State& s) {
  openssl_ll_many_calls(s, file_sized_messages(), shasta::bench::low_level_sha256);
}

void shasta_many_sha256(benchmark::State& s) {
  shasta_many<shasta::Sha256>(s);
}
void shasta_many_sha512(benchmark::State& s) {
  shasta_many<shasta::Sha512>(s);
}
void shasta_many_sha256_node(benchmark::State& s) {
  shasta_many_64<shasta::Sha256>(s);
}
void openssl_many_sha256(benchmark::State& s) {
  openssl_many(s, shasta::bench::sha256_md());
}
void openssl_many_sha512(benchmark::State& s) {
  openssl_many(s, shasta::bench::sha512_md());
}
void openssl_many_sha256_node(benchmark::State& s) {
  openssl_many(s, shasta::bench::sha256_md());
}
void openssl_ll_many_sha256(benchmark::State& s) {
  openssl_ll_many(s, shasta::bench::low_level_sha256);
}
void openssl_ll_many_sha512(benchmark::State& s) {
  openssl_ll_many(s, shasta::bench::low_level_sha512);
}
void openssl_ll_many_sha256_node(benchmark::State& s) {
  openssl_ll_many(s, shasta::bench::low_level_sha256);
}

BENCHMARK(shasta_many_sha256)->Arg(64)->Arg(4096);
BENCHMARK(openssl_many_sha256)->Arg(64)->Arg(4096);
BENCHMARK(shasta_many_sha512)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096);
BENCHMARK(openssl_many_sha512)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096);
BENCHMARK(shasta_many_sha256_node)->Arg(64);
BENCHMARK(openssl_many_sha256_node)->Arg(64);
BENCHMARK(openssl_ll_many_sha256)->Arg(64)->Arg(4096);
BENCHMARK(openssl_ll_many_sha512)->Arg(64)->Arg(256)->Arg(1024)->Arg(4096);
BENCHMARK(openssl_ll_many_sha256_node)->Arg(64);
BENCHMARK(shasta_many_sha256_files);
BENCHMARK(openssl_many_sha256_files);
BENCHMARK(openssl_ll_many_sha256_files);
BENCHMARK(shasta_many_sha256_files_per_call)->Arg(16)->Arg(32)->Arg(64)->Arg(kFileCalls* kFilesPerCall);

}  // namespace

// A Merkle root over 65,536 leaves (65,535 node hashes): merkle_root against OpenSSL hashing each
// level's nodes one at a time with the same tree shape.
constexpr std::size_t kLeaves = 65536;

void shasta_merkle_root_sha256(benchmark::State& state) {
  std::vector<shasta::Sha256::Digest> leaves(kLeaves);
  for (std::size_t i = 0; i < kLeaves; ++i)
    leaves[i] = shasta::sha256(std::span(pool(64).data() + (i % kCount) * 64, 64));
  std::vector<shasta::Sha256::Digest> scratch(kLeaves);
  for (auto _ : state) {
    scratch = leaves;
    benchmark::DoNotOptimize(shasta::merkle_root_in_place<shasta::Sha256>(scratch));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kLeaves - 1));
}

void openssl_merkle_root_sha256(benchmark::State& state) {
  std::vector<std::array<std::uint8_t, 32>> leaves(kLeaves);
  for (std::size_t i = 0; i < kLeaves; ++i)
    leaves[i] = shasta::sha256(std::span(pool(64).data() + (i % kCount) * 64, 64));
  std::vector<std::array<std::uint8_t, 32>> level;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  for (auto _ : state) {
    level = leaves;
    for (std::size_t n = level.size(); n > 1; n = (n + 1) / 2) {
      for (std::size_t i = 0; i + 1 < n; i += 2) {
        EVP_DigestInit_ex(ctx, shasta::bench::sha256_md(), nullptr);
        EVP_DigestUpdate(ctx, level[i].data(), 32);
        EVP_DigestUpdate(ctx, level[i + 1].data(), 32);
        EVP_DigestFinal_ex(ctx, level[i / 2].data(), &len);
      }
      if (n % 2 == 1) level[n / 2] = level[n - 1];
    }
    benchmark::DoNotOptimize(level[0]);
  }
  EVP_MD_CTX_free(ctx);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kLeaves - 1));
}

BENCHMARK(shasta_merkle_root_sha256);
BENCHMARK(openssl_merkle_root_sha256);
