// c_api.cpp: the C API of shasta.h over the C++ hashers.
#include <algorithm>
#include <new>
#include <variant>

#include "shasta/kernels.hpp"
#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

struct shasta_hash_ctx {
  std::variant<shasta::Sha224, shasta::Sha256, shasta::Sha384, shasta::Sha512, shasta::Sha512_224,
               shasta::Sha512_256>
      hasher;
};

namespace {

int code(shasta::Error e) noexcept { return -static_cast<int>(e); }

bool known(shasta_alg alg) noexcept { return alg >= SHASTA_SHA224 && alg <= SHASTA_SHA512_256; }

// make builds the hasher of a known alg; the variant's index is alg - 1.
template <std::size_t I = 0>
shasta_hash_ctx make(shasta_alg alg) noexcept {
  if constexpr (I + 1 < std::variant_size_v<decltype(shasta_hash_ctx::hasher)>) {
    if (static_cast<std::size_t>(alg) - 1 != I) return make<I + 1>(alg);
  }
  return {decltype(shasta_hash_ctx::hasher)(std::in_place_index<I>)};
}

shasta::Family family_of(shasta_alg alg) noexcept {
  return alg <= SHASTA_SHA256 ? shasta::Family::sha256 : shasta::Family::sha512;
}

}  // namespace

extern "C" {

size_t shasta_digest_size(shasta_alg alg) {
  if (!known(alg)) return 0;
  return std::visit([](const auto& h) { return h.digest_size; }, make(alg).hasher);
}

size_t shasta_block_size(shasta_alg alg) {
  if (!known(alg)) return 0;
  return alg <= SHASTA_SHA256 ? 64 : 128;
}

int shasta_hash(shasta_alg alg, const void* msg, size_t len, unsigned char* out, size_t out_len) {
  if (!known(alg)) return code(shasta::Error::unknown_algorithm);
  if (out == nullptr || (msg == nullptr && len != 0)) return code(shasta::Error::null_pointer);
  const auto* bytes = static_cast<const std::uint8_t*>(msg);
  const auto write = [&](const auto& digest) {
    if (out_len < digest.size()) return code(shasta::Error::output_too_small);
    std::copy(digest.begin(), digest.end(), out);
    return SHASTA_OK;
  };
  switch (alg) {
    case SHASTA_SHA224: return write(shasta::sha224(bytes, len));
    case SHASTA_SHA256: return write(shasta::sha256(bytes, len));
    case SHASTA_SHA384: return write(shasta::sha384(bytes, len));
    case SHASTA_SHA512: return write(shasta::sha512(bytes, len));
    case SHASTA_SHA512_224: return write(shasta::sha512_224(bytes, len));
    case SHASTA_SHA512_256: return write(shasta::sha512_256(bytes, len));
  }
  return code(shasta::Error::unknown_algorithm);
}

shasta_hash_ctx* shasta_hash_new(shasta_alg alg) {
  if (!known(alg)) return nullptr;
  return new (std::nothrow) shasta_hash_ctx(make(alg));
}

shasta_hash_ctx* shasta_hash_clone(const shasta_hash_ctx* ctx) {
  if (ctx == nullptr) return nullptr;
  return new (std::nothrow) shasta_hash_ctx(*ctx);
}

int shasta_hash_update(shasta_hash_ctx* ctx, const void* data, size_t len) {
  if (ctx == nullptr || (data == nullptr && len != 0)) return code(shasta::Error::null_pointer);
  std::visit([&](auto& h) { h.update(data, len); }, ctx->hasher);
  return SHASTA_OK;
}

int shasta_hash_final(shasta_hash_ctx* ctx, unsigned char* out, size_t out_len) {
  if (ctx == nullptr || out == nullptr) return code(shasta::Error::null_pointer);
  return code(std::visit([&](auto& h) { return h.finalize_into({out, out_len}); }, ctx->hasher));
}

void shasta_hash_free(shasta_hash_ctx* ctx) { delete ctx; }

const char* shasta_kernel_name(shasta_alg alg) {
  if (!known(alg)) return nullptr;
  // The names are string literals in the kernel tables, so data() is NUL-terminated and static.
  return shasta::active_kernel(family_of(alg)).data();
}

int shasta_force_kernel(shasta_alg alg, const char* name) {
  if (!known(alg)) return code(shasta::Error::unknown_algorithm);
  if (name == nullptr) return code(shasta::Error::null_pointer);
  return code(shasta::force_kernel(family_of(alg), name));
}

const char* shasta_strerror(int c) {
  if (c > 0 || c < -static_cast<int>(shasta::Error::invalid_hex)) return "unknown error code";
  return shasta::error_message(static_cast<shasta::Error>(-c)).data();
}

}  // extern "C"
