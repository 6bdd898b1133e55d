// c_api.cpp: the hashing part of the C API of shasta.h over the C++ hashers.
#include <algorithm>
#include <new>

#include "c_api_dispatch.hpp"
#include "c_api_hash_ctx.hpp"
#include "shasta/hex.hpp"
#include "shasta/kernels.hpp"

using shasta::Error;
using shasta::capi::code;
using shasta::capi::known;
using shasta::capi::impossible_input;
using shasta::capi::impossible_range;
using shasta::capi::null_with_length;
using shasta::capi::with_alg;
using shasta::capi::alg_of;
using shasta::capi::counted;


namespace {

shasta::Family family_of(shasta_alg alg) noexcept {
  return alg <= SHASTA_SHA256 ? shasta::Family::sha224_256 : shasta::Family::sha384_512;
}

}  // namespace

extern "C" {

size_t shasta_digest_size(shasta_alg alg) {
  if (!known(alg)) return 0;
  return with_alg(alg, [](auto tag) { return decltype(tag)::Hash::digest_size; });
}

size_t shasta_block_size(shasta_alg alg) {
  if (!known(alg)) return 0;
  return with_alg(alg, [](auto tag) { return decltype(tag)::Hash::block_size; });
}

int shasta_hash(shasta_alg alg, const void* msg, size_t len, unsigned char* out, size_t out_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (out == nullptr || null_with_length(msg, len)) return code(Error::null_pointer);
  if (impossible_input(alg, msg, len)) return code(Error::input_too_long);
  return with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    if (out_len < H::digest_size) return code(Error::output_too_small);
    // The one-shot path (one kernel call for a short message), not a streaming context.
    const auto digest = shasta::detail::one_shot<typename H::Algorithm>(static_cast<const std::uint8_t*>(msg), len);
    std::copy(digest.begin(), digest.end(), out);
    return SHASTA_OK;
  });
}

shasta_hash_ctx* shasta_hash_new(shasta_alg alg) {
  if (!known(alg)) return nullptr;
  return with_alg(alg, [](auto tag) { return new (std::nothrow) shasta_hash_ctx{typename decltype(tag)::Hash()}; });
}

shasta_hash_ctx* shasta_hash_clone(const shasta_hash_ctx* ctx) {
  if (ctx == nullptr) return nullptr;
  return new (std::nothrow) shasta_hash_ctx(*ctx);
}

int shasta_hash_update(shasta_hash_ctx* ctx, const void* data, size_t len) {
  if (ctx == nullptr || null_with_length(data, len)) return code(Error::null_pointer);
  if (impossible_input(alg_of(*ctx), data, len, counted(*ctx))) return code(Error::input_too_long);
  std::visit([&](auto& h) { h.update(data, len); }, ctx->hasher);
  return SHASTA_OK;
}

int shasta_hash_final(shasta_hash_ctx* ctx, unsigned char* out, size_t out_len) {
  if (ctx == nullptr || out == nullptr) return code(Error::null_pointer);
  return code(std::visit([&](auto& h) { return h.finalize_into({out, out_len}); }, ctx->hasher));
}

void shasta_hash_free(shasta_hash_ctx* ctx) {
  if (ctx == nullptr) return;
  // The buffered tail of the message and the chaining state: a key or password hashed here must
  // not stay behind in freed memory (OpenSSL's EVP_MD_CTX_free clears its context too).
  std::visit([](auto& h) { shasta::detail::wipe_object(h); }, ctx->hasher);
  delete ctx;
}

const char* shasta_kernel_name(shasta_alg alg) {
  if (!known(alg)) return nullptr;
  // The names are string literals in the kernel tables, so data() is NUL-terminated and static.
  return shasta::active_kernel(family_of(alg)).data();
}

int shasta_force_kernel(shasta_alg alg, const char* name) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (name == nullptr) return code(Error::null_pointer);
  return code(shasta::force_kernel(family_of(alg), name));
}

int shasta_from_hex(const char* hex, size_t hex_len, unsigned char* out, size_t out_len) {
  if (null_with_length(hex, hex_len) || null_with_length(out, out_len)) return code(Error::null_pointer);
  if (impossible_range(hex, hex_len) || impossible_range(out, out_len)) return code(Error::input_too_long);
  return code(shasta::from_hex(std::string_view(hex != nullptr ? hex : "", hex_len), {out, out_len}));
}

// The C API's codes are the Error values negated; the last of them has its define.
static_assert(SHASTA_E_TRANSCRIPT_HASH_SIZE == -static_cast<int>(shasta::kLastError));

const char* shasta_strerror(int c) {
  if (c > 0 || c < -static_cast<int>(shasta::kLastError)) return "unknown error code";
  return shasta::error_message(static_cast<Error>(-c)).data();
}

// The macros as this library was compiled: a program built against other headers sees the difference.
const char* shasta_version(void) { return SHASTA_VERSION_STRING; }
int shasta_version_number(void) { return SHASTA_VERSION_NUMBER; }

}  // extern "C"
