// quote_test.cpp: quote_name against GNU coreutils 9.1. Every expected string here is what
// `LC_ALL=C sha256sum -- NAME` or `LC_ALL=C.UTF-8 sha256sum -- NAME` printed for a missing file
// (`sha256sum: QUOTED: No such file or directory`).
#include "quote.hpp"

#include <gtest/gtest.h>

#include <clocale>
#include <string>
#include <string_view>

namespace shasta::cli {
namespace {

constexpr const char* kC = "C";
constexpr const char* kUtf8 = "C.UTF-8";

bool have_locale(const char* locale) {
  const std::string saved = std::setlocale(LC_ALL, nullptr);
  const bool found = std::setlocale(LC_ALL, locale) != nullptr;
  std::setlocale(LC_ALL, saved.c_str());
  return found;
}

// quote_name under `locale`, leaving the process locale as it was.
std::string quoted_in(const char* locale, std::string_view name) {
  const std::string saved = std::setlocale(LC_ALL, nullptr);
  EXPECT_NE(std::setlocale(LC_ALL, locale), nullptr) << locale;
  std::string quoted = quote_name(name);
  std::setlocale(LC_ALL, saved.c_str());
  return quoted;
}

// ASCII names quote the same whatever the locale; check both that GNU was run under.
void expect_in_both(std::string_view name, std::string_view expected) {
  EXPECT_EQ(quoted_in(kC, name), expected) << "LC_ALL=C, name " << testing::PrintToString(std::string(name));
  if (have_locale(kUtf8)) {
    EXPECT_EQ(quoted_in(kUtf8, name), expected) << "LC_ALL=C.UTF-8, name " << testing::PrintToString(std::string(name));
  }
}

TEST(QuoteName, SafeNamesStayBare) {
  expect_in_both("a.txt", "a.txt");
  expect_in_both("Z9", "Z9");
  expect_in_both("-x", "-x");
  expect_in_both("%+,-._", "%+,-._");
  expect_in_both("dir/file", "dir/file");
  expect_in_both("a@b", "a@b");  // '@' is not on gnulib's list but is printable, so safe
  expect_in_both("a]b", "a]b");
}

TEST(QuoteName, EmptyNameIsTwoQuotes) {
  expect_in_both("", "''");
}

TEST(QuoteName, ShellSpecialsForceSingleQuotes) {
  expect_in_both("no such", "'no such'");
  expect_in_both("back\\slash", R"('back\slash')");  // a backslash needs no escape between single quotes
  for (const char special : std::string_view("!\"$&()*;<=>[^`|?")) {
    const std::string name = std::string("a") + special + "b";
    expect_in_both(name, "'" + name + "'");
  }
}

TEST(QuoteName, ColonIsQuotedBecauseQuotefAddsIt) {
  expect_in_both("a:b", "'a:b'");
  expect_in_both(":", "':'");
}

TEST(QuoteName, HashAndTildeMatterOnlyFirst) {
  expect_in_both("#x", "'#x'");
  expect_in_both("~user", "'~user'");
  expect_in_both("x#", "x#");
  expect_in_both("x~", "x~");
}

TEST(QuoteName, BracesMatterOnlyAlone) {
  expect_in_both("{", "'{'");
  expect_in_both("}", "'}'");
  expect_in_both("a{b", "a{b");
  expect_in_both("a}", "a}");
  expect_in_both("{}", "{}");
}

TEST(QuoteName, ApostropheAloneUsesDoubleQuotes) {
  expect_in_both("it's", R"("it's")");
  expect_in_both("'", R"("'")");
  expect_in_both("''", R"("''")");
  expect_in_both("it's:", R"("it's:")");
  expect_in_both("a' b@", R"("a' b@")");
  expect_in_both("#'", R"("#'")");  // '#' and '~' are fine between double quotes when first
  expect_in_both("~'", R"("~'")");
}

TEST(QuoteName, ApostropheWithOtherSpecialsUsesSingleQuotes) {
  expect_in_both("it's #1", R"('it'\''s #1')");  // a '#' later in the name rules out double quotes
  expect_in_both("a'#", R"('a'\''#')");
  expect_in_both("{'", R"('{'\''')");  // so does a brace that is not alone
  expect_in_both("a'{b", R"('a'\''{b')");
  expect_in_both("a'$b", R"('a'\''$b')");
  expect_in_both("a'\\b", R"('a'\''\b')");
}

TEST(QuoteName, ControlCharactersWithLettersGetDollarSegments) {
  expect_in_both("no\nsuch", R"('no'$'\n''such')");
  expect_in_both("t\tb", R"('t'$'\t''b')");
  expect_in_both("\a\b\f\n\r\t\v", R"(''$'\a\b\f\n\r\t\v')");
  expect_in_both("\n", R"(''$'\n')");
  expect_in_both("a\n", R"('a'$'\n')");
  expect_in_both("\n\t", R"(''$'\n\t')");
}

TEST(QuoteName, OtherUnprintablesAreOctal) {
  expect_in_both("\x01", R"(''$'\001')");
  expect_in_both("\x1b[0m", R"(''$'\033''[0m')");
  expect_in_both("\x7f", R"(''$'\177')");
  expect_in_both("x\xffy", R"('x'$'\377''y')");
  expect_in_both("\x80", R"(''$'\200')");
}

TEST(QuoteName, ApostropheAfterEscapeSegment) {
  expect_in_both("\n'x", R"(''$'\n'\''x')");  // the ' of '\'' closes the $'...' segment
  expect_in_both("\n'a", R"(''$'\n'\''a')");
}

// GNU 9.1 (gnulib before 2024-04) writes a name with an apostrophe twice and starts the second run in the
// $'...' state the first one ended in. These outputs are wrong as shell input, but they are what sha256sum prints.
TEST(QuoteName, ReproducesGnuBugForApostropheAndTrailingEscape) {
  expect_in_both("\x01'\x01", R"('\001'\'''$'\001')");
  expect_in_both("\n'a\n", R"('\n'\''a'$'\n')");
  expect_in_both("a'\n", R"('''a'\'''$'\n')");
}

TEST(QuoteName, MultibyteIsRawInUtf8Locale) {
  if (!have_locale(kUtf8)) GTEST_SKIP() << "no C.UTF-8 locale";
  EXPECT_EQ(quoted_in(kUtf8, "\xc3\xa9"), "\xc3\xa9");                                  // é
  EXPECT_EQ(quoted_in(kUtf8, "\xe4\xb8\xad\xe6\x96\x87"), "\xe4\xb8\xad\xe6\x96\x87");  // 中文
  EXPECT_EQ(quoted_in(kUtf8, "\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");                  // an emoji
  EXPECT_EQ(quoted_in(kUtf8, "a\xc2\xa0z"), "a\xc2\xa0z");                              // no-break space is printable
  EXPECT_EQ(quoted_in(kUtf8, "caf\xc3\xa9:"), "'caf\xc3\xa9:'");
  EXPECT_EQ(quoted_in(kUtf8, "it's \xc3\xa9"), "\"it's \xc3\xa9\"");
  EXPECT_EQ(quoted_in(kUtf8, "\xc3\xa9\n"), "'\xc3\xa9'$'\\n'");
  EXPECT_EQ(quoted_in(kUtf8, "\n\xc3\xa9"), "''$'\\n''\xc3\xa9'");
}

TEST(QuoteName, UnprintableOrInvalidUtf8IsOctal) {
  if (!have_locale(kUtf8)) GTEST_SKIP() << "no C.UTF-8 locale";
  EXPECT_EQ(quoted_in(kUtf8, "\xc3"), R"(''$'\303')");  // truncated at the end
  EXPECT_EQ(quoted_in(kUtf8, "\xe2\x82"), R"(''$'\342\202')");
  EXPECT_EQ(quoted_in(kUtf8, "\xc3("), R"(''$'\303''(')");              // lead byte without continuation
  EXPECT_EQ(quoted_in(kUtf8, "\xc0\xaf"), R"(''$'\300\257')");          // overlong '/'
  EXPECT_EQ(quoted_in(kUtf8, "\xed\xa0\x80"), R"(''$'\355\240\200')");  // surrogate
  EXPECT_EQ(quoted_in(kUtf8, "\xc2\x85"), R"(''$'\302\205')");          // U+0085, a C1 control
  EXPECT_EQ(quoted_in(kUtf8, "\xe2\x80\xa8"), R"(''$'\342\200\250')");  // U+2028 line separator
  EXPECT_EQ(quoted_in(kUtf8, "\xcd\xb8"), R"(''$'\315\270')");          // U+0378, unassigned
}

TEST(QuoteName, MultibyteIsOctalInCLocale) {
  EXPECT_EQ(quoted_in(kC, "\xc3\xa9"), R"(''$'\303\251')");
  EXPECT_EQ(quoted_in(kC, "\xe4\xb8\xad\xe6\x96\x87"), R"(''$'\344\270\255\346\226\207')");
  EXPECT_EQ(quoted_in(kC, "a\xc2\xa0z"), R"('a'$'\302\240''z')");
  EXPECT_EQ(quoted_in(kC, "caf\xc3\xa9:"), R"('caf'$'\303\251'':')");
  EXPECT_EQ(quoted_in(kC, "\xc3\xa9\n"), R"(''$'\303\251\n')");
  EXPECT_EQ(quoted_in(kC, "it's \xc3\xa9"), R"('''it'\''s '$'\303\251')");  // the 9.1 bug again
}

}  // namespace
}  // namespace shasta::cli
