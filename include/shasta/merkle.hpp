// merkle.hpp: the root of a binary Merkle tree over leaf digests, each level's nodes hashed side by
// side on the many-message lanes (hash_many_64 for the 64-byte nodes of SHA-256 and SHA-512/256).
//
// The tree: a level's nodes pair up left to right, parent = H(left || right); an odd node at the
// end of a level moves up unchanged (it is not paired with itself: Bitcoin's duplication lets two
// different leaf lists share a root, CVE-2012-2459). One leaf is its own root; no leaves: H("").
// Hashing the leaves -- and separating leaves from nodes, as RFC 6962 does with 0x00/0x01 prefixes
// -- is the caller's: merkle_root takes digests.
//
//   std::vector<shasta::Sha256::Digest> leaves = ...;
//   shasta::Sha256::Digest root = shasta::merkle_root<shasta::Sha256>(leaves);
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

#include "many.hpp"

namespace shasta {

namespace detail {

// One level in place: nodes[i] = H(nodes[2i] || nodes[2i+1]) for each pair, then the odd one.
// Chunks of pairs go through a buffer on the stack; a chunk's parents land at indices below every
// child a later chunk reads, so the level can be overwritten as it goes. Returns the new count.
template <ManyHasher H>
std::size_t merkle_level(std::span<typename H::Digest> nodes) noexcept {
  constexpr std::size_t kSize = H::digest_size;
  constexpr std::size_t kChunk = 64;  // pairs per hash_many call: enough to keep the lanes full
  const std::size_t pairs = nodes.size() / 2;
  std::array<std::uint8_t, kChunk * kSize> parents;
  for (std::size_t first = 0; first < pairs; first += kChunk) {
    const std::size_t n = std::min(kChunk, pairs - first);
    if constexpr (2 * kSize == 64) {  // SHA-256, SHA-512/256: the constant-padding form
      std::array<std::array<std::uint8_t, 64>, kChunk> messages;
      for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(messages[i].data(), nodes[2 * (first + i)].data(), kSize);
        std::memcpy(messages[i].data() + kSize, nodes[2 * (first + i) + 1].data(), kSize);
      }
      (void)hash_many_64<H>(std::span<const std::array<std::uint8_t, 64>>(messages.data(), n), parents);
    } else {
      std::array<std::array<std::uint8_t, 2 * kSize>, kChunk> messages;
      std::array<ByteView, kChunk> views;
      for (std::size_t i = 0; i < n; ++i) {
        std::memcpy(messages[i].data(), nodes[2 * (first + i)].data(), kSize);
        std::memcpy(messages[i].data() + kSize, nodes[2 * (first + i) + 1].data(), kSize);
        views[i] = ByteView(messages[i].data(), 2 * kSize);
      }
      (void)hash_many<H>(std::span<const ByteView>(views.data(), n), parents);
    }
    for (std::size_t i = 0; i < n; ++i) std::memcpy(nodes[first + i].data(), parents.data() + i * kSize, kSize);
  }
  if (nodes.size() % 2 == 1) nodes[pairs] = nodes[nodes.size() - 1];
  return pairs + nodes.size() % 2;
}

}  // namespace detail

// merkle_root_in_place computes the root over `leaves`, using their storage for the levels above
// (the leaves are overwritten). No allocation.
template <ManyHasher H>
typename H::Digest merkle_root_in_place(std::span<typename H::Digest> leaves) noexcept {
  if (leaves.empty()) return H().finalize();
  std::size_t count = leaves.size();
  while (count > 1) count = detail::merkle_level<H>(leaves.first(count));
  return leaves[0];
}

// merkle_root leaves the leaves as they are: the levels go in a copy (one allocation).
template <ManyHasher H>
typename H::Digest merkle_root(std::span<const typename H::Digest> leaves) {
  std::vector<typename H::Digest> nodes(leaves.begin(), leaves.end());
  return merkle_root_in_place<H>(nodes);
}

}  // namespace shasta
