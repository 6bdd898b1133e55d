// streaming_test.cpp: the streaming core against the one-shot path and OpenSSL: every length
// 0..300 in pieces, every split point of a 3-block message, misaligned buffers, forks, resets,
// every update overload, and a refused short output that loses nothing.
#include <cstring>

#include "support.hpp"

namespace shasta::test {
namespace {

template <class H>
class Streaming : public ::testing::Test {};
TYPED_TEST_SUITE(Streaming, AllHashers, HasherNames);

Bytes counting_bytes(std::size_t n) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7 + 3);
  return b;
}

TYPED_TEST(Streaming, EveryLengthInEveryPieceSize) {
  using H = TypeParam;
  const Bytes data = counting_bytes(300);
  for (std::size_t len = 0; len <= 300; ++len) {
    const Bytes expected = openssl_digest<H>(data.data(), len);
    ASSERT_EQ(bytes_of(Alg<H>::one_shot(data.data(), len)), expected) << "one-shot, length " << len;
    for (std::size_t piece : {1u, 7u, 63u, 64u, 65u, 127u, 128u, 129u}) {
      H h;
      for (std::size_t at = 0; at < len; at += piece) h.update(data.data() + at, std::min(piece, len - at));
      ASSERT_EQ(bytes_of(h.finalize()), expected) << "length " << len << " in pieces of " << piece;
    }
  }
}

TYPED_TEST(Streaming, EverySplitOfThreeBlocks) {
  using H = TypeParam;
  const Bytes data = counting_bytes(3 * H::block_size);
  const Bytes expected = openssl_digest<H>(data.data(), data.size());
  for (std::size_t split = 0; split <= data.size(); ++split) {
    H h;
    h.update(data.data(), split).update(data.data() + split, data.size() - split);
    ASSERT_EQ(bytes_of(h.finalize()), expected) << "split at " << split;
  }
  // Three pieces: every first split with a second split a block later.
  for (std::size_t a = 0; a + H::block_size <= data.size(); ++a) {
    const std::size_t b = a + H::block_size - 1;
    H h;
    h.update(data.data(), a).update(data.data() + a, b - a).update(data.data() + b, data.size() - b);
    ASSERT_EQ(bytes_of(h.finalize()), expected) << "splits at " << a << " and " << b;
  }
}

TYPED_TEST(Streaming, MisalignedInput) {
  using H = TypeParam;
  const Bytes data = counting_bytes(5 * H::block_size + 17);
  const Bytes expected = openssl_digest<H>(data.data(), data.size());
  Bytes storage(data.size() + 64);
  for (std::size_t offset = 0; offset < 32; ++offset) {
    std::memcpy(storage.data() + offset, data.data(), data.size());
    const std::uint8_t* p = storage.data() + offset;
    EXPECT_EQ(bytes_of(Alg<H>::one_shot(p, data.size())), expected) << "offset " << offset;
    H h;
    h.update(p, 3).update(p + 3, data.size() - 3);
    EXPECT_EQ(bytes_of(h.finalize()), expected) << "offset " << offset << ", streamed";
  }
}

TYPED_TEST(Streaming, ForkedCopiesGoOnIndependently) {
  using H = TypeParam;
  const Bytes data = counting_bytes(1000);
  for (std::size_t fork_at : {0u, 1u, 63u, 64u, 100u, 128u, 129u, 500u}) {
    H base;
    base.update(data.data(), fork_at);
    H fork = base;  // a TLS transcript forks like this
    base.update(data.data() + fork_at, 1000 - fork_at);
    fork.update("different tail");
    EXPECT_EQ(bytes_of(base.finalize()), openssl_digest<H>(data.data(), 1000)) << "fork at " << fork_at;
    Bytes forked(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(fork_at));
    const std::string_view tail = "different tail";
    forked.insert(forked.end(), tail.begin(), tail.end());
    EXPECT_EQ(bytes_of(fork.finalize()), openssl_digest<H>(forked.data(), forked.size())) << "fork at " << fork_at;
  }
}

TYPED_TEST(Streaming, FinalizeAndResetStartAfresh) {
  using H = TypeParam;
  H h;
  h.update("first message");
  (void)h.finalize();
  h.update("abc");
  EXPECT_EQ(h.finalize(), Alg<H>::one_shot("abc"));
  h.update("discarded");
  h.reset();
  EXPECT_EQ(h.finalize(), Alg<H>::one_shot(""));
}

TYPED_TEST(Streaming, EveryUpdateOverloadAgrees) {
  using H = TypeParam;
  const std::string text = "The quick brown fox jumps over the lazy dog, again and again and again.";
  const auto* u8 = reinterpret_cast<const std::uint8_t*>(text.data());
  const auto expected = Alg<H>::one_shot(text);
  EXPECT_EQ(H().update(std::string_view(text)).finalize(), expected);
  EXPECT_EQ(H().update(std::span<const std::uint8_t>(u8, text.size())).finalize(), expected);
  EXPECT_EQ(H().update(std::as_bytes(std::span(text))).finalize(), expected);
  EXPECT_EQ(H().update(text.data(), text.size()).finalize(), expected);
  EXPECT_EQ(Alg<H>::one_shot(std::as_bytes(std::span(text))), expected);
  EXPECT_EQ(Alg<H>::one_shot(std::span<const std::uint8_t>(u8, text.size())), expected);
  EXPECT_EQ(Alg<H>::one_shot(nullptr, 0), Alg<H>::one_shot(""));
  EXPECT_EQ(H().update(nullptr, 0).finalize(), Alg<H>::one_shot(""));
}

TYPED_TEST(Streaming, ShortOutputIsRefusedAndLosesNothing) {
  using H = TypeParam;
  H h;
  h.update("abc");
  std::uint8_t small[H::digest_size - 1];
  EXPECT_EQ(h.finalize_into(small), Error::output_too_small);
  std::uint8_t exact[H::digest_size + 3];
  std::memset(exact, 0xEE, sizeof exact);
  EXPECT_EQ(h.finalize_into(exact), Error::ok);
  const auto expected = Alg<H>::one_shot("abc");
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), exact));
  EXPECT_EQ(exact[H::digest_size], 0xEE) << "wrote past digest_size";
}

TEST(Sizes, DigestAndBlock) {
  EXPECT_EQ(Sha224::digest_size, 28u);
  EXPECT_EQ(Sha256::digest_size, 32u);
  EXPECT_EQ(Sha384::digest_size, 48u);
  EXPECT_EQ(Sha512::digest_size, 64u);
  EXPECT_EQ(Sha512_224::digest_size, 28u);
  EXPECT_EQ(Sha512_256::digest_size, 32u);
  EXPECT_EQ(Sha224::block_size, 64u);
  EXPECT_EQ(Sha256::block_size, 64u);
  EXPECT_EQ(Sha384::block_size, 128u);
  EXPECT_EQ(Sha512_256::block_size, 128u);
  static_assert(std::is_trivially_copyable_v<Sha256>, "a hasher is a plain value: fork by copying");
}

}  // namespace
}  // namespace shasta::test
