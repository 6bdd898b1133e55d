// check_line.hpp: the grammar of a `--check` line, as GNU coreutils 9.1's sha*sum reads it:
//   [ws] ['\'] TAG [' '] '(' NAME ')' [ws] '=' [ws] HEX          (BSD tag, OpenSSL's "TAG(NAME)= HEX")
//   [ws] ['\'] HEX ws (' ' | '*') NAME                           (the default output)
//   [ws] ['\'] HEX ws NAME                                       ("BSD reversed", md5 -r)
// HEX is exactly the digest's hex length, either case. A leading '\' marks a NAME escaped with
// \\, \n and \r. TAG is the tool's own; `shasta sum` and `shasta hmac` also take other tools' names
// for the same hash (OpenSSL 3's "SHA2-256", FreeBSD's "SHA512t256"), which GNU's tools do not. The first untagged line decides between the last two forms for the rest of the
// run (GNU keeps that lock across check files, and so do we). Like GNU, a NAME is cut at a NUL byte.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shasta::cli {

struct ChecksumLine {
  std::string hex;   // as written
  std::string name;  // unescaped
};

class CheckLineParser {
 public:
  // tag: "SHA256"; hex_length: 2 x digest size; other_tags: more names of the hash a tagged line
  // may give.
  CheckLineParser(std::string_view tag, std::size_t hex_length, std::vector<std::string> other_tags = {})
      : tags_(std::move(other_tags)), hex_length_(hex_length) {
    tags_.insert(tags_.begin(), std::string(tag));
  }

  // `line` has had its trailing "\n" and then "\r" removed, is not empty and is not a comment.
  // nullopt when it is improperly formatted.
  std::optional<ChecksumLine> parse(std::string_view line);

 private:
  enum class UntaggedForm { undecided, standard, reversed };

  std::optional<ChecksumLine> parse_tagged(std::string_view rest, bool escaped) const;
  std::optional<ChecksumLine> parse_untagged(std::string_view rest, bool escaped);
  bool is_hex(std::string_view hex) const;

  std::vector<std::string> tags_;  // the tool's own first
  std::size_t hex_length_;
  UntaggedForm form_ = UntaggedForm::undecided;
};

// Undoes the name escaping of a sum line: "\\" -> '\', "\n" -> LF, "\r" -> CR. nullopt for any other
// escape, a lone trailing backslash, or a NUL byte.
std::optional<std::string> unescape_name(std::string_view escaped);

}  // namespace shasta::cli
