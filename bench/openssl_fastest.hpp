// openssl_fastest.hpp: OpenSSL's fastest calls, the baselines every benchmark compares with. An
// EVP_MD fetched once (EVP_sha256() makes EVP_DigestInit_ex fetch on every init: 425 ns against 155
// for 64 bytes on a Xeon), and the low-level SHA*_Init/Update/Final (deprecated in OpenSSL 3, still
// shipped, and faster still for short messages: 101 ns). scripts/bench-ratio takes the faster of
// openssl_<x> (EVP, fetched) and openssl_ll_<x> (low level) for each shasta_<x>.
#pragma once

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <cstddef>

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

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
// low_level_sha256 / _sha512: the digest through SHA256_Init/Update/Final on a context on the stack.
inline void low_level_sha256(const unsigned char* p, std::size_t n, unsigned char* out) {
  SHA256_CTX c;
  SHA256_Init(&c);
  SHA256_Update(&c, p, n);
  SHA256_Final(out, &c);
}
inline void low_level_sha512(const unsigned char* p, std::size_t n, unsigned char* out) {
  SHA512_CTX c;
  SHA512_Init(&c);
  SHA512_Update(&c, p, n);
  SHA512_Final(out, &c);
}
#pragma GCC diagnostic pop

}  // namespace shasta::bench
