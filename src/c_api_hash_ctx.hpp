// c_api_hash_ctx.hpp: what a shasta_hash_ctx is: one of the six C++ hashers.
#pragma once

#include <cstdint>
#include <variant>

#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

struct shasta_hash_ctx {
  std::variant<shasta::Sha224, shasta::Sha256, shasta::Sha384, shasta::Sha512, shasta::Sha512_224, shasta::Sha512_256>
      hasher;
};

namespace shasta::capi {

// The context's algorithm: the variant's alternatives are in shasta_alg's order, from SHASTA_SHA224.
inline shasta_alg alg_of(const shasta_hash_ctx& ctx) noexcept {
  return static_cast<shasta_alg>(SHASTA_SHA224 + static_cast<int>(ctx.hasher.index()));
}

inline std::uint64_t counted(const shasta_hash_ctx& ctx) noexcept {
  return std::visit([](const auto& h) { return h.bytes_counted(); }, ctx.hasher);
}

}  // namespace shasta::capi
