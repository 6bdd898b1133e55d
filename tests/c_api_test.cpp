// c_api_test.cpp: every function of shasta.h and every error code it can return.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "c_api_support.hpp"
#include "shasta/kernels.hpp"
#include "shasta/shasta.h"

namespace shasta::test {
namespace {

struct CAlg {
  shasta_alg alg;
  std::size_t digest, block;
};
const CAlg kAlgs[] = {{SHASTA_SHA224, 28, 64},  {SHASTA_SHA256, 32, 64},      {SHASTA_SHA384, 48, 128},
                      {SHASTA_SHA512, 64, 128}, {SHASTA_SHA512_224, 28, 128}, {SHASTA_SHA512_256, 32, 128}};

Bytes evp(const CAlg& a, const void* msg, std::size_t len) {
  return openssl_c_digest(a.alg, msg, len);
}

const shasta_alg kUnknown[] = {static_cast<shasta_alg>(0), static_cast<shasta_alg>(7), static_cast<shasta_alg>(6 + 1)};

TEST(CApi, Sizes) {
  for (const CAlg& a : kAlgs) {
    EXPECT_EQ(shasta_digest_size(a.alg), a.digest);
    EXPECT_EQ(shasta_block_size(a.alg), a.block);
  }
  for (shasta_alg bad : kUnknown) {
    EXPECT_EQ(shasta_digest_size(bad), 0u);
    EXPECT_EQ(shasta_block_size(bad), 0u);
  }
}

TEST(CApi, OneShot) {
  const std::string msg(1000, 'q');
  for (const CAlg& a : kAlgs) {
    unsigned char out[80];
    std::memset(out, 0xCC, sizeof out);
    ASSERT_EQ(shasta_hash(a.alg, msg.data(), msg.size(), out, a.digest), SHASTA_OK);
    EXPECT_EQ(Bytes(out, out + a.digest), evp(a, msg.data(), msg.size()));
    EXPECT_EQ(out[a.digest], 0xCC) << "wrote past the digest";
    ASSERT_EQ(shasta_hash(a.alg, nullptr, 0, out, sizeof out), SHASTA_OK);
    EXPECT_EQ(Bytes(out, out + a.digest), evp(a, "", 0));
    EXPECT_EQ(shasta_hash(a.alg, msg.data(), msg.size(), out, a.digest - 1), SHASTA_E_OUTPUT_TOO_SMALL);
    EXPECT_EQ(shasta_hash(a.alg, nullptr, 1, out, sizeof out), SHASTA_E_NULL);
    EXPECT_EQ(shasta_hash(a.alg, msg.data(), 1, nullptr, sizeof out), SHASTA_E_NULL);
  }
  unsigned char out[64];
  for (shasta_alg bad : kUnknown) EXPECT_EQ(shasta_hash(bad, "x", 1, out, sizeof out), SHASTA_E_UNKNOWN_ALG);
}

TEST(CApi, StreamingCloneFinalAndErrors) {
  const std::string msg = "streamed through the C API, cloned half way";
  for (const CAlg& a : kAlgs) {
    shasta_hash_ctx* ctx = shasta_hash_new(a.alg);
    ASSERT_NE(ctx, nullptr);
    ASSERT_EQ(shasta_hash_update(ctx, msg.data(), 10), SHASTA_OK);
    shasta_hash_ctx* clone = shasta_hash_clone(ctx);
    ASSERT_NE(clone, nullptr);
    ASSERT_EQ(shasta_hash_update(ctx, msg.data() + 10, msg.size() - 10), SHASTA_OK);
    ASSERT_EQ(shasta_hash_update(ctx, nullptr, 0), SHASTA_OK);
    EXPECT_EQ(shasta_hash_update(ctx, nullptr, 3), SHASTA_E_NULL);

    unsigned char out[64];
    // A refused final loses nothing: the state is intact for the next try.
    EXPECT_EQ(shasta_hash_final(ctx, out, a.digest - 1), SHASTA_E_OUTPUT_TOO_SMALL);
    EXPECT_EQ(shasta_hash_final(ctx, nullptr, sizeof out), SHASTA_E_NULL);
    ASSERT_EQ(shasta_hash_final(ctx, out, a.digest), SHASTA_OK);
    EXPECT_EQ(Bytes(out, out + a.digest), evp(a, msg.data(), msg.size()));
    // Final starts afresh.
    ASSERT_EQ(shasta_hash_final(ctx, out, sizeof out), SHASTA_OK);
    EXPECT_EQ(Bytes(out, out + a.digest), evp(a, "", 0));

    ASSERT_EQ(shasta_hash_final(clone, out, sizeof out), SHASTA_OK);
    EXPECT_EQ(Bytes(out, out + a.digest), evp(a, msg.data(), 10));
    shasta_hash_free(clone);
    shasta_hash_free(ctx);
  }
  for (shasta_alg bad : kUnknown) EXPECT_EQ(shasta_hash_new(bad), nullptr);
  EXPECT_EQ(shasta_hash_clone(nullptr), nullptr);
  unsigned char out[64];
  EXPECT_EQ(shasta_hash_update(nullptr, "x", 1), SHASTA_E_NULL);
  EXPECT_EQ(shasta_hash_final(nullptr, out, sizeof out), SHASTA_E_NULL);
  shasta_hash_free(nullptr);
}

TEST(CApi, KernelNameAndForce) {
  const KernelsRestored restored;  // forcing the active kernel by name drops the best's lane ranking
  for (const CAlg& a : kAlgs) {
    const char* name = shasta_kernel_name(a.alg);
    ASSERT_NE(name, nullptr);
    const Family family = a.block == 64 ? Family::sha224_256 : Family::sha384_512;
    EXPECT_EQ(std::string_view(name), active_kernel(family));
    EXPECT_EQ(shasta_force_kernel(a.alg, "no-such-kernel"), SHASTA_E_UNKNOWN_KERNEL);
    EXPECT_EQ(shasta_force_kernel(a.alg, nullptr), SHASTA_E_NULL);
    EXPECT_EQ(shasta_force_kernel(a.alg, name), SHASTA_OK);  // the active one is always allowed
    EXPECT_EQ(std::string_view(shasta_kernel_name(a.alg)), name);
  }
  for (shasta_alg bad : kUnknown) {
    EXPECT_EQ(shasta_kernel_name(bad), nullptr);
    EXPECT_EQ(shasta_force_kernel(bad, "portable"), SHASTA_E_UNKNOWN_ALG);
  }
}

// shasta_from_hex: SHASTA_E_INVALID_HEX for every way text is not the bytes' hex.
TEST(CApi, FromHex) {
  unsigned char out[4] = {};
  EXPECT_EQ(shasta_from_hex("00ff7Ac9", 8, out, 4), SHASTA_OK);
  EXPECT_EQ(out[0], 0x00);
  EXPECT_EQ(out[1], 0xff);
  EXPECT_EQ(out[2], 0x7a);
  EXPECT_EQ(out[3], 0xc9);
  EXPECT_EQ(shasta_from_hex("", 0, nullptr, 0), SHASTA_OK);
  EXPECT_EQ(shasta_from_hex("00ff7ac", 7, out, 4), SHASTA_E_INVALID_HEX);    // odd
  EXPECT_EQ(shasta_from_hex("00ff7ac900", 10, out, 4), SHASTA_E_INVALID_HEX);  // too long
  EXPECT_EQ(shasta_from_hex("00ff7a", 6, out, 4), SHASTA_E_INVALID_HEX);      // too short
  EXPECT_EQ(shasta_from_hex("00ff7g00", 8, out, 4), SHASTA_E_INVALID_HEX);    // not a digit
  EXPECT_EQ(shasta_from_hex("0 ff7a00", 8, out, 4), SHASTA_E_INVALID_HEX);
  EXPECT_EQ(shasta_from_hex(nullptr, 8, out, 4), SHASTA_E_NULL);
  EXPECT_EQ(shasta_from_hex("00ff7ac9", 8, nullptr, 4), SHASTA_E_NULL);
  EXPECT_STREQ(shasta_strerror(SHASTA_E_INVALID_HEX), "not hex: a non-hex digit, or not two digits a byte");
  // Lengths no memory holds are refused before anything is read, as every C input's are: hex_len
  // 2^63 with out_len 2^62 matched and was decoded until it faulted; 2 * out_len wraps for 2^63.
  const std::size_t half = std::size_t{1} << (8 * sizeof(std::size_t) - 1);
  EXPECT_EQ(shasta_from_hex("00", half, out, half / 2), SHASTA_E_INPUT_TOO_LONG);
  EXPECT_EQ(shasta_from_hex("00", 0, out, half), SHASTA_E_INPUT_TOO_LONG);
  // PTRDIFF_MAX itself is a length an object may have: not refused as impossible, but as odd
  EXPECT_EQ(shasta_from_hex("00", std::size_t{PTRDIFF_MAX}, out, 4), SHASTA_E_INVALID_HEX);
  EXPECT_EQ(shasta_from_hex("00", 1, out, half + 1), SHASTA_E_INPUT_TOO_LONG);
  const auto* top = reinterpret_cast<const char*>(UINTPTR_MAX - 7);  // 8 bytes to the end of the address space
  EXPECT_EQ(shasta_from_hex(top, 16, out, 8), SHASTA_E_INPUT_TOO_LONG);
  EXPECT_EQ(shasta_from_hex("00ff7ac9", 8, reinterpret_cast<unsigned char*>(UINTPTR_MAX - 1), 4),
            SHASTA_E_INPUT_TOO_LONG);
}

// Every byte value as either digit: accepted exactly where it is a hex digit of either case, with
// its value (the decoding is arithmetic on the character, without a branch or table to check by eye).
TEST(CApi, FromHexEveryCharacter) {
  const auto value_of = [](int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (int c = 0; c < 256; ++c) {
    SCOPED_TRACE("character " + std::to_string(c));
    const int v = value_of(c);
    for (int first = 0; first < 2; ++first) {
      const char text[2] = {static_cast<char>(first ? c : '7'), static_cast<char>(first ? '7' : c)};
      unsigned char out = 0;
      const int rc = shasta_from_hex(text, 2, &out, 1);
      if (v < 0) {
        EXPECT_EQ(rc, SHASTA_E_INVALID_HEX);
      } else {
        EXPECT_EQ(rc, SHASTA_OK);
        EXPECT_EQ(out, first ? v << 4 | 7 : 0x70 | v);
      }
    }
  }
}

// The library reports the version of its headers (one build), in the macros' forms, and CMake's
// project() read the same one from version.h.
TEST(CApi, Version) {
  EXPECT_STREQ(shasta_version(), SHASTA_VERSION_STRING);
  EXPECT_EQ(shasta_version_number(), SHASTA_VERSION_NUMBER);
  EXPECT_EQ(std::string(shasta_version()), std::to_string(SHASTA_VERSION_MAJOR) + "." +
                                               std::to_string(SHASTA_VERSION_MINOR) + "." +
                                               std::to_string(SHASTA_VERSION_PATCH));
  static_assert(SHASTA_VERSION_MINOR < 100 && SHASTA_VERSION_PATCH < 100, "SHASTA_VERSION_NUMBER's form");
  EXPECT_EQ(shasta_version_number(), SHASTA_VERSION_MAJOR * 10000 + SHASTA_VERSION_MINOR * 100 + SHASTA_VERSION_PATCH);
  EXPECT_STREQ(shasta_version(), SHASTA_PROJECT_VERSION);
#if !(SHASTA_VERSION_NUMBER >= 0)  // usable in #if, as its comment in version.h promises
#error "SHASTA_VERSION_NUMBER is not a preprocessor number"
#endif
}

TEST(CApi, Strerror) {
  const int codes[] = {SHASTA_OK,
                       SHASTA_E_UNKNOWN_ALG,
                       SHASTA_E_OUTPUT_TOO_SMALL,
                       SHASTA_E_NULL,
                       SHASTA_E_UNKNOWN_KERNEL,
                       SHASTA_E_KERNEL_UNSUPPORTED,
                       SHASTA_E_NO_MEMORY,
                       SHASTA_E_INVALID_HEX,
                       SHASTA_E_OUTPUT_TOO_LONG,
                       SHASTA_E_PRK_TOO_SHORT,
                       SHASTA_E_LABEL_TOO_LONG,
                       SHASTA_E_CONTEXT_TOO_LONG,
                       SHASTA_E_ZERO_ITERATIONS,
                       SHASTA_E_TAG_TOO_SHORT,
                       SHASTA_E_TAG_MISMATCH,
                       SHASTA_E_INVALID_EXPORT,
                       SHASTA_E_INVALID_PARAMETER,
                       SHASTA_E_INPUT_TOO_LONG,
                       SHASTA_E_OVERLAPPING_BUFFERS,
                       SHASTA_E_TRANSCRIPT_HASH_SIZE};
  std::vector<std::string> seen;
  for (int c : codes) {
    const std::string s = shasta_strerror(c);
    EXPECT_NE(s, "unknown error code") << c;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), s), 0) << "two codes share \"" << s << '"';
    seen.push_back(s);
  }
  EXPECT_STREQ(shasta_strerror(1), "unknown error code");
  EXPECT_STREQ(shasta_strerror(-20), "unknown error code");
  EXPECT_STREQ(shasta_strerror(-1000), "unknown error code");
  EXPECT_EQ(error_name(Error::output_too_small), "output_too_small");
}

}  // namespace
}  // namespace shasta::test
