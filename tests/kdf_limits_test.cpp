// kdf_limits_test.cpp: every refusal of the HMAC, HKDF, TLS 1.3 and PBKDF2 functions, each with
// nothing written, and every edge just inside a limit accepted; truncated tags and their floor;
// prepared keys exported and imported.
#include <cstdint>
#include <cstring>

#include "shasta/hkdf.hpp"
#include "guarded_memory.hpp"
#include "shasta/pbkdf2.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

template <class H>
class KdfLimits : public ::testing::Test {};
TYPED_TEST_SUITE(KdfLimits, AllHashers, HasherNames);

constexpr std::uint8_t kSentinel = 0xA5;

bool untouched(const Bytes& b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t x) { return x == kSentinel; });
}

TYPED_TEST(KdfLimits, HkdfOutputLengthAndPrkLength) {
  using H = TypeParam;
  constexpr std::size_t kMax = 255 * H::digest_size;
  const Bytes prk(H::digest_size, 7);
  Bytes okm(kMax + 1, kSentinel);
  EXPECT_EQ(hkdf_expand<H>(prk, "info", okm), Error::output_too_long);
  EXPECT_EQ(hkdf<H>("salt", "ikm", "info", okm), Error::output_too_long);
  EXPECT_EQ(hkdf_expand(HmacKey<H>(prk), "info", okm), Error::output_too_long) << "the prepared PRK's own check";
  EXPECT_TRUE(untouched(okm));
  EXPECT_EQ(hkdf_expand<H>(ByteView(prk.data(), H::digest_size - 1), "info", std::span(okm).first(10)),
            Error::prk_too_short);
  EXPECT_TRUE(untouched(okm));
  // Just inside: the longest output, and a PRK of exactly HashLen; the last block is the 255th.
  ASSERT_EQ(hkdf_expand<H>(prk, "info", std::span(okm).first(kMax)), Error::ok);
  EXPECT_EQ(okm[kMax], kSentinel);
  Bytes shorter(kMax - 1);
  ASSERT_EQ(hkdf_expand<H>(prk, "info", shorter), Error::ok);
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), okm.begin())) << "a shorter output is a prefix";
  ASSERT_EQ(hkdf_expand<H>(HmacKey<H>(prk), "info", shorter), Error::ok) << "prepared PRK";
  EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), okm.begin()));
  Bytes none;
  EXPECT_EQ(hkdf_expand<H>(prk, "info", none), Error::ok);
}

// A refused output length is refused before any secret is read (issue 14, bug 3): the PRK, the
// salt and IKM, and the TLS secret lie on an inaccessible page, so reading one faults. Lengths
// between 255 x HashLen and 65535 reach Expand-Label's own check, not only HKDF-Expand's.
TYPED_TEST(KdfLimits, RefusedLengthsReadNoSecret) {
  using H = TypeParam;
  const GuardedMemory guard(0);
  const ByteView unreadable(guard.end(), H::digest_size);
  Bytes out(255 * H::digest_size + 1, kSentinel);
  EXPECT_EQ(hkdf_expand<H>(unreadable, "info", out), Error::output_too_long);
  EXPECT_EQ(hkdf<H>(unreadable, unreadable, "info", out), Error::output_too_long);
  EXPECT_EQ(tls13_expand_label<H>(unreadable, "key", {}, out), Error::output_too_long);
  EXPECT_EQ(tls13_expand_label<H>(unreadable, std::string(250, 'l'), {}, std::span(out).first(16)),
            Error::label_too_long);
  EXPECT_TRUE(untouched(out));
}

// An output of more than one block over HKDF's info, a TLS 1.3 label or context, or a PBKDF2 salt
// would be made from bytes it had already overwritten: refused, with nothing written. One block is
// whole before it is written, so it may lie over them, and gives what a separate buffer gets; so
// does an output that only touches them.
TYPED_TEST(KdfLimits, OutputOverAnInputReadAgain) {
  using H = TypeParam;
  constexpr std::size_t d = H::digest_size;
  const Bytes prk(d, 9);
  Bytes buf(3 * d, kSentinel);
  const ByteView info(buf.data(), 2 * d);
  const std::span<std::uint8_t> over = std::span(buf).subspan(d, 2 * d);  // info's second half and on
  EXPECT_EQ(hkdf_expand<H>(prk, info, over), Error::overlapping_buffers);
  EXPECT_EQ(hkdf_expand(HmacKey<H>(prk), info, over), Error::overlapping_buffers);
  EXPECT_EQ(hkdf<H>("salt", "ikm", info, over), Error::overlapping_buffers);
  EXPECT_EQ(hkdf_expand<H>(prk, info, std::span(buf).first(2 * d)), Error::overlapping_buffers) << "in place";
  const std::string_view label(reinterpret_cast<const char*>(buf.data()), 10);
  EXPECT_EQ(tls13_expand_label<H>(prk, label, {}, std::span(buf).first(d + 1)), Error::overlapping_buffers);
  EXPECT_EQ(tls13_expand_label<H>(prk, "key", info, over), Error::overlapping_buffers);
  EXPECT_EQ(tls13_expand_label(HmacKey<H>(prk), "key", info, over), Error::overlapping_buffers);
  EXPECT_EQ(pbkdf2_hmac<H>("password", info, 2, over), Error::overlapping_buffers);
  EXPECT_TRUE(untouched(buf));

  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<std::uint8_t>(i * 13 + 5);
  const Bytes copy = buf;
  const ByteView info_copy(copy.data(), 2 * d);
  Bytes want(2 * d);
  ASSERT_EQ(hkdf_expand<H>(prk, info_copy, std::span(want).first(d)), Error::ok);
  ASSERT_EQ(hkdf_expand<H>(prk, info, std::span(buf).first(d)), Error::ok) << "one block in place";
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + d, buf.begin()));
  buf = copy;
  ASSERT_EQ(tls13_expand_label<H>(prk, "key", info, std::span(buf).subspan(d, d)), Error::ok);
  ASSERT_EQ(tls13_expand_label<H>(prk, "key", info_copy, std::span(want).first(d)), Error::ok);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + d, buf.begin() + d));
  buf = copy;
  ASSERT_EQ(pbkdf2_hmac<H>("password", ByteView(buf.data(), d), 2, std::span(buf).first(d)), Error::ok);
  ASSERT_EQ(pbkdf2_hmac<H>("password", ByteView(copy.data(), d), 2, std::span(want).first(d)), Error::ok);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + d, buf.begin()));
  buf = copy;  // touching, not overlapping: info buf[0, d), the output buf[d, 3d)
  ASSERT_EQ(hkdf_expand<H>(prk, ByteView(buf.data(), d), std::span(buf).subspan(d, 2 * d)), Error::ok);
  ASSERT_EQ(hkdf_expand<H>(prk, ByteView(copy.data(), d), want), Error::ok);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), buf.begin() + d));
}

TYPED_TEST(KdfLimits, Tls13LabelContextAndLength) {
  using H = TypeParam;
  const Bytes secret(H::digest_size, 1);
  const std::string label249(249, 'l'), label250(250, 'l');
  const Bytes context255(255, 2), context256(256, 2);
  Bytes out(255 * H::digest_size + 1, kSentinel);
  const auto first = [&out](std::size_t n) { return std::span(out).first(n); };
  EXPECT_EQ(tls13_expand_label<H>(secret, label250, {}, first(16)), Error::label_too_long);
  EXPECT_EQ(tls13_expand_label<H>(secret, "key", context256, first(16)), Error::context_too_long);
  EXPECT_EQ(tls13_expand_label<H>(secret, "key", {}, out), Error::output_too_long);
  EXPECT_EQ(tls13_expand_label<H>(ByteView(secret.data(), H::digest_size - 1), "key", {}, first(16)),
            Error::prk_too_short);
  EXPECT_EQ(tls13_expand_label<H>(HmacKey<H>(secret), label250, {}, first(16)), Error::label_too_long);
  const Bytes transcript_hash(H::digest_size, 3);
  EXPECT_EQ(tls13_derive_secret<H>(secret, "derived", transcript_hash, first(H::digest_size - 1)),
            Error::output_too_small);
  // A transcript hash is HashLen bytes (no messages: the empty string's hash), raw or prepared.
  for (const std::size_t len : {std::size_t{0}, H::digest_size - 1, H::digest_size + 1, std::size_t{255}}) {
    const Bytes wrong(len, 3);
    EXPECT_EQ(tls13_derive_secret<H>(secret, "derived", wrong, first(H::digest_size)), Error::transcript_hash_size)
        << len;
    EXPECT_EQ(tls13_derive_secret<H>(HmacKey<H>(secret), "derived", wrong, first(H::digest_size)),
              Error::transcript_hash_size)
        << len;
  }
  EXPECT_TRUE(untouched(out));
  EXPECT_EQ(tls13_expand_label<H>(secret, label249, context255, first(16)), Error::ok);
  EXPECT_EQ(tls13_expand_label<H>(secret, "key", {}, first(255 * H::digest_size)), Error::ok);
  EXPECT_EQ(out.back(), kSentinel);
  // The prepared form agrees with the raw one, and Derive-Secret is Expand-Label at HashLen.
  Bytes raw(H::digest_size), prepared(H::digest_size), derived(H::digest_size + 5, kSentinel),
      derived_prepared(H::digest_size);
  ASSERT_EQ(tls13_expand_label<H>(secret, "derived", transcript_hash, raw), Error::ok);
  ASSERT_EQ(tls13_expand_label<H>(HmacKey<H>(secret), "derived", transcript_hash, prepared), Error::ok);
  ASSERT_EQ(tls13_derive_secret<H>(secret, "derived", transcript_hash, derived), Error::ok);
  ASSERT_EQ(tls13_derive_secret<H>(HmacKey<H>(secret), "derived", transcript_hash, derived_prepared), Error::ok);
  EXPECT_EQ(raw, prepared);
  EXPECT_EQ(raw, derived_prepared);
  EXPECT_TRUE(std::equal(raw.begin(), raw.end(), derived.begin()));
  EXPECT_EQ(derived[H::digest_size], kSentinel);
}

// Expand-Label at its largest label and context, and at lengths with a high byte, against HKDF-Expand
// of an HkdfLabel built here byte by byte (RFC 8446 section 7.1).
TYPED_TEST(KdfLimits, Tls13LabelAtItsLimitsIsHkdfOfTheHandBuiltLabel) {
  using H = TypeParam;
  const Bytes secret(H::digest_size, 3);
  for (const std::size_t label_size : {1u, 249u}) {
    for (const std::size_t context_size : {0u, 255u}) {
      for (const std::size_t out_size : {16u, 300u, 255u * 2 + 1}) {
        const std::string label(label_size, 'q');
        Bytes context(context_size);
        for (std::size_t i = 0; i < context_size; ++i) context[i] = static_cast<std::uint8_t>(i * 7 + 1);
        Bytes hkdf_label = {static_cast<std::uint8_t>(out_size / 256), static_cast<std::uint8_t>(out_size % 256),
                            static_cast<std::uint8_t>(6 + label_size)};
        for (char c : std::string("tls13 ") + label) hkdf_label.push_back(static_cast<std::uint8_t>(c));
        hkdf_label.push_back(static_cast<std::uint8_t>(context_size));
        hkdf_label.insert(hkdf_label.end(), context.begin(), context.end());
        Bytes want(out_size), raw(out_size), prepared(out_size);
        ASSERT_EQ(hkdf_expand<H>(secret, hkdf_label, want), Error::ok);
        ASSERT_EQ(tls13_expand_label<H>(secret, label, context, raw), Error::ok);
        ASSERT_EQ(tls13_expand_label<H>(HmacKey<H>(secret), label, context, prepared), Error::ok);
        EXPECT_EQ(raw, want) << label_size << " " << context_size << " " << out_size;
        EXPECT_EQ(prepared, want) << label_size << " " << context_size << " " << out_size;
      }
    }
  }
}

// The HkdfLabel as an info source: its size is the bytes it hands over, which are the label built
// by hand. (A wrong size would only move the label to hkdf_expand's streamed path: the same output.)
TEST(Tls13Label, SizeIsTheBytesItEmits) {
  for (const std::size_t label_size : {0u, 1u, 12u, 249u}) {
    for (const std::size_t context_size : {0u, 32u, 255u}) {
      const std::string label(label_size, 'k');
      const Bytes context(context_size, 9);
      const std::size_t out_size = 0x1234;
      Bytes want = {0x12, 0x34, static_cast<std::uint8_t>(6 + label_size)};
      for (char c : std::string("tls13 ") + label) want.push_back(static_cast<std::uint8_t>(c));
      want.push_back(static_cast<std::uint8_t>(context_size));
      want.insert(want.end(), context.begin(), context.end());
      const detail::Tls13Label info(label, context, out_size);
      Bytes emitted;
      info.emit([&emitted](const std::uint8_t* p, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) emitted.push_back(p[i]);
      });
      EXPECT_EQ(emitted, want) << label_size << " " << context_size;
      EXPECT_EQ(info.size(), want.size()) << label_size << " " << context_size;
    }
  }
}

TYPED_TEST(KdfLimits, Pbkdf2IterationsAndOutputLength) {
  using H = TypeParam;
  Bytes out(40, kSentinel);
  EXPECT_EQ(pbkdf2_hmac<H>("password", "salt", 0, out), Error::zero_iterations);
  EXPECT_EQ(pbkdf2_hmac<H>("password", "salt", 1, std::span(out).first(0)), Error::output_too_small);
#if SIZE_MAX > 0xFFFFFFFFu  // a 32-bit size_t cannot hold the limit
  // (2^32 - 1) x HashLen + 1 bytes: refused before a byte is touched (the span is never read).
  const std::size_t too_long = 0xFFFFFFFFull * H::digest_size + 1;
  EXPECT_EQ(pbkdf2_hmac<H>("password", "salt", 1, std::span(out.data(), too_long)), Error::output_too_long);
  EXPECT_TRUE(untouched(out));
#endif
  EXPECT_EQ(pbkdf2_hmac<H>("password", "salt", 1, std::span(out).first(1)), Error::ok);
  EXPECT_EQ(out[1], kSentinel);
}

TYPED_TEST(KdfLimits, HmacTruncationAndVerifyFloor) {
  using H = TypeParam;
  const HmacKey<H> key("key");
  const auto tag = hmac(key, "message");
  const std::size_t floor = std::max<std::size_t>(10, H::digest_size / 2);
  Bytes out(H::digest_size + 1, kSentinel);
  Hmac<H> mac(key);
  mac.update("message");
  EXPECT_EQ(mac.finalize_into(std::span(out).first(0)), Error::output_too_small);
  EXPECT_EQ(mac.finalize_into(out), Error::output_too_long);
  EXPECT_TRUE(untouched(out));
  ASSERT_EQ(mac.finalize_into(std::span(out).first(1)), Error::ok) << "a refused finalize keeps the state";
  EXPECT_EQ(out[0], tag[0]);
  EXPECT_EQ(out[1], kSentinel);

  EXPECT_EQ(hmac_verify(key, "message", tag), Error::ok);
  EXPECT_EQ(hmac_verify(key, "message", ByteView(tag.data(), floor)), Error::ok);
  EXPECT_EQ(hmac_verify(key, "message", ByteView(tag.data(), floor - 1)), Error::tag_too_short);
  EXPECT_EQ(hmac_verify(key, "messagf", tag), Error::tag_mismatch);
  for (const std::size_t second : {std::size_t{1}, floor - 1}) {
    Bytes twice(tag.begin(), tag.end());  // two bytes wrong by the same bits: their differences must not cancel
    twice[0] ^= 0x01;
    twice[second] ^= 0x01;
    EXPECT_EQ(hmac_verify(key, "message", twice), Error::tag_mismatch) << second;
  }
  Bytes longer(tag.begin(), tag.end());
  longer.push_back(0);
  EXPECT_EQ(hmac_verify(key, "message", longer), Error::output_too_long);
  for (std::size_t i = 0; i < floor; ++i) {
    Bytes flipped(tag.begin(), tag.begin() + static_cast<std::ptrdiff_t>(floor));
    flipped[i] ^= 0x01;
    EXPECT_EQ(hmac_verify(key, "message", flipped), Error::tag_mismatch) << "byte " << i;
  }
}

TYPED_TEST(KdfLimits, PreparedKeyExportImportAndLongKeys) {
  using H = TypeParam;
  const Bytes long_key(H::block_size + 1, 0x42);
  const HmacKey<H> key(long_key);
  Bytes exported(HmacKey<H>::export_size);
  EXPECT_EQ(key.export_to(std::span(exported).first(exported.size() - 1)), Error::output_too_small);
  ASSERT_EQ(key.export_to(exported), Error::ok);
  HmacKey<H> imported{ByteView()};
  const auto before = hmac(imported, "m");
  EXPECT_EQ(imported.import_from(ByteView(exported.data(), exported.size() - 1)), Error::invalid_export);
  EXPECT_EQ(hmac(imported, "m"), before) << "a refused import leaves the key";
  ASSERT_EQ(imported.import_from(exported), Error::ok);
  EXPECT_EQ(hmac(imported, "m"), hmac<H>(long_key, "m"));
  // RFC 2104: a key longer than a block is replaced by its hash.
  EXPECT_EQ(hmac<H>(long_key, "m"), hmac<H>(H().update(long_key).finalize(), "m"));
  // A key of exactly one block is used as it is.
  const Bytes block_key(H::block_size, 0x42);
  EXPECT_NE(hmac<H>(block_key, "m"), hmac<H>(H().update(block_key).finalize(), "m"));
}

}  // namespace
}  // namespace shasta::test
