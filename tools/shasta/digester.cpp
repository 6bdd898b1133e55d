// digester.cpp: the algorithm table and the hash / HMAC digesters behind cli::Digester.
#include "digester.hpp"

#include "hasher_dispatch.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "shasta/hmac.hpp"
#include "shasta/many.hpp"
#include "shasta/sha2.hpp"

namespace shasta::cli {
namespace {

constexpr std::array<Algorithm, 6> kAlgorithms = {{
    {AlgorithmId::sha224, "sha224", "SHA224", 28, 64, "SHA2-224", ""},
    {AlgorithmId::sha256, "sha256", "SHA256", 32, 64, "SHA2-256", ""},
    {AlgorithmId::sha384, "sha384", "SHA384", 48, 128, "SHA2-384", ""},
    {AlgorithmId::sha512, "sha512", "SHA512", 64, 128, "SHA2-512", ""},
    {AlgorithmId::sha512_224, "sha512_224", "SHA512/224", 28, 128, "SHA2-512/224", "SHA512t224"},
    {AlgorithmId::sha512_256, "sha512_256", "SHA512/256", 32, 128, "SHA2-512/256", "SHA512t256"},
}};

// The bits an algorithm's name spells ("256", "512224"), case aside: the size after nothing, "sha",
// "sha-", "sha_" or OpenSSL 3's "sha2-"; a SHA-512/t as 512224, 512/224, 512-224, 512_224 or FreeBSD's
// 512t224. "" for anything else: a name is refused rather than guessed at ("s-h-a256", "5-1-2").
std::string canonical(std::string_view spelled) {
  std::string name;
  for (char c : spelled) name += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  std::string_view rest = name;
  for (std::string_view prefix : {"sha2-", "sha-", "sha_", "sha"}) {
    if (rest.starts_with(prefix)) {
      rest.remove_prefix(prefix.size());
      break;
    }
  }
  if (rest == "224" || rest == "256" || rest == "384" || rest == "512") return std::string(rest);
  if (!rest.starts_with("512") || rest.size() < 6) return "";
  rest.remove_prefix(3);
  if (rest.size() == 4 && (rest[0] == '/' || rest[0] == '-' || rest[0] == '_' || rest[0] == 't')) rest.remove_prefix(1);
  if (rest == "224" || rest == "256") return "512" + std::string(rest);
  return "";
}

template <class H>
class HashDigester final : public Digester {
 public:
  std::unique_ptr<Digester> fresh() const override { return std::make_unique<HashDigester>(); }
  void update(const std::uint8_t* data, std::size_t size) override { hasher_.update(data, size); }
  void finish(std::uint8_t* out) override { (void)hasher_.finalize_into({out, H::digest_size}); }
  std::size_t digest_size() const override { return H::digest_size; }
  std::size_t lanes() const override { return lane_count<H>(); }
  bool update_many(std::span<Digester* const> digesters,
                   std::span<const std::span<const std::uint8_t>> chunks) const override {
    std::array<H*, kMaxManyMessages> hashers;
    std::array<ByteView, kMaxManyMessages> views;
    if (digesters.size() > hashers.size() || chunks.size() != digesters.size()) return false;
    for (std::size_t i = 0; i < digesters.size(); ++i) {
      hashers[i] = &static_cast<HashDigester*>(digesters[i])->hasher_;  // made by fresh(): this type
      views[i] = ByteView(chunks[i].data(), chunks[i].size());
    }
    return shasta::update_many<H>(std::span<H* const>(hashers.data(), digesters.size()),
                          std::span<const ByteView>(views.data(), digesters.size())) == Error::ok;
  }
  bool digest_many(std::span<const std::span<const std::uint8_t>> messages, std::uint8_t* digests) const override {
    // Called per batch of files: the views live on the stack.
    std::array<ByteView, kMaxManyMessages> views;
    if (messages.size() > views.size()) return false;
    for (std::size_t i = 0; i < messages.size(); ++i) views[i] = ByteView(messages[i].data(), messages[i].size());
    return hash_many<H>(std::span(views.data(), messages.size()), {digests, messages.size() * H::digest_size}) ==
           Error::ok;
  }

 private:
  H hasher_;
};

template <class H>
class HmacDigester final : public Digester {
 public:
  explicit HmacDigester(const HmacKey<H>& key) : key_(key), mac_(key) {}
  std::unique_ptr<Digester> fresh() const override { return std::make_unique<HmacDigester>(key_); }
  void update(const std::uint8_t* data, std::size_t size) override { mac_.update(ByteView(data, size)); }
  void finish(std::uint8_t* out) override { (void)mac_.finalize_into({out, H::digest_size}); }
  std::size_t digest_size() const override { return H::digest_size; }

 private:
  HmacKey<H> key_;
  Hmac<H> mac_;
};

}  // namespace

const Algorithm* find_algorithm(std::string_view spelled) {
  const std::string key = canonical(spelled);
  if (key.empty()) return nullptr;
  for (const Algorithm& a : kAlgorithms) {
    if (canonical(a.name) == key) return &a;
  }
  return nullptr;
}

const Algorithm* algorithm_for_gnu_tool(std::string_view tool_name) {
  for (std::size_t i = 0; i < 4; ++i) {
    if (tool_name == std::string(kAlgorithms[i].name) + "sum") return &kAlgorithms[i];
  }
  return nullptr;
}

std::unique_ptr<Digester> make_hash_digester(const Algorithm& algorithm) {
  return with_hasher_type(algorithm, []<class H>() -> std::unique_ptr<Digester> { return std::make_unique<HashDigester<H>>(); });
}

std::unique_ptr<Digester> make_hmac_digester(const Algorithm& algorithm, std::span<const std::uint8_t> key) {
  return with_hasher_type(algorithm, [key]<class H>() -> std::unique_ptr<Digester> {
    return std::make_unique<HmacDigester<H>>(HmacKey<H>(ByteView(key.data(), key.size())));
  });
}

}  // namespace shasta::cli
