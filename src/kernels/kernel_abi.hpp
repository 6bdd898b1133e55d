// kernel_abi.hpp: the one raw signature every compression kernel has (state in place, whole
// blocks, a count), and the kernels of every file under src/kernels/.
// Kernel files include only this header, <cstdint>, <cstddef> and their intrinsics header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shasta::kernels {

// A Compress256 absorbs `n` whole 64-byte blocks into `state` (H0..H7 of FIPS 180-4 in natural
// order). `n` may be 0; `blocks` need not be aligned and may be null when `n` is 0.
using Compress256 = void (*)(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

// A Compress512 absorbs `n` whole 128-byte blocks into `state`, with the same rules.
using Compress512 = void (*)(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

// A lane kernel absorbs `n` whole blocks into each of its fixed number L of independent streams:
// stream l's state is states[l], its blocks start at blocks[l] (unaligned is fine). Every stream
// takes the same `n`; `n` may be 0.
using CompressLanes256 = void (*)(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                                  std::size_t n) noexcept;
using CompressLanes512 = void (*)(std::uint64_t* const states[], const std::uint8_t* const blocks[],
                                  std::size_t n) noexcept;

// The round constants of FIPS 180-4 sections 4.2.2 and 4.2.3, defined once for every kernel
// (round_constants.cpp, computed from the constexpr tables of the portable rounds). Plain aggregates,
// so that no code is generated for them in a kernel file.
struct alignas(64) Sha256RoundConstants {
  std::uint32_t k[64];
};
struct alignas(64) Sha512RoundConstants {
  std::uint64_t k[80];
};
// Sha512RoundConstantsX4 holds each SHA-512 constant four times: one ymm row a round (4-lane kernel).
struct alignas(64) Sha512RoundConstantsX4 {
  std::uint64_t k[80][4];
};
// Sha512RoundConstantsPairs holds K[2i], K[2i+1] twice in row i: the constants of two words of two
// blocks side by side in a ymm register (sha512_avx2_blocks.S).
struct alignas(64) Sha512RoundConstantsPairs {
  std::uint64_t k[40][4];
};
// Sha256RoundConstantsX8 holds each SHA-256 constant eight times: one ymm row a round (8-lane kernel).
struct alignas(64) Sha256RoundConstantsX8 {
  std::uint32_t k[64][8];
};
extern const Sha256RoundConstants kSha256RoundConstants;
extern const Sha512RoundConstants kSha512RoundConstants;
extern const Sha512RoundConstantsX4 kSha512RoundConstantsX4;
extern const Sha512RoundConstantsPairs kSha512RoundConstantsPairs;
extern const Sha256RoundConstantsX8 kSha256RoundConstantsX8;

namespace portable {
void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
}  // namespace portable

namespace shani {
// Needs SHA, SSSE3 and SSE4.1 (CPUID leaf 7 EBX bit 29, leaf 1 ECX bits 9 and 19).
void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
// The same, then the state's words written back big-endian: the digest's bytes.
void sha256_compress_to_digest(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
// Four lanes (the same CPU needs).
void sha256_compress_x4(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// With the assembly block loop (ELF): four lanes in the intrinsics loop, for padding blocks
// (LaneKernel::tail_fn in include/shasta/detail/lanes.hpp says why).
void sha256_compress_x4_tail(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// Four messages of one length from the IV to their digests (the hash call of the avx512 namespace below).
void sha256_hash_x4(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept;
// Two lanes: two blocks in about the time of one (HMAC's ipad and opad blocks).
void sha256_compress_x2(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// PBKDF2-HMAC-SHA256: `count` more iterations from U (state words of the last U) under the key's
// inner and outer states, each U XORed into `sum`; U and sum written back.
void sha256_pbkdf2_iterate(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                           std::uint32_t sum[8], std::uint64_t count) noexcept;
// HMAC-SHA256's last inner blocks and its outer block in one call: `n` blocks (the message's last,
// padded) from the inner state in `state`, then the outer block (the inner digest and its
// padding) from `outer`, K^opad's state; the tag's 32 bytes are written over `state`.
void sha256_hmac_finish(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n,
                        const std::uint32_t outer[8]) noexcept;
}  // namespace shani

namespace avx2 {
// Need AVX2 and BMI2 (CPUID leaf 7 EBX bits 5 and 8) and the OS's YMM state (XGETBV bits 1-2).
void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
// Four lanes (the same CPU needs).
void sha512_compress_x4(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// With the assembly block loop (ELF): five lanes, the fifth on the general registers, and the
// same in the intrinsics loop and the single-stream kernel, for padding blocks.
void sha512_compress_x5(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
void sha512_compress_x5_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// Five messages of one length from the IV to their digests (the hash call of the avx512 namespace below).
void sha512_hash_x5(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept;
// Eight lanes (the same CPU needs).
void sha256_compress_x8(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
}  // namespace avx2

namespace avx512 {
// Need AVX-512F, BW and VL (CPUID leaf 7 EBX bits 16, 30, 31) and the OS's ZMM state (XGETBV bits
// 1-2 and 5-7). One SHA-256 or SHA-512 stream (BMI2 too: their rounds use rorx). Sixteen SHA-256
// lanes, one per 32-bit lane of a zmm register; eight SHA-512 lanes.
void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void sha256_compress_x16(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
void sha512_compress_x8(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// The same in another copy of the block loop, for padding blocks (LaneKernel::tail_fn in
// include/shasta/detail/lanes.hpp says why).
void sha256_compress_x16_tail(std::uint32_t* const states[], const std::uint8_t* const blocks[],
                              std::size_t n) noexcept;
void sha512_compress_x8_tail(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
// Hash calls: one message per lane, all of one length, from `iv` to their final states, written
// to out[l] as big-endian words (8 x 4 or 8 x 8 bytes: the SHA-256 / SHA-512 digest, whose prefix
// the truncated algorithms take):
// `whole` blocks from msgs[l]; then, when `tails` is not null, one block from tails[l] (the
// message's last bytes, padded); then, when `shared_wk` is not null, the padding block that every
// message of that length shares, given as W(t) + K(t) of its 64 or 80 rounds (sha256_block_wk in
// include/shasta/detail/sha256_rounds.hpp). The state stays in registers from the IV to the end:
// no transposes between the calls a lane kernel would need.
void sha256_hash_x16(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept;
void sha512_hash_x8(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                    std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept;
// The same over 32 SHA-256 lanes and 16 SHA-512 lanes (two groups interleaved; on Zen 5 one
// group leaves the vector pipes idle; the end of sha256_avx512_x16.cpp and sha512_avx512_x8.cpp).
void sha256_hash_x32(std::uint8_t* const out[], const std::uint32_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint32_t* shared_wk) noexcept;
void sha512_hash_x16(std::uint8_t* const out[], const std::uint64_t iv[8], const std::uint8_t* const msgs[],
                     std::size_t whole, const std::uint8_t* const tails[], const std::uint64_t* shared_wk) noexcept;
}  // namespace avx512

namespace armv8 {
// SHA-256 needs FEAT_SHA256 (HWCAP_SHA2); SHA-512 needs FEAT_SHA512 (HWCAP_SHA512).
void sha256_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void sha512_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
// Two lanes, interleaved (the same CPU needs).
void sha256_compress_x2(std::uint32_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
void sha512_compress_x2(std::uint64_t* const states[], const std::uint8_t* const blocks[], std::size_t n) noexcept;
}  // namespace armv8

}  // namespace shasta::kernels
