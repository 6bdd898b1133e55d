// pbkdf2.cpp: the PBKDF2 engine behind include/shasta/pbkdf2.hpp: output blocks one at a time on
// the single-stream kernel (or the active kernel's own register-resident loop), or several side by
// side on its lane kernel.
#include "shasta/pbkdf2.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>

#include "pbkdf2_loop.hpp"
#include "shasta/detail/lanes.hpp"
#include "shasta/hmac.hpp"

namespace shasta {

namespace detail {
namespace {

// load_be reads `n` bytes as the leading big-endian words of a state (the rest zero).
template <class Word>
inline std::array<Word, 8> load_be(const std::uint8_t* in, std::size_t n) noexcept {
  std::array<Word, 8> state{};
  for (std::size_t i = 0; i < n; ++i) {
    state[i / sizeof(Word)] |= static_cast<Word>(Word{in[i]} << (8 * (sizeof(Word) - 1 - i % sizeof(Word))));
  }
  return state;
}

// pad_after_digest lays out a block holding a HashLen-byte message that follows one already
// absorbed block: the digest bytes go at the front, then 0x80, zeros and the bit length of
// block + HashLen bytes (FIPS 180-4 section 5.1).
template <class H>
void pad_after_digest(std::array<std::uint8_t, H::block_size>& block) noexcept {
  constexpr std::size_t kLengthSize = H::block_size == 64 ? 8 : 16;
  block.fill(0);
  block[H::digest_size] = 0x80;
  const std::uint64_t bits = 8 * (H::block_size + H::digest_size);
  for (std::size_t i = 0; i < 8; ++i) {
    block[H::block_size - 1 - i] = static_cast<std::uint8_t>(bits >> (8 * i));
  }
  static_assert(H::digest_size + 1 + kLengthSize <= H::block_size, "the digest must fit one padded block");
}

// first_u computes U1 = HMAC(P, S || INT(index)) for one output block, through the streaming inner
// hash since S has any length.
template <class H>
typename H::Digest first_u(const HmacKey<H>& key, ByteView salt, std::uint32_t index) noexcept {
  const std::uint8_t be_index[4] = {static_cast<std::uint8_t>(index >> 24), static_cast<std::uint8_t>(index >> 16),
                                    static_cast<std::uint8_t>(index >> 8), static_cast<std::uint8_t>(index)};
  H inner = key.inner();
  inner.update(salt.span()).update(std::span<const std::uint8_t>(be_index));
  typename H::Digest u = finish_hmac(key, inner);
  wipe_object(inner);
  return u;
}

// pbkdf2_block writes output block T(index) (its first out.size() bytes) on the single-stream
// kernel: two compressions an iteration on pre-padded one-block buffers.
template <class H>
void pbkdf2_block(const HmacKey<H>& key, ByteView salt, std::uint64_t iterations, std::uint32_t index,
                  std::span<std::uint8_t> out) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  using State = typename H::ChainingState;
  std::array<std::uint8_t, H::block_size> inner_block, outer_block;
  pad_after_digest<H>(inner_block);
  pad_after_digest<H>(outer_block);
  typename H::Digest u = first_u(key, salt, index);
  std::copy(u.begin(), u.end(), inner_block.begin());
  State sum = load_be<typename H::Word>(u.data(), kHashLen);
  if constexpr (std::is_same_v<H, Sha256>) {
    State last = sum;
    const bool done = pbkdf2_iterate_256(key.inner_state().data(), key.outer_state().data(), last.data(),
                                         sum.data(), iterations - 1);
    wipe_object(last);
    if (done) {
      store_digest(sum, out);
      wipe_object(sum);
      wipe_object(u);
      wipe_object(inner_block);
      return;
    }
  }
  wipe_object(u);
  State state{};
  for (std::uint64_t j = 1; j < iterations; ++j) {
    state = key.inner_state();
    H::compress_blocks(state, inner_block.data(), 1);
    store_digest(state, std::span(outer_block).first(kHashLen));
    state = key.outer_state();
    H::compress_blocks(state, outer_block.data(), 1);
    store_digest(state, std::span(inner_block).first(kHashLen));
    for (std::size_t w = 0; w < 8; ++w) sum[w] ^= state[w];
  }
  store_digest(sum, out);
  wipe_object(state);
  wipe_object(sum);
  wipe_object(inner_block);
  wipe_object(outer_block);
}

// The family's lane kernel (lanes.hpp): e.g. 4 SHA-256 streams on SHA-NI, 8 SHA-512 streams on
// AVX-512.
template <class H>
auto lane_kernel() noexcept {
  if constexpr (sizeof(typename H::Word) == 4)
    return active_lanes_256();
  else
    return active_lanes_512();
}

inline constexpr std::size_t kMaxPbkdf2Lanes = 16;

// pbkdf2_blocks_in_lanes writes `count` consecutive output blocks, T(first) onwards, side by side
// on a lane kernel of `lanes` >= count streams (idle lanes repeat the last block's work): each
// iteration is one lane call for the inner hashes and one for the outer. out: count x HashLen bytes,
// the last block cut to out.size().
template <class H, class Kernel>
void pbkdf2_blocks_in_lanes(const HmacKey<H>& key, ByteView salt, std::uint64_t iterations, std::uint32_t first,
                            std::size_t count, const Kernel& kernel, std::span<std::uint8_t> out) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  using Word = typename H::Word;
  using State = typename H::ChainingState;
  // The caller checked lanes <= kMaxPbkdf2Lanes; the min says so to the compiler too (GCC 12 for
  // s390x, which has no lane kernel, warned of writes past the arrays otherwise).
  const std::size_t lanes = std::min(kernel.lanes, kMaxPbkdf2Lanes);
  std::array<std::uint8_t, H::block_size> inner_block[kMaxPbkdf2Lanes], outer_block[kMaxPbkdf2Lanes];
  State state[kMaxPbkdf2Lanes], sum[kMaxPbkdf2Lanes];
  Word* states[kMaxPbkdf2Lanes];
  const std::uint8_t* inner_blocks[kMaxPbkdf2Lanes];
  const std::uint8_t* outer_blocks[kMaxPbkdf2Lanes];
  for (std::size_t l = 0; l < lanes; ++l) {
    pad_after_digest<H>(inner_block[l]);
    pad_after_digest<H>(outer_block[l]);
    const std::uint32_t index = first + static_cast<std::uint32_t>(std::min(l, count - 1));
    typename H::Digest u = first_u(key, salt, index);
    std::copy(u.begin(), u.end(), inner_block[l].begin());
    State first_sum = load_be<Word>(u.data(), kHashLen);  // made in place: no temporary left unwiped
    sum[l] = first_sum;
    wipe_object(first_sum);
    wipe_object(u);
    states[l] = state[l].data();
    inner_blocks[l] = inner_block[l].data();
    outer_blocks[l] = outer_block[l].data();
  }
  for (std::uint64_t j = 1; j < iterations; ++j) {
    for (std::size_t l = 0; l < lanes; ++l) state[l] = key.inner_state();
    kernel.fn(states, inner_blocks, 1);
    for (std::size_t l = 0; l < lanes; ++l) {
      store_digest(state[l], std::span(outer_block[l]).first(kHashLen));
      state[l] = key.outer_state();
    }
    kernel.fn(states, outer_blocks, 1);
    for (std::size_t l = 0; l < lanes; ++l) {
      store_digest(state[l], std::span(inner_block[l]).first(kHashLen));
      for (std::size_t w = 0; w < 8; ++w) sum[l][w] ^= state[l][w];
    }
  }
  for (std::size_t l = 0; l < count; ++l) {
    const std::size_t at = l * kHashLen;
    store_digest(sum[l], out.subspan(at, std::min(kHashLen, out.size() - at)));
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    wipe_object(state[l]);
    wipe_object(sum[l]);
    wipe_object(inner_block[l]);
    wipe_object(outer_block[l]);
  }
}

}  // namespace
}  // namespace detail

template <ManyHasher H>
Error pbkdf2_hmac(ByteView password, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out) noexcept {
  // The key is prepared before `out` is written: `out` may overlap the password.
  return pbkdf2_hmac(HmacKey<H>(password), salt, iterations, out);
}

template <ManyHasher H>
Error pbkdf2_hmac(const HmacKey<H>& key, ByteView salt, std::uint64_t iterations, std::span<std::uint8_t> out) noexcept {
  constexpr std::size_t kHashLen = H::digest_size;
  if (iterations == 0) return Error::zero_iterations;
  if (out.empty()) return Error::output_too_small;
  if (out.size() / kHashLen > 0xFFFFFFFFull - (out.size() % kHashLen != 0)) return Error::output_too_long;
  if (out.size() > kHashLen && detail::overlaps(salt, out)) return Error::overlapping_buffers;

  const auto kernel = detail::lane_kernel<H>();
  const bool has_lanes = kernel.fn != nullptr && kernel.lanes >= 2 && kernel.lanes <= detail::kMaxPbkdf2Lanes;
  std::size_t done = 0;
  std::uint32_t index = 1;
  bool lanes_used = false;
  while (done < out.size()) {
    const std::size_t blocks_left = (out.size() - done + kHashLen - 1) / kHashLen;
    const std::size_t side_by_side = has_lanes ? std::min(blocks_left, kernel.lanes) : 1;
    // A lane call is worth it from the kernel's min_busy blocks (its cost in single-stream blocks).
    const std::size_t blocks = side_by_side >= kernel.min_busy ? side_by_side : 1;
    const std::size_t bytes = std::min(blocks * kHashLen, out.size() - done);
    if (blocks > 1) {
      detail::pbkdf2_blocks_in_lanes(key, salt, iterations, index, blocks, kernel, out.subspan(done, bytes));
      lanes_used = true;
    } else {
      detail::pbkdf2_block(key, salt, iterations, index, out.subspan(done, bytes));
    }
    index += static_cast<std::uint32_t>(blocks);
    done += bytes;
  }
  // The kernels' frames below: W+K of the last U values and inner digests, on every lane after a
  // lane call (their frames run to 10 KiB); as deep as the single-stream row leaves them otherwise.
  if (lanes_used)
    detail::wipe_lane_stack_below();
  else
    detail::wipe_kernel_stack<H>();
  return Error::ok;
}


#define SHASTA_PBKDF2_DEFINE(H)                                                                   \
  template Error pbkdf2_hmac<H>(ByteView, ByteView, std::uint64_t, std::span<std::uint8_t>) noexcept; \
  template Error pbkdf2_hmac<H>(const HmacKey<H>&, ByteView, std::uint64_t, std::span<std::uint8_t>) noexcept;
SHASTA_PBKDF2_DEFINE(Sha224)
SHASTA_PBKDF2_DEFINE(Sha256)
SHASTA_PBKDF2_DEFINE(Sha384)
SHASTA_PBKDF2_DEFINE(Sha512)
SHASTA_PBKDF2_DEFINE(Sha512_224)
SHASTA_PBKDF2_DEFINE(Sha512_256)
#undef SHASTA_PBKDF2_DEFINE

}  // namespace shasta
