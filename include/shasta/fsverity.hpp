// fsverity.hpp: the fs-verity file digest (Linux Documentation/filesystems/fsverity.rst), as
// `fsverity digest` (fsverity-utils) prints it: a Merkle tree over the file's blocks, its root hash
// put in a 256-byte fsverity_descriptor, and the hash of that descriptor. The data blocks (and
// each tree level's blocks) are hashed side by side on the lane kernels (many.hpp).
//
//   shasta::FsverityBuilder b({.hash = shasta::FsverityHash::sha256});   // 4 KiB blocks, no salt
//   b.update(piece1);  b.update(piece2);  ...
//   std::array<std::uint8_t, 32> digest;
//   shasta::Error e = b.finish(digest);
//
// Every hashed block (data or tree) is zero-padded to the block size and, when there is a salt,
// preceded by the salt zero-padded to the hash's block size (64 bytes for SHA-256, 128 for
// SHA-512). A file of one block has that block's hash as its root; an empty file, all zeros.
//
// Invalid parameters are refused (nothing is hashed; finish returns the error):
//   Error::unknown_algorithm  a hash other than sha256 (1) or sha512 (2)
//   Error::invalid_parameter  a block size that is not a power of two, is below twice the digest
//                             size or above kFsverityMaxBlockSize, or a salt over 32 bytes
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bytes.hpp"
#include "error.hpp"

namespace shasta {

// The fs-verity hash algorithm numbers (FS_VERITY_HASH_ALG_*).
enum class FsverityHash : std::uint8_t { sha256 = 1, sha512 = 2 };

inline constexpr std::size_t kFsverityMaxSaltSize = 32;                 // fsverity_descriptor.salt
inline constexpr std::size_t kFsverityMaxBlockSize = std::size_t{1} << 30;  // fsverity-utils' CLI: < INT_MAX
inline constexpr std::size_t kFsverityMaxDigestSize = 64;
inline constexpr std::size_t kFsverityDescriptorSize = 256;

struct FsverityParams {
  FsverityHash hash = FsverityHash::sha256;
  std::size_t block_size = 4096;  // data and tree blocks; a power of two
  ByteView salt;                  // at most 32 bytes; empty for none (copied by the builder)
};

// The digest size of the hash (32 or 64), or 0 for an unknown one.
std::size_t fsverity_digest_size(FsverityHash hash) noexcept;

// Error::ok when the parameters are valid; see the list at the top.
Error fsverity_check(const FsverityParams& params) noexcept;

// FsverityBuilder takes a file's bytes in pieces of any size and keeps only a batch of blocks per
// tree level (the data level included): whole data blocks in a caller's piece are hashed straight
// from it when there is no salt. Memory: a few hundred KiB, or for larger blocks at most one block
// per level, allocated as the data reaches it, doubling (for a moment, while a block's buffer
// doubles, half a block more); the zeros that pad a large last block are hashed, not stored: a
// short file in 1 GiB blocks needs about twice its size, not 1 GiB.
class FsverityBuilder {
 public:
  explicit FsverityBuilder(const FsverityParams& params) noexcept;
  FsverityBuilder(const FsverityBuilder&) = default;
  FsverityBuilder& operator=(const FsverityBuilder&) = default;
  // A moved-from builder is at the start of a new file with its parameters, as finish leaves it
  // (the implicit move took its levels and left its byte count: its finish read past them).
  FsverityBuilder(FsverityBuilder&& other) noexcept { take(other); }
  FsverityBuilder& operator=(FsverityBuilder&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }

  // The parameters' check, or a later error (out_of_memory, null_pointer) that spoils this digest.
  Error status() const noexcept { return status_; }
  std::size_t digest_size() const noexcept { return digest_size_; }

  // Absorbs more of the file. Error::null_pointer for a null pointer with a non-zero length,
  // Error::out_of_memory if a buffer could not be allocated; both stick until finish.
  Error update(ByteView data) noexcept;

  // Writes the file digest (digest_size() bytes) to `digest` and starts a new file with the same
  // parameters. Error::output_too_small (nothing written, nothing reset) if `digest` is shorter.
  // When `descriptor` is non-empty it receives the 256-byte fsverity_descriptor (it must hold 256
  // bytes, else Error::output_too_small and nothing is written).
  Error finish(std::span<std::uint8_t> digest, std::span<std::uint8_t> descriptor = {}) noexcept;

  // Bytes absorbed since the start (the descriptor's data_size).
  std::uint64_t size() const noexcept { return data_size_; }

 private:
  struct Level {                  // blocks of one level waiting to be hashed in one batch
    std::vector<std::uint8_t> slots;  // slot i at i * stride: the padded salt, then the block
    std::size_t full = 0;         // whole blocks held
    std::size_t filled = 0;       // bytes of the partial block in slot `full`
    std::uint64_t hashed = 0;     // blocks of this level hashed so far
  };

  void reset() noexcept;
  void take(FsverityBuilder& other) noexcept;
  void grow(Level& level, std::size_t size) const;
  void append(std::size_t level, const std::uint8_t* p, std::size_t n);
  void hash_padded_block(const std::uint8_t* slot, std::size_t filled, std::uint8_t* digest) const noexcept;
  void flush(std::size_t level);
  void hash_blocks(std::span<const ByteView> messages, std::uint8_t* digests) const noexcept;

  Error params_status_ = Error::ok;  // fsverity_check's answer
  Error status_ = Error::ok;
  FsverityHash hash_ = FsverityHash::sha256;
  std::size_t block_size_ = 4096;
  std::size_t digest_size_ = 32;
  std::size_t salt_size_ = 0;
  std::size_t padded_salt_size_ = 0;  // 0, or the salt rounded up to the hash's block size
  std::size_t stride_ = 4096;         // padded salt + block
  std::size_t batch_ = 1;             // blocks per level hashed together
  std::uint8_t salt_[128] = {};       // the padded salt
  std::uint64_t data_size_ = 0;
  std::vector<Level> levels_;         // 0: data blocks; k: the blocks of tree level k (leaves first)
};

// The digest of `data` in one call; Error::output_too_small if `digest` is shorter than the digest.
Error fsverity_digest(const FsverityParams& params, ByteView data, std::span<std::uint8_t> digest) noexcept;

}  // namespace shasta
