// c_api_many.cpp: shasta_hash_many, the C face of hash_many, reading the caller's pointer and
// length arrays in place (no allocation).
#include "c_api_dispatch.hpp"
#include "many_engine.hpp"

using shasta::Error;
using shasta::capi::code;
using shasta::capi::known;
using shasta::capi::null_with_length;
using shasta::capi::with_alg;

extern "C" {

int shasta_hash_many(shasta_alg alg, size_t count, const void* const* msgs, const size_t* lens,
                     unsigned char* digests) {
  if (!known(alg)) return code(Error::unknown_algorithm);
  if (count == 0) return SHASTA_OK;
  if (msgs == nullptr || lens == nullptr || digests == nullptr) return code(Error::null_pointer);
  for (size_t i = 0; i < count; ++i) {
    if (null_with_length(msgs[i], lens[i])) return code(Error::null_pointer);
  }
  with_alg(alg, [&](auto tag) {
    using H = typename decltype(tag)::Hash;
    shasta::detail::hash_many_run<typename H::Algorithm>(
        count, [msgs, lens](size_t i) noexcept { return shasta::ByteView(msgs[i], lens[i]); }, digests);
  });
  return SHASTA_OK;
}

}  // extern "C"
