// merkle_test.cpp: merkle_root against the plain recursive definition, for every leaf count up to
// 300 (every odd-node position, several chunks of a level), all six algorithms, on whichever kernel
// the suite runs on; the shape's defining cases spelled out; the leaves left unchanged; no node
// read past a level's end (leaves against an inaccessible page).
#include "shasta/merkle.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "guarded_memory.hpp"

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

// GuardedLeaves holds n digests whose last one ends just before an inaccessible page, so that a
// read past the level's last node faults instead of reading whatever follows a vector.
template <class H>
class GuardedLeaves {
 public:
  explicit GuardedLeaves(const std::vector<typename H::Digest>& leaves)
      : memory_(leaves.size() * sizeof(typename H::Digest)),
        nodes_(reinterpret_cast<typename H::Digest*>(memory_.end()) - leaves.size(), leaves.size()) {
    std::copy(leaves.begin(), leaves.end(), nodes_.begin());
  }
  std::span<typename H::Digest> span() { return nodes_; }

 private:
  test::GuardedMemory memory_;
  std::span<typename H::Digest> nodes_;
};

// Levels whose last chunk of pairs is short and not the first (129 pairs: chunks of 64, 64, 1), and
// others, hashed in place at the end of the accessible memory: a chunk taken as a full 64 pairs
// would read up to 2 x 63 nodes past the level and fault.
template <class H>
void check_no_read_past_the_level() {
  std::mt19937 rng(129);
  for (const std::size_t n : {3u, 65u, 128u, 129u, 130u, 257u, 258u, 259u, 300u}) {
    const auto leaves = random_leaves<H>(n, rng);
    GuardedLeaves<H> guarded(leaves);
    ASSERT_EQ(merkle_root_in_place<H>(guarded.span()), reference_root<H>(leaves)) << "leaves: " << n;
  }
}

TEST(MerkleRoot, ReadsNoNodePastTheLevel) {
  check_no_read_past_the_level<Sha256>();      // the 64-byte node form (hash_many_64)
  check_no_read_past_the_level<Sha384>();      // the general form (hash_many)
  check_no_read_past_the_level<Sha512_256>();
}

TEST(MerkleRoot, LargeTree) {
  std::mt19937 rng(11);
  const auto leaves = random_leaves<Sha256>(100'003, rng);
  EXPECT_EQ(merkle_root<Sha256>(leaves), reference_root<Sha256>(leaves));
}

}  // namespace
}  // namespace shasta
