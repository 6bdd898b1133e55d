// c_api_hash_ctx.hpp: what a shasta_hash_ctx is: one of the six C++ hashers.
#pragma once

#include <variant>

#include "shasta/sha2.hpp"
#include "shasta/shasta.h"

struct shasta_hash_ctx {
  std::variant<shasta::Sha224, shasta::Sha256, shasta::Sha384, shasta::Sha512, shasta::Sha512_224, shasta::Sha512_256>
      hasher;
};
