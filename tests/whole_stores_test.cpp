// whole_stores_test.cpp: the 16-byte-store block writers of whole_stores.hpp against the plain
// byte-by-byte layout, every length, every alignment, with the input ending just before a page
// that cannot be read (a read past the end crashes the test).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "shasta/detail/hasher.hpp"
#include "shasta/detail/whole_stores.hpp"
#include "guarded_memory.hpp"

// whole_stores.hpp's writers exist on little-endian 64-bit hosts only (whole_stores_apply); others
// take the plain byte-by-byte paths, which every other suite runs there.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__SIZEOF_INT128__)
namespace {

using shasta::detail::ChunkWriter;

// GuardedBytes places bytes so that the last one sits just before an inaccessible page.
class GuardedBytes {
 public:
  // place copies `bytes` (at most a page) to end at the guard page and returns where they start.
  const std::uint8_t* place(const std::vector<std::uint8_t>& bytes) {
    std::uint8_t* at = memory_.end() - bytes.size();
    if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());  // an empty vector's data() may be null
    return at;
  }

 private:
  shasta::test::GuardedMemory memory_{static_cast<std::size_t>(sysconf(_SC_PAGESIZE))};
};

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

// The reference layout: the tail copied, then pad_tail's bytes (FIPS 180-4 section 5.1).
template <class Family>
std::vector<std::uint8_t> reference_tail(const std::vector<std::uint8_t>& tail, std::uint64_t lo, std::uint64_t hi) {
  constexpr std::size_t kB = Family::kBlockSize;
  std::vector<std::uint8_t> blocks(3 * kB, 0xee);
  const std::size_t whole = tail.size() >= kB ? 1 : 0;
  std::copy(tail.begin(), tail.end(), blocks.begin());
  const std::size_t pad = shasta::detail::pad_tail<Family>(blocks.data() + whole * kB, tail.size() - whole * kB, lo, hi);
  blocks.resize((whole + pad) * kB);
  return blocks;
}

template <class Family>
void check_padded_tails() {
  constexpr std::size_t kB = Family::kBlockSize;
  std::mt19937_64 rng(20261202);
  GuardedBytes guarded;
  for (std::size_t n = 0; n < 2 * kB; ++n) {
    for (int trial = 0; trial < 4; ++trial) {
      const std::vector<std::uint8_t> tail = random_bytes(rng, n);
      const std::uint64_t lo = rng(), hi = trial == 0 ? 0 : rng();
      const std::vector<std::uint8_t> want = reference_tail<Family>(tail, lo, hi);
      std::vector<std::uint8_t> got(3 * kB + 2, 0xee);
      std::uint8_t* out = got.data() + trial % 2;  // misaligned output too
      const std::size_t count = shasta::detail::write_padded_tail<kB, Family::kLengthSize>(
          out, guarded.place(tail), n, (hi << 3) | (lo >> 61), lo << 3);
      ASSERT_EQ(count * kB, want.size()) << "n=" << n;
      ASSERT_EQ(std::vector<std::uint8_t>(out, out + want.size()), want) << "n=" << n << " trial=" << trial;
      EXPECT_EQ(out[want.size()], 0xee) << "wrote past the blocks, n=" << n;
    }
  }
}

TEST(WholeStores, Sha256PaddedTailIsPadTails) { check_padded_tails<shasta::detail::Sha256Family>(); }
TEST(WholeStores, Sha512PaddedTailIsPadTails) { check_padded_tails<shasta::detail::Sha512Family>(); }

TEST(WholeStores, PartialLoadsReadOnlyTheirBytes) {
  std::mt19937_64 rng(7);
  GuardedBytes guarded;
  for (std::size_t r = 0; r <= 8; ++r) {
    const std::vector<std::uint8_t> bytes = random_bytes(rng, r);
    std::uint64_t want = 0;
    for (std::size_t i = 0; i < r; ++i) want |= std::uint64_t{bytes[i]} << (8 * i);
    EXPECT_EQ(shasta::detail::load_partial_le(guarded.place(bytes), r), want) << "r=" << r;
  }
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::vector<std::uint8_t> bytes = random_bytes(rng, n);
    const std::uint8_t* p = guarded.place(bytes);
    for (std::size_t off = 0; off < n + 16; off += 16) {
      const shasta::detail::Chunk c = shasta::detail::message_chunk(p, n, off);
      for (std::size_t i = 0; i < 16; ++i) {
        const std::uint8_t want = off + i < n ? bytes[off + i] : 0;
        const std::uint64_t word = i < 8 ? c.lo : c.hi;
        ASSERT_EQ(static_cast<std::uint8_t>(word >> (8 * (i % 8))), want) << "n=" << n << " off=" << off << " i=" << i;
      }
    }
  }
}

// ChunkWriter: random strings and single bytes end to end are their concatenation, zero to the end
// of the last chunk, and nothing past it.
TEST(WholeStores, ChunkWriterIsConcatenation) {
  std::mt19937_64 rng(11);
  GuardedBytes guarded;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<std::uint8_t> want;
    std::vector<std::uint8_t> out(700, 0xee);
    std::uint8_t* at = out.data() + trial % 3;
    ChunkWriter writer(at);
    const int pieces = static_cast<int>(rng() % 8);
    for (int k = 0; k < pieces; ++k) {
      if (rng() % 4 == 0) {
        const auto b = static_cast<std::uint8_t>(rng());
        writer.append_byte(b);
        want.push_back(b);
      } else {
        const std::vector<std::uint8_t> piece = random_bytes(rng, rng() % 70);
        writer.append(guarded.place(piece), piece.size());
        want.insert(want.end(), piece.begin(), piece.end());
      }
    }
    ASSERT_EQ(writer.size(), want.size());
    writer.finish();
    const std::size_t end = (want.size() + 15) / 16 * 16;
    std::vector<std::uint8_t> padded = want;
    padded.resize(end, 0);
    ASSERT_EQ(std::vector<std::uint8_t>(at, at + end), padded) << "trial " << trial;
    ASSERT_EQ(at[end], 0xee) << "wrote past the last chunk, trial " << trial;
  }
}

// ChunkWriter::finish_padded: random pieces of 0 to 3 blocks in all, then FIPS 180-4's padding
// with the bit count of `prior` bytes before them, is the reference layout (pad_tail) of the same
// message, and nothing is written past its last block.
template <class Family>
void check_finish_padded() {
  constexpr std::size_t kB = Family::kBlockSize;
  std::mt19937_64 rng(20261204);
  GuardedBytes guarded;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<std::uint8_t> message;
    std::vector<std::uint8_t> out(5 * kB + 1, 0xee);
    ChunkWriter writer(out.data());
    const std::size_t target = rng() % (3 * kB + 1);
    while (message.size() < target) {
      if (rng() % 4 == 0) {
        const auto b = static_cast<std::uint8_t>(rng());
        writer.append_byte(b);
        message.push_back(b);
      } else {
        const std::vector<std::uint8_t> piece = random_bytes(rng, rng() % std::min<std::size_t>(70, target - message.size() + 1));
        writer.append(guarded.place(piece), piece.size());
        message.insert(message.end(), piece.begin(), piece.end());
      }
    }
    const std::uint64_t prior = kB * (rng() % 3);
    const std::size_t count = writer.finish_padded<kB, Family::kLengthSize>(prior);
    // The reference: whole blocks copied, the rest by reference_tail with the total byte count.
    const std::size_t whole = message.size() / kB > 0 ? (message.size() / kB - (message.size() % kB == 0 ? 1 : 0)) : 0;
    std::vector<std::uint8_t> want(message.begin(), message.begin() + static_cast<std::ptrdiff_t>(whole * kB));
    const std::vector<std::uint8_t> tail(message.begin() + static_cast<std::ptrdiff_t>(whole * kB), message.end());
    const std::vector<std::uint8_t> padded = reference_tail<Family>(tail, prior + message.size(), 0);
    want.insert(want.end(), padded.begin(), padded.end());
    ASSERT_EQ(count * kB, want.size()) << "trial " << trial << ", " << message.size() << " bytes";
    ASSERT_EQ(std::vector<std::uint8_t>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(want.size())), want)
        << "trial " << trial << ", " << message.size() << " bytes";
    ASSERT_EQ(out[want.size()], 0xee) << "wrote past the last block, trial " << trial;
  }
}

TEST(WholeStores, Sha256FinishPaddedIsPadTail) { check_finish_padded<shasta::detail::Sha256Family>(); }
TEST(WholeStores, Sha512FinishPaddedIsPadTail) { check_finish_padded<shasta::detail::Sha512Family>(); }

}  // namespace
#endif  // elsewhere the 16-byte block writers are not used: nothing to test
