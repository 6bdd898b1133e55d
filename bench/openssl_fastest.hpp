// openssl_fastest.hpp: OpenSSL's fastest calls, the baselines every benchmark compares with. An
// EVP_MD fetched once (EVP_sha256() makes EVP_DigestInit_ex fetch on every init: 425 ns against 155
// for 64 bytes on a Xeon), and the low-level SHA*_Init/Update/Final (deprecated in OpenSSL 3, still
// shipped, and faster still for short messages: 101 ns). scripts/bench-ratio takes the faster of
// openssl_<x> and openssl_ll_<x> for each shasta_<x>, and prints the call each one makes: every
// OpenSSL benchmark names it with state.SetLabel.
#pragma once

#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace shasta::bench {

// fetched_md: the digest fetched once for the program, never freed.
inline const EVP_MD* fetched_md(const char* name) {
  return EVP_MD_fetch(nullptr, name, nullptr);
}

inline const EVP_MD* sha256_md() {
  static const EVP_MD* md = fetched_md("SHA2-256");
  return md;
}
inline const EVP_MD* sha512_md() {
  static const EVP_MD* md = fetched_md("SHA2-512");
  return md;
}

// The label of the EVP digest benchmarks (bench-ratio prints it beside the ratio).
inline constexpr const char* kEvpDigestCall = "EVP_Digest*, fetched EVP_MD";

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// low_level_sha256 / _sha512: the digest through SHA256_Init/Update/Final on a context on the
// stack; false where a call fails.
inline bool low_level_sha256(const unsigned char* p, std::size_t n, unsigned char* out) {
  SHA256_CTX c;
  return SHA256_Init(&c) == 1 && SHA256_Update(&c, p, n) == 1 && SHA256_Final(out, &c) == 1;
}
inline bool low_level_sha512(const unsigned char* p, std::size_t n, unsigned char* out) {
  SHA512_CTX c;
  return SHA512_Init(&c) == 1 && SHA512_Update(&c, p, n) == 1 && SHA512_Final(out, &c) == 1;
}
#pragma GCC diagnostic pop

// LowLevelHash is one of them with its label.
struct LowLevelHash {
  bool (*hash)(const unsigned char*, std::size_t, unsigned char*);
  const char* call;
};
inline constexpr LowLevelHash kLowLevelSha256{low_level_sha256, "SHA256_Init/Update/Final"};
inline constexpr LowLevelHash kLowLevelSha512{low_level_sha512, "SHA512_Init/Update/Final"};

// openssl_matches checks, once before the timing, that an OpenSSL call succeeded and wrote shasta's
// output for the same input: a call made wrongly would be timed doing something else. Otherwise
// the benchmark is skipped with an error (bench-ratio leaves the case out and exits 1).
inline bool openssl_matches(benchmark::State& state, bool call_succeeded, std::span<const std::uint8_t> expected,
                            const unsigned char* out) {
  if (!call_succeeded) {
    state.SkipWithError("an OpenSSL call failed");
    return false;
  }
  if (!std::equal(expected.begin(), expected.end(), out)) {
    state.SkipWithError("OpenSSL's output differs from shasta's");
    return false;
  }
  return true;
}

}  // namespace shasta::bench
