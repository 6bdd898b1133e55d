// round_constants.cpp: the round constants every kernel reads, made at compile time from the
// constexpr tables of the portable rounds (FIPS 180-4 sections 4.2.2 and 4.2.3): one source of truth.
#include "kernel_abi.hpp"
#include "shasta/detail/sha256_rounds.hpp"
#include "shasta/detail/sha512_rounds.hpp"

namespace shasta::kernels {
namespace {

constexpr Sha256RoundConstants make_sha256() {
  Sha256RoundConstants t{};
  for (std::size_t i = 0; i < 64; ++i) t.k[i] = detail::kSha256K[i];
  return t;
}

constexpr Sha512RoundConstants make_sha512() {
  Sha512RoundConstants t{};
  for (std::size_t i = 0; i < 80; ++i) t.k[i] = detail::kSha512K[i];
  return t;
}

constexpr Sha512RoundConstantsX4 make_sha512_x4() {
  Sha512RoundConstantsX4 t{};
  for (std::size_t i = 0; i < 80; ++i) {
    for (std::size_t lane = 0; lane < 4; ++lane) t.k[i][lane] = detail::kSha512K[i];
  }
  return t;
}

constexpr Sha512RoundConstantsPairs make_sha512_pairs() {
  Sha512RoundConstantsPairs t{};
  for (std::size_t i = 0; i < 40; ++i) {
    for (std::size_t block = 0; block < 2; ++block) {
      t.k[i][2 * block] = detail::kSha512K[2 * i];
      t.k[i][2 * block + 1] = detail::kSha512K[2 * i + 1];
    }
  }
  return t;
}

constexpr Sha256RoundConstantsX8 make_sha256_x8() {
  Sha256RoundConstantsX8 t{};
  for (std::size_t i = 0; i < 64; ++i) {
    for (std::size_t lane = 0; lane < 8; ++lane) t.k[i][lane] = detail::kSha256K[i];
  }
  return t;
}

}  // namespace

// The pairs table, the last added, is defined first: g++ lays these out last to first, so the
// others keep the addresses (modulo 4096) they had when the kernels reading them were measured.
constexpr Sha512RoundConstantsPairs kSha512RoundConstantsPairs = make_sha512_pairs();
constexpr Sha256RoundConstants kSha256RoundConstants = make_sha256();
constexpr Sha512RoundConstants kSha512RoundConstants = make_sha512();
constexpr Sha512RoundConstantsX4 kSha512RoundConstantsX4 = make_sha512_x4();
constexpr Sha256RoundConstantsX8 kSha256RoundConstantsX8 = make_sha256_x8();

}  // namespace shasta::kernels
