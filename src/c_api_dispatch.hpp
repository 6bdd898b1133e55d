// c_api_dispatch.hpp: turning a shasta_alg into its C++ hasher type for the C API.
#pragma once

#include <cstddef>
#include <cstdint>
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

// max_input is the longest message (bytes in all) the C API lets alg's family hash: FIPS 180-4
// allows SHA-224/256 fewer than 2^64 bits, 2^61 - 1 bytes, and 128 bytes are kept back for the
// framing HMAC (the ipad block) and PBKDF2 (a block and the index) put before the caller's bytes.
// SHA-384/512 allow 2^125 bytes: a stream of them is held back only where the count the C API
// keeps (64 bits) would wrap. (PTRDIFF_MAX here stopped a 32-bit program's SHA-512 streams at 2 GiB;
// one call's length is held to PTRDIFF_MAX by impossible_input on its own.)
inline std::uint64_t max_input(shasta_alg alg) noexcept {
  return alg <= SHASTA_SHA256 ? (std::uint64_t{1} << 61) - 1 - 128 : UINT64_MAX;
}

// impossible_range: a (pointer, length) no memory can hold: longer than any object (PTRDIFF_MAX),
// or running past the end of the address space.
inline bool impossible_range(const void* p, std::size_t len) noexcept {
  return len > std::size_t{PTRDIFF_MAX} || reinterpret_cast<std::uintptr_t>(p) > UINTPTR_MAX - len;
}

// impossible_input: an impossible_range, or more than max_input with the `counted` bytes a stream
// already holds. Checked before anything is read: hashing would read unmapped memory.
inline bool impossible_input(shasta_alg alg, const void* p, std::size_t len, std::uint64_t counted = 0) noexcept {
  const std::uint64_t limit = max_input(alg);
  return impossible_range(p, len) || counted > limit || len > limit - counted;
}

}  // namespace shasta::capi
