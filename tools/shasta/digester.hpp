// digester.hpp: one running digest (a plain SHA-2 hash or an HMAC) behind one small interface, so
// that reading files, writing lines and checking them serve every algorithm with the same code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace shasta::cli {

enum class AlgorithmId { sha224, sha256, sha384, sha512, sha512_224, sha512_256 };

// The six algorithms by the names users write and the tags their lines carry.
struct Algorithm {
  AlgorithmId id;
  std::string_view name;     // hashlib's name: "sha256", "sha512_224"
  std::string_view tag;      // BSD tag: "SHA256", "SHA512/224" (as Perl's shasum writes it)
  std::size_t digest_size;   // bytes
  std::size_t block_size;    // bytes
  std::string_view openssl_tag;  // OpenSSL 3's, `openssl dgst`: "SHA2-256", "SHA2-512/224"
  std::string_view bsd_tag;      // FreeBSD's where it differs: "SHA512t224" ("": the same as `tag`)
};

// Accepts, case aside, the bits ("256", "512224", "512/224") after nothing, "sha", "sha-", "sha_"
// or OpenSSL 3's "sha2-": "sha256", "SHA-256", "SHA2-256", "sha512-224", "sha512_224", "sha512/224",
// and FreeBSD's "sha512t224". nullptr for any other spelling.
const Algorithm* find_algorithm(std::string_view spelled);

// The keyed commands' message for an -a value find_algorithm refuses: without the value, which
// may be a secret typed in the wrong place.
inline constexpr const char* kNotAnAlgorithm = "-a: not an algorithm (224, 256, 384, 512, 512224 or 512256)";

// The GNU tool name ("sha256sum") for the four algorithms coreutils has; nullptr otherwise.
const Algorithm* algorithm_for_gnu_tool(std::string_view tool_name);

class Digester {
 public:
  virtual ~Digester() = default;
  // A new digester of the same kind (and key) in its starting state.
  [[nodiscard]] virtual std::unique_ptr<Digester> fresh() const = 0;
  virtual void update(const std::uint8_t* data, std::size_t size) = 0;
  // Writes digest_size() bytes to `out` and returns to the starting state.
  virtual void finish(std::uint8_t* out) = 0;
  [[nodiscard]] virtual std::size_t digest_size() const = 0;
  // Digests whole messages side by side on the kernel's lanes (digest i at digests + i x size).
  // false when this kind of digester cannot (HMAC) or for more than kMaxManyMessages messages:
  // then digest them one by one.
  // Two for each lane of the widest lane kernel (AVX-512 SHA-256 x16): groups of files are that big.
  static constexpr std::size_t kMaxManyMessages = 32;
  // How many streams update_many runs side by side (1: it cannot).
  [[nodiscard]] virtual std::size_t lanes() const { return 1; }
  // Absorbs chunks[i] into *digesters[i] (each made by this one's fresh(); at most
  // kMaxManyMessages), side by side on the kernel's lanes. false when this kind cannot: then update
  // them one by one.
  virtual bool update_many(std::span<Digester* const> digesters,
                           std::span<const std::span<const std::uint8_t>> chunks) const {
    (void)digesters, (void)chunks;
    return false;
  }
  virtual bool digest_many(std::span<const std::span<const std::uint8_t>> messages, std::uint8_t* digests) const {
    (void)messages, (void)digests;
    return false;
  }
};

std::unique_ptr<Digester> make_hash_digester(const Algorithm& algorithm);
// The key's pads are hashed once here; each fresh() copy reuses them. The key bytes are not kept.
std::unique_ptr<Digester> make_hmac_digester(const Algorithm& algorithm, std::span<const std::uint8_t> key);

}  // namespace shasta::cli
