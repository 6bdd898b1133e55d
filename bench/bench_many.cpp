// bench_many.cpp: many independent messages: shasta's hash_many against OpenSSL's fastest calls one
// message after another (EVP with a fetched EVP_MD on a reused context: openssl_many_<x>; the
// low-level SHA*_Init/Update/Final: openssl_ll_many_<x>), 10,000 messages of 4 KiB and of 64 bytes
// (Merkle nodes), and files' sizes: 64 calls of 32 messages of 4-128 KiB (many_sha256_files, as the
// CLI and hash_files batch small files). scripts/bench-ratio pairs shasta_many_<x> with the faster.
#include <benchmark/benchmark.h>
#include <openssl/evp.h>

#include <cmath>
#include <cstdint>
#include <random>
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

template <class H>
void shasta_many(benchmark::State& state) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = pool(size);
  std::vector<shasta::ByteView> views;
  for (std::size_t i = 0; i < kCount; ++i) views.emplace_back(data.data() + i * size, size);
  std::vector<std::uint8_t> out(kCount * H::digest_size);
  for (auto _ : state) {
    benchmark::DoNotOptimize(shasta::hash_many<H>(views, out));
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kCount * size));
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
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = pool(size);
  std::vector<std::uint8_t> out(kCount * EVP_MAX_MD_SIZE);
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kCount; ++i) {
      EVP_DigestInit_ex(ctx, md, nullptr);
      EVP_DigestUpdate(ctx, data.data() + i * size, size);
      EVP_DigestFinal_ex(ctx, out.data() + i * EVP_MAX_MD_SIZE, &len);
    }
    benchmark::ClobberMemory();
  }
  EVP_MD_CTX_free(ctx);
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kCount * size));
}

void openssl_ll_many(benchmark::State& state, void (*hash)(const unsigned char*, std::size_t, unsigned char*)) {
  const std::size_t size = static_cast<std::size_t>(state.range(0));
  const auto& data = pool(size);
  std::vector<std::uint8_t> out(kCount * 64);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kCount; ++i) hash(data.data() + i * size, size, out.data() + i * 64);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(kCount * size));
}

// Files' sizes: kFileCalls calls of kFilesPerCall messages, log-uniform from 4 to 128 KiB in a fixed
// random order (not sorted: hash_many takes each call's longest first itself).
constexpr std::size_t kFileCalls = 64, kFilesPerCall = 32;

const std::vector<shasta::ByteView>& file_sized_messages() {
  static std::vector<shasta::ByteView> views;
  if (views.empty()) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> log_size(std::log(4096.0), std::log(131072.0));
    std::vector<std::size_t> sizes(kFileCalls * kFilesPerCall);
    std::size_t total = 0;
    for (auto& size : sizes) total += size = static_cast<std::size_t>(std::exp(log_size(rng)));
    static std::vector<std::uint8_t> data(total);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 131 + (i >> 9));
    std::size_t at = 0;
    for (std::size_t size : sizes) {
      views.emplace_back(data.data() + at, size);
      at += size;
    }
  }
  return views;
}

std::int64_t total_size(const std::vector<shasta::ByteView>& views) {
  std::size_t total = 0;
  for (const auto& v : views) total += v.size();
  return static_cast<std::int64_t>(total);
}

void shasta_many_sha256_files(benchmark::State& state) {
  const auto& views = file_sized_messages();
  std::vector<std::uint8_t> out(kFilesPerCall * shasta::Sha256::digest_size);
  for (auto _ : state) {
    for (std::size_t c = 0; c < kFileCalls; ++c) {
      benchmark::DoNotOptimize(
          shasta::hash_many<shasta::Sha256>(std::span(views).subspan(c * kFilesPerCall, kFilesPerCall), out));
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * total_size(views));
}

void openssl_many_sha256_files(benchmark::State& state) {
  const auto& views = file_sized_messages();
  std::uint8_t out[EVP_MAX_MD_SIZE];
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  for (auto _ : state) {
    for (const auto& v : views) {
      EVP_DigestInit_ex(ctx, shasta::bench::sha256_md(), nullptr);
      EVP_DigestUpdate(ctx, v.data(), v.size());
      EVP_DigestFinal_ex(ctx, out, &len);
    }
    benchmark::ClobberMemory();
  }
  EVP_MD_CTX_free(ctx);
  state.SetBytesProcessed(state.iterations() * total_size(views));
}

void openssl_ll_many_sha256_files(benchmark::State& state) {
  const auto& views = file_sized_messages();
  std::uint8_t out[64];
  for (auto _ : state) {
    for (const auto& v : views) shasta::bench::low_level_sha256(v.data(), v.size(), out);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * total_size(views));
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
BENCHMARK(shasta_many_sha512)->Arg(4096);
BENCHMARK(openssl_many_sha512)->Arg(4096);
BENCHMARK(shasta_many_sha256_node)->Arg(64);
BENCHMARK(openssl_many_sha256_node)->Arg(64);
BENCHMARK(openssl_ll_many_sha256)->Arg(64)->Arg(4096);
BENCHMARK(openssl_ll_many_sha512)->Arg(4096);
BENCHMARK(openssl_ll_many_sha256_node)->Arg(64);
BENCHMARK(shasta_many_sha256_files);
BENCHMARK(openssl_many_sha256_files);
BENCHMARK(openssl_ll_many_sha256_files);

}  // namespace

// A Merkle root over 65,536 leaves (65,535 node hashes): merkle_root against OpenSSL hashing each
// level's nodes one at a time with the same tree shape.
constexpr std::size_t kLeaves = 65536;

void shasta_merkle_root_sha256(benchmark::State& state) {
  std::vector<shasta::Sha256::Digest> leaves(kLeaves);
  for (std::size_t i = 0; i < kLeaves; ++i) leaves[i] = shasta::sha256(std::span(pool(64).data() + (i % kCount) * 64, 64));
  std::vector<shasta::Sha256::Digest> scratch(kLeaves);
  for (auto _ : state) {
    scratch = leaves;
    benchmark::DoNotOptimize(shasta::merkle_root_in_place<shasta::Sha256>(scratch));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kLeaves - 1));
}

void openssl_merkle_root_sha256(benchmark::State& state) {
  std::vector<std::array<std::uint8_t, 32>> leaves(kLeaves);
  for (std::size_t i = 0; i < kLeaves; ++i) leaves[i] = shasta::sha256(std::span(pool(64).data() + (i % kCount) * 64, 64));
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
