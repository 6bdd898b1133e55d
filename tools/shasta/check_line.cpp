// check_line.cpp: see check_line.hpp.
#include "check_line.hpp"

namespace shasta::cli {
namespace {

bool is_white(char c) { return c == ' ' || c == '\t'; }

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// GNU works on C strings: whatever follows a NUL is not part of the field.
std::string_view up_to_nul(std::string_view s) { return s.substr(0, s.find('\0')); }

}  // namespace

std::optional<std::string> unescape_name(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    const char c = escaped[i];
    if (c == '\0') return std::nullopt;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i == escaped.size()) return std::nullopt;
    switch (escaped[i]) {
      case '\\': out += '\\'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      default: return std::nullopt;
    }
  }
  return out;
}

bool CheckLineParser::is_hex(std::string_view hex) const {
  if (hex.size() != hex_length_) return false;
  for (char c : hex) {
    if (!is_hex_digit(c)) return false;
  }
  return true;
}

std::optional<ChecksumLine> CheckLineParser::parse(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_white(line[i])) ++i;
  bool escaped = false;
  if (i < line.size() && line[i] == '\\') {
    escaped = true;
    ++i;
  }
  const std::string_view rest = line.substr(i);
  // A line that begins with a tag is tagged, or improper: an untagged line begins with hex, and no
  // tag does. Of two tags one may begin the other ("SHA2-512", "SHA2-512/256"): the one followed
  // by '(' is the line's.
  bool tagged = false;
  for (const std::string& tag : tags_) {
    if (!up_to_nul(rest).starts_with(tag)) continue;
    tagged = true;
    std::string_view after = rest.substr(tag.size());
    if (!after.empty() && after.front() == ' ') after.remove_prefix(1);
    if (!after.empty() && after.front() == '(') return parse_tagged(after.substr(1), escaped);
  }
  if (tagged) return std::nullopt;
  return parse_untagged(rest, escaped);
}

// rest: after "TAG (". The name runs to the last ')' of the line.
std::optional<ChecksumLine> CheckLineParser::parse_tagged(std::string_view rest, bool escaped) const {
  const std::size_t close = rest.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  ChecksumLine parsed;
  if (escaped) {
    std::optional<std::string> name = unescape_name(rest.substr(0, close));
    if (!name) return std::nullopt;
    parsed.name = std::move(*name);
  } else {
    parsed.name = std::string(up_to_nul(rest.substr(0, close)));
  }
  std::size_t i = close + 1;
  while (i < rest.size() && is_white(rest[i])) ++i;
  if (i == rest.size() || rest[i] != '=') return std::nullopt;
  ++i;
  while (i < rest.size() && is_white(rest[i])) ++i;
  // A NUL right after the hex ends GNU's C string there, so what follows it does not count.
  const std::string_view hex = up_to_nul(rest.substr(i));
  if (!is_hex(hex)) return std::nullopt;
  parsed.hex = std::string(hex);
  return parsed;
}

std::optional<ChecksumLine> CheckLineParser::parse_untagged(std::string_view rest, bool escaped) {
  // Shortest line: the hex, one separator, one name byte.
  if (rest.size() < hex_length_ + 2) return std::nullopt;
  const std::string_view hex = rest.substr(0, hex_length_);
  if (!is_white(rest[hex_length_]) || !is_hex(hex)) return std::nullopt;
  std::string_view name = rest.substr(hex_length_ + 1);
  const bool flag_follows = name.size() != 1 && (name.front() == ' ' || name.front() == '*');
  if (!flag_follows) {
    // "BSD reversed": the name right after the separator. Not once a standard line was seen, so a
    // renamed file with a leading space cannot pass for another form.
    if (form_ == UntaggedForm::standard) return std::nullopt;
    form_ = UntaggedForm::reversed;
  } else if (form_ != UntaggedForm::reversed) {
    form_ = UntaggedForm::standard;
    name.remove_prefix(1);  // the text/binary flag: meaningless on POSIX
  }
  ChecksumLine parsed{std::string(hex), {}};
  if (escaped) {
    std::optional<std::string> unescaped = unescape_name(name);
    if (!unescaped) return std::nullopt;
    parsed.name = std::move(*unescaped);
  } else {
    parsed.name = std::string(up_to_nul(name));
  }
  return parsed;
}

}  // namespace shasta::cli
