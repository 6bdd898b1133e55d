// stream_fuzzer.cpp: any message in any split gives OpenSSL's digest (EVP, an independent
// implementation), on the active kernel, for all six algorithms; a fork taken after each piece goes
// on independently and gives OpenSSL's digest of its own message; and the active kernel's block
// function equals the portable rounds. The first input byte picks the algorithm, the next ones the
// split points; the rest is the message.
#include <openssl/evp.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "shasta/sha2.hpp"

namespace {

template <class H>
const EVP_MD* md() {
  if constexpr (std::is_same_v<H, shasta::Sha224>) return EVP_sha224();
  if constexpr (std::is_same_v<H, shasta::Sha256>) return EVP_sha256();
  if constexpr (std::is_same_v<H, shasta::Sha384>) return EVP_sha384();
  if constexpr (std::is_same_v<H, shasta::Sha512>) return EVP_sha512();
  if constexpr (std::is_same_v<H, shasta::Sha512_224>) return EVP_sha512_224();
  if constexpr (std::is_same_v<H, shasta::Sha512_256>) return EVP_sha512_256();
}

template <class H>
auto one_shot(const std::uint8_t* msg, std::size_t len) {
  if constexpr (std::is_same_v<H, shasta::Sha224>) return shasta::sha224(msg, len);
  if constexpr (std::is_same_v<H, shasta::Sha256>) return shasta::sha256(msg, len);
  if constexpr (std::is_same_v<H, shasta::Sha384>) return shasta::sha384(msg, len);
  if constexpr (std::is_same_v<H, shasta::Sha512>) return shasta::sha512(msg, len);
  if constexpr (std::is_same_v<H, shasta::Sha512_224>) return shasta::sha512_224(msg, len);
  if constexpr (std::is_same_v<H, shasta::Sha512_256>) return shasta::sha512_256(msg, len);
}

// The digest must be OpenSSL's of the `len` bytes at `msg`, followed by `extra` when given.
template <class H, class Digest>
void expect_openssl(const Digest& got, const std::uint8_t* msg, std::size_t len, const char* extra = nullptr) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::uint8_t want[EVP_MAX_MD_SIZE];
  unsigned n = 0;
  if (ctx == nullptr || EVP_DigestInit_ex(ctx, md<H>(), nullptr) != 1 || EVP_DigestUpdate(ctx, msg, len) != 1 ||
      (extra != nullptr && EVP_DigestUpdate(ctx, extra, std::strlen(extra)) != 1) ||
      EVP_DigestFinal_ex(ctx, want, &n) != 1) {
    std::abort();
  }
  EVP_MD_CTX_free(ctx);
  if (n != got.size() || std::memcmp(got.data(), want, n) != 0) std::abort();
}

template <class H>
void check(const std::uint8_t* cuts, std::size_t ncuts, const std::uint8_t* msg, std::size_t len) {
  expect_openssl<H>(one_shot<H>(msg, len), msg, len);
  H h;
  std::size_t at = 0;
  for (std::size_t i = 0; i < ncuts && at < len; ++i) {
    const std::size_t piece = std::min<std::size_t>(cuts[i] * 3u, len - at);
    h.update(msg + at, piece);
    at += piece;
    H fork = h;  // a copy must go on independently, and so must the original
    expect_openssl<H>(fork.update("x", 1).finalize(), msg, at, "x");
  }
  h.update(msg + at, len - at);
  expect_openssl<H>(h.finalize(), msg, len);
  typename H::ChainingState portable = H::initial_state(), active = H::initial_state();
  const std::size_t blocks = len / H::block_size;
  if constexpr (H::block_size == 64) {
    shasta::detail::sha256_compress_portable(portable.data(), msg, blocks);
  } else {
    shasta::detail::sha512_compress_portable(portable.data(), msg, blocks);
  }
  H::compress_blocks(active, msg, blocks);
  if (portable != active) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t ncuts = std::min<std::size_t>(data[1] % 8, size - 2);
  const std::uint8_t* cuts = data + 2;
  const std::uint8_t* msg = cuts + ncuts;
  const std::size_t len = size - 2 - ncuts;
  switch (data[0] % 6) {
    case 0: check<shasta::Sha224>(cuts, ncuts, msg, len); break;
    case 1: check<shasta::Sha256>(cuts, ncuts, msg, len); break;
    case 2: check<shasta::Sha384>(cuts, ncuts, msg, len); break;
    case 3: check<shasta::Sha512>(cuts, ncuts, msg, len); break;
    case 4: check<shasta::Sha512_224>(cuts, ncuts, msg, len); break;
    default: check<shasta::Sha512_256>(cuts, ncuts, msg, len); break;
  }
  return 0;
}
