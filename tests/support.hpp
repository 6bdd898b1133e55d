// support.hpp: what the tests share: the six algorithms as gtest types with their OpenSSL twins,
// seeded randomness, and the OpenSSL reference digest.
#pragma once

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "shasta/kernels.hpp"
#include "shasta/sha2.hpp"

namespace shasta::test {

using Bytes = std::vector<std::uint8_t>;

template <class H>
struct Alg;
template <>
struct Alg<Sha224> {
  static constexpr const char* kName = "SHA224";
  static const EVP_MD* md() { return EVP_sha224(); }
  static constexpr const auto& one_shot = sha224;
};
template <>
struct Alg<Sha256> {
  static constexpr const char* kName = "SHA256";
  static const EVP_MD* md() { return EVP_sha256(); }
  static constexpr const auto& one_shot = sha256;
};
template <>
struct Alg<Sha384> {
  static constexpr const char* kName = "SHA384";
  static const EVP_MD* md() { return EVP_sha384(); }
  static constexpr const auto& one_shot = sha384;
};
template <>
struct Alg<Sha512> {
  static constexpr const char* kName = "SHA512";
  static const EVP_MD* md() { return EVP_sha512(); }
  static constexpr const auto& one_shot = sha512;
};
template <>
struct Alg<Sha512_224> {
  static constexpr const char* kName = "SHA512_224";
  static const EVP_MD* md() { return EVP_sha512_224(); }
  static constexpr const auto& one_shot = sha512_224;
};
template <>
struct Alg<Sha512_256> {
  static constexpr const char* kName = "SHA512_256";
  static const EVP_MD* md() { return EVP_sha512_256(); }
  static constexpr const auto& one_shot = sha512_256;
};

using AllHashers = ::testing::Types<Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256>;

struct HasherNames {
  template <class H>
  static std::string GetName(int) {
    return Alg<H>::kName;
  }
};

// openssl_digest is the reference: OpenSSL's EVP digest of `data`.
template <class H>
Bytes openssl_digest(const std::uint8_t* data, std::size_t len) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int n = 0;
  EXPECT_EQ(EVP_Digest(data, len, out.data(), &n, Alg<H>::md(), nullptr), 1);
  out.resize(n);
  return out;
}

template <class Digest>
Bytes bytes_of(const Digest& d) {
  return Bytes(d.begin(), d.end());
}

inline Bytes random_bytes(std::mt19937_64& rng, std::size_t n) {
  Bytes out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

// env_number reads a positive number from the environment, or gives `fallback`.
inline std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return std::strtoull(v, nullptr, 10);
}

// run_seed is this run's random seed: SHASTA_SEED, else a fresh one. Failures print it to replay.
inline std::uint64_t run_seed() {
  static const std::uint64_t seed = env_number("SHASTA_SEED", std::random_device{}() * 0x100000001ull);
  return seed;
}

// seed_trace: what a failure prints to replay this run (SCOPED_TRACE(seed_trace()) in every test that
// draws from run_seed()).
inline std::string seed_trace() {
  return "reproduce with SHASTA_SEED=" + std::to_string(run_seed());
}

// quick_mode: SHASTA_QUICK=1 (valgrind runs) shrinks the random campaigns and skips multi-GiB streams.
inline bool quick_mode() {
  return env_number("SHASTA_QUICK", 0) != 0;
}

// KernelsRestored puts both families back, when it goes out of scope, as the run had them: the best
// (with the best's lane ranking, which forcing the same kernel by name would drop) or the kernel
// forced by name. A test that changes the kernel holds one, so that the tests after it still run
// on their entry's kernel.
class KernelsRestored {
 public:
  KernelsRestored() = default;
  KernelsRestored(const KernelsRestored&) = delete;
  KernelsRestored& operator=(const KernelsRestored&) = delete;
  ~KernelsRestored() {
    restore(Family::sha224_256, sha256_);
    restore(Family::sha384_512, sha512_);
  }

 private:
  struct Was {
    bool best;
    std::string kernel;
  };
  static Was now(Family family) {
    const KernelChoice choice = kernel_choice(family);
    return {!choice.forced, std::string(choice.kernel)};
  }
  static void restore(Family family, const Was& was) {
    if (was.best) {
      use_best_kernel(family);
    } else {
      EXPECT_EQ(force_kernel(family, was.kernel), Error::ok) << "restoring " << was.kernel;
    }
  }
  Was sha256_ = now(Family::sha224_256);
  Was sha512_ = now(Family::sha384_512);
};

}  // namespace shasta::test
