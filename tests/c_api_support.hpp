// c_api_support.hpp: OpenSSL's reference digest for the C API's algorithm ids.
#pragma once

#include <cstddef>

#include "shasta/shasta.h"
#include "support.hpp"

namespace shasta::test {

// openssl_md is OpenSSL's digest for a C API algorithm id; an unknown id fails the test.
inline const EVP_MD* openssl_md(shasta_alg alg) {
  switch (alg) {
    case SHASTA_SHA224: return EVP_sha224();
    case SHASTA_SHA256: return EVP_sha256();
    case SHASTA_SHA384: return EVP_sha384();
    case SHASTA_SHA512: return EVP_sha512();
    case SHASTA_SHA512_224: return EVP_sha512_224();
    case SHASTA_SHA512_256: return EVP_sha512_256();
  }
  ADD_FAILURE() << "no OpenSSL digest for algorithm id " << static_cast<int>(alg);
  return EVP_sha256();
}

// openssl_c_digest is OpenSSL's digest of a message, for a C API algorithm id.
inline Bytes openssl_c_digest(shasta_alg alg, const void* msg, std::size_t len) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int n = 0;
  EXPECT_EQ(EVP_Digest(msg != nullptr ? msg : "", len, out.data(), &n, openssl_md(alg), nullptr), 1);
  out.resize(n);
  return out;
}

}  // namespace shasta::test
