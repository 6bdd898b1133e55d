// many_test.cpp: hash_many, hash_many_64 and shasta_hash_many against the one-shot path, on the
// kernel SHASTA_KERNEL picks (and with it the lane kernel), plus each lane kernel against the
// portable rounds lane by lane.
#include "shasta/many.hpp"

#include <cstring>

#include "shasta/detail/lanes.hpp"
#include "shasta/kernels.hpp"
#include "shasta/shasta.h"
#include "support.hpp"

namespace shasta::test {
namespace {

template <class H>
constexpr Family family_of() {
  return H::block_size == 64 ? Family::sha224_256 : Family::sha384_512;
}

template <class H>
std::size_t active_lanes() {
  if constexpr (H::block_size == 64) return detail::active_lanes_256().lanes;
  return detail::active_lanes_512().lanes;
}

// Counts around the wide hash call's groups (messages of one length): one short of a wide group
// (narrow groups only), and a wide group, a narrow one and three left over. None without one.
template <class H>
std::vector<std::size_t> wide_counts() {
  const auto counts = [](const auto& kernel) -> std::vector<std::size_t> {
    if (kernel.wide_hash == nullptr) return {};
    return {kernel.wide_lanes - 1, kernel.wide_lanes + kernel.lanes + 3};
  };
  if constexpr (H::block_size == 64) return counts(detail::active_lanes_256());
  return counts(detail::active_lanes_512());
}

// Lengths that cross the block and padding boundaries of both families.
const std::size_t kEdges[] = {0, 1, 55, 56, 57, 63, 64, 65, 111, 112, 113, 119, 120, 127, 128, 129, 191, 192, 255, 256};

// check hashes `lens.size()` messages cut from `pool` at `offset` (distinct data each) with
// hash_many, and compares each digest with OpenSSL's (not shasta's one-shot, which hash_many itself
// uses for counts under the lane count and for the messages left over).
template <class H>
void check(const Bytes& pool, const std::vector<std::size_t>& lens, std::size_t offset) {
  std::vector<ByteView> views;
  std::size_t at = offset;
  for (std::size_t len : lens) {
    ASSERT_LE(offset + len, pool.size()) << "the pool is too small for the test";
    if (at + len > pool.size()) at = offset;
    views.emplace_back(pool.data() + at, len);
    at += len / 2 + 1;
  }
  std::vector<std::uint8_t> out(lens.size() * H::digest_size + 1, 0xEE);
  ASSERT_EQ(hash_many<H>(views, std::span(out).first(lens.size() * H::digest_size)), Error::ok);
  for (std::size_t i = 0; i < views.size(); ++i) {
    ASSERT_EQ(Bytes(out.begin() + static_cast<std::ptrdiff_t>(i * H::digest_size),
                    out.begin() + static_cast<std::ptrdiff_t>((i + 1) * H::digest_size)),
              openssl_digest<H>(views[i].data(), views[i].size()))
        << "message " << i << " of " << lens.size() << ", length " << lens[i] << ", offset " << offset;
  }
  EXPECT_EQ(out.back(), 0xEE) << "wrote past the digests";
}

template <class H>
class Many : public ::testing::Test {};
TYPED_TEST_SUITE(Many, AllHashers, HasherNames);

TYPED_TEST(Many, CountsAndLengths) {
  using H = TypeParam;
  SCOPED_TRACE(std::string("kernel ") + std::string(active_kernel(family_of<H>())) + ", lanes " +
               std::to_string(active_lanes<H>()) + ", seed " + std::to_string(run_seed()));
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const std::size_t max_len = quick_mode() ? 1024 : 10240;
  const Bytes pool = random_bytes(rng, 3 * std::max<std::size_t>(max_len, 4096 + 17) + 64);
  const std::size_t lanes = std::max<std::size_t>(active_lanes<H>(), 2);
  const std::size_t big = quick_mode() ? 200 : 1000;
  std::vector<std::size_t> counts = {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 1, big};
  for (std::size_t count : wide_counts<H>()) counts.push_back(count);
  for (std::size_t count : counts) {
    for (std::size_t offset : {0u, 1u, 3u, 7u}) {
      // All one length, for each edge length and a long one.
      for (std::size_t len : kEdges) check<H>(pool, std::vector<std::size_t>(count, len), offset);
      check<H>(pool, std::vector<std::size_t>(count, 4096 + 17), offset);
      // Unequal: random lengths, and random edge lengths.
      std::vector<std::size_t> lens(count);
      for (auto& len : lens) len = static_cast<std::size_t>(rng() % (max_len + 1));
      check<H>(pool, lens, offset);
      for (auto& len : lens) len = kEdges[rng() % std::size(kEdges)] + 128 * (rng() % 3);
      check<H>(pool, lens, offset);
    }
    // All one length but one, the odd one first, second or last: the one-length path must not
    // be taken (a length check that skipped message 1 went unseen by the random lengths).
    for (std::size_t odd : {std::size_t{0}, std::size_t{1}, count - 1}) {
      if (odd >= count) continue;
      std::vector<std::size_t> lens(count, 64);
      lens[odd] = 65;
      check<H>(pool, lens, 0);
    }
  }
}

TYPED_TEST(Many, Refusals) {
  using H = TypeParam;
  const Bytes data(100, 0x61);
  std::vector<ByteView> views(5, ByteView(data));
  std::vector<std::uint8_t> out(5 * H::digest_size, 0xEE);
  EXPECT_EQ(hash_many<H>(views, std::span(out).first(out.size() - 1)), Error::output_too_small);
  views[3] = ByteView(nullptr, 1);
  EXPECT_EQ(hash_many<H>(views, out), Error::null_pointer);
  EXPECT_EQ(out, std::vector<std::uint8_t>(out.size(), 0xEE)) << "a refusal wrote";
  views[3] = ByteView(nullptr, 0);  // empty: fine
  EXPECT_EQ(hash_many<H>(views, out), Error::ok);
  EXPECT_EQ(Bytes(out.begin() + 3 * H::digest_size, out.begin() + 4 * H::digest_size),
            bytes_of(Alg<H>::one_shot(std::span<const std::uint8_t>())));
  EXPECT_EQ(hash_many<H>({}, {}), Error::ok);
  const std::vector<std::array<std::uint8_t, 64>> nodes(3);
  EXPECT_EQ(hash_many_64<H>(nodes, std::span(out).first(3 * H::digest_size - 1)), Error::output_too_small);
}

// update_many against each hasher updated alone: 0 to 11 hashers (full and partial lane groups),
// each with a random prefix already absorbed (partial blocks pending), then rounds of chunks that
// are equal multiples of the block size (every lane busy), random sizes, or empty.
TYPED_TEST(Many, UpdateManyMatchesUpdate) {
  using H = TypeParam;
  SCOPED_TRACE(std::string("kernel ") + std::string(active_kernel(family_of<H>())) + ", lanes " +
               std::to_string(lane_count<H>()));
  EXPECT_EQ(lane_count<H>(), std::max<std::size_t>(active_lanes<H>(), 1));
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const Bytes pool = random_bytes(rng, 40000);
  for (std::size_t count = 0; count <= 11; ++count) {
    for (int trial = 0; trial < (quick_mode() ? 2 : 6); ++trial) {
      std::vector<H> many(count), alone(count);
      for (std::size_t i = 0; i < count; ++i) {
        const ByteView prefix(pool.data() + rng() % 1000, trial % 2 == 0 ? 0 : rng() % (3 * H::block_size));
        many[i].update(prefix.span());
        alone[i].update(prefix.span());
      }
      for (int round = 0; round < 4; ++round) {
        const std::size_t equal = H::block_size * (1 + rng() % 40);
        std::vector<ByteView> chunks;
        std::vector<H*> hashers;
        for (std::size_t i = 0; i < count; ++i) {
          const std::size_t len = round == 0 ? equal : round == 3 ? 0 : rng() % 6000;
          chunks.emplace_back(pool.data() + rng() % 30000, len);
          hashers.push_back(&many[i]);
          alone[i].update(chunks.back().span());
        }
        ASSERT_EQ(update_many<H>(hashers, chunks), Error::ok);
      }
      for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(many[i].finalize(), alone[i].finalize()) << "hasher " << i << " of " << count << ", trial " << trial;
      }
    }
  }
}

// A hasher named more than once (issue 14, bug 2: {&h, &h, &h} gave a wrong digest on the SHA-NI
// x4 and AVX2 x5 lanes): its chunks are taken in order, as updates one after the other, on every
// kernel; random patterns of repeats among distinct hashers, equal block-multiple and random chunks.
TYPED_TEST(Many, UpdateManyWithARepeatedHasherIsSequential) {
  using H = TypeParam;
  std::mt19937_64 rng(run_seed());
  SCOPED_TRACE(std::string("kernel ") + std::string(active_kernel(family_of<H>())) + ", lanes " +
               std::to_string(lane_count<H>()) + ", seed " + std::to_string(run_seed()));
  const Bytes pool = random_bytes(rng, 40000);
  for (int trial = 0; trial < (quick_mode() ? 20 : 100); ++trial) {
    const std::size_t distinct = 1 + rng() % 6, count = 1 + rng() % 40;
    std::vector<H> many(distinct), alone(distinct);
    std::vector<H*> hashers;
    std::vector<ByteView> chunks;
    const std::size_t equal = H::block_size * (1 + rng() % 8);
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t h = trial % 3 == 0 ? 0 : rng() % distinct;  // a third of the trials: one hasher only
      const std::size_t len = trial % 2 == 0 ? equal : rng() % 3000;
      chunks.emplace_back(pool.data() + rng() % 30000, len);
      hashers.push_back(&many[h]);
      alone[h].update(chunks.back().span());
    }
    ASSERT_EQ(update_many<H>(hashers, chunks), Error::ok);
    for (std::size_t h = 0; h < distinct; ++h) {
      ASSERT_EQ(many[h].finalize(), alone[h].finalize()) << "hasher " << h << ", trial " << trial;
    }
  }
  // The issue's own case: {&h, &h, &h} with three whole blocks each.
  const Bytes blocks(3 * H::block_size, 0x42);
  H h, want;
  H* const three[] = {&h, &h, &h};
  const ByteView chunks3[] = {ByteView(blocks), ByteView(blocks), ByteView(blocks)};
  ASSERT_EQ(update_many<H>(three, chunks3), Error::ok);
  for (int i = 0; i < 3; ++i) want.update(std::span<const std::uint8_t>(blocks));
  EXPECT_EQ(h.finalize(), want.finalize());
}

TYPED_TEST(Many, UpdateManyRefusals) {
  using H = TypeParam;
  const Bytes data(300, 0x61);
  H a, b;
  const H untouched_a = a;
  H* const both[] = {&a, &b};
  const ByteView one[] = {ByteView(data)};
  EXPECT_EQ(update_many<H>(both, one), Error::invalid_parameter);
  H* const with_null[] = {&a, nullptr};
  const ByteView two[] = {ByteView(data), ByteView(data)};
  EXPECT_EQ(update_many<H>(with_null, two), Error::invalid_parameter);
  H* const null_first[] = {nullptr, &a};
  EXPECT_EQ(update_many<H>(null_first, two), Error::invalid_parameter);
  const ByteView null_chunk[] = {ByteView(data), ByteView(nullptr, 5)};
  EXPECT_EQ(update_many<H>(both, null_chunk), Error::null_pointer);
  const ByteView null_chunk_first[] = {ByteView(nullptr, 5), ByteView(data)};
  EXPECT_EQ(update_many<H>(both, null_chunk_first), Error::null_pointer);
  EXPECT_EQ(a.finalize(), H(untouched_a).finalize()) << "a refusal changed a hasher";
  EXPECT_EQ(update_many<H>(std::span<H* const>(), std::span<const ByteView>()), Error::ok);
}

TYPED_TEST(Many, SixtyFourByteMessages) {
  using H = TypeParam;
  SCOPED_TRACE(seed_trace());
  std::mt19937_64 rng(run_seed());
  const std::size_t lanes = std::max<std::size_t>(active_lanes<H>(), 2);
  std::vector<std::size_t> counts = {0, 1, lanes - 1, lanes, lanes + 1, 2 * lanes + 1, 1000};
  for (std::size_t count : wide_counts<H>()) counts.push_back(count);
  for (std::size_t count : counts) {
    std::vector<std::array<std::uint8_t, 64>> nodes(count);
    for (auto& node : nodes) {
      for (auto& b : node) b = static_cast<std::uint8_t>(rng());
    }
    std::vector<std::uint8_t> out(count * H::digest_size);
    ASSERT_EQ(hash_many_64<H>(nodes, out), Error::ok);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(Bytes(out.begin() + static_cast<std::ptrdiff_t>(i * H::digest_size),
                      out.begin() + static_cast<std::ptrdiff_t>((i + 1) * H::digest_size)),
                openssl_digest<H>(nodes[i].data(), 64))
          << "node " << i << " of " << count;
    }
  }
}

}  // namespace
}  // namespace shasta::test
