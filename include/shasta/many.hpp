// many.hpp: many independent messages at once. The messages run side by side on the lanes of a
// many-message kernel where the active kernel has one (SHA-NI: 4 SHA-256 streams; AVX2: 8 SHA-256
// or 5 SHA-512 streams); a lane whose message ends takes the next one, and the last few finish one
// at a time.
//
//   std::vector<shasta::ByteView> msgs = ...;
//   std::vector<std::uint8_t> out(msgs.size() * shasta::Sha256::digest_size);
//   shasta::Error e = shasta::hash_many<shasta::Sha256>(msgs, out);   // digest i at out[32 i]
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

#include "bytes.hpp"
#include "error.hpp"
#include "sha2.hpp"

namespace shasta {

// ManyHasher: the six hashers of sha2.hpp.
template <class H>
concept ManyHasher = std::same_as<H, Sha224> || std::same_as<H, Sha256> || std::same_as<H, Sha384> ||
    std::same_as<H, Sha512> || std::same_as<H, Sha512_224> || std::same_as<H, Sha512_256>;

// hash_many writes the digest of messages[i] at digests[i * H::digest_size]. Lengths may differ.
// Error::output_too_small if `digests` holds fewer than messages.size() digests, Error::null_pointer
// for a message with a null pointer and a non-zero length; either way nothing is written.
template <ManyHasher H>
Error hash_many(std::span<const ByteView> messages, std::span<std::uint8_t> digests) noexcept;

// hash_many_64 is hash_many for messages of exactly 64 bytes (Merkle tree nodes: two child
// digests), laid out one after another; its padding is a constant block rather than built each time.
template <ManyHasher H>
Error hash_many_64(std::span<const std::array<std::uint8_t, 64>> messages, std::span<std::uint8_t> digests) noexcept;

// update_many absorbs chunks[i] into *hashers[i], as hashers[i]->update(chunks[i]) would, the whole
// blocks of each group of lane_count<H>() hashers side by side on the lanes: for streaming several
// long messages at once (files read a chunk at a time). Chunks of equal size, a multiple of the
// block size, keep every lane busy. A hasher named more than once takes its chunks in order, as
// the updates one after the other would (on every kernel: a lane group ends before a repeated
// hasher). Error::invalid_parameter if the spans differ in length or a hasher is null,
// Error::null_pointer for a chunk with a null pointer and a non-zero length; either way no hasher
// is changed.
template <ManyHasher H>
Error update_many(std::span<H* const> hashers, std::span<const ByteView> chunks) noexcept;

// lane_count is how many messages the active kernel hashes side by side (1: it has no lane kernel).
template <ManyHasher H>
std::size_t lane_count() noexcept;

// Defined in src/many.cpp for exactly the six hashers.
#define SHASTA_MANY_EXTERN(H)                                                                      \
  extern template Error hash_many<H>(std::span<const ByteView>, std::span<std::uint8_t>) noexcept; \
  extern template Error hash_many_64<H>(std::span<const std::array<std::uint8_t, 64>>,             \
                                        std::span<std::uint8_t>) noexcept;              \
  extern template Error update_many<H>(std::span<H* const>, std::span<const ByteView>) noexcept; \
  extern template std::size_t lane_count<H>() noexcept;
SHASTA_MANY_EXTERN(Sha224)
SHASTA_MANY_EXTERN(Sha256)
SHASTA_MANY_EXTERN(Sha384)
SHASTA_MANY_EXTERN(Sha512)
SHASTA_MANY_EXTERN(Sha512_224)
SHASTA_MANY_EXTERN(Sha512_256)
#undef SHASTA_MANY_EXTERN

}  // namespace shasta
