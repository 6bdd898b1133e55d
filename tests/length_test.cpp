// length_test.cpp: the bit-length counters of FIPS 180-4 section 5.1: real messages past 2^32
// bytes, and counts injected near 2^32, 2^61 and 2^64 bytes (the carries into SHA-256's high
// 32 bits, into the high word of SHA-512's 128-bit count, and into the byte counter's high word),
// each against OpenSSL's low-level context holding the same count.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include "support.hpp"

namespace shasta::detail {
// HasherTestAccess is declared a friend by the hasher for exactly this test.
struct HasherTestAccess {
  template <class H>
  static void set_length(H& h, std::uint64_t bytes_lo, std::uint64_t bytes_hi) {
    ASSERT_EQ(h.buffered_, 0u) << "inject only at a block boundary";
    h.bytes_lo_ = bytes_lo;
    h.bytes_hi_ = bytes_hi;
  }
};
}  // namespace shasta::detail

namespace shasta::test {
namespace {

using detail::HasherTestAccess;

constexpr std::uint64_t kLengths256[] = {0xFFFFFFC0ull, 0x100000000ull - 64 * 3, (1ull << 32) * 5 + 64,
                                         (1ull << 61) - 64 * 2};
constexpr std::size_t kTails[] = {0, 1, 55, 56, 64, 111, 112, 127, 128, 300};

template <class H, class Ctx>
void check_injected_256(int (*init)(Ctx*), int (*update)(Ctx*, const void*, size_t),
                        int (*final)(unsigned char*, Ctx*)) {
  const Bytes tail(300, 0x5a);
  for (std::uint64_t bytes : kLengths256) {
    for (std::size_t n : kTails) {
      H ours;
      HasherTestAccess::set_length(ours, bytes, 0);
      ours.update(tail.data(), n);
      Ctx theirs;
      init(&theirs);
      const std::uint64_t bits = bytes << 3;
      theirs.Nl = static_cast<SHA_LONG>(bits);
      theirs.Nh = static_cast<SHA_LONG>(bits >> 32);
      update(&theirs, tail.data(), n);
      Bytes expected(H::digest_size);
      final(expected.data(), &theirs);
      EXPECT_EQ(bytes_of(ours.finalize()), expected) << "count " << bytes << " + " << n;
    }
  }
}

TEST(LengthCounter, Sha256InjectedNear2To32And2To61) {
  check_injected_256<Sha256>(SHA256_Init, SHA256_Update, SHA256_Final);
  check_injected_256<Sha224>(SHA224_Init, SHA224_Update, SHA224_Final);
}

// openssl_512_after_count is OpenSSL's digest of `n` bytes at `p` on a SHA-384/512 context whose
// count already holds `bytes_hi:bytes_lo` bytes (its state the IV), cut to `digest_size`.
Bytes openssl_512_after_count(int (*init)(SHA512_CTX*), std::uint64_t bytes_lo, std::uint64_t bytes_hi,
                              const std::uint8_t* p, std::size_t n, std::size_t digest_size) {
  SHA512_CTX ctx;
  init(&ctx);
  ctx.Nl = bytes_lo << 3;
  ctx.Nh = (bytes_hi << 3) | (bytes_lo >> 61);
  SHA512_Update(&ctx, p, n);
  Bytes digest(64);
  SHA512_Final(digest.data(), &ctx);
  digest.resize(digest_size);
  return digest;
}

template <class H>
void check_injected_512(int (*init)(SHA512_CTX*)) {
  struct Count {
    std::uint64_t lo, hi;
  };
  const Count counts[] = {{(1ull << 61) - 128, 0},  // bit count's carry into its high word
                          {~0ull - 127, 0},         // byte counter's carry into its high word
                          {~0ull - 255, 0x1234},    // both words in use
                          {0xFFFFFF80ull, 0}};      // past 2^32
  const Bytes tail(300, 0xa5);
  for (const Count& c : counts) {
    for (std::size_t n : kTails) {
      H ours;
      HasherTestAccess::set_length(ours, c.lo, c.hi);
      ours.update(tail.data(), n);
      EXPECT_EQ(bytes_of(ours.finalize()), openssl_512_after_count(init, c.lo, c.hi, tail.data(), n, H::digest_size))
          << "count " << c.hi << ":" << c.lo << " + " << n;
    }
  }
}

TEST(LengthCounter, Sha512InjectedNear2To61And2To64) {
  check_injected_512<Sha512>(SHA512_Init);
  check_injected_512<Sha384>(SHA384_Init);
}

// Hasher(chaining, blocks) and resume() with 2^57 blocks or more: the bytes of so many blocks pass
// 2^64, and the count's high word takes them (it stayed 0, so that 2^57 + 1 blocks and 1 block
// gave one digest). HMAC's pads resume at one block; a caller may resume anywhere.
template <class H>
void check_resumed_blocks(int (*init)(SHA512_CTX*)) {
  const Bytes tail(200, 0x5e);
  for (const std::uint64_t blocks : {(1ull << 57) - 1, 1ull << 57, (1ull << 57) + 1, (1ull << 60) + 3, ~0ull}) {
    for (std::size_t n : {0u, 5u, 111u, 112u, 200u}) {
      H made(H::initial_state(), blocks);
      H resumed;
      resumed.update(tail.data(), 17);  // a buffered part, which resume drops
      resumed.resume(H::initial_state(), blocks);
      made.update(tail.data(), n);
      resumed.update(tail.data(), n);
      const Bytes want = openssl_512_after_count(init, blocks * 128, blocks >> 57, tail.data(), n, H::digest_size);
      EXPECT_EQ(bytes_of(made.finalize()), want) << blocks << " blocks + " << n;
      EXPECT_EQ(bytes_of(resumed.finalize()), want) << "resume: " << blocks << " blocks + " << n;
    }
  }
}

TEST(LengthCounter, Sha512ResumedPast2To64Bytes) {
  check_resumed_blocks<Sha512>(SHA512_Init);
  check_resumed_blocks<Sha384>(SHA384_Init);
}

// The finishing step on its own (HMAC's and HKDF's prepared pads resume there) with a count that
// carries into the high word during the tail itself: the streaming Hasher always hands it a
// block-aligned count and less than a block, which never carries there.
template <class Alg>
void check_resume_carry(int (*init)(SHA512_CTX*)) {
  const Bytes message(300, 0x3c);
  for (std::uint64_t hi : {0ull, 0x1234ull}) {
    for (std::size_t n : {128u, 200u, 255u, 256u, 300u}) {
      const std::uint64_t lo = ~0ull - 127;  // whole blocks, one short of 2^64 bytes
      const auto ours = detail::resume_and_finish<Alg>(Alg::kIv, lo, hi, message.data(), n);
      EXPECT_EQ(bytes_of(ours), openssl_512_after_count(init, lo, hi, message.data(), n, Alg::kDigestSize))
          << "count " << hi << ":" << lo << " + " << n;
    }
  }
}

TEST(LengthCounter, Sha512FinishCarriesIntoTheHighWord) {
  check_resume_carry<detail::Sha512Algorithm>(SHA512_Init);
  check_resume_carry<detail::Sha384Algorithm>(SHA384_Init);
}

// A real message of 2^32 + 77 zero bytes. Its digests come from coreutils, independently of
// shasta and of OpenSSL: `head -c 4294967373 /dev/zero | sha256sum` (and `sha512sum`).
constexpr std::uint64_t kPast4GiB = (std::uint64_t{1} << 32) + 77;  // past size_t where it is 32 bits
constexpr std::string_view kZerosSha256 = "0d6f9075eac4ce4f67177dd825ea22144ec98f20902c6a04809f2b28909b8cd4";
constexpr std::string_view kZerosSha512 =
    "97b8ae5b3ea964150493b292fc9edceb305aee3a0dec83f176a87acb54e10e968b691ab4e7d3e4e691021616ea7516321b579f6a43feffd9"
    "3cccccce7c76fcc2";

// zeros_past_4gib streams kPast4GiB zero bytes through `h`: an odd first piece, so that every
// later update starts mid-block, then a reused 16 MiB buffer (262144 blocks a kernel call).
template <class H>
std::string zeros_past_4gib() {
  const Bytes zeros(16 << 20);
  H h;
  std::uint64_t done = 13;
  h.update(zeros.data(), 13);
  for (; done + zeros.size() <= kPast4GiB; done += zeros.size()) h.update(zeros);
  h.update(zeros.data(), static_cast<std::size_t>(kPast4GiB - done));  // under 16 MiB
  return to_hex(h.finalize());
}

TEST(LengthCounter, Sha256StreamPast4GiB) {
  if (quick_mode()) GTEST_SKIP() << "SHASTA_QUICK: no multi-GiB stream";
  EXPECT_EQ(zeros_past_4gib<Sha256>(), kZerosSha256);
}

TEST(LengthCounter, Sha512StreamPast4GiB) {
  if (quick_mode()) GTEST_SKIP() << "SHASTA_QUICK: no multi-GiB stream";
  EXPECT_EQ(zeros_past_4gib<Sha512>(), kZerosSha512);
}

}  // namespace
}  // namespace shasta::test
