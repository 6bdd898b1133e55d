// cavp_test.cpp: NIST CAVP SHAVS ShortMsg, LongMsg and Monte (SHAVS section 6.4) for all six
// algorithms, from pyca/cryptography's vector package, copied into tests/vectors/pyca/hashes/SHA2
// (SHASTA_CAVP_DIR).
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "support.hpp"

namespace shasta::test {
namespace {

std::string cavp_dir() {
  const char* dir = std::getenv("SHASTA_CAVP_DIR");
  return dir != nullptr && *dir != '\0' ? dir : SHASTA_DEFAULT_CAVP_DIR;
}

// Record is one "Key = Value" block of an .rsp file, in file order.
using Record = std::vector<std::pair<std::string, std::string>>;

std::vector<Record> read_rsp(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::vector<Record> records(1);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line[0] == '[') {
      if (!records.back().empty()) records.emplace_back();
      continue;
    }
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    records.back().emplace_back(line.substr(0, eq), line.substr(eq + 3));
  }
  if (records.back().empty()) records.pop_back();
  return records;
}

std::string value(const Record& r, const std::string& key) {
  for (const auto& [k, v] : r) {
    if (k == key) return v;
  }
  ADD_FAILURE() << "record without " << key;
  return {};
}

template <class H>
class Cavp : public ::testing::Test {};
TYPED_TEST_SUITE(Cavp, AllHashers, HasherNames);

// check_msg_file runs every (Len, Msg, MD) of a ShortMsg or LongMsg file, one-shot and streamed.
template <class H>
void check_msg_file(const std::string& kind, std::size_t expected_cases) {
  const std::string path = cavp_dir() + "/" + Alg<H>::kName + kind + ".rsp";
  std::size_t cases = 0;
  for (const Record& r : read_rsp(path)) {
    const std::size_t bits = std::stoul(value(r, "Len"));
    ASSERT_EQ(bits % 8, 0u) << "byte-oriented files only";
    Bytes msg = from_hex(value(r, "Msg")).value();
    msg.resize(bits / 8);  // Len = 0 comes with Msg = 00
    const Bytes md = from_hex(value(r, "MD")).value();
    EXPECT_EQ(bytes_of(Alg<H>::one_shot(msg)), md) << path << " Len = " << bits;
    H h;
    const std::size_t half = msg.size() / 2;
    h.update(std::span(msg).first(half)).update(std::span(msg).subspan(half));
    EXPECT_EQ(bytes_of(h.finalize()), md) << path << " Len = " << bits << " (streamed)";
    ++cases;
  }
  EXPECT_EQ(cases, expected_cases) << path;
}

TYPED_TEST(Cavp, ShortMsg) {
  check_msg_file<TypeParam>("ShortMsg", TypeParam::block_size + 1);
}

TYPED_TEST(Cavp, LongMsg) {
  check_msg_file<TypeParam>("LongMsg", TypeParam::block_size);
}

// SHAVS 6.4: MD0 = MD1 = MD2 = Seed; MDi = H(MD(i-3) || MD(i-2) || MD(i-1)) for i = 3..1002;
// MD1002 is checked and becomes the next Seed.
TYPED_TEST(Cavp, Monte) {
  using H = TypeParam;
  const std::string path = cavp_dir() + "/" + Alg<H>::kName + "Monte.rsp";
  const std::vector<Record> records = read_rsp(path);
  ASSERT_FALSE(records.empty()) << path;
  Bytes seed = from_hex(value(records.front(), "Seed")).value();
  std::size_t checked = 0;
  for (std::size_t r = 1; r < records.size(); ++r) {
    Bytes md[3] = {seed, seed, seed};
    for (int i = 3; i < 1003; ++i) {
      H h;
      h.update(md[0]).update(md[1]).update(md[2]);
      md[0] = std::move(md[1]);
      md[1] = std::move(md[2]);
      md[2] = bytes_of(h.finalize());
    }
    seed = md[2];
    EXPECT_EQ(std::stoul(value(records[r], "COUNT")), checked);
    ASSERT_EQ(seed, from_hex(value(records[r], "MD")).value()) << path << " COUNT = " << checked;
    ++checked;
  }
  EXPECT_EQ(checked, 100u);
}

}  // namespace
}  // namespace shasta::test
