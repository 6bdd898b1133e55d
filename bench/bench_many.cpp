// bench_many.cpp: many independent messages: shasta's hash_many against OpenSSL's fastest calls one
// message after another (EVP with a fetched EVP_MD on a reused context: openssl_many_<x>; the
// low-level SHA*_Init/Update/Final: openssl_ll_many_<x>), 10,000 messages of 4 KiB and of 64 bytes
// (Merkle nodes), and files' sizes: 64 calls of 32 messages of 4-128 KiB (many_sha256_files, as the
// CLI and hash_files batch small files; shasta_many_sha256_files_per_call/N: the same in calls of N).
// Every side writes digest i at out[i * digest size]. scripts/bench-ratio pairs shasta_many_<x> with
// the faster.
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
// Each writes digest i at out[i * H::digest_size], and OpenSSL's first pass is checked against
// shasta's digests.
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

template <class H>
std::vector<std::uint8_t> expected_digests(std::span<const shasta::ByteView> views) {
  std::vector<std::uint8_t> out(views.size() * H::digest_size);
  (void)shasta::hash_many<H>(views, out);
  return out;
}

// Times `hash_all(out)` (false where a call failed) after a check of its first pass.
template <class H, class HashAll>
void time_openssl_passes(benchmark::State& state, std::span<const shasta::ByteView> views, const HashAll& hash_all) {
  std::vector<std::uint8_t> out(views.size() * H::digest_size);
  if (shasta::bench::openssl_matches(state, hash_all(out.data()), expected_digests<H>(views), out.data())) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(hash_all(out.data()));
      benchmark::ClobberMemory();
    }
  }
  count_bytes(state, views);
}

template <class H>
void openssl_many_calls(benchmark::State& state, std::span<const shasta::ByteView> views, const EVP_MD* md) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  state.SetLabel(shasta::bench::kEvpDigestCall);
  time_openssl_passes<H>(state, views, [&](std::uint8_t* out) {
    bool succeeded = true;
    for (std::size_t i = 0; i < views.size(); ++i) {
      succeeded &= EVP_DigestInit_ex(ctx, md, nullptr) == 1 &&
                   EVP_DigestUpdate(ctx, views[i].data(), views[i].size()) == 1 &&
                   EVP_DigestFinal_ex(ctx, out + i * H::digest_size, &len) == 1;
    }
    return succeeded;
  });
  EVP_MD_CTX_free(ctx);
}

template <class H>
void openssl_ll_many_calls(benchmark::State& state, std::span<const shasta::ByteView> views,
                           shasta::bench::LowLevelHash hash) {
  state.SetLabel(hash.call);
  time_openssl_passes<H>(state, views, [&](std::uint8_t* out) {
    bool succeeded = true;
    for (std::size_t i = 0; i < views.size(); ++i) {
      succeeded &= hash.hash(views[i].data(), views[i].size(), out + i * H::digest_size);
    }
    return succeeded;
  });
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

template <class H>
void openssl_many(benchmark::State& state, const EVP_MD* md) {
  openssl_many_calls<H>(state, same_size_messages(arg_size(state)), md);
}

template <class H>
void openssl_ll_many(benchmark::State& state, shasta::bench::LowLevelHash hash) {
  openssl_ll_many_calls<H>(state, same_size_messages(arg_size(state)), hash);
}

void shasta_many_sha256_files(benchmark::State& s) {
  shasta_many_calls<shasta::Sha256>(s, file_sized_messages(), kFilesPerCall);
}
// The same messages in calls of state.range(0) (no OpenSSL pair: bench-ratio leaves it out).
void shasta_many_sha256_files_per_call(benchmark::State& s) {
  shasta_many_calls<shasta::Sha256>(s, file_sized_messages(), arg_size(s));
}
void openssl_many_sha256_files(benchmark::State& s) {
  openssl_many_calls<shasta::Sha256>(s, file_sized_messages(), shasta::bench::sha256_md());
}
void openssl_ll_many_sha256_files(benchmark::State& s) {
  openssl_ll_many_calls<shasta::Sha256>(s, file_sized_messages(), shasta::bench::kLowLevelSha256);
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
  openssl_many<shasta::Sha256>(s, shasta::bench::sha256_md());
}
void openssl_many_sha512(benchmark::State& s) {
  openssl_many<shasta::Sha512>(s, shasta::bench::sha512_md());
}
void openssl_many_sha256_node(benchmark::State& s) {
  openssl_many<shasta::Sha256>(s, shasta::bench::sha256_md());
}
void openssl_ll_many_sha256(benchmark::State& s) {
  openssl_ll_many<shasta::Sha256>(s, shasta::bench::kLowLevelSha256);
}
void openssl_ll_many_sha512(benchmark::State& s) {
  openssl_ll_many<shasta::Sha512>(s, shasta::bench::kLowLevelSha512);
}
void openssl_ll_many_sha256_node(benchmark::State& s) {
  openssl_ll_many<shasta::Sha256>(s, shasta::bench::kLowLevelSha256);
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

// A Merkle root over 65,536 leaves (65,535 node hashes): merkle_root against OpenSSL hashing each
// level's nodes one at a time with the same tree shape, each node's two children as one 64-byte
// message where they lie, through EVP (openssl_) or the low-level one-shot (openssl_ll_).
constexpr std::size_t kLeaves = 65536;
using Node = std::array<std::uint8_t, 32>;

std::vector<Node> merkle_leaves() {
  std::vector<Node> leaves(kLeaves);
  for (std::size_t i = 0; i < kLeaves; ++i)
    leaves[i] = shasta::sha256(std::span(pool(64).data() + (i % kCount) * 64, 64));
  return leaves;
}

void shasta_merkle_root_sha256(benchmark::State& state) {
  const std::vector<shasta::Sha256::Digest> leaves = merkle_leaves();
  std::vector<shasta::Sha256::Digest> scratch(kLeaves);
  for (auto _ : state) {
    scratch = leaves;
    benchmark::DoNotOptimize(shasta::merkle_root_in_place<shasta::Sha256>(scratch));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kLeaves - 1));
}

// The root of `level` (overwritten) with hash_node(children, parent): false where a call failed.
// A vector of 32-byte arrays is contiguous, so nodes i and i + 1 are 64 bytes in a row.
template <class HashNode>
bool openssl_merkle_root(std::vector<Node>& level, const HashNode& hash_node) {
  bool succeeded = true;
  for (std::size_t n = level.size(); n > 1; n = (n + 1) / 2) {
    for (std::size_t i = 0; i + 1 < n; i += 2) succeeded &= hash_node(level[i].data(), level[i / 2].data());
    if (n % 2 == 1) level[n / 2] = level[n - 1];
  }
  return succeeded;
}

template <class HashNode>
void time_openssl_merkle_root(benchmark::State& state, const HashNode& hash_node) {
  const std::vector<Node> leaves = merkle_leaves();
  std::vector<Node> level = leaves;
  const bool succeeded = openssl_merkle_root(level, hash_node);
  const auto expected = shasta::merkle_root<shasta::Sha256>(leaves);
  if (shasta::bench::openssl_matches(state, succeeded, expected, level[0].data())) {
    for (auto _ : state) {
      level = leaves;
      benchmark::DoNotOptimize(openssl_merkle_root(level, hash_node));
      benchmark::DoNotOptimize(level[0]);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kLeaves - 1));
}

void openssl_merkle_root_sha256(benchmark::State& state) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  unsigned int len = 0;
  state.SetLabel(shasta::bench::kEvpDigestCall);
  time_openssl_merkle_root(state, [&](const std::uint8_t* children, std::uint8_t* parent) {
    return EVP_DigestInit_ex(ctx, shasta::bench::sha256_md(), nullptr) == 1 &&
           EVP_DigestUpdate(ctx, children, 64) == 1 && EVP_DigestFinal_ex(ctx, parent, &len) == 1;
  });
  EVP_MD_CTX_free(ctx);
}

void openssl_ll_merkle_root_sha256(benchmark::State& state) {
  state.SetLabel(shasta::bench::kLowLevelSha256.call);
  time_openssl_merkle_root(state, [](const std::uint8_t* children, std::uint8_t* parent) {
    return shasta::bench::low_level_sha256(children, 64, parent);
  });
}

BENCHMARK(shasta_merkle_root_sha256);
BENCHMARK(openssl_merkle_root_sha256);
BENCHMARK(openssl_ll_merkle_root_sha256);

}  // namespace
