// fsverity_memory_test.cpp: FsverityBuilder's promise for large blocks, at most one block per level
// held. Where a batch is one block (a slot of 128 KiB or more), each block must be hashed as soon as
// it is full: a builder that waited for a second would grow its slots to two blocks (2 GiB for
// 1 GiB blocks) with the same digest. The binary's global operator new remembers the largest
// allocation; the test compares it with one slot (the padded salt and a block). It can also refuse
// every allocation: out of memory while the tree's upper levels are built is Error::out_of_memory.
#include <array>
#include <atomic>
#include <cstdlib>
#include <new>

#include "shasta/fsverity.hpp"
#include "support.hpp"

namespace {
std::atomic<std::size_t> g_largest{0};
std::atomic<bool> g_refuse{false};  // every allocation fails, as when memory runs out
}  // namespace

// Out of line: inlined beside the deletes below, GCC 12 takes malloc and free for a mismatched pair.
[[gnu::noinline]] void* operator new(std::size_t size) {
  if (g_refuse.load()) throw std::bad_alloc();
  for (std::size_t seen = g_largest.load(); size > seen && !g_largest.compare_exchange_weak(seen, size);) {
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace shasta::test {
namespace {

struct Case {
  FsverityHash hash;
  std::size_t block_size;
  std::size_t salt_size;
  std::size_t padded_salt;  // the salt rounded up to the hash's block size (0 without a salt)
  std::size_t piece;        // bytes per update call
};

TEST(FsverityMemory, LargeBlocksHoldOneBlockPerLevel) {
  const Case cases[] = {
      {FsverityHash::sha256, std::size_t{1} << 17, 19, 64, std::size_t{1} << 30},  // salted: no direct path
      {FsverityHash::sha512, std::size_t{1} << 18, 0, 0, std::size_t{1} << 16},    // unsalted, in pieces
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("block size " + std::to_string(c.block_size) + ", salt " + std::to_string(c.salt_size));
    const Bytes salt(c.salt_size, 0x5a);
    std::mt19937_64 rng(run_seed());
    const Bytes data = random_bytes(rng, 3 * c.block_size + 5);
    FsverityParams params;
    params.hash = c.hash;
    params.block_size = c.block_size;
    params.salt = ByteView(salt.data(), salt.size());
    std::array<std::uint8_t, 64> want{}, got{};
    ASSERT_EQ(fsverity_digest(params, data, want), Error::ok);

    FsverityBuilder builder(params);
    g_largest = 0;
    for (std::size_t at = 0; at < data.size(); at += c.piece) {
      const std::size_t n = std::min(c.piece, data.size() - at);
      ASSERT_EQ(builder.update(ByteView(data.data() + at, n)), Error::ok);
    }
    ASSERT_EQ(builder.finish(got), Error::ok);
    EXPECT_LE(g_largest.load(), c.padded_salt + c.block_size) << "more than one block held";
    EXPECT_EQ(got, want);
  }
  // The record itself can fail: a larger allocation is seen.
  g_largest = 0;
  void* probe = ::operator new(1000);  // a direct call, which no compiler may elide
  EXPECT_EQ(g_largest.load(), 1000u);
  ::operator delete(probe);
}

// A short file in 1 GiB blocks, in pieces, holds about what it put in: past the first 256 KiB the
// slots grew to a whole batch, a 1 GiB block, for 320 KiB of data.
TEST(FsverityMemory, ShortFileInLargeBlocksHoldsAboutItsSize) {
  FsverityParams params;
  params.hash = FsverityHash::sha256;
  params.block_size = std::size_t{1} << 30;
  if (quick_mode()) params.block_size = std::size_t{1} << 24;  // the zeros after the data are hashed
  std::mt19937_64 rng(run_seed());
  const Bytes data = random_bytes(rng, 320 << 10);
  std::array<std::uint8_t, 64> want{}, got{};
  ASSERT_EQ(fsverity_digest(params, data, want), Error::ok);
  FsverityBuilder builder(params);
  g_largest = 0;
  for (std::size_t at = 0; at < data.size(); at += 64 << 10) {
    ASSERT_EQ(builder.update(ByteView(data.data() + at, 64 << 10)), Error::ok);
  }
  ASSERT_EQ(builder.finish(got), Error::ok);
  EXPECT_LE(g_largest.load(), 2 * data.size()) << "a large block's slot grew past twice its data";
  EXPECT_EQ(got, want);
}

// Memory that runs out in finish (the first allocation of an upper level) is reported as such, and
// the builder is reset, not left half done.
TEST(FsverityMemory, OutOfMemoryInFinishIsReported) {
  FsverityParams params;
  params.hash = FsverityHash::sha256;
  params.block_size = 4096;
  static std::array<std::uint8_t, 3 * 4096 + 100> data;  // no std::vector: its delete inlined beside
  data.fill(0x5a);                                         // this operator new trips -Wmismatched-new-delete
  FsverityBuilder builder(params);
  ASSERT_EQ(builder.status(), Error::ok);
  ASSERT_EQ(builder.update(ByteView(data.data(), data.size())), Error::ok);
  std::array<std::uint8_t, 64> digest{};
  g_refuse = true;
  const Error e = builder.finish(std::span<std::uint8_t>(digest.data(), builder.digest_size()));
  g_refuse = false;
  EXPECT_EQ(e, Error::out_of_memory);
  EXPECT_EQ(digest, (std::array<std::uint8_t, 64>{})) << "a refusal wrote a digest";
}

// Memory that runs out in update (a fresh builder's first level) is Error::out_of_memory, and it
// stays: later calls return it, and finish reports it and resets the builder.
TEST(FsverityMemory, OutOfMemoryInUpdateIsReported) {
  FsverityParams params;
  params.hash = FsverityHash::sha256;
  params.block_size = 4096;
  static std::array<std::uint8_t, 100> data;
  data.fill(0x5a);
  FsverityBuilder builder(params);
  ASSERT_EQ(builder.status(), Error::ok);
  g_refuse = true;
  const Error e = builder.update(ByteView(data.data(), data.size()));
  g_refuse = false;
  EXPECT_EQ(e, Error::out_of_memory);
  EXPECT_EQ(builder.update(ByteView(data.data(), data.size())), Error::out_of_memory) << "the error stays";
  std::array<std::uint8_t, 64> digest{};
  EXPECT_EQ(builder.finish(std::span<std::uint8_t>(digest.data(), builder.digest_size())), Error::out_of_memory);
  EXPECT_EQ(digest, (std::array<std::uint8_t, 64>{})) << "a refusal wrote a digest";
}

}  // namespace
}  // namespace shasta::test
