// stream_fuzzer.cpp: any message in any split gives the one-shot digest, on the active kernel and
// on the portable rounds, for all six algorithms. The first input byte picks the algorithm, the
// next ones the split points; the rest is the message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "shasta/sha2.hpp"

namespace {

template <class H>
void check(const std::uint8_t* cuts, std::size_t ncuts, const std::uint8_t* msg, std::size_t len) {
  const auto expected = H().update(msg, len).finalize();
  H h;
  std::size_t at = 0;
  for (std::size_t i = 0; i < ncuts && at < len; ++i) {
    const std::size_t piece = std::min<std::size_t>(cuts[i] * 3u, len - at);
    h.update(msg + at, piece);
    H fork = h;  // a copy must go on independently
    (void)fork.update("x", 1).finalize();
    at += piece;
  }
  h.update(msg + at, len - at);
  if (h.finalize() != expected) std::abort();
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
