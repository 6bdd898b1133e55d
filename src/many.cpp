// many.cpp: hash_many and hash_many_64 (include/shasta/many.hpp) for the six hashers.
#include "shasta/many.hpp"

#include <cstdint>

#include "many_engine.hpp"

namespace shasta {

namespace detail {

// ManyAccess reaches into hashers (a friend of Hasher): each hasher's buffered partial block is
// completed on its own; then each group of `lanes` hashers runs the blocks its chunks have in
// common on the lane kernel; what is left (other blocks, the new partial block) goes one by one.
// A group of at least the kernel's min_busy hashers still runs on the lanes, its empty lanes
// hashing the first lane's data into a scratch state. The lane kernel's throughput is the same
// whatever the lanes hold (SHA-NI: 4 lanes 3.0 GB/s, one stream 1.7 GB/s), so 3 streams of 4 lanes
// gain 1.3x over one at a time, and 2 of 4 would lose.
// distinct_run is how many of the first `n` hashers come before the first one named twice: a group
// ends there, so a hasher named again takes its next chunk in a later group, after the first.
template <class Alg>
std::size_t distinct_run(Hasher<Alg>* const* hashers, std::size_t n) noexcept {
  for (std::size_t i = 1; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (hashers[j] == hashers[i]) return i;
    }
  }
  return n;
}

struct ManyAccess {
  template <class Alg>
  static void update_many(Hasher<Alg>* const* hashers, const ByteView* chunks, std::size_t count) noexcept {
    using Family = typename Alg::Family;
    using Word = typename Family::Word;
    constexpr std::size_t kB = Family::kBlockSize;
    const auto kernel = active_lanes(Family{});
    const std::size_t lanes = kernel.fn == nullptr ? 1 : std::min(kernel.lanes, kMaxLanes);
    for (std::size_t first = 0, group = 0; first < count; first += group) {
      group = distinct_run(hashers + first, std::min(lanes, count - first));
      const std::uint8_t* p[kMaxLanes];
      std::size_t n[kMaxLanes];
      std::size_t whole[kMaxLanes];  // whole blocks each hasher of the group can take on the lanes
      for (std::size_t l = 0; l < group; ++l) {
        Hasher<Alg>& h = *hashers[first + l];
        p[l] = chunks[first + l].data();
        n[l] = chunks[first + l].size();
        h.count(n[l]);
        if (h.buffered_ != 0) {
          const std::size_t take = std::min(kB - h.buffered_, n[l]);
          h.absorb_counted(p[l], take);
          p[l] += take;
          n[l] -= take;
        }
        whole[l] = h.buffered_ == 0 ? n[l] / kB : 0;
      }
      // Lane calls while at least min_busy hashers have whole blocks left, each for as many as the
      // shortest of them has: chunks of unequal lengths (files ending) still run on the lanes, the
      // others idling on a scratch state.
      Word* states[kMaxLanes];
      std::array<Word, 8> scratch[kMaxLanes]{};
      const std::uint8_t* q[kMaxLanes];
      while (lanes > 1) {
        std::size_t busy = 0, common = 0, some = 0;
        for (std::size_t l = 0; l < group; ++l) {
          if (whole[l] == 0) continue;
          common = busy++ == 0 ? whole[l] : std::min(common, whole[l]);
          some = l;
        }
        if (busy < std::max<std::size_t>(kernel.min_busy, 2)) break;
        for (std::size_t l = 0; l < lanes; ++l) {
          const bool mine = l < group && whole[l] != 0;
          states[l] = mine ? hashers[first + l]->state_.data() : scratch[l].data();
          q[l] = mine ? p[l] : p[some];
        }
        kernel.fn(states, q, common);
        for (std::size_t l = 0; l < group; ++l) {
          if (whole[l] == 0) continue;
          p[l] += common * kB, n[l] -= common * kB, whole[l] -= common;
        }
      }
      for (std::size_t l = 0; l < group; ++l) hashers[first + l]->absorb_counted(p[l], n[l]);
    }
  }
};

}  // namespace detail

template <ManyHasher H>
Error update_many(std::span<H* const> hashers, std::span<const ByteView> chunks) noexcept {
  if (hashers.size() != chunks.size()) return Error::invalid_parameter;
  for (std::size_t i = 0; i < hashers.size(); ++i) {
    if (hashers[i] == nullptr) return Error::invalid_parameter;
    if (chunks[i].data() == nullptr && chunks[i].size() != 0) return Error::null_pointer;
  }
  detail::ManyAccess::update_many<typename H::Algorithm>(hashers.data(), chunks.data(), hashers.size());
  return Error::ok;
}

template <ManyHasher H>
std::size_t lane_count() noexcept {
  const auto kernel = detail::active_lanes(typename H::Algorithm::Family{});
  return kernel.fn == nullptr ? 1 : std::min(kernel.lanes, detail::kMaxLanes);
}

template <ManyHasher H>
Error hash_many(std::span<const ByteView> messages, std::span<std::uint8_t> digests) noexcept {
  if (digests.size() / H::digest_size < messages.size()) return Error::output_too_small;
  for (const ByteView& m : messages) {
    if (m.data() == nullptr && m.size() != 0) return Error::null_pointer;
  }
  detail::hash_many_run<typename H::Algorithm>(
      messages.size(), [messages](std::size_t i) noexcept { return messages[i]; }, digests.data());
  return Error::ok;
}

template <ManyHasher H>
Error hash_many_64(std::span<const std::array<std::uint8_t, 64>> messages, std::span<std::uint8_t> digests) noexcept {
  if (digests.size() / H::digest_size < messages.size()) return Error::output_too_small;
  // Messages of one length: the many-message engine's same-length path (SHA-256: the message block,
  // then the constant padding block; SHA-384/512: one block, the message and its padding).
  detail::hash_many_run<typename H::Algorithm>(
      messages.size(), [messages](std::size_t i) noexcept { return ByteView(messages[i].data(), 64); },
      digests.data());
  return Error::ok;
}

#define SHASTA_MANY_INSTANTIATE(H)                                                          \
  template Error hash_many<H>(std::span<const ByteView>, std::span<std::uint8_t>) noexcept; \
  template Error hash_many_64<H>(std::span<const std::array<std::uint8_t, 64>>, std::span<std::uint8_t>) noexcept; \
  template Error update_many<H>(std::span<H* const>, std::span<const ByteView>) noexcept;                        \
  template std::size_t lane_count<H>() noexcept;
SHASTA_MANY_INSTANTIATE(Sha224)
SHASTA_MANY_INSTANTIATE(Sha256)
SHASTA_MANY_INSTANTIATE(Sha384)
SHASTA_MANY_INSTANTIATE(Sha512)
SHASTA_MANY_INSTANTIATE(Sha512_224)
SHASTA_MANY_INSTANTIATE(Sha512_256)
#undef SHASTA_MANY_INSTANTIATE

}  // namespace shasta
