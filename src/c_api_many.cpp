// c_api_many.cpp: the C API's many-message calls: shasta_hash_many (hash_many, reading the caller's
// pointer and length arrays in place), shasta_hash_update_many (update_many, in groups on the
// stack) and shasta_lane_count. No allocation.
#include <algorithm>
#include <array>
#include <type_traits>

#include "c_api_dispatch.hpp"
#include "c_api_hash_ctx.hpp"
#include "many_engine.hpp"
#include "shasta/many.hpp"

using shasta::Error;
using shasta::capi::code;
using shasta::capi::known;
using shasta::capi::alg_of;
using shasta::capi::counted;
using shasta::capi::impossible_input;
using shasta::capi::null_with_length;
using shasta::capi::with_alg;

namespace {

// The most contexts handed to update_many at once; a group is the largest multiple of the lane
// count that fits, so that every group fills the lanes (ten SHA-512 contexts on five lanes: 5 + 5).
constexpr size_t kMaxGroup = 32;

size_t group_size(size_t lanes) noexcept {
  return lanes >= kMaxGroup ? kMaxGroup : kMaxGroup / lanes * lanes;
}

}  // namespace

extern "C" {

int shasta_hash_many(shasta_alg alg, size_t count, const void* const* msgs, const size_t* lens,
                     unsigned char* digests, size_t digests_len) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (count == 0) return SHASTA_OK;
  if (msgs == nullptr || lens == nullptr || digests == nullptr) return code(Error::null_pointer);
  // Before msgs and lens are read: a count larger than the arrays is most likely what is wrong.
  if (count > digests_len / shasta_digest_size(alg)) return code(Error::output_too_small);
  for (size_t i = 0; i < count; ++i) {
    if (null_with_length(msgs[i], lens[i])) return code(Error::null_pointer);
  }
  for (size_t i = 0; i < count; ++i) {
    if (impossible_input(alg, msgs[i], lens[i])) return code(Error::input_too_long);
  }
  with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    shasta::detail::hash_many_run<typename H::Algorithm>(
        count, [msgs, lens](size_t i) noexcept { return shasta::ByteView(msgs[i], lens[i]); }, digests);
  });
  return SHASTA_OK;
}

int shasta_hash_update_many(shasta_hash_ctx* const* ctxs, size_t count, const void* const* chunks,
                            const size_t* lens) {
  if (count == 0) return SHASTA_OK;
  if (ctxs == nullptr || chunks == nullptr || lens == nullptr) return code(Error::null_pointer);
  for (size_t i = 0; i < count; ++i) {
    if (ctxs[i] == nullptr || null_with_length(chunks[i], lens[i])) return code(Error::null_pointer);
    if (ctxs[i]->hasher.index() != ctxs[0]->hasher.index()) return code(Error::invalid_parameter);
  }
  // Each chunk against its context's count (a context named twice takes its chunks one after the
  // other, update_many's rule; their sum is not checked against the FIPS limit again).
  for (size_t i = 0; i < count; ++i) {
    if (impossible_input(alg_of(*ctxs[i]), chunks[i], lens[i], counted(*ctxs[i]))) {
      return code(Error::input_too_long);
    }
  }
  std::visit(
      [&](auto& first) {
        using H = std::remove_reference_t<decltype(first)>;
        const size_t group = group_size(shasta::lane_count<H>());
        for (size_t start = 0; start < count; start += group) {
          const size_t n = std::min(group, count - start);
          std::array<H*, kMaxGroup> hashers;
          std::array<shasta::ByteView, kMaxGroup> views;
          for (size_t i = 0; i < n; ++i) {
            hashers[i] = &std::get<H>(ctxs[start + i]->hasher);
            views[i] = shasta::ByteView(chunks[start + i], lens[start + i]);
          }
          (void)shasta::update_many<H>(std::span<H* const>(hashers.data(), n),
                                       std::span<const shasta::ByteView>(views.data(), n));
        }
      },
      ctxs[0]->hasher);
  return SHASTA_OK;
}

size_t shasta_lane_count(shasta_alg alg) {
  if (!known(alg)) return 0;
  return with_alg(alg, [](auto tag) { return shasta::lane_count<typename decltype(tag)::Hash>(); });
}

}  // extern "C"
