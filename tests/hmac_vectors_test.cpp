// hmac_vectors_test.cpp: HMAC known answers: RFC 4231 cases 1-4, 6, 7 (tests/vectors/pyca, from
// Debian's python3-cryptography-vectors), RFC 4231 case 5 (128-bit truncation, typed in from section
// 4.6), and every Wycheproof HMAC case for the six hashes (tests/vectors/wycheproof), each through
// the one-shot, prepared-key and streaming interfaces.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <string_view>

#include "shasta/hmac.hpp"
#include "vector_support.hpp"

namespace shasta::test {
namespace {

// floor is RFC 2104 section 5's shortest acceptable tag, which hmac_verify enforces: max(10, HashLen / 2).
template <class H>
constexpr std::size_t floor_bytes() {
  return std::max<std::size_t>(10, H::digest_size / 2);
}

// feed_in_pieces updates `mac` with pieces of 1, 2, 3, ... bytes, so piece ends fall at many offsets in a block.
template <class H>
void feed_in_pieces(Hmac<H>& mac, const Bytes& msg) {
  std::size_t at = 0;
  for (std::size_t n = 1; at < msg.size(); ++n) {
    const std::size_t take = std::min(n, msg.size() - at);
    mac.update(ByteView(msg.data() + at, take));
    at += take;
  }
}

template <class H>
class Rfc4231 : public ::testing::Test {};
using Rfc4231Hashers = ::testing::Types<Sha224, Sha256, Sha384, Sha512>;
TYPED_TEST_SUITE(Rfc4231, Rfc4231Hashers, HasherNames);

TYPED_TEST(Rfc4231, CryptographyVectors) {
  using H = TypeParam;
  const std::string path = pyca_path("HMAC/rfc-4231-" + lower(Alg<H>::kName) + ".txt");
  std::size_t cases = 0;
  for (const Fields& r : read_records(path, "MD")) {
    ++cases;
    SCOPED_TRACE(path + " record " + std::to_string(cases));
    const Bytes key = hex(field(r, "Key")), msg = hex(field(r, "Msg")), md = hex(field(r, "MD"));
    EXPECT_EQ(8 * msg.size(), std::stoul(field(r, "Len")));  // Len is the message length in bits
    EXPECT_EQ(bytes_of(hmac<H>(key, msg)), md);
    const HmacKey<H> prepared(key);
    EXPECT_EQ(bytes_of(hmac(prepared, msg)), md);
    Hmac<H> mac(prepared);
    feed_in_pieces(mac, msg);
    EXPECT_EQ(bytes_of(mac.finalize()), md);
    EXPECT_EQ(hmac_verify<H>(key, msg, md), Error::ok);
  }
  EXPECT_EQ(cases, 6u) << path;  // test cases 1-4, 6 and 7; the file leaves out case 5
}

// RFC 4231 section 4.6, test case 5: key = 0x0c x 20, data = "Test With Truncation", truncated to 128 bits.
template <class H>
constexpr std::string_view kCase5 = "";
template <>
constexpr std::string_view kCase5<Sha224> = "0e2aea68a90c8d37c988bcdb9fca6fa8";
template <>
constexpr std::string_view kCase5<Sha256> = "a3b6167473100ee06e0c796c2955552b";
template <>
constexpr std::string_view kCase5<Sha384> = "3abf34c3503b2a23a46efc619baef897";
template <>
constexpr std::string_view kCase5<Sha512> = "415fad6271580a531d4179bc891d87a6";

TYPED_TEST(Rfc4231, Case5Truncation) {
  using H = TypeParam;
  const Bytes key(20, 0x0c);
  const std::string_view msg = "Test With Truncation";
  const Bytes want = hex(kCase5<H>);
  ASSERT_EQ(want.size(), 16u);
  const auto full = hmac<H>(key, msg);
  EXPECT_EQ(Bytes(full.begin(), full.begin() + 16), want);
  std::array<std::uint8_t, 16> out{};
  Hmac<H> mac(key);
  EXPECT_EQ(mac.update(msg).finalize_into(out), Error::ok);
  EXPECT_EQ(Bytes(out.begin(), out.end()), want);
  // 128 bits meets SHA-224's and SHA-256's floor but is under SHA-384's (24 bytes) and SHA-512's (32).
  const Error verdict = 16 >= floor_bytes<H>() ? Error::ok : Error::tag_too_short;
  EXPECT_EQ(hmac_verify<H>(key, msg, want), verdict);
  EXPECT_EQ(hmac_verify(HmacKey<H>(key), msg, want), verdict);
}

template <class H>
class WycheproofHmac : public ::testing::Test {};
TYPED_TEST_SUITE(WycheproofHmac, AllHashers, HasherNames);

bool rejected(Error e) {
  return e == Error::tag_mismatch || e == Error::tag_too_short;
}

// Every case with a raw key, a prepared key and a streamed MAC. The expected tag is the HMAC truncated to
// tagSize / 8 bytes; an invalid case (a modified tag) must not verify by any route.
TYPED_TEST(WycheproofHmac, AllCases) {
  using H = TypeParam;
  const std::string name = lower(Alg<H>::kName);
  const std::map<std::string, std::size_t> kCases = {{"sha224", 172}, {"sha256", 174},     {"sha384", 174},
                                                     {"sha512", 174}, {"sha512_224", 173}, {"sha512_256", 175}};
  const std::string path = vector_path("wycheproof/hmac_" + name + "_test.json");
  const nlohmann::json doc = read_json(path);
  std::size_t valid = 0, invalid = 0;
  for (const nlohmann::json& group : doc.at("testGroups")) {
    const std::size_t tag_size = group.at("tagSize").get<std::size_t>() / 8;
    ASSERT_LE(tag_size, H::digest_size);
    ASSERT_GE(tag_size, floor_bytes<H>()) << "a valid tag this short would be refused by hmac_verify";
    for (const nlohmann::json& t : group.at("tests")) {
      SCOPED_TRACE(path + " tcId " + std::to_string(t.at("tcId").get<int>()));
      const Bytes key = json_hex(t, "key"), msg = json_hex(t, "msg"), tag = json_hex(t, "tag");
      const std::string result = t.at("result");
      ASSERT_TRUE(result == "valid" || result == "invalid") << result;
      ASSERT_EQ(tag.size(), tag_size);

      const auto raw = hmac<H>(key, msg);
      const HmacKey<H> prepared(key);
      const auto from_prepared = hmac(prepared, msg);
      Hmac<H> streamed(prepared);
      feed_in_pieces(streamed, msg);
      Bytes streamed_tag(tag_size);
      EXPECT_EQ(streamed.finalize_into(streamed_tag), Error::ok);
      // finalize_into restarted `streamed` under the same key; a raw-key Hmac streams the second verify.
      feed_in_pieces(streamed, msg);
      Hmac<H> streamed_raw(ByteView{key});
      feed_in_pieces(streamed_raw, msg);
      const Error verdicts[] = {hmac_verify<H>(key, msg, tag), hmac_verify(prepared, msg, tag), streamed.verify(tag),
                                streamed_raw.verify(tag)};

      const Bytes truncated(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(tag_size));
      EXPECT_EQ(bytes_of(from_prepared), bytes_of(raw));
      EXPECT_EQ(streamed_tag, truncated);
      if (result == "valid") {
        ++valid;
        EXPECT_EQ(truncated, tag);
        for (const Error e : verdicts) EXPECT_EQ(e, Error::ok) << error_name(e);
      } else {
        ++invalid;
        EXPECT_NE(truncated, tag);
        for (const Error e : verdicts) EXPECT_TRUE(rejected(e)) << error_name(e);
      }
    }
  }
  EXPECT_EQ(valid + invalid, doc.at("numberOfTests").get<std::size_t>()) << path;
  EXPECT_EQ(valid + invalid, kCases.at(name)) << path;
  EXPECT_EQ(valid, 66u) << path;  // 33 per tag size in every file
}

}  // namespace
}  // namespace shasta::test
