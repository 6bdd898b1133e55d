// bench_kdf.cpp: HMAC, PBKDF2 and TLS 1.3 Expand-Label against OpenSSL 3.0's fastest calls in the
// same binary, with everything OpenSSL can set up once set up once:
// - HMAC under a fresh key: EVP_MAC with the digest set once and the key on every init (openssl_),
//   or an HMAC_CTX re-keyed by HMAC_Init_ex with an EVP_MD fetched once (openssl_ll_). HMAC() is
//   EVP_Q_mac in 3.0 (it fetches the MAC and the digest and makes a context on every call), and
//   EVP_MAC_init with the digest among its parameters fetches the digest on every call: both do
//   more work than these and are left out.
// - HMAC under a prepared key: EVP_MAC (openssl_) or HMAC_CTX (openssl_ll_) re-initialised on it.
// - PBKDF2: PKCS5_PBKDF2_HMAC with a fetched EVP_MD.
// - TLS 1.3 Expand-Label from a raw secret: EVP_KDF "TLS13-KDF" with every parameter set once
//   (openssl_), or an HMAC_CTX keyed with the secret over HkdfLabel and 0x01 (openssl_ll_).
// shasta_chained_<x> feed each call's output into the next call's input (and openssl_ll_chained_<x>
// the same for OpenSSL's HMAC_CTX): the latency that scripts/bench-ratio compares with the floors.
#include <benchmark/benchmark.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "inputs.hpp"
#include "openssl_fastest.hpp"
#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"

namespace {

using shasta::bench::kKey;
using shasta::bench::kMessage;
using shasta::bench::openssl_matches;
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

// The tag every HMAC case computes, as shasta computes it: OpenSSL's are checked against it.
template <class H>
typename H::Digest expected_tag() {
  return shasta::hmac<H>(kKey, kMessage);
}

// Times `mac_once()` (which writes `tag` and says whether every call succeeded) after a check of
// its first tag; `prepared`: whether what the variant does once, before, succeeded.
template <class H, class MacOnce>
void time_openssl_tags(benchmark::State& state, bool prepared, const MacOnce& mac_once, const unsigned char* tag) {
  if (openssl_matches(state, prepared && mac_once(), expected_tag<H>(), tag)) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(mac_once());
      benchmark::DoNotOptimize(tag);
    }
  }
  state.SetItemsProcessed(state.iterations());
}

template <class H>
void shasta_hmac_fresh_key(benchmark::State& state) {
  for (auto _ : state) {
    auto tag = shasta::hmac<H>(kKey, kMessage);
    benchmark::DoNotOptimize(tag);
  }
  state.SetItemsProcessed(state.iterations());
}

// EVP_MAC with the digest set once and a new key on every init.
template <class H>
void openssl_hmac_fresh_key(benchmark::State& state) {
  EVP_MAC* mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
  EVP_MAC_CTX* ctx = EVP_MAC_CTX_new(mac);
  const OSSL_PARAM params[] = {digest_param<H>(), OSSL_PARAM_construct_end()};
  unsigned char tag[64];
  std::size_t len = 0;
  const auto mac_once = [&] {
    return EVP_MAC_init(ctx, kKey.data(), kKey.size(), nullptr) == 1 &&
           EVP_MAC_update(ctx, kMessage.data(), kMessage.size()) == 1 && EVP_MAC_final(ctx, tag, &len, sizeof tag) == 1;
  };
  state.SetLabel("EVP_MAC, digest set once, key on each init");
  time_openssl_tags<H>(state, EVP_MAC_CTX_set_params(ctx, params) == 1, mac_once, tag);
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// The deprecated HMAC_CTX, reused: HMAC_Init_ex with a key re-keys it (its ipad and opad blocks
// hashed again), with the EVP_MD fetched once.
template <class H>
void openssl_ll_hmac_fresh_key(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  const EVP_MD* md = openssl_md<H>();
  unsigned char tag[64];
  unsigned int len = 0;
  const auto mac_once = [&] {
    return HMAC_Init_ex(ctx, kKey.data(), static_cast<int>(kKey.size()), md, nullptr) == 1 &&
           HMAC_Update(ctx, kMessage.data(), kMessage.size()) == 1 && HMAC_Final(ctx, tag, &len) == 1;
  };
  state.SetLabel("HMAC_CTX, HMAC_Init_ex with the key, fetched EVP_MD");
  time_openssl_tags<H>(state, true, mac_once, tag);
  HMAC_CTX_free(ctx);
}
#pragma GCC diagnostic pop

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
  unsigned char tag[64];
  std::size_t len = 0;
  const auto mac_once = [&] {
    return EVP_MAC_init(ctx, nullptr, 0, nullptr) == 1 &&  // the same key again
           EVP_MAC_update(ctx, kMessage.data(), kMessage.size()) == 1 && EVP_MAC_final(ctx, tag, &len, sizeof tag) == 1;
  };
  state.SetLabel("EVP_MAC re-initialised on the same key");
  time_openssl_tags<H>(state, EVP_MAC_init(ctx, kKey.data(), kKey.size(), params) == 1, mac_once, tag);
  EVP_MAC_CTX_free(ctx);
  EVP_MAC_free(mac);
}

// The deprecated HMAC_CTX re-initialised with a null key (the same key again): OpenSSL 1.1's
// prepared-key path, still shipped.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <class H>
void openssl_ll_hmac_prepared_key(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  unsigned char tag[64];
  unsigned int len = 0;
  const auto mac_once = [&] {
    return HMAC_Init_ex(ctx, nullptr, 0, nullptr, nullptr) == 1 &&
           HMAC_Update(ctx, kMessage.data(), kMessage.size()) == 1 && HMAC_Final(ctx, tag, &len) == 1;
  };
  state.SetLabel("HMAC_CTX re-initialised on the same key");
  const bool keyed = HMAC_Init_ex(ctx, kKey.data(), static_cast<int>(kKey.size()), openssl_md<H>(), nullptr) == 1;
  time_openssl_tags<H>(state, keyed, mac_once, tag);
  HMAC_CTX_free(ctx);
}
#pragma GCC diagnostic pop

// Chained: each tag is written over the start of the next message, so a MAC cannot begin before
// the last one ends (the floor's condition). tag_over(m) MACs the 64 bytes at m and writes the tag at m.
template <class TagOver>
void chained_tags(benchmark::State& state, const TagOver& tag_over) {
  std::array<std::uint8_t, 64> message = kMessage;
  for (auto _ : state) {
    tag_over(message.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}

template <class H>
void shasta_chained_hmac_prepared_key(benchmark::State& state) {
  const shasta::HmacKey<H> key(kKey);
  chained_tags(state, [&key](std::uint8_t* m) {
    const auto tag = shasta::hmac(key, shasta::ByteView(m, kMessage.size()));
    std::copy(tag.begin(), tag.end(), m);
  });
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// The same through OpenSSL's faster prepared-key call (bench-ratio's table says which).
template <class H>
void openssl_ll_chained_hmac_prepared_key(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  unsigned int len = 0;
  const auto tag_over = [&](std::uint8_t* m) {
    return HMAC_Init_ex(ctx, nullptr, 0, nullptr, nullptr) == 1 && HMAC_Update(ctx, m, kMessage.size()) == 1 &&
           HMAC_Final(ctx, m, &len) == 1;
  };
  state.SetLabel("HMAC_CTX re-initialised on the same key");
  std::array<std::uint8_t, 64> first = kMessage;
  const bool keyed = HMAC_Init_ex(ctx, kKey.data(), static_cast<int>(kKey.size()), openssl_md<H>(), nullptr) == 1;
  if (openssl_matches(state, keyed && tag_over(first.data()), expected_tag<H>(), first.data())) {
    chained_tags(state, tag_over);
  }
  HMAC_CTX_free(ctx);
}
#pragma GCC diagnostic pop

// Named per hash, as bench-ratio pairs them (shasta_X with openssl_X and openssl_ll_X).
#define SHASTA_HMAC_BENCHES(name, H)                                                                      \
  void shasta_hmac_##name##_fresh_key(benchmark::State& s) { shasta_hmac_fresh_key<H>(s); }               \
  void openssl_hmac_##name##_fresh_key(benchmark::State& s) { openssl_hmac_fresh_key<H>(s); }             \
  void openssl_ll_hmac_##name##_fresh_key(benchmark::State& s) { openssl_ll_hmac_fresh_key<H>(s); }       \
  void shasta_hmac_##name##_prepared_key(benchmark::State& s) { shasta_hmac_prepared_key<H>(s); }         \
  void openssl_hmac_##name##_prepared_key(benchmark::State& s) { openssl_hmac_prepared_key<H>(s); }       \
  void openssl_ll_hmac_##name##_prepared_key(benchmark::State& s) { openssl_ll_hmac_prepared_key<H>(s); } \
  void shasta_chained_hmac_##name##_prepared_key(benchmark::State& s) {                                   \
    shasta_chained_hmac_prepared_key<H>(s);                                                               \
  }                                                                                                       \
  void openssl_ll_chained_hmac_##name##_prepared_key(benchmark::State& s) {                               \
    openssl_ll_chained_hmac_prepared_key<H>(s);                                                           \
  }                                                                                                       \
  BENCHMARK(shasta_hmac_##name##_fresh_key);                                                              \
  BENCHMARK(openssl_hmac_##name##_fresh_key);                                                             \
  BENCHMARK(shasta_hmac_##name##_prepared_key);                                                           \
  BENCHMARK(openssl_hmac_##name##_prepared_key);                                                          \
  BENCHMARK(openssl_ll_hmac_##name##_fresh_key);                                                          \
  BENCHMARK(openssl_ll_hmac_##name##_prepared_key);                                                       \
  BENCHMARK(shasta_chained_hmac_##name##_prepared_key);                                                   \
  BENCHMARK(openssl_ll_chained_hmac_##name##_prepared_key)
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

// PKCS5_PBKDF2_HMAC of `blocks` output blocks, checked once against shasta's.
template <class H>
void openssl_pbkdf2_blocks(benchmark::State& state, std::size_t blocks) {
  std::array<std::uint8_t, 4 * H::digest_size> dk, expected;
  const auto size = blocks * H::digest_size;
  const auto derive = [&] {
    return PKCS5_PBKDF2_HMAC("password", 8, reinterpret_cast<const unsigned char*>("NaCl salt"), 9, kIterations,
                             openssl_md<H>(), static_cast<int>(size), dk.data()) == 1;
  };
  (void)shasta::pbkdf2_hmac<H>("password", "NaCl salt", kIterations, std::span(expected).first(size));
  state.SetLabel("PKCS5_PBKDF2_HMAC, fetched EVP_MD");
  if (openssl_matches(state, derive(), std::span(expected).first(size), dk.data())) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(derive());
      benchmark::DoNotOptimize(dk);
    }
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

void shasta_pbkdf2_4blocks_sha256(benchmark::State& s) {
  shasta_pbkdf2_4blocks<shasta::Sha256>(s);
}
void shasta_pbkdf2_4blocks_sha512(benchmark::State& s) {
  shasta_pbkdf2_4blocks<shasta::Sha512>(s);
}
void openssl_pbkdf2_4blocks_sha256(benchmark::State& s) {
  openssl_pbkdf2_blocks<shasta::Sha256>(s, 4);
}
void openssl_pbkdf2_4blocks_sha512(benchmark::State& s) {
  openssl_pbkdf2_blocks<shasta::Sha512>(s, 4);
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
  openssl_pbkdf2_blocks<shasta::Sha256>(s, 1);
}
void openssl_pbkdf2_sha512(benchmark::State& s) {
  openssl_pbkdf2_blocks<shasta::Sha512>(s, 1);
}

// TLS 1.3's "c hs traffic" secret: a 32-byte output, a 32-byte context (the transcript hash).
constexpr std::string_view kLabel = "c hs traffic";
using Secret = std::array<std::uint8_t, 32>;

Secret expected_expand_label() {
  Secret out{};
  (void)shasta::tls13_expand_label<shasta::Sha256>(kKey, kLabel, kKey, out);
  return out;
}

void shasta_tls13_expand_label(benchmark::State& state) {
  Secret out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(kKey, kLabel, kKey, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

// The same label under a secret prepared once (HmacKey): two blocks, the inner and the outer.
void shasta_tls13_expand_label_prepared_key(benchmark::State& state) {
  const shasta::HmacKey<shasta::Sha256> secret(kKey);
  Secret out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(secret, kLabel, kKey, out);
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations());
}

// Chained: each output is the next call's secret (as the key schedule chains its secrets), so the
// key's pads, the inner and the outer block of one call all wait for the last call.
void shasta_chained_tls13_expand_label(benchmark::State& state) {
  Secret secret = kKey, out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(secret, kLabel, kKey, out);
    secret = out;
    benchmark::DoNotOptimize(secret);
  }
  state.SetItemsProcessed(state.iterations());
}

// Chained under a prepared secret: each output is the next call's context.
void shasta_chained_tls13_expand_label_prepared_key(benchmark::State& state) {
  const shasta::HmacKey<shasta::Sha256> secret(kKey);
  Secret context = kKey, out;
  for (auto _ : state) {
    (void)shasta::tls13_expand_label<shasta::Sha256>(secret, kLabel, context, out);
    context = out;
    benchmark::DoNotOptimize(context);
  }
  state.SetItemsProcessed(state.iterations());
}

// EVP_KDF with every parameter set once (EVP_KDF_CTX_set_params): each derive with no parameters
// fetches nothing and copies no key, and still hashes the key's pads, as shasta's raw secret does.
void openssl_tls13_expand_label(benchmark::State& state) {
  EVP_KDF* kdf = EVP_KDF_fetch(nullptr, "TLS13-KDF", nullptr);
  EVP_KDF_CTX* ctx = EVP_KDF_CTX_new(kdf);
  char digest[] = "SHA256";
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  char prefix[] = "tls13 ";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(kKey.data()), kKey.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PREFIX, prefix, 6),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_LABEL, const_cast<char*>(kLabel.data()), kLabel.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_DATA, const_cast<std::uint8_t*>(kKey.data()), kKey.size()),
      OSSL_PARAM_construct_end()};
  Secret out;
  const auto derive = [&] { return EVP_KDF_derive(ctx, out.data(), out.size(), nullptr) == 1; };
  state.SetLabel("EVP_KDF TLS13-KDF, parameters set once");
  if (openssl_matches(state, EVP_KDF_CTX_set_params(ctx, params) == 1 && derive(), expected_expand_label(),
                      out.data())) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(derive());
      benchmark::DoNotOptimize(out);
    }
  }
  EVP_KDF_CTX_free(ctx);
  EVP_KDF_free(kdf);
  state.SetItemsProcessed(state.iterations());
}

// HkdfLabel (RFC 8446 section 7.1) for a 32-byte output, then HKDF-Expand's counter 0x01: T(1)'s
// whole message (RFC 5869 section 2.3), at most 515 bytes. Returns its length.
std::size_t lay_out_hkdf_label(std::string_view label, std::span<const std::uint8_t> context, std::uint8_t* out) {
  constexpr std::string_view kPrefix = "tls13 ";
  std::uint8_t* at = out;
  *at++ = 0;
  *at++ = 32;
  *at++ = static_cast<std::uint8_t>(kPrefix.size() + label.size());
  at = std::copy(kPrefix.begin(), kPrefix.end(), at);
  at = std::copy(label.begin(), label.end(), at);
  *at++ = static_cast<std::uint8_t>(context.size());
  at = std::copy(context.begin(), context.end(), at);
  *at++ = 1;
  return static_cast<std::size_t>(at - out);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// Expand-Label through a reused HMAC_CTX, as TLS13-KDF computes it inside (less its context made on
// every call): keyed with the secret, the HkdfLabel laid out on every call as shasta lays it out.
// Writes the 32 bytes at `out` (which may be the secret); false where a call fails.
bool hmac_ctx_expand_label(HMAC_CTX* ctx, const std::uint8_t* secret, std::span<const std::uint8_t> context,
                           std::uint8_t* out) {
  std::array<std::uint8_t, 515> message;
  const std::size_t size = lay_out_hkdf_label(kLabel, context, message.data());
  unsigned int len = 0;
  return HMAC_Init_ex(ctx, secret, 32, shasta::bench::sha256_md(), nullptr) == 1 &&
         HMAC_Update(ctx, message.data(), size) == 1 && HMAC_Final(ctx, out, &len) == 1;
}

constexpr const char* kHmacCtxExpandLabel = "HMAC_CTX keyed on each call, HkdfLabel and 0x01";

void openssl_ll_tls13_expand_label(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  Secret out;
  const auto derive = [&] { return hmac_ctx_expand_label(ctx, kKey.data(), kKey, out.data()); };
  state.SetLabel(kHmacCtxExpandLabel);
  if (openssl_matches(state, derive(), expected_expand_label(), out.data())) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(derive());
      benchmark::DoNotOptimize(out);
    }
  }
  HMAC_CTX_free(ctx);
  state.SetItemsProcessed(state.iterations());
}

// Chained as shasta_chained_tls13_expand_label: each output is the next call's secret.
void openssl_ll_chained_tls13_expand_label(benchmark::State& state) {
  HMAC_CTX* ctx = HMAC_CTX_new();
  Secret secret = kKey;
  state.SetLabel(kHmacCtxExpandLabel);
  if (openssl_matches(state, hmac_ctx_expand_label(ctx, secret.data(), kKey, secret.data()), expected_expand_label(),
                      secret.data())) {
    for (auto _ : state) {
      benchmark::DoNotOptimize(hmac_ctx_expand_label(ctx, secret.data(), kKey, secret.data()));
      benchmark::ClobberMemory();
    }
  }
  HMAC_CTX_free(ctx);
  state.SetItemsProcessed(state.iterations());
}
#pragma GCC diagnostic pop

BENCHMARK(shasta_pbkdf2_sha256);
BENCHMARK(openssl_pbkdf2_sha256);
BENCHMARK(shasta_pbkdf2_sha512);
BENCHMARK(openssl_pbkdf2_sha512);
BENCHMARK(shasta_tls13_expand_label);
BENCHMARK(shasta_tls13_expand_label_prepared_key);
BENCHMARK(openssl_tls13_expand_label);
BENCHMARK(openssl_ll_tls13_expand_label);
BENCHMARK(shasta_chained_tls13_expand_label);
BENCHMARK(shasta_chained_tls13_expand_label_prepared_key);
BENCHMARK(openssl_ll_chained_tls13_expand_label);

}  // namespace
