// hasher_dispatch.hpp: from a run-time Algorithm to the library's hasher type, for the templates
// (HmacKey<H>, hkdf<H>, pbkdf2_hmac<H>) that the commands call.
#pragma once

#include "digester.hpp"
#include "shasta/sha2.hpp"

namespace shasta::cli {

// Calls f.template operator()<H>() with H the hasher of `algorithm`, and returns what it returns.
template <class F>
decltype(auto) with_hasher_type(const Algorithm& algorithm, F&& f) {
  switch (algorithm.id) {
    case AlgorithmId::sha224: return f.template operator()<Sha224>();
    case AlgorithmId::sha256: return f.template operator()<Sha256>();
    case AlgorithmId::sha384: return f.template operator()<Sha384>();
    case AlgorithmId::sha512: return f.template operator()<Sha512>();
    case AlgorithmId::sha512_224: return f.template operator()<Sha512_224>();
    case AlgorithmId::sha512_256: break;
  }
  return f.template operator()<Sha512_256>();
}

}  // namespace shasta::cli
