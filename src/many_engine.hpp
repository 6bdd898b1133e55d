// many_engine.hpp: the scheduler behind hash_many and shasta_hash_many. Every lane of the lane
// kernel holds one message: its whole blocks straight from the caller's buffer, then its padded
// tail (one or two blocks) from the lane's own buffer. Each kernel call runs all lanes for as many
// blocks as the shortest has left; a lane that finishes takes the next message. Once no message is
// left to take, the lanes still running finish on the single-stream kernel.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>

#include "shasta/bytes.hpp"
#include "shasta/detail/hasher.hpp"
#include "shasta/detail/lanes.hpp"

namespace shasta::detail {

inline LaneKernel<CompressLanes256> active_lanes(const Sha256Family&) noexcept {
  return active_lanes_256();
}
inline LaneKernel<CompressLanes512> active_lanes(const Sha512Family&) noexcept {
  return active_lanes_512();
}

inline constexpr std::size_t kMaxLanes = 16;  // the widest lane kernel: AVX-512 SHA-256 x16

template <class Family>
struct ManyLane {
  using Word = typename Family::Word;
  static constexpr std::size_t kB = Family::kBlockSize;

  std::array<Word, 8> state;
  std::array<std::uint8_t, 2 * kB> pad;  // the padded tail
  const std::uint8_t* p;                 // the next block of the current run
  std::size_t left;                      // blocks left in the current run
  std::size_t pad_blocks;
  std::size_t msg;
  bool in_pad;

  // start loads message `i`: IV, padded tail built, the whole blocks (if any) first.
  template <class Alg>
  void start(std::size_t i, ByteView m) noexcept {
    state = Alg::kIv;
    msg = i;
    const std::size_t len = m.size();
    const std::size_t whole = len / kB;
    const std::size_t tail = len - whole * kB;
    if (tail != 0) std::memcpy(pad.data(), m.data() + whole * kB, tail);
    pad_blocks = pad_tail<Family>(pad.data(), tail, static_cast<std::uint64_t>(len), 0);
    in_pad = whole == 0;
    p = in_pad ? pad.data() : m.data();
    left = in_pad ? pad_blocks : whole;
  }

  // finish_alone completes the message on the single-stream kernel.
  void finish_alone() noexcept {
    Family::compress(state.data(), p, left);
    if (!in_pad) Family::compress(state.data(), pad.data(), pad_blocks);
  }
};

template <class Alg>
void store_many_digest(const std::array<typename Alg::Family::Word, 8>& state, std::uint8_t* digests,
                       std::size_t i) noexcept {
  store_digest(state, std::span<std::uint8_t>(digests + i * Alg::kDigestSize, Alg::kDigestSize));
}

// hash_many_run hashes messages get(0) .. get(count - 1) into digests (count x digest size). The
// caller has checked the sizes and pointers.
template <class Alg, class Get>
void hash_many_run(std::size_t count, const Get& get, std::uint8_t* digests) noexcept {
  using Family = typename Alg::Family;
  using Word = typename Family::Word;
  constexpr std::size_t kB = Family::kBlockSize;
  const auto kernel = active_lanes(Family{});
  const std::size_t lanes = std::min(kernel.lanes, kMaxLanes);
  if (kernel.fn == nullptr || count < lanes || lanes < 2) {
    for (std::size_t i = 0; i < count; ++i) {
      const ByteView m = get(i);
      const auto d = one_shot<Alg>(m.data(), m.size());
      std::memcpy(digests + i * Alg::kDigestSize, d.data(), d.size());
    }
    return;
  }
  ManyLane<Family> lane[kMaxLanes];
  Word* states[kMaxLanes];
  const std::uint8_t* blocks[kMaxLanes];
  std::size_t next = 0;
  for (std::size_t l = 0; l < lanes; ++l, ++next) {
    lane[l].template start<Alg>(next, get(next));
    states[l] = lane[l].state.data();
  }
  bool all_busy = true;
  while (all_busy) {
    std::size_t n = lane[0].left;
    bool all_padding = true;
    for (std::size_t l = 0; l < lanes; ++l) {
      n = std::min(n, lane[l].left);
      blocks[l] = lane[l].p;
      all_padding = all_padding && lane[l].in_pad;
    }
    (all_padding ? kernel.tail_fn : kernel.fn)(states, blocks, n);
    for (std::size_t l = 0; l < lanes; ++l) {
      ManyLane<Family>& x = lane[l];
      x.p += n * kB;
      x.left -= n;
      if (x.left != 0) continue;
      if (!x.in_pad) {
        x.in_pad = true;
        x.p = x.pad.data();
        x.left = x.pad_blocks;
        continue;
      }
      store_many_digest<Alg>(x.state, digests, x.msg);
      if (next < count) {
        x.template start<Alg>(next, get(next));
        ++next;
      } else {
        x.left = 0;  // done: marks the lane idle below
        all_busy = false;
      }
    }
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    if (lane[l].left == 0) continue;
    lane[l].finish_alone();
    store_many_digest<Alg>(lane[l].state, digests, lane[l].msg);
  }
}

}  // namespace shasta::detail
