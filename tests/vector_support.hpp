// vector_support.hpp: readers for the HMAC/KDF known-answer files: tests/vectors/ (SHASTA_VECTOR_DIR)
// and tests/vectors/pyca, copied from Debian's python3-cryptography-vectors (SHASTA_PYCA_DIR). Every
// reader fails the test on a line it cannot parse, so a format slip shows up as a failure rather than
// as fewer cases.
#pragma once

#include <cctype>
#include <cstddef>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shasta/hex.hpp"
#include "support.hpp"

namespace shasta::test {

inline std::string vector_path(const std::string& name) {
  return std::string(SHASTA_VECTOR_DIR) + "/" + name;
}
inline std::string pyca_path(const std::string& name) {
  return std::string(SHASTA_PYCA_DIR) + "/" + name;
}

// lower spells an Alg<H>::kName the way the file names do: "SHA512_224" -> "sha512_224".
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// hex decodes a vector field; a malformed one fails the test and gives no bytes.
inline Bytes hex(std::string_view s) {
  std::optional<Bytes> b = from_hex(s);
  EXPECT_TRUE(b.has_value()) << "bad hex: " << s;
  return b.value_or(Bytes{});
}

inline std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// Fields is one case: field name -> text.
using Fields = std::map<std::string, std::string>;

inline const std::string& field(const Fields& f, const std::string& name) {
  static const std::string kNone;
  const auto it = f.find(name);
  if (it == f.end()) {
    ADD_FAILURE() << "case without " << name;
    return kNone;
  }
  return it->second;
}

// read_lines gives the lines of `path` that are neither blank nor '#' comments.
inline std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

// read_assignments reads "name = value" lines (spaces optional, value possibly empty), e.g. the
// pyca .txt files and rfc8448-keyschedule.txt, in file order.
inline std::vector<std::pair<std::string, std::string>> read_assignments(const std::string& path) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& line : read_lines(path)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      ADD_FAILURE() << path << ": unparsable line: " << line;
      continue;
    }
    out.emplace_back(trim(std::string_view(line).substr(0, eq)), trim(std::string_view(line).substr(eq + 1)));
  }
  return out;
}

// read_records groups a pyca file's assignments into cases, each ending with `last` (MD, OKM):
// blank lines and comments may fall inside a case, so they cannot be the separator.
inline std::vector<Fields> read_records(const std::string& path, const std::string& last) {
  std::vector<Fields> records;
  Fields current;
  for (auto& [name, value] : read_assignments(path)) {
    const bool end = name == last;
    if (!current.emplace(std::move(name), std::move(value)).second) ADD_FAILURE() << path << ": repeated field";
    if (end) {
      records.push_back(std::move(current));
      current.clear();
    }
  }
  EXPECT_TRUE(current.empty()) << path << ": a case without " << last << " at the end";
  return records;
}

// read_field_lines reads one case a line as space-separated name=value fields (pbkdf2-sha2.txt,
// hkdf-sha2-extra.txt).
inline std::vector<Fields> read_field_lines(const std::string& path) {
  std::vector<Fields> out;
  for (const std::string& line : read_lines(path)) {
    Fields f;
    std::size_t at = 0;
    while (at < line.size()) {
      std::size_t end = line.find(' ', at);
      if (end == std::string::npos) end = line.size();
      const std::string_view token = std::string_view(line).substr(at, end - at);
      const auto eq = token.find('=');
      if (eq == std::string_view::npos || eq == 0 || !f.emplace(token.substr(0, eq), token.substr(eq + 1)).second) {
        ADD_FAILURE() << path << ": bad field '" << token << "' in: " << line;
      }
      at = line.find_first_not_of(' ', end);
      if (at == std::string::npos) break;
    }
    out.push_back(std::move(f));
  }
  return out;
}

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  if (!in.good()) return nlohmann::json::object();
  return nlohmann::json::parse(in);
}

inline Bytes json_hex(const nlohmann::json& test, const char* name) {
  return hex(test.at(name).get<std::string>());
}

// with_hash calls f.template operator()<H>() for the hash a text file names ("sha256").
template <class F>
void with_hash(std::string_view name, F&& f) {
  if (name == "sha224") {
    f.template operator()<Sha224>();
  } else if (name == "sha256") {
    f.template operator()<Sha256>();
  } else if (name == "sha384") {
    f.template operator()<Sha384>();
  } else if (name == "sha512") {
    f.template operator()<Sha512>();
  } else {
    ADD_FAILURE() << "unknown hash " << name;
  }
}

}  // namespace shasta::test
