// fsverity.cpp: see include/shasta/fsverity.hpp.
//
// The tree is built bottom-up as the bytes arrive. Level 0 holds data blocks, level k >= 1 the
// blocks of tree level k, each filled with the digests of the level below. A level's whole blocks
// wait in its slots until a batch is full, then go to hash_many together (each slot is the padded
// salt followed by the block, so a slot is one message); their digests are appended to the next
// level. At the end each level's partial block is zero-padded and hashed with the rest, from the
// bottom up, until a level has exactly one block in all: its digest is the root hash. That is the
// tree of fsverity-utils (whose levels are written root first, but hash the same blocks).
#include "shasta/fsverity.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <new>

#include "shasta/many.hpp"
#include "shasta/sha2.hpp"

namespace shasta {
namespace {

constexpr std::size_t kMaxBatch = 64;                      // blocks per level hashed together
constexpr std::size_t kBatchBytes = std::size_t{256} << 10;  // ... or fewer, when blocks are large
constexpr std::size_t kDirect = 128;  // whole data blocks hashed straight from the caller per call

bool known(FsverityHash hash) noexcept { return hash == FsverityHash::sha256 || hash == FsverityHash::sha512; }

std::size_t hash_block_size(FsverityHash hash) noexcept { return hash == FsverityHash::sha512 ? 128 : 64; }

std::uint8_t log2_of(std::size_t power_of_two) noexcept {
  std::uint8_t log = 0;
  while ((std::size_t{1} << log) < power_of_two) ++log;
  return log;
}

}  // namespace

std::size_t fsverity_digest_size(FsverityHash hash) noexcept {
  switch (hash) {
    case FsverityHash::sha256: return Sha256::digest_size;
    case FsverityHash::sha512: return Sha512::digest_size;
  }
  return 0;
}

Error fsverity_check(const FsverityParams& params) noexcept {
  if (!known(params.hash)) return Error::unknown_algorithm;
  const std::size_t bs = params.block_size;
  if (bs == 0 || (bs & (bs - 1)) != 0 || bs < 2 * fsverity_digest_size(params.hash) || bs > kFsverityMaxBlockSize) {
    return Error::invalid_parameter;
  }
  if (params.salt.size() > kFsverityMaxSaltSize) return Error::invalid_parameter;
  if (params.salt.data() == nullptr && !params.salt.empty()) return Error::null_pointer;
  return Error::ok;
}

FsverityBuilder::FsverityBuilder(const FsverityParams& params) noexcept : params_status_(fsverity_check(params)) {
  status_ = params_status_;
  if (status_ != Error::ok) return;
  hash_ = params.hash;
  block_size_ = params.block_size;
  digest_size_ = fsverity_digest_size(hash_);
  salt_size_ = params.salt.size();
  if (salt_size_ != 0) {
    std::memcpy(salt_, params.salt.data(), salt_size_);
    padded_salt_size_ = hash_block_size(hash_);
  }
  stride_ = padded_salt_size_ + block_size_;
  batch_ = std::clamp<std::size_t>(kBatchBytes / stride_, 1, kMaxBatch);
}

void FsverityBuilder::take(FsverityBuilder& other) noexcept {
  params_status_ = other.params_status_;
  status_ = other.status_;
  hash_ = other.hash_;
  block_size_ = other.block_size_;
  digest_size_ = other.digest_size_;
  salt_size_ = other.salt_size_;
  padded_salt_size_ = other.padded_salt_size_;
  stride_ = other.stride_;
  batch_ = other.batch_;
  std::memcpy(salt_, other.salt_, sizeof salt_);
  data_size_ = other.data_size_;
  levels_ = std::move(other.levels_);
  other.levels_.clear();
  other.reset();
}

void FsverityBuilder::reset() noexcept {
  for (Level& level : levels_) {
    level.full = 0;
    level.filled = 0;
    level.hashed = 0;
  }
  data_size_ = 0;
  status_ = params_status_;
}

void FsverityBuilder::hash_blocks(std::span<const ByteView> messages, std::uint8_t* digests) const noexcept {
  const std::span<std::uint8_t> out(digests, messages.size() * digest_size_);
  if (hash_ == FsverityHash::sha512) {
    (void)hash_many<Sha512>(messages, out);
  } else {
    (void)hash_many<Sha256>(messages, out);
  }
}

// grow makes `l.slots` hold `size` bytes. The first allocation holds a batch of slots, up to
// kBatchBytes; later ones double it, up to the whole batch: a large block (up to 1 GiB) takes
// about twice what the data put in it (a short file in 1 GiB blocks no 1 GiB buffer, where a
// whole batch at the first growth reserved it), and is never zeroed ahead of the data.
void FsverityBuilder::grow(Level& l, std::size_t size) const {
  if (size <= l.slots.size()) return;
  if (size > l.slots.capacity()) {
    const std::size_t batch_bytes = batch_ * stride_;
    const std::size_t next = l.slots.capacity() == 0 ? kBatchBytes : 2 * l.slots.capacity();
    l.slots.reserve(std::max(size, std::min(batch_bytes, next)));
  }
  l.slots.resize(size);
}

// append adds bytes to the blocks of `level`, hashing them a batch at a time.
void FsverityBuilder::append(std::size_t level, const std::uint8_t* p, std::size_t n) {
  while (n != 0) {
    if (levels_.size() <= level) levels_.resize(level + 1);
    Level& l = levels_[level];
    const std::size_t slot = l.full * stride_;
    const std::size_t take = std::min(n, block_size_ - l.filled);
    const bool new_slot = l.slots.size() <= slot;
    grow(l, slot + padded_salt_size_ + l.filled + take);
    if (new_slot) std::memcpy(l.slots.data() + slot, salt_, padded_salt_size_);  // the padded salt first
    std::memcpy(l.slots.data() + slot + padded_salt_size_ + l.filled, p, take);
    l.filled += take;
    p += take;
    n -= take;
    if (l.filled == block_size_) {
      l.filled = 0;
      if (++l.full == batch_) flush(level);
    }
  }
}

// hash_padded_block hashes the `filled` bytes at `slot` (the padded salt and the block's data)
// followed by the zeros that pad the block to its size.
void FsverityBuilder::hash_padded_block(const std::uint8_t* slot, std::size_t filled,
                                        std::uint8_t* digest) const noexcept {
  static constexpr std::uint8_t kZeros[16384] = {};
  const auto hash = [&](auto hasher) {
    hasher.update(slot, filled);
    for (std::size_t left = stride_ - filled; left != 0;) {
      const std::size_t n = std::min(left, sizeof kZeros);
      hasher.update(kZeros, n);
      left -= n;
    }
    (void)hasher.finalize_into(std::span<std::uint8_t>(digest, digest_size_));
  };
  if (hash_ == FsverityHash::sha512) {
    hash(Sha512());
  } else {
    hash(Sha256());
  }
}

// flush hashes the whole blocks `level` holds and appends their digests to the level above.
void FsverityBuilder::flush(std::size_t level) {
  Level& l = levels_[level];
  const std::size_t count = l.full;
  if (count == 0) return;
  std::array<ByteView, kMaxBatch> messages;
  std::array<std::uint8_t, kMaxBatch * kFsverityMaxDigestSize> digests;
  for (std::size_t i = 0; i < count; ++i) messages[i] = ByteView(l.slots.data() + i * stride_, stride_);
  hash_blocks(std::span<const ByteView>(messages.data(), count), digests.data());
  l.hashed += count;
  l.full = 0;
  append(level + 1, digests.data(), count * digest_size_);  // may reallocate levels_: `l` is done
}

Error FsverityBuilder::update(ByteView data) noexcept {
  if (status_ != Error::ok) return status_;
  if (data.data() == nullptr && !data.empty()) return status_ = Error::null_pointer;
  const std::uint8_t* p = data.data();
  std::size_t n = data.size();
  data_size_ += n;
  try {
    if (padded_salt_size_ == 0 && n != 0) {
      // Whole blocks straight from the caller's bytes (a salted block is not contiguous there).
      if (!levels_.empty() && levels_[0].filled != 0) {
        const std::size_t take = std::min(n, block_size_ - levels_[0].filled);
        append(0, p, take);
        p += take;
        n -= take;
      }
      if (n >= block_size_) {
        if (!levels_.empty()) flush(0);  // the blocks before these come first
        if (levels_.empty()) levels_.resize(1);
        std::array<ByteView, kDirect> messages;
        std::array<std::uint8_t, kDirect * kFsverityMaxDigestSize> digests;
        while (n >= block_size_) {
          const std::size_t count = std::min(n / block_size_, kDirect);
          for (std::size_t i = 0; i < count; ++i) messages[i] = ByteView(p + i * block_size_, block_size_);
          hash_blocks(std::span<const ByteView>(messages.data(), count), digests.data());
          levels_[0].hashed += count;
          append(1, digests.data(), count * digest_size_);
          p += count * block_size_;
          n -= count * block_size_;
        }
      }
    }
    append(0, p, n);
  } catch (const std::bad_alloc&) {
    return status_ = Error::out_of_memory;
  }
  return Error::ok;
}

Error FsverityBuilder::finish(std::span<std::uint8_t> digest, std::span<std::uint8_t> descriptor) noexcept {
  if (digest.size() < digest_size_) return Error::output_too_small;
  if (!descriptor.empty() && descriptor.size() < kFsverityDescriptorSize) return Error::output_too_small;
  if (status_ != Error::ok) {
    const Error e = status_;
    reset();
    return e;
  }
  std::array<std::uint8_t, kFsverityMaxDigestSize> root{};  // an empty file's root: all zeros
  try {
    for (std::size_t k = 0; data_size_ != 0; ++k) {
      Level& l = levels_[k];
      const std::size_t slot = l.full * stride_;
      if (l.filled != 0 && l.slots.capacity() >= slot + stride_) {  // the last block, zero-padded in place
        l.slots.resize(std::max(l.slots.size(), slot + stride_));
        std::memset(l.slots.data() + slot + padded_salt_size_ + l.filled, 0, block_size_ - l.filled);
        l.filled = 0;
        ++l.full;
      }
      if (l.filled != 0) {  // a large last block: its zeros are hashed without being stored
        std::array<std::uint8_t, kFsverityMaxDigestSize> last;
        hash_padded_block(l.slots.data() + slot, padded_salt_size_ + l.filled, last.data());
        l.filled = 0;
        flush(k);  // the whole blocks before it come first
        levels_[k].hashed += 1;
        append(k + 1, last.data(), digest_size_);
      } else {
        flush(k);
      }
      if (levels_[k].hashed == 1) {  // the level of one block: the root
        std::memcpy(root.data(), levels_[k + 1].slots.data() + padded_salt_size_, digest_size_);
        break;
      }
    }
  } catch (const std::bad_alloc&) {
    reset();
    return Error::out_of_memory;
  }

  // struct fsverity_descriptor: version, hash_algorithm, log_blocksize, salt_size, a reserved
  // le32, data_size (le64), root_hash[64], salt[32], reserved[144].
  std::array<std::uint8_t, kFsverityDescriptorSize> desc{};
  desc[0] = 1;
  desc[1] = static_cast<std::uint8_t>(hash_);
  desc[2] = log2_of(block_size_);
  desc[3] = static_cast<std::uint8_t>(salt_size_);
  for (std::size_t i = 0; i < 8; ++i) desc[8 + i] = static_cast<std::uint8_t>(data_size_ >> (8 * i));
  std::memcpy(desc.data() + 16, root.data(), digest_size_);
  std::memcpy(desc.data() + 80, salt_, salt_size_);
  if (hash_ == FsverityHash::sha512) {
    (void)Sha512().update(desc.data(), desc.size()).finalize_into(digest);
  } else {
    (void)Sha256().update(desc.data(), desc.size()).finalize_into(digest);
  }
  if (!descriptor.empty()) std::memcpy(descriptor.data(), desc.data(), desc.size());
  reset();
  return Error::ok;
}

Error fsverity_digest(const FsverityParams& params, ByteView data, std::span<std::uint8_t> digest) noexcept {
  FsverityBuilder builder(params);
  if (builder.status() != Error::ok) return builder.status();
  if (digest.size() < builder.digest_size()) return Error::output_too_small;
  if (const Error e = builder.update(data); e != Error::ok) return e;
  return builder.finish(digest);
}

}  // namespace shasta
