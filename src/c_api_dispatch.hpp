// c_api_dispatch.hpp: turning a shasta_alg into its C++ hasher type for the C API.
#pragma once

#include <type_traits>

#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

namespace shasta::capi {

template <class H>
struct AlgTag {
  using Hash = H;
};

inline bool known(shasta_alg alg) noexcept {
  return alg >= SHASTA_SHA224 && alg <= SHASTA_SHA512_256;
}

inline int code(Error e) noexcept {
  return -static_cast<int>(e);
}

// with_alg calls `f(AlgTag<H>{})` for alg's hasher H; `alg` must be known.
template <class F>
decltype(auto) with_alg(shasta_alg alg, F&& f) {
  switch (alg) {
    case SHASTA_SHA224: return f(AlgTag<Sha224>{});
    case SHASTA_SHA256: return f(AlgTag<Sha256>{});
    case SHASTA_SHA384: return f(AlgTag<Sha384>{});
    case SHASTA_SHA512: return f(AlgTag<Sha512>{});
    case SHASTA_SHA512_224: return f(AlgTag<Sha512_224>{});
    case SHASTA_SHA512_256: break;
  }
  return f(AlgTag<Sha512_256>{});
}

// null_with_length: a NULL pointer is only allowed with a zero length.
inline bool null_with_length(const void* p, std::size_t len) noexcept {
  return p == nullptr && len != 0;
}

}  // namespace shasta::capi
