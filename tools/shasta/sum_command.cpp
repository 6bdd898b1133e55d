// sum_command.cpp: `shasta sum [-a ALGO] [FILE]...`: one "HEX  NAME" line per file, as sha256sum
// prints them ("-" or no FILE is standard input). An unreadable file is reported and skipped.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "shasta/sha2.hpp"

namespace shasta::cli {
namespace {

using AnyHasher = std::variant<Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256>;

bool hasher_for(std::string_view algo, AnyHasher& out) {
  if (algo == "224" || algo == "sha224")
    out = Sha224();
  else if (algo == "256" || algo == "sha256")
    out = Sha256();
  else if (algo == "384" || algo == "sha384")
    out = Sha384();
  else if (algo == "512" || algo == "sha512")
    out = Sha512();
  else if (algo == "512224" || algo == "sha512-224")
    out = Sha512_224();
  else if (algo == "512256" || algo == "sha512-256")
    out = Sha512_256();
  else
    return false;
  return true;
}

// hash_stream feeds `in` to `hasher` in large reads; false on a read error (errno set).
bool hash_stream(std::FILE* in, AnyHasher& hasher) {
  static thread_local std::vector<unsigned char> buffer(1 << 18);
  for (;;) {
    const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), in);
    std::visit([&](auto& h) { h.update(buffer.data(), n); }, hasher);
    if (n < buffer.size()) return std::ferror(in) == 0;
  }
}

}  // namespace

int sum_command(std::span<const std::string_view> args) {
  AnyHasher hasher = Sha256();
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-a" && i + 1 < args.size()) {
      if (!hasher_for(args[++i], hasher)) {
        std::fprintf(stderr, "shasta sum: unknown algorithm '%.*s'\n", static_cast<int>(args[i].size()),
                     args[i].data());
        return 2;
      }
    } else {
      files.emplace_back(args[i]);
    }
  }
  if (files.empty()) files.emplace_back("-");
  int status = 0;
  for (const std::string& name : files) {
    const bool is_stdin = name == "-";
    std::FILE* in = is_stdin ? stdin : std::fopen(name.c_str(), "rb");
    if (in == nullptr) {
      std::fprintf(stderr, "shasta: %s: %s\n", name.c_str(), std::strerror(errno));
      status = 1;
      continue;
    }
    const bool ok = hash_stream(in, hasher);
    const int read_errno = errno;
    if (!is_stdin) std::fclose(in);
    if (!ok) {
      std::fprintf(stderr, "shasta: %s: %s\n", name.c_str(), std::strerror(read_errno));
      std::visit([](auto& h) { h.reset(); }, hasher);
      status = 1;
      continue;
    }
    const std::string hex = std::visit([](auto& h) { return to_hex(h.finalize()); }, hasher);
    std::printf("%s  %s\n", hex.c_str(), name.c_str());
  }
  return status;
}

}  // namespace shasta::cli
