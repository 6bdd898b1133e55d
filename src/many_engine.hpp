// many_engine.hpp: the scheduler behind hash_many and shasta_hash_many. Every lane of the lane
// kernel holds one message: its whole blocks straight from the caller's buffer, then its padded
// tail (one or two blocks) from the lane's own buffer. Each kernel call runs all lanes for as many
// blocks as the shortest has left; a lane that finishes takes the next message (see TakeOrder).
// Once no message is left to take, a finished lane idles (on another lane's data, into a scratch
// state) while enough lanes are busy; then the lanes still running finish on the single-stream
// kernel.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>

#include "shasta/bytes.hpp"
#include "shasta/detail/hasher.hpp"
#include "shasta/detail/lanes.hpp"
#include "shasta/detail/sha256_rounds.hpp"
#include "shasta/detail/sha512_rounds.hpp"

namespace shasta::detail {

inline LaneKernel<std::uint32_t> active_lanes(const Sha256Family&) noexcept {
  return active_lanes_256();
}
inline LaneKernel<std::uint64_t> active_lanes(const Sha512Family&) noexcept {
  return active_lanes_512();
}

inline constexpr std::size_t kMaxLanes = 16;      // the widest lane kernel: AVX-512 SHA-256 x16
inline constexpr std::size_t kMaxWideLanes = 32;  // the widest hash call: AVX-512 SHA-256 x32

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

// W(t) + K(t) of a block every message of a call shares, for the lane kernel's hash call.
template <class Family>
auto shared_block_wk(const std::uint8_t* block) noexcept {
  if constexpr (Family::kBlockSize == 64) {
    return sha256_block_wk(block);
  } else {
    return sha512_block_wk(block);
  }
}

// hash_same_length hashes `count` >= lanes messages that all have `len` bytes, a group of `lanes`
// at a time from the IV to the digest: their whole blocks from the caller's buffers, then each
// one's padded tail (if its last bytes are not a whole block), then the padding block that has
// none of their bytes, which is the same for all of them (if the length leaves one). With the
// kernel's hash call the state stays in its registers throughout and that shared block costs its
// rounds only, its schedule worked out once here. Where the kernel has a wide hash call, groups of
// its wide_lanes go first while that many messages are left. The few messages left after the last
// group are hashed one by one on the single-stream kernel.
template <class Alg, class Get>
void hash_same_length(std::size_t count, std::size_t len, const Get& get, std::uint8_t* digests,
                      const LaneKernel<typename Alg::Family::Word>& kernel) noexcept {
  using Family = typename Alg::Family;
  using Word = typename Family::Word;
  constexpr std::size_t kB = Family::kBlockSize;
  const std::size_t lanes = std::min(kernel.lanes, kMaxLanes);
  const std::size_t wide = kernel.wide_hash != nullptr ? std::min(kernel.wide_lanes, kMaxWideLanes) : 0;
  const std::size_t whole = len / kB;
  const std::size_t tail = len - whole * kB;
  std::array<std::uint8_t, 2 * kB> pad{};
  const std::size_t pad_blocks = pad_tail<Family>(pad.data(), tail, static_cast<std::uint64_t>(len), 0);
  const bool own_tail = tail != 0;  // pad's first block also holds message bytes: each lane its own copy
  const bool shared = !own_tail || pad_blocks == 2;
  const std::uint8_t* shared_block = pad.data() + (own_tail ? kB : 0);
  using Wk = decltype(shared_block_wk<Family>(shared_block));
  const Wk wk = kernel.hash != nullptr && shared ? shared_block_wk<Family>(shared_block) : Wk{};

  std::array<std::uint8_t, kB> tail_block[kMaxWideLanes];
  std::array<Word, 8> state[kMaxLanes];
  Word* states[kMaxLanes];
  const std::uint8_t* msgs[kMaxWideLanes];
  const std::uint8_t* tails[kMaxWideLanes];
  const std::uint8_t* shared_blocks[kMaxLanes];
  for (std::size_t l = 0; l < std::max(lanes, wide); ++l) {
    if (own_tail) std::memcpy(tail_block[l].data(), pad.data(), kB);
    tails[l] = tail_block[l].data();
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    shared_blocks[l] = shared_block;
    states[l] = state[l].data();
  }
  // The hash call writes whole states as digest bytes: straight into the digests where the digest
  // is the whole state (SHA-256, SHA-512), through `full` for the truncated algorithms.
  constexpr std::size_t kFull = 8 * sizeof(Word);
  constexpr bool kWholeState = Alg::kDigestSize == kFull;
  std::array<std::uint8_t, kFull> full[kMaxWideLanes];
  std::uint8_t* outs[kMaxWideLanes];
  // Messages i .. i + width - 1 on `hash` (width lanes), or on the lane kernel's block calls where
  // the kernel has no hash call (width = lanes).
  const auto group = [&](std::size_t i, std::size_t width, HashLanes<Word> hash) {
    for (std::size_t l = 0; l < width; ++l) {
      const ByteView m = get(i + l);
      msgs[l] = m.data();
      if (own_tail) std::memcpy(tail_block[l].data(), m.data() + whole * kB, tail);
      outs[l] = kWholeState ? digests + (i + l) * Alg::kDigestSize : full[l].data();
    }
    if (hash != nullptr) {
      hash(outs, Alg::kIv.data(), msgs, whole, own_tail ? tails : nullptr, shared ? wk.data() : nullptr);
      if constexpr (!kWholeState) {
        for (std::size_t l = 0; l < width; ++l) {
          std::memcpy(digests + (i + l) * Alg::kDigestSize, full[l].data(), Alg::kDigestSize);
        }
      }
    } else {
      for (std::size_t l = 0; l < width; ++l) state[l] = Alg::kIv;
      kernel.fn(states, msgs, whole);
      if (own_tail) kernel.tail_fn(states, tails, 1);
      if (shared) kernel.tail_fn(states, shared_blocks, 1);
      for (std::size_t l = 0; l < width; ++l) store_many_digest<Alg>(state[l], digests, i + l);
    }
  };
  std::size_t i = 0;
  if (wide != 0) {
    for (; count - i >= wide; i += wide) group(i, wide, kernel.wide_hash);
  }
  for (; count - i >= lanes; i += lanes) group(i, lanes, kernel.hash);
  for (; i < count; ++i) {
    const ByteView m = get(i);
    const auto d = one_shot<Alg>(m.data(), m.size());
    std::memcpy(digests + i * Alg::kDigestSize, d.data(), d.size());
  }
}

// same_length: whether get(0) .. get(count - 1) all have get(0)'s length (count >= 1).
template <class Get>
bool same_length(std::size_t count, const Get& get) noexcept {
  const std::size_t len = get(0).size();
  for (std::size_t i = 1; i < count; ++i) {
    if (get(i).size() != len) return false;
  }
  return true;
}

// TakeOrder is the order in which hash_many_run's lanes take the messages: index order, except the
// last kSorted, which go longest first when their lengths differ by kMinSpread blocks or more. A
// lane that ends one of those takes a shorter one next, so the lanes end close together and few
// idle or finish alone at the end. Each digest still goes to its message's index. On a Xeon with
// 16 AVX-512 lanes, 32 messages a call sorted first (about 0.5 us) against not: 0.89-0.94x for
// lengths of 0-200 bytes, 1.01-1.03x for 0-500, 1.07-1.14x for 0-2000 and above, 1.05-1.16x for
// 4-128 KiB; hence no sort below a spread of 8 blocks.
template <class Family, class Get>
class TakeOrder {
 public:
  static constexpr std::size_t kSorted = 2 * kMaxLanes;
  static constexpr std::size_t kMinSpread = 8;

  TakeOrder(std::size_t count, const Get& get) noexcept : first_sorted_(count > kSorted ? count - kSorted : 0) {
    std::size_t shortest = std::numeric_limits<std::size_t>::max(), longest = 0;
    for (std::size_t i = first_sorted_; i < count; ++i) {
      shortest = std::min(shortest, get(i).size());
      longest = std::max(longest, get(i).size());
    }
    if (longest - shortest < kMinSpread * Family::kBlockSize) {
      first_sorted_ = count;  // alike enough: the sort would cost more than it saves
      return;
    }
    const std::size_t n = count - first_sorted_;
    for (std::size_t k = 0; k < n; ++k) sorted_[k] = first_sorted_ + k;
    std::sort(sorted_, sorted_ + n, [&get](std::size_t a, std::size_t b) { return get(a).size() > get(b).size(); });
  }

  // operator[] is the index of the k-th message to take.
  std::size_t operator[](std::size_t k) const noexcept { return k < first_sorted_ ? k : sorted_[k - first_sorted_]; }

 private:
  std::size_t first_sorted_;
  std::size_t sorted_[kSorted];
};

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
  if (same_length(count, get)) return hash_same_length<Alg>(count, get(0).size(), get, digests, kernel);
  const TakeOrder<Family, Get> order(count, get);
  ManyLane<Family> lane[kMaxLanes];
  Word* states[kMaxLanes];
  const std::uint8_t* blocks[kMaxLanes];
  std::size_t next = 0;
  for (std::size_t l = 0; l < lanes; ++l, ++next) {
    lane[l].template start<Alg>(order[next], get(order[next]));
    states[l] = lane[l].state.data();
  }
  // A lane whose messages have run out idles: it hashes a busy lane's blocks into a scratch state,
  // as long as at least the kernel's min_busy lanes are busy (fewer run faster one by one). Lanes
  // of mixed lengths keep the kernel busy to the end that way (a batch of 32 files of 4-128 KiB
  // on AVX-512's 16 lanes: the last 15 used to finish alone, most of the work).
  std::array<Word, 8> scratch[kMaxLanes]{};
  bool busy[kMaxLanes];
  std::fill(busy, busy + lanes, true);
  std::size_t busy_count = lanes;
  const std::size_t keep_lanes = std::max<std::size_t>(kernel.min_busy, 2);
  while (busy_count >= keep_lanes) {
    std::size_t n = std::numeric_limits<std::size_t>::max();
    std::size_t some_busy = 0;
    bool all_padding = true;
    for (std::size_t l = 0; l < lanes; ++l) {
      if (!busy[l]) continue;
      n = std::min(n, lane[l].left);
      all_padding = all_padding && lane[l].in_pad;
      some_busy = l;
    }
    for (std::size_t l = 0; l < lanes; ++l) blocks[l] = lane[busy[l] ? l : some_busy].p;
    (all_padding ? kernel.tail_fn : kernel.fn)(states, blocks, n);
    for (std::size_t l = 0; l < lanes; ++l) {
      if (!busy[l]) continue;
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
        x.template start<Alg>(order[next], get(order[next]));
        ++next;
      } else {
        busy[l] = false;
        states[l] = scratch[l].data();
        --busy_count;
      }
    }
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    if (!busy[l]) continue;
    lane[l].finish_alone();
    store_many_digest<Alg>(lane[l].state, digests, lane[l].msg);
  }
}

}  // namespace shasta::detail
