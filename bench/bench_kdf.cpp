// bench_kdf.cpp: HMAC, PBKDF2 and TLS 1.3 Expand-Label against OpenSSL 3.0 in the same binary, in
// the shapes the issue names: HMAC() one-shot with a fresh key, EVP_MAC re-initialised on the same
// key, PKCS5_PBKDF2_HMAC, and EVP_KDF "TLS13-KDF" in expand-only mode.
#include <benchmark/benchmark.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "inputs.hpp"
#include "openssl_fastest.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"

namespace {

using shasta::bench::kKey;
using shasta::bench::kMessage;
constexpr std::uint64_t kIterations = 10000;

// Each HMAC shape for SHA-256 and SHA-512: the OpenSSL digest and its name for EVP_MAC.
template <class H>
const EVP_MD* openssl_md() {
  return H::digest_size == 32 ? shasta::bench::sha256_md() : shasta::bench::sha512_md();
}
template <class H>
OSSL_PARAM digest_param() {
  static char name[] = "SHA256";
  static char name512[] = "SHA512";
  return OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, H::digest_size == 32 ? name : name512, 0);
}

template <class H>
void shasta_hmac_fresh_key(benchmark::State& state) {
  for (auto _ : state) {
    auto tag = shasta::hmac<H>(kKey, kMessage);
    benchmark::DoNotOptimize(tag);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class H>
void openssl_hmac_fresh_key(benchmark::State& state) {
  unsigned char tag[64];
  unsigned int len = 0;
  for (auto _ : state) {
    HMAC(openssl_md<H>(), kKey.data(), kKey.size(), kMessage.data(), kMessage.size(), tag, &len);
    benchmark::DoNotOptimize(tag);
  }
  state.SetItemsProcessed(state.iterations());
}

// The same with EVP_MAC: a new key on every init (openssl_ll_: the other OpenSSL shape, the faster wins).
template <class H>
void openssl_ll_hmac_fresh_key(benchmark::State& state) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  const OSSL_PARAM params[] = {digest_param<H>(), OSSL_PARAM_construct_end()};
  unsigned char tag[64];
  std::size_t len = 0;
  for (auto _ : state) {
    EVP_MAC_init(ctx, kKey.data(), kKey.size(), params);
    EVP_MAC_update(ctx, kMessage.data(), kMessage.size());
    EVP_MAC_final(ctx, tag, &len, sizeof tag);
    benchmark::DoNotOptimize(tag);
  }
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  state.SetItemsProcessed(state.iterations());
}

template <class H>
void shasta_hmac_prepared_key(benchmark::State& state) {
  const shasta::HmacKey<H> key(kKey);
  for (auto _ : state) {
    auto tag = shasta::hmac(key, kMessage);
    benchmark::DoNotOptimize(tag);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class H>
void openssl_hmac_prepared_key(benchmark::State& state) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  const OSSL_PARAM params[] = {digest_param<H>(), OSSL_PARAM_construct_end()};
  EVP_MAC_init(ctx, kKey.data(), kKey.size(), params);
  unsigned char tag[64];
  std::size_t len = 0;
  for (auto _ : state) {
    EVP_MAC_init(ctx, nullptr, 0, nullptr);  // the same key again
    EVP_MAC_update(ctx, kMessage.data(), kMessage.size());
    EVP_MAC_final(ctx, tag, &len, sizeof tag);
    benchmark::DoNotOptimize(tag);
  }
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
  state.SetItemsProcessed(state.iterations());
}

// The deprecated HMAC_CTX re-initialised with a null key (the same key again): OpenSSL 1.1's
// prepared-key path, still shipped.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <class H>
void openssl_ll_hmac_prepared_key(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  HMAC_Init_ex(ctx, kKey.data(), static_cast<int>(kKey.size()), openssl_md<H>(), nullptr);
  unsigned char tag[64];
  unsigned int len = 0;
  for (auto _ : state) {
    HMAC_Init_ex(ctx, nullptr, 0, nullptr, nullptr);
    HMAC_Update(ctx, kMessage.data(), kMessage.size());
    HMAC_Final(ctx, tag, &len);
    benchmark::DoNotOptimize(tag);
  }
  HMAC_CTX_free(ctx);
  state.SetItemsProcessed(state.iterations());
}
#pragma GCC diagnostic pop

// Named per hash, as bench-ratio pairs them (shasta_X with openssl_X and openssl_ll_X).
#define SHASTA_HMAC_BENCHES(name, H)                                                                  \
  void shasta_hmac_##name##_fresh_key(benchmark::State& s) { shasta_hmac_fresh_key<H>(s); }              \
  void openssl_hmac_##name##_fresh_key(benchmark::State& s) { openssl_hmac_fresh_key<H>(s); }            \
  void openssl_ll_hmac_##name##_fresh_key(benchmark::State& s) { openssl_ll_hmac_fresh_key<H>(s); }      \
  void shasta_hmac_##name##_prepared_key(benchmark::State& s) { shasta_hmac_prepared_key<H>(s); }        \
  void openssl_hmac_##name##_prepared_key(benchmark::State& s) { openssl_hmac_prepared_key<H>(s); }      \
  void openssl_ll_hmac_##name##_prepared_key(benchmark::State& s) { openssl_ll_hmac_prepared_key<H>(s); } \
  BENCHMARK(shasta_hmac_##name##_fresh_key);                                                           \
  BENCHMARK(openssl_hmac_##name##_fresh_key);                                                          \
  BENCHMARK(shasta_hmac_##name##_prepared_key);                                                        \
  BENCHMARK(openssl_hmac_##name##_prepared_key);                                                       \
  BENCHMARK(openssl_ll_hmac_##name##_fresh_key);                                                       \
  BENCHMARK(openssl_ll_hmac_##name##_prepared_key)
SHASTA_HMAC_BENCHES(sha256, shasta::Sha256);
SHASTA_HMAC_BENCHES(sha512, shasta::Sha512);

template <class H>
void shasta_pbkdf2(benchmark::State& state) {
  std::array<std::uint8_t, H::digest_size> dk;
  for (auto _ : state) {
    (void)shasta::pbkdf2_hmac<H>("password", "NaCl salt", kIterations, dk);
    benchmark::DoNotOptimize(dk);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIterations));
}

void openssl_pbkdf2(benchmark::State& state, const EVP_MD* md) {
  std::array<std::uint8_t, 64> dk;
  const int len = EVP_MD_get_size(md);
  for (auto _ : state) {
    PKCS5_PBKDF2_HMAC("password", 8, reinterpret_cast<const unsigned char*>("NaCl salt"), 9, kIterations, md, len,
                      dk.data());
    benchmark::DoNotOptimize(dk);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIterations));
}

// Four output blocks (128 bytes of SHA-256, 256 of SHA-512): side by side on the lanes.
template <class H>
void shasta_pbkdf2_4blocks(benchmark::State& state) {
  std::array<std::uint8_t, 4 * H::digest_size> dk;
  for (auto _ : state) {
    (void)shasta::pbkdf2_hmac<H>("password", "NaCl salt", kIterations, dk);
    benchmark::DoNotOptimize(dk);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIterations));
}

void openssl_pbkdf2_4blocks(benchmark::State& state, const EVP_MD* md) {
  std::array<std::uint8_t, 4 * 64> dk;
  const int len = 4 * EVP_MD_get_size(md);
  for (auto _ : state) {
    PKCS5_PBKDF2_HMAC("password", 8, reinterpret_cast<const unsigned char*>("NaCl salt"), 9, kIterations, md, len,
                      dk.data());
    benchmark::DoNotOptimize(dk);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kIterations));
}

void shasta_pbkdf2_4blocks_sha256(benchmark::State& s) {
  shasta_pbkdf2_4blocks<shasta::Sha256>(s);
}
void shasta_pbkdf2_4blocks_sha512(benchmark::State& s) {
  shasta_pbkdf2_4blocks<shasta::Sha512>(s);
}
void openssl_pbkdf2_4blocks_sha256(benchmark::State& s) {
  openssl_pbkdf2_4blocks(s, shasta::bench::sha256_md());
}
void openssl_pbkdf2_4blocks_sha512(benchmark::State& s) {
  openssl_pbkdf2_4blocks(s, shasta::bench::sha512_md());
}
BENCHMARK(shasta_pbkdf2_4blocks_sha256);
BENCHMARK(openssl_pbkdf2_4blocks_sha256);
BENCHMARK(shasta_pbkdf2_4blocks_sha512);
BENCHMARK(openssl_pbkdf2_4blocks_sha512);

void shasta_pbkdf2_sha256(benchmark::State& s) {
  shasta_pbkdf2<shasta::Sha256>(s);
}
void shasta_pbkdf2_sha512(benchmark::State& s) {
  shasta_pbkdf2<shasta::Sha512>(s);
}
void openssl_pbkdf2_sha256(benchmark::State& s) {
  openssl_pbkdf2(s, shasta::bench::sha256_md());
}
void openssl_pbkdf2_sha512(benchmark::State& s) {
  openssl_pbkdf2(s, shasta::bench::sha512_md());
}

void shasta_tls13_expand_label(benchmark::State& state) {
  std::array<std::uint8_t, 32> out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(kKey, "c hs traffic", kKey, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

// The same label under a secret prepared once (HmacKey): two blocks, the inner and the outer.
void shasta_tls13_expand_label_prepared_key(benchmark::State& state) {
  const shasta::HmacKey<shasta::Sha256> secret(kKey);
  std::array<std::uint8_t, 32> out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(secret, "c hs traffic", kKey, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

void openssl_tls13_expand_label(benchmark::State& state) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "TLS13-KDF", nullptr);
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  char digest[] = "SHA256";
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  char prefix[] = "tls13 ", label[] = "c hs traffic";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(kKey.data()), kKey.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PREFIX, prefix, 6),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_LABEL, label, std::strlen(label)),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_DATA, const_cast<std::uint8_t*>(kKey.data()), kKey.size()),
      OSSL_PARAM_construct_end()};
  std::array<std::uint8_t, 32> out;
  for (auto _ : state) {
    EVP_KDF_derive(ctx, out.data(), out.size(), params);
    benchmark::DoNotOptimize(out);
  }
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(shasta_pbkdf2_sha256);
BENCHMARK(openssl_pbkdf2_sha256);
BENCHMARK(shasta_pbkdf2_sha512);
BENCHMARK(openssl_pbkdf2_sha512);
BENCHMARK(shasta_tls13_expand_label);
BENCHMARK(shasta_tls13_expand_label_prepared_key);
BENCHMARK(openssl_tls13_expand_label);

}  // namespace
