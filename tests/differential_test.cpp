// differential_test.cpp: random messages, one-shot and in random splits, against OpenSSL.
// SHASTA_DIFF_CASES=N sets the cases per algorithm (default 10000) for long campaigns;
// SHASTA_SEED=S replays a run: every failure prints the seed that reproduces it.
#include <cstring>

#include "support.hpp"

namespace shasta::test {
namespace {

template <class H>
class Differential : public ::testing::Test {};
TYPED_TEST_SUITE(Differential, AllHashers, HasherNames);

TYPED_TEST(Differential, RandomMessagesAndSplits) {
  using H = TypeParam;
  const std::uint64_t seed = run_seed() ^ std::hash<std::string>{}(Alg<H>::kName);
  const std::uint64_t cases = env_number("SHASTA_DIFF_CASES", quick_mode() ? 300 : 10000);
  SCOPED_TRACE("reproduce with SHASTA_SEED=" + std::to_string(run_seed()));
  std::mt19937_64 rng(seed);
  Bytes data(200 * 1024);
  for (std::uint64_t c = 0; c < cases; ++c) {
    // Most messages are 0..2 KiB; one in fifty is up to 200 KiB.
    const std::size_t len = rng() % 50 == 0 ? rng() % (200 * 1024 + 1) : rng() % 2049;
    for (std::size_t i = 0; i < len; i += 8) {
      const std::uint64_t r = rng();
      std::memcpy(data.data() + i, &r, std::min<std::size_t>(8, len - i));
    }
    const Bytes expected = openssl_digest<H>(data.data(), len);
    ASSERT_EQ(bytes_of(Alg<H>::one_shot(data.data(), len)), expected) << "case " << c << ", length " << len;
    H h;
    std::size_t at = 0;
    while (at < len) {
      // Pieces from 0 bytes to a few blocks, sometimes much larger.
      const std::size_t limit = rng() % 8 == 0 ? len - at : 3 * H::block_size;
      const std::size_t piece = std::min<std::size_t>(rng() % (limit + 1), len - at);
      h.update(data.data() + at, piece);
      at += piece;
    }
    ASSERT_EQ(bytes_of(h.finalize()), expected) << "case " << c << ", length " << len << ", random splits";
  }
}

}  // namespace
}  // namespace shasta::test
