// take_order_test.cpp: the order in which hash_many's engine gives messages to its lanes
// (TakeOrder in src/many_engine.hpp). The digests cannot show it (each goes to its message's
// index whatever the order), so these tests pin it: index order, then the last 32 longest first
// when their lengths differ by 8 blocks or more.
#include <algorithm>
#include <random>
#include <vector>

#include "../src/many_engine.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

using detail::Sha256Family;
using detail::Sha512Family;

constexpr std::size_t kWindow = 32;  // TakeOrder's kSorted, restated so that a change shows here
constexpr std::size_t kSpreadBlocks = 8;

// order_of returns TakeOrder's sequence for messages of `lens`; a read of a message past the last
// is a failure (get(count) would be one past the caller's array).
template <class Family>
std::vector<std::size_t> order_of(const std::vector<std::size_t>& lens) {
  static const std::vector<std::uint8_t> pool(1 << 20);
  const auto get = [&lens](std::size_t i) {
    if (i >= lens.size()) {
      ADD_FAILURE() << "message " << i << " read, of " << lens.size();
      return ByteView();
    }
    return ByteView(pool.data(), lens[i]);
  };
  const detail::TakeOrder<Family, decltype(get)> order(lens.size(), get);
  std::vector<std::size_t> taken(lens.size());
  for (std::size_t k = 0; k < lens.size(); ++k) taken[k] = order[k];
  return taken;
}

// expect_order checks that `taken` holds each index once, index order before the last kWindow,
// and there either index order (`sorted` false) or longest first.
void expect_order(const std::vector<std::size_t>& lens, const std::vector<std::size_t>& taken, bool sorted) {
  const std::size_t count = lens.size();
  const std::size_t first = count > kWindow ? count - kWindow : 0;
  std::vector<std::size_t> seen = taken;
  std::sort(seen.begin(), seen.end());
  for (std::size_t k = 0; k < count; ++k) ASSERT_EQ(seen[k], k) << "not each index once, count " << count;
  for (std::size_t k = 0; k < (sorted ? first : count); ++k) ASSERT_EQ(taken[k], k) << "count " << count;
  if (!sorted) return;
  for (std::size_t k = first; k < count; ++k) ASSERT_GE(taken[k], first) << "count " << count;
  for (std::size_t k = first + 1; k < count; ++k) {
    ASSERT_GE(lens[taken[k - 1]], lens[taken[k]]) << "not longest first at " << k << ", count " << count;
  }
}

template <class Family>
void check_family() {
  constexpr std::size_t kB = Family::kBlockSize;
  std::mt19937_64 rng(run_seed());
  for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{17}, kWindow - 1, kWindow,
                            kWindow + 1, std::size_t{100}}) {
    SCOPED_TRACE("count " + std::to_string(count));
    // Lengths that differ by 0-40 blocks, random bytes beyond.
    for (int round = 0; round < 20; ++round) {
      std::vector<std::size_t> lens(count);
      const std::size_t spread_blocks = rng() % 40;
      for (auto& len : lens) len = (rng() % (spread_blocks + 1)) * kB + rng() % kB;
      const std::size_t first = count > kWindow ? count - kWindow : 0;
      const auto [lo, hi] = std::minmax_element(lens.begin() + static_cast<std::ptrdiff_t>(first), lens.end());
      const bool wide = count != 0 && *hi - *lo >= kSpreadBlocks * kB;
      expect_order(lens, order_of<Family>(lens), wide);
    }
    if (count < 2) continue;
    // The spread exactly at the rule's edge: one message longer than the rest, at a random place in
    // the window.
    const std::size_t first = count > kWindow ? count - kWindow : 0;
    for (std::size_t spread : {kSpreadBlocks * kB - 1, kSpreadBlocks * kB}) {
      std::vector<std::size_t> lens(count, 100);
      lens[first + rng() % (count - first)] = 100 + spread;
      expect_order(lens, order_of<Family>(lens), spread >= kSpreadBlocks * kB);
    }
    // Ties: every message but one of one length, that one far shorter (a sort whose comparison is
    // not strict runs off the ends of such a range).
    std::vector<std::size_t> ties(count, 20 * kB);
    ties[first + rng() % (count - first)] = 0;
    expect_order(ties, order_of<Family>(ties), true);
  }
}

TEST(TakeOrder, Sha256) {
  SCOPED_TRACE(seed_trace());
  check_family<Sha256Family>();
}

TEST(TakeOrder, Sha512) {
  SCOPED_TRACE(seed_trace());
  check_family<Sha512Family>();
}

}  // namespace
}  // namespace shasta::test
