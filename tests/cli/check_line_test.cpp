// check_line_test.cpp: the --check grammar, line by line. GNU sha256sum 9.1 is the reference for
// every expectation here (tests/cli/compare_gnu.py runs both on the same files); these pin the rules
// so a change to the parser fails close to its cause.
#include "check_line.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sum_format.hpp"

namespace shasta::cli {
namespace {

const std::string kHex(64, 'a');
const std::string kUpperHex(64, 'A');

std::optional<ChecksumLine> parse_fresh(std::string_view line) {
  CheckLineParser parser("SHA256", 64);
  return parser.parse(line);
}

TEST(CheckLine, StandardTextAndBinaryFlags) {
  auto text = parse_fresh(kHex + "  a.txt");
  ASSERT_TRUE(text);
  EXPECT_EQ(text->hex, kHex);
  EXPECT_EQ(text->name, "a.txt");
  auto binary = parse_fresh(kHex + " *a.txt");
  ASSERT_TRUE(binary);
  EXPECT_EQ(binary->name, "a.txt");
  EXPECT_EQ(parse_fresh(kHex + "\t a.txt")->name, "a.txt");  // a tab separates too
  EXPECT_EQ(parse_fresh(kUpperHex + "  a")->hex, kUpperHex);
  EXPECT_EQ(parse_fresh("  " + kHex + "  lead")->name, "lead");  // leading white space skipped
  EXPECT_EQ(parse_fresh(kHex + "   sp ace ")->name, " sp ace ");  // the rest is the name, as is
}

TEST(CheckLine, RejectsWrongHex) {
  EXPECT_FALSE(parse_fresh(std::string(63, 'a') + "  a"));
  EXPECT_FALSE(parse_fresh(std::string(65, 'a') + "  a"));
  EXPECT_FALSE(parse_fresh(std::string(63, 'a') + "g  a"));
  EXPECT_EQ(parse_fresh(kHex + "  ")->name, " ");  // reversed form, name " " (GNU agrees)
  EXPECT_FALSE(parse_fresh(kHex + " "));            // no name: too short
  EXPECT_FALSE(parse_fresh(kHex + "x a"));     // no separator after the hex
  EXPECT_FALSE(parse_fresh(std::string(32, 'a') + '\0' + std::string(31, 'a') + "  a"));
}

TEST(CheckLine, Tagged) {
  EXPECT_EQ(parse_fresh("SHA256 (a.txt) = " + kHex)->name, "a.txt");
  EXPECT_EQ(parse_fresh("SHA256(a.txt)= " + kHex)->name, "a.txt");   // OpenSSL 1.x's form
  EXPECT_EQ(parse_fresh("SHA256 (a) b) =\t" + kHex)->name, "a) b");  // up to the last ')'
  EXPECT_EQ(parse_fresh("SHA256 () = " + kHex)->name, "");
  EXPECT_FALSE(parse_fresh("SHA256  (a) = " + kHex));  // one space at most before '('
  EXPECT_FALSE(parse_fresh("SHA512 (a) = " + kHex));
  EXPECT_FALSE(parse_fresh("SHA2-256(a)= " + kHex));  // OpenSSL 3's form: not GNU's
  EXPECT_FALSE(parse_fresh("SHA256 (a) = " + kHex + "0"));
  EXPECT_FALSE(parse_fresh("SHA256 (a) = " + kHex + " "));
  EXPECT_FALSE(parse_fresh("SHA256 (a) " + kHex));
  EXPECT_FALSE(parse_fresh("SHA256 ("));
  // A NUL ends GNU's C string: after the hex it is ignored, in the name it cuts the name.
  EXPECT_TRUE(parse_fresh("SHA256 (a) = " + kHex + std::string(1, '\0') + "junk"));
  EXPECT_EQ(parse_fresh("SHA256 (a" + std::string(1, '\0') + "b) = " + kHex)->name, "a");
}

TEST(CheckLine, EscapedNames) {
  EXPECT_EQ(parse_fresh("\\" + kHex + "  new\\nline")->name, "new\nline");
  EXPECT_EQ(parse_fresh("\\" + kHex + "  back\\\\slash\\r")->name, "back\\slash\r");
  EXPECT_EQ(parse_fresh("\\SHA256 (a\\nb) = " + kHex)->name, "a\nb");
  EXPECT_FALSE(parse_fresh("\\" + kHex + "  bad\\t"));
  EXPECT_FALSE(parse_fresh("\\" + kHex + "  trailing\\"));
  EXPECT_FALSE(parse_fresh("\\" + kHex + "  nul" + std::string(1, '\0')));
  EXPECT_EQ(parse_fresh(kHex + "  not\\nescaped")->name, "not\\nescaped");  // no leading '\'
}

TEST(CheckLine, ReversedFormAndTheLock) {
  CheckLineParser parser("SHA256", 64);
  auto reversed = parser.parse(kHex + " a.txt");
  ASSERT_TRUE(reversed);
  EXPECT_EQ(reversed->name, "a.txt");
  // Once reversed, a standard line's flag is part of the name (GNU 9.1 does the same).
  EXPECT_EQ(parser.parse(kHex + "  a.txt")->name, " a.txt");

  CheckLineParser standard_first("SHA256", 64);
  ASSERT_TRUE(standard_first.parse(kHex + "  a.txt"));
  EXPECT_FALSE(standard_first.parse(kHex + " a.txt"));
  // A one-byte name after the separator is reversed form even when it is ' ' or '*'.
  EXPECT_EQ(parse_fresh(kHex + " *")->name, "*");
}

TEST(CheckLine, UnescapeName) {
  EXPECT_EQ(unescape_name("a\\\\b\\nc\\rd"), "a\\b\nc\rd");
  EXPECT_FALSE(unescape_name("\\x"));
  EXPECT_FALSE(unescape_name("a\\"));
  EXPECT_EQ(unescape_name(""), "");
}

// What sha*sum writes, the parser reads back: every byte string as a name, both line forms.
TEST(CheckLine, RoundTripsGeneratedLines) {
  for (int i = 1; i < 256; ++i) {
    const std::string name = std::string("n") + static_cast<char>(i) + "\\\n\r ";
    for (bool tagged : {false, true}) {
      for (bool binary : {false, true}) {
        const LineStyle style{"SHA256", tagged, binary, '\n'};
        std::string line = format_sum_line(kHex, name, style);
        ASSERT_TRUE(line.ends_with('\n'));
        line.pop_back();
        auto parsed = parse_fresh(line);
        ASSERT_TRUE(parsed) << line;
        EXPECT_EQ(parsed->name, name);
        EXPECT_EQ(parsed->hex, kHex);
      }
    }
  }
}

TEST(SumFormat, LinesAsGnuWritesThem) {
  const std::string hex = "ba78";
  EXPECT_EQ(format_sum_line(hex, "a.txt", {"SHA256", false, false, '\n'}), "ba78  a.txt\n");
  EXPECT_EQ(format_sum_line(hex, "a.txt", {"SHA256", false, true, '\n'}), "ba78 *a.txt\n");
  EXPECT_EQ(format_sum_line(hex, "a.txt", {"SHA256", true, true, '\n'}), "SHA256 (a.txt) = ba78\n");
  EXPECT_EQ(format_sum_line(hex, "back\\slash", {"SHA256", false, false, '\n'}), "\\ba78  back\\\\slash\n");
  EXPECT_EQ(format_sum_line(hex, "new\nline", {"SHA256", true, true, '\n'}), "\\SHA256 (new\\nline) = ba78\n");
  EXPECT_EQ(format_sum_line(hex, "new\nline", {"SHA256", false, false, '\0'}), std::string("ba78  new\nline\0", 15));
  EXPECT_EQ(format_sum_line(hex, "t\tab", {"SHA256", false, false, '\n'}), "ba78  t\tab\n");
  EXPECT_EQ(format_check_result("back\\slash", "OK"), "back\\slash: OK\n");  // 9.1: raw unless LF
  EXPECT_EQ(format_check_result("cr\rret", "OK"), "cr\rret: OK\n");
  EXPECT_EQ(format_check_result("b\\s\nn", "FAILED"), "\\b\\\\s\\nn: FAILED\n");
}

// Other tools' tags (shasta sum, shasta hmac): OpenSSL 3's and FreeBSD's names for the same hash.
// Where one tag begins another, the line's is the one followed by '('; GNU's parser has only its own.
TEST(CheckLine, OtherToolsTags) {
  const std::string hex(64, 'b');
  CheckLineParser parser("SHA512/256", 64, {"SHA2-512/256", "SHA512t256"});
  auto openssl = parser.parse("SHA2-512/256(a b)= " + hex);
  ASSERT_TRUE(openssl);
  EXPECT_EQ(openssl->name, "a b");
  EXPECT_EQ(openssl->hex, hex);
  EXPECT_EQ(parser.parse("SHA512t256 (f) = " + hex)->name, "f");
  EXPECT_EQ(parser.parse("SHA512/256 (g) = " + hex)->name, "g");
  EXPECT_FALSE(parser.parse("SHA2-512/25(f)= " + hex));
  CheckLineParser sha512("SHA512", 128, {"SHA2-512"});
  EXPECT_FALSE(sha512.parse("SHA2-512/256(f)= " + std::string(128, 'c'))) << "a longer tag's line";
  EXPECT_EQ(sha512.parse("SHA2-512(f)= " + std::string(128, 'c'))->name, "f");
  CheckLineParser prefixes("SHA2-512", 64, {"SHA2-512/256"});  // the longer one second
  EXPECT_EQ(prefixes.parse("SHA2-512/256(h)= " + hex)->name, "h");
  EXPECT_FALSE(parse_fresh("SHA2-256(f)= " + kHex)) << "GNU's parser: its own tag only";
  // An untagged line is still one: no tag begins with a hex digit.
  EXPECT_EQ(parser.parse(hex + "  u")->name, "u");
}

}  // namespace
}  // namespace shasta::cli
