// bench_peers.cpp: the other libraries a user might pick instead of shasta, on the cases where the
// issue asks shasta to be ahead of every peer: one-shot SHA-256 and SHA-512 (64 B to 1 MiB) and
// HMAC-SHA256 of 64 bytes under a fresh and a prepared key. Each peer is timed through its fastest
// call for the case:
// - nettle: a context on the stack (sha256_init/update/digest); HMAC: hmac_sha256_set_key once,
//   then update and digest, which leaves the context keyed for the next message;
// - libgcrypt: gcry_md_hash_buffer (no handle to open: its one-shot path); HMAC: a gcry_mac handle
//   keyed once and reset for each message;
// - Botan 2: a HashFunction made once, update and final on it; HMAC: a MessageAuthenticationCode
//   keyed once (final leaves it keyed).
// Named peer_<library>_<case>, so scripts/bench-ratio pairs each with shasta_<case>. A peer whose
// development package is missing (CMake's pkg-config check) is left out of the build.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "inputs.hpp"
#include "shasta/hmac.hpp"
#include "shasta/sha2.hpp"

#if defined(SHASTA_BENCH_NETTLE)
#include <nettle/hmac.h>
#include <nettle/sha2.h>
#endif
#if defined(SHASTA_BENCH_GCRYPT)
#include <gcrypt.h>
#endif
#if defined(SHASTA_BENCH_BOTAN)
#include <botan/hash.h>
#include <botan/mac.h>
#endif

namespace {

[[maybe_unused]] std::size_t arg_size(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0));
}

using shasta::bench::kKey;
using shasta::bench::kMessage;
using shasta::bench::message;

// One-shot digests of `size` bytes through `hash(data, size, out)`, after a check that the peer's
// digest is shasta's (a peer called wrongly would be timed doing something else).
template <class Reference, class Hash>
void peer_one_shot(benchmark::State& state, const Reference& shasta_hash, Hash&& hash) {
  const std::size_t size = arg_size(state);
  const auto& data = message(size);
  std::array<std::uint8_t, 64> out{};
  hash(data.data(), size, out.data());
  const auto expected = shasta_hash(data.data(), size);
  if (!std::equal(expected.begin(), expected.end(), out.begin())) {
    state.SkipWithError("the peer's digest differs from shasta's");
    return;
  }
  for (auto _ : state) {
    hash(data.data(), size, out.data());
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(size));
}

// HMAC-SHA256 tags of kMessage under kKey through `tag(out)`, counted as operations (as
// bench_kdf.cpp's), after the same check against shasta's tag.
template <class Tag>
void peer_tags(benchmark::State& state, Tag&& tag) {
  std::array<std::uint8_t, 32> out{};
  tag(out.data());
  if (out != shasta::hmac<shasta::Sha256>(kKey, kMessage)) {
    state.SkipWithError("the peer's tag differs from shasta's");
    return;
  }
  for (auto _ : state) {
    tag(out.data());
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

[[maybe_unused]] void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t size : {64, 1024, 16 * 1024, 1024 * 1024}) b->Arg(size);
}

#if defined(SHASTA_BENCH_NETTLE)
void peer_nettle_sha256(benchmark::State& state) {
  peer_one_shot(state, shasta::sha256, [](const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, n, p);
    sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
  });
}
void peer_nettle_sha512(benchmark::State& state) {
  peer_one_shot(state, shasta::sha512, [](const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    sha512_ctx ctx;
    sha512_init(&ctx);
    sha512_update(&ctx, n, p);
    sha512_digest(&ctx, SHA512_DIGEST_SIZE, out);
  });
}
void peer_nettle_hmac_sha256_fresh_key(benchmark::State& state) {
  peer_tags(state, [](std::uint8_t* out) {
    hmac_sha256_ctx ctx;
    hmac_sha256_set_key(&ctx, kKey.size(), kKey.data());
    hmac_sha256_update(&ctx, kMessage.size(), kMessage.data());
    hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);
  });
}
void peer_nettle_hmac_sha256_prepared_key(benchmark::State& state) {
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, kKey.size(), kKey.data());
  peer_tags(state, [&ctx](std::uint8_t* out) {
    hmac_sha256_update(&ctx, kMessage.size(), kMessage.data());
    hmac_sha256_digest(&ctx, SHA256_DIGEST_SIZE, out);  // and keyed again for the next
  });
}
BENCHMARK(peer_nettle_sha256)->Apply(sizes);
BENCHMARK(peer_nettle_sha512)->Apply(sizes);
BENCHMARK(peer_nettle_hmac_sha256_fresh_key);
BENCHMARK(peer_nettle_hmac_sha256_prepared_key);
#endif

#if defined(SHASTA_BENCH_GCRYPT)
// libgcrypt wants its version checked (which initialises it) before any other call.
void gcrypt_ready() {
  static const bool ready = [] {
    gcry_check_version(nullptr);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    return true;
  }();
  (void)ready;
}

void peer_gcrypt_sha256(benchmark::State& state) {
  gcrypt_ready();
  peer_one_shot(state, shasta::sha256, [](const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    gcry_md_hash_buffer(GCRY_MD_SHA256, out, p, n);
  });
}
void peer_gcrypt_sha512(benchmark::State& state) {
  gcrypt_ready();
  peer_one_shot(state, shasta::sha512, [](const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    gcry_md_hash_buffer(GCRY_MD_SHA512, out, p, n);
  });
}

// An HMAC-SHA256 handle; `keyed` sets kKey once.
gcry_mac_hd_t gcrypt_hmac(bool keyed) {
  gcrypt_ready();
  gcry_mac_hd_t h = nullptr;
  gcry_mac_open(&h, GCRY_MAC_HMAC_SHA256, 0, nullptr);
  if (keyed) gcry_mac_setkey(h, kKey.data(), kKey.size());
  return h;
}
void peer_gcrypt_hmac_sha256_fresh_key(benchmark::State& state) {
  gcry_mac_hd_t h = gcrypt_hmac(false);
  peer_tags(state, [h](std::uint8_t* out) {
    std::size_t len = 32;
    gcry_mac_setkey(h, kKey.data(), kKey.size());
    gcry_mac_write(h, kMessage.data(), kMessage.size());
    gcry_mac_read(h, out, &len);
  });
  gcry_mac_close(h);
}
void peer_gcrypt_hmac_sha256_prepared_key(benchmark::State& state) {
  gcry_mac_hd_t h = gcrypt_hmac(true);
  peer_tags(state, [h](std::uint8_t* out) {
    std::size_t len = 32;
    gcry_mac_reset(h);  // back to the keyed state
    gcry_mac_write(h, kMessage.data(), kMessage.size());
    gcry_mac_read(h, out, &len);
  });
  gcry_mac_close(h);
}
BENCHMARK(peer_gcrypt_sha256)->Apply(sizes);
BENCHMARK(peer_gcrypt_sha512)->Apply(sizes);
BENCHMARK(peer_gcrypt_hmac_sha256_fresh_key);
BENCHMARK(peer_gcrypt_hmac_sha256_prepared_key);
#endif

#if defined(SHASTA_BENCH_BOTAN)
template <class Reference>
void botan_one_shot(benchmark::State& state, const Reference& shasta_hash, const char* name) {
  const auto hash = Botan::HashFunction::create_or_throw(name);
  peer_one_shot(state, shasta_hash, [&hash](const std::uint8_t* p, std::size_t n, std::uint8_t* out) {
    hash->update(p, n);
    hash->final(out);
  });
}
void peer_botan_sha256(benchmark::State& state) {
  botan_one_shot(state, shasta::sha256, "SHA-256");
}
void peer_botan_sha512(benchmark::State& state) {
  botan_one_shot(state, shasta::sha512, "SHA-512");
}
void peer_botan_hmac_sha256_fresh_key(benchmark::State& state) {
  const auto mac = Botan::MessageAuthenticationCode::create_or_throw("HMAC(SHA-256)");
  peer_tags(state, [&mac](std::uint8_t* out) {
    mac->set_key(kKey.data(), kKey.size());
    mac->update(kMessage.data(), kMessage.size());
    mac->final(out);
  });
}
void peer_botan_hmac_sha256_prepared_key(benchmark::State& state) {
  const auto mac = Botan::MessageAuthenticationCode::create_or_throw("HMAC(SHA-256)");
  mac->set_key(kKey.data(), kKey.size());
  peer_tags(state, [&mac](std::uint8_t* out) {
    mac->update(kMessage.data(), kMessage.size());
    mac->final(out);  // and keyed again for the next
  });
}
BENCHMARK(peer_botan_sha256)->Apply(sizes);
BENCHMARK(peer_botan_sha512)->Apply(sizes);
BENCHMARK(peer_botan_hmac_sha256_fresh_key);
BENCHMARK(peer_botan_hmac_sha256_prepared_key);
#endif

}  // namespace
