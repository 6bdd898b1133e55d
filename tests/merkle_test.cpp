// merkle_test.cpp: merkle_root against the plain recursive definition, for every leaf count up to
// 300 (every odd-node position, several chunks of a level), all six algorithms, on whichever kernel
// the suite runs on; the shape's defining cases spelled out; the leaves left unchanged.
#include "shasta/merkle.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace shasta {
namespace {

// The definition, written as plainly as possible: pair left to right, promote an odd last node.
template <class H>
typename H::Digest reference_root(std::vector<typename H::Digest> level) {
  if (level.empty()) return H().finalize();
  while (level.size() > 1) {
    std::vector<typename H::Digest> up;
    for (std::size_t i = 0; i + 1 < level.size(); i += 2) up.push_back(H().update(level[i]).update(level[i + 1]).finalize());
    if (level.size() % 2 == 1) up.push_back(level.back());
    level = up;
  }
  return level[0];
}

template <class H>
std::vector<typename H::Digest> random_leaves(std::size_t n, std::mt19937& rng) {
  std::vector<typename H::Digest> leaves(n);
  for (auto& leaf : leaves)
    for (auto& b : leaf) b = static_cast<std::uint8_t>(rng());
  return leaves;
}

template <class H>
void check_against_reference() {
  std::mt19937 rng(2026);
  for (std::size_t n = 0; n <= 300; ++n) {
    const auto leaves = random_leaves<H>(n, rng);
    const auto copy = leaves;
    ASSERT_EQ(merkle_root<H>(leaves), reference_root<H>(leaves)) << "leaves: " << n;
    ASSERT_EQ(leaves, copy);  // merkle_root works on a copy
    auto scratch = leaves;
    ASSERT_EQ(merkle_root_in_place<H>(scratch), reference_root<H>(leaves)) << "leaves: " << n;
  }
}

TEST(MerkleRoot, MatchesTheRecursiveDefinition) {
  check_against_reference<Sha224>();
  check_against_reference<Sha256>();
  check_against_reference<Sha384>();
  check_against_reference<Sha512>();
  check_against_reference<Sha512_224>();
  check_against_reference<Sha512_256>();
}

TEST(MerkleRoot, Shape) {
  std::mt19937 rng(7);
  const auto l = random_leaves<Sha256>(3, rng);
  const auto h = [](const Sha256::Digest& a, const Sha256::Digest& b) { return Sha256().update(a).update(b).finalize(); };
  EXPECT_EQ(merkle_root<Sha256>({}), sha256(""));
  EXPECT_EQ(merkle_root<Sha256>(std::span(l.data(), 1)), l[0]);
  EXPECT_EQ(merkle_root<Sha256>(std::span(l.data(), 2)), h(l[0], l[1]));
  EXPECT_EQ(merkle_root<Sha256>(l), h(h(l[0], l[1]), l[2]));  // the odd leaf moves up, unpaired
  // Not Bitcoin's shape: [a, b, c] and [a, b, c, c] have different roots.
  auto duplicated = l;
  duplicated.push_back(l[2]);
  EXPECT_NE(merkle_root<Sha256>(l), merkle_root<Sha256>(duplicated));
}

TEST(MerkleRoot, LargeTree) {
  std::mt19937 rng(11);
  const auto leaves = random_leaves<Sha256>(100'003, rng);
  EXPECT_EQ(merkle_root<Sha256>(leaves), reference_root<Sha256>(leaves));
}

}  // namespace
}  // namespace shasta
