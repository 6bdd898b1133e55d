// kdf_vectors_test.cpp: HKDF and PBKDF2 known answers: Wycheproof (tests/vectors/wycheproof), RFC 5869 and a
// 1200-byte HKDF-SHA-256 output (tests/vectors/pyca), and the brycx/RFC 7914/fastpbkdf2 sets
// in tests/vectors/hkdf-sha2-extra.txt and pbkdf2-sha2.txt (provenance in tests/vectors/README.md).
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "shasta/hkdf.hpp"
#include "shasta/pbkdf2.hpp"
#include "vector_support.hpp"

namespace shasta::test {
namespace {

// check_hkdf runs one case through hkdf, through extract + expand with a raw PRK, and through a prepared PRK.
// An empty `prk` means the vector gives none.
template <class H>
void check_hkdf(const Bytes& ikm, const Bytes& salt, const Bytes& info, const Bytes& prk, const Bytes& okm) {
  Bytes out(okm.size());
  EXPECT_EQ(hkdf<H>(salt, ikm, info, out), Error::ok);
  EXPECT_EQ(out, okm);
  const auto extracted = hkdf_extract<H>(salt, ikm);
  if (!prk.empty()) {
    EXPECT_EQ(bytes_of(extracted), prk);
  }
  std::fill(out.begin(), out.end(), 0);
  EXPECT_EQ(hkdf_expand<H>(extracted, info, out), Error::ok);
  EXPECT_EQ(out, okm);
  std::fill(out.begin(), out.end(), 0);
  EXPECT_EQ(hkdf_expand(HmacKey<H>(extracted), info, out), Error::ok);
  EXPECT_EQ(out, okm);
}

template <class H>
class WycheproofHkdf : public ::testing::Test {};
using HkdfHashers = ::testing::Types<Sha256, Sha384, Sha512>;
TYPED_TEST_SUITE(WycheproofHkdf, HkdfHashers, HasherNames);

// Valid cases give okm; invalid ones ask for more than 255 x HashLen bytes and must be refused with the output
// buffer untouched.
TYPED_TEST(WycheproofHkdf, AllCases) {
  using H = TypeParam;
  const std::string name = lower(Alg<H>::kName);
  const std::map<std::string, std::size_t> kCases = {{"sha256", 86}, {"sha384", 83}, {"sha512", 83}};
  const std::string path = vector_path("wycheproof/hkdf_" + name + "_test.json");
  const nlohmann::json doc = read_json(path);
  std::size_t valid = 0, invalid = 0;
  for (const nlohmann::json& group : doc.at("testGroups")) {
    for (const nlohmann::json& t : group.at("tests")) {
      SCOPED_TRACE(path + " tcId " + std::to_string(t.at("tcId").get<int>()));
      const Bytes ikm = json_hex(t, "ikm"), salt = json_hex(t, "salt"), info = json_hex(t, "info");
      const auto size = t.at("size").get<std::size_t>();
      const std::string result = t.at("result");
      if (result == "valid") {
        ++valid;
        const Bytes okm = json_hex(t, "okm");
        ASSERT_EQ(okm.size(), size);
        check_hkdf<H>(ikm, salt, info, {}, okm);
      } else {
        ASSERT_EQ(result, "invalid");
        ASSERT_GT(size, 255 * H::digest_size);
        ++invalid;
        const Bytes sentinel(size, 0xa5);
        Bytes out = sentinel;
        EXPECT_EQ(hkdf<H>(salt, ikm, info, out), Error::output_too_long);
        EXPECT_EQ(out, sentinel);
        const auto prk = hkdf_extract<H>(salt, ikm);
        EXPECT_EQ(hkdf_expand<H>(prk, info, out), Error::output_too_long);
        EXPECT_EQ(hkdf_expand(HmacKey<H>(prk), info, out), Error::output_too_long);
        EXPECT_EQ(out, sentinel);
      }
    }
  }
  EXPECT_EQ(valid + invalid, doc.at("numberOfTests").get<std::size_t>()) << path;
  EXPECT_EQ(valid + invalid, kCases.at(name)) << path;
  EXPECT_EQ(invalid, 3u) << path;
}

// RFC 5869 A.1-A.3 (PRK and OKM given) and pyca's 1200-byte output (OKM only), all HKDF-SHA-256.
TEST(Rfc5869, CryptographyVectors) {
  std::size_t cases = 0, with_prk = 0;
  for (const char* file : {"KDF/rfc-5869-HKDF-SHA256.txt", "KDF/hkdf-generated.txt"}) {
    const std::string path = pyca_path(file);
    for (const Fields& r : read_records(path, "OKM")) {
      ++cases;
      SCOPED_TRACE(path + " COUNT " + field(r, "COUNT"));
      ASSERT_EQ(field(r, "Hash"), "SHA-256");
      const Bytes okm = hex(field(r, "OKM"));
      ASSERT_EQ(okm.size(), std::stoul(field(r, "L")));
      const Bytes prk = r.count("PRK") != 0 ? hex(field(r, "PRK")) : Bytes{};
      if (!prk.empty()) ++with_prk;
      check_hkdf<Sha256>(hex(field(r, "IKM")), hex(field(r, "salt")), hex(field(r, "info")), prk, okm);
    }
  }
  EXPECT_EQ(cases, 4u);
  EXPECT_EQ(with_prk, 3u);
}

TEST(HkdfExtra, AllCases) {
  const std::string path = vector_path("hkdf-sha2-extra.txt");
  std::map<std::string, std::size_t> per_hash;
  for (const Fields& f : read_field_lines(path)) {
    SCOPED_TRACE(path + " id=" + field(f, "id") + " hash=" + field(f, "hash"));
    ASSERT_EQ(f.size(), 8u) << "id hash IKM salt info L PRK OKM";
    with_hash(field(f, "hash"), [&]<class H>() {
      const Bytes prk = hex(field(f, "PRK")), okm = hex(field(f, "OKM"));
      ASSERT_EQ(prk.size(), H::digest_size);
      ASSERT_EQ(okm.size(), std::stoul(field(f, "L")));
      check_hkdf<H>(hex(field(f, "IKM")), hex(field(f, "salt")), hex(field(f, "info")), prk, okm);
      ++per_hash[field(f, "hash")];
    });
  }
  // rfc5869-{1,2,3,4,7} and custom-1..6, each with the four hashes.
  const std::map<std::string, std::size_t> want = {{"sha224", 11}, {"sha256", 11}, {"sha384", 11}, {"sha512", 11}};
  EXPECT_EQ(per_hash, want);
}

template <class H>
void check_pbkdf2(const Bytes& password, const Bytes& salt, std::uint64_t iterations, const Bytes& dk) {
  Bytes out(dk.size());
  EXPECT_EQ(pbkdf2_hmac<H>(password, salt, iterations, out), Error::ok);
  EXPECT_EQ(out, dk);
}

template <class H>
class WycheproofPbkdf2 : public ::testing::Test {};
using Pbkdf2Hashers = ::testing::Types<Sha224, Sha256, Sha384, Sha512>;
TYPED_TEST_SUITE(WycheproofPbkdf2, Pbkdf2Hashers, HasherNames);

TYPED_TEST(WycheproofPbkdf2, AllCases) {
  using H = TypeParam;
  const std::string name = lower(Alg<H>::kName);
  const std::map<std::string, std::size_t> kCases = {{"sha224", 58}, {"sha256", 60}, {"sha384", 58}, {"sha512", 58}};
  const std::string path = vector_path("wycheproof/pbkdf2_hmac" + name + "_test.json");
  const nlohmann::json doc = read_json(path);
  std::size_t cases = 0;
  for (const nlohmann::json& group : doc.at("testGroups")) {
    for (const nlohmann::json& t : group.at("tests")) {
      SCOPED_TRACE(path + " tcId " + std::to_string(t.at("tcId").get<int>()));
      ASSERT_EQ(t.at("result").get<std::string>(), "valid");  // the files hold no invalid PBKDF2 case
      const Bytes dk = json_hex(t, "dk");
      ASSERT_EQ(dk.size(), t.at("dkLen").get<std::size_t>());
      check_pbkdf2<H>(json_hex(t, "password"), json_hex(t, "salt"), t.at("iterationCount").get<std::uint64_t>(), dk);
      ++cases;
    }
  }
  EXPECT_EQ(cases, doc.at("numberOfTests").get<std::size_t>()) << path;
  EXPECT_EQ(cases, kCases.at(name)) << path;
}

// run_pbkdf2_sha2 checks the rows of pbkdf2-sha2.txt with (`slow`) or without the slow=1 tag; it returns
// {rows checked, rows of the other kind}.
std::pair<std::size_t, std::size_t> run_pbkdf2_sha2(bool slow) {
  const std::string path = vector_path("pbkdf2-sha2.txt");
  std::size_t checked = 0, other = 0;
  for (const Fields& f : read_field_lines(path)) {
    SCOPED_TRACE(path + " id=" + field(f, "id"));
    if ((f.count("slow") != 0) != slow) {
      ++other;
      continue;
    }
    const Bytes dk = hex(field(f, "DK"));
    EXPECT_EQ(dk.size(), std::stoul(field(f, "dklen")));
    with_hash(field(f, "hash"), [&]<class H>() {
      check_pbkdf2<H>(hex(field(f, "P")), hex(field(f, "S")), std::stoull(field(f, "c")), dk);
      ++checked;
    });
  }
  return {checked, other};
}

TEST(Pbkdf2Sha2, AllCases) {
  const auto [checked, slow] = run_pbkdf2_sha2(false);
  EXPECT_EQ(checked, 48u);
  EXPECT_EQ(slow, 4u);  // left to SlowCases
}

// The four c = 16777216 rows (brycx Test Case 4, one per hash) take about a minute together on the portable
// kernel, so they run only with SHASTA_SLOW_VECTORS=1.
TEST(Pbkdf2Sha2, SlowCases) {
  if (env_number("SHASTA_SLOW_VECTORS", 0) == 0) {
    GTEST_SKIP()
        << "4 PBKDF2 rows with c = 16777216 (about a minute on the portable kernel): set SHASTA_SLOW_VECTORS=1";
  }
  const auto [checked, fast] = run_pbkdf2_sha2(true);
  EXPECT_EQ(checked, 4u);
  EXPECT_EQ(fast, 48u);
}

}  // namespace
}  // namespace shasta::test
