// options_fuzzer.cpp: any bytes as a command line (arguments split at NUL bytes) for the CLI's
// option parsers: the sha*sum tools' (as sha256sum, as `shasta sum`, as `shasta hmac`, whose
// values may be keys) and `shasta fsverity digest`'s; and the KDF commands' hex secrets and counts.
// Nothing may crash, and what a parser lets through must hold:
// - sum tools: an algorithm and at least one operand; `shasta hmac` never goes on with an empty key
//   option value (an empty --key-file would sign with a key anyone knows);
// - `shasta hmac`'s messages never show a key: a 0x01 byte given only in key options' values (or
//   in operands) never reaches stdout or stderr;
// - fsverity: a FILE operand, a power-of-two block size big enough for two digests, at most 32
//   bytes of salt;
// - hex secrets decode exactly as shasta::from_hex does; counts are all digits and in range.
// Messages go to a memory file (SHASTA_FUZZ_SHOW_OUTPUT=1 leaves stdout and stderr alone, to read a
// crash's report when replaying its input).
#include <getopt.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fsverity_options.hpp"
#include "kdf_arguments.hpp"
#include "secret.hpp"
#include "shasta/hex.hpp"
#include "sum_options.hpp"

namespace {

using namespace shasta::cli;

void require(bool condition) {
  if (!condition) std::abort();
}

constexpr char kMarker = '\x01';

// stdout and stderr into one memory file for the length of a parse, so that a test can read what
// a parser printed.
class CapturedOutput {
 public:
  CapturedOutput() {
    if (std::getenv("SHASTA_FUZZ_SHOW_OUTPUT") != nullptr) return;
    file_ = memfd_create("options_fuzzer", 0);
    saved_out_ = dup(STDOUT_FILENO);
    saved_err_ = dup(STDERR_FILENO);
  }

  void start() {
    if (file_ < 0) return;
    require(ftruncate(file_, 0) == 0 && lseek(file_, 0, SEEK_SET) == 0);
    dup2(file_, STDOUT_FILENO);
    dup2(file_, STDERR_FILENO);
  }

  // What was printed since start(); the real stdout and stderr are back afterwards.
  std::string stop() {
    if (file_ < 0) return {};
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(saved_out_, STDOUT_FILENO);
    dup2(saved_err_, STDERR_FILENO);
    std::string text(static_cast<std::size_t>(lseek(file_, 0, SEEK_END)), '\0');
    require(pread(file_, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()));
    return text;
  }

 private:
  int file_ = -1, saved_out_ = -1, saved_err_ = -1;
};

CapturedOutput& captured() {
  static CapturedOutput capture;
  return capture;
}

// argv for getopt: argv[0] and the arguments, NUL-terminated, null at the end. getopt permutes the
// pointers, never the strings.
struct Argv {
  explicit Argv(const std::vector<std::string>& args) : strings(args) {
    strings.insert(strings.begin(), "prog");
    for (auto& s : strings) pointers.push_back(s.data());
    pointers.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(strings.size()); }
  std::vector<std::string> strings;
  std::vector<char*> pointers;
};

// Whether the marker appears in a value that no message may show (a key option's value, written
// whole or abbreviated; an operand) and never where a message may show it: an option's name as
// typed, and the values of -a/--algorithm and -j/--jobs, which are no secrets and are quoted when
// refused ("unknown algorithm 'X'").
bool marker_only_in_secret_values(const std::vector<std::string>& args) {
  bool in_secret = false;
  bool shown_next = false;  // the argument after "-a", "-j", "--algorithm" or "--jobs" may be their value
  for (const std::string& arg : args) {
    const std::string_view a(arg);
    const bool has_marker = a.find(kMarker) != std::string_view::npos;
    const bool shown_here = shown_next;
    shown_next = false;
    if (shown_here) {  // whatever it looks like, getopt may take it as that option's value
      if (has_marker) return false;
      shown_next = a.starts_with('-');  // or it may be an option that takes the next (erring safe)
    } else if (a.starts_with("--") && a.size() > 2) {
      const std::size_t eq = a.find('=');
      const std::string_view name = a.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2);
      if (name.find(kMarker) != std::string_view::npos) return false;
      const bool shown_value = name == "algorithm" || name == "jobs";
      if (eq == std::string_view::npos) {
        shown_next = shown_value;
      } else if (has_marker) {
        if (shown_value) return false;
        in_secret = true;
      }
    } else if (a.starts_with('-') && a.size() > 1) {
      if (has_marker) return false;  // short options and their values
      shown_next = true;
    } else if (has_marker) {
      in_secret = true;
    }
  }
  return in_secret;
}

void fuzz_sum_options(const std::vector<std::string>& args, int mode) {
  static const Algorithm* const sha256 = find_algorithm("256");
  const SumInvocation invocation{mode == 0   ? "sha256sum"
                                 : mode == 1 ? "shasta sum"
                                             : "shasta hmac",
                                 mode == 0 ? sha256 : nullptr, mode == 2};
  Argv argv(args);
  Output output(invocation.program);
  SumOptions options;
  opterr = 1;  // as a fresh process has it (getopt_keeping_values_secret clears it)
  captured().start();
  const std::optional<int> status = parse_sum_options(argv.argc(), argv.pointers.data(), invocation, output, options);
  const std::string printed = captured().stop();
  if (!status) {
    require(options.algorithm != nullptr && !options.operands.empty());
    if (options.key_source != SumOptions::KeySource::none) require(!options.key_value.empty());
    if (mode != 2) require(options.key_sources == 0);
  }
  if (mode == 2 && marker_only_in_secret_values(args)) require(printed.find(kMarker) == std::string::npos);
}

void fuzz_fsverity_options(const std::vector<std::string>& args) {
  Argv argv(args);
  FsverityDigestOptions options;
  captured().start();
  const std::optional<int> status = parse_fsverity_digest_options(argv.argc(), argv.pointers.data(), options);
  captured().stop();
  // Parameters libfsverity refuses are reported at the first file (parameter_error); any others
  // that pass parsing are good ones.
  if (!status && !options.help && !options.version) {
    require(options.first_file >= 1 && options.first_file < argv.argc());
    if (!options.parameter_error) {
      const std::size_t digest = shasta::fsverity_digest_size(options.hash);
      require((options.block_size & (options.block_size - 1)) == 0 && options.block_size >= 2 * digest);
      require(options.salt.size() <= shasta::kFsverityMaxSaltSize);
    }
  }
}

void fuzz_kdf_arguments(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    Secret secret;
    const auto expected = shasta::from_hex(arg);
    require(decode_hex_secret(arg, secret) == expected.has_value());
    if (expected) require(std::ranges::equal(secret.bytes(), *expected));

    if (const auto count = parse_count(arg, 1, 255 * 64)) {
      require(*count >= 1 && *count <= 255 * 64 && !arg.empty());
      for (char c : arg) require(c >= '0' && c <= '9');
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 5;
  std::vector<std::string> args(1);
  for (std::size_t i = 1; i < size && args.size() <= 32; ++i) {
    if (data[i] == 0) {
      args.emplace_back();
    } else {
      args.back() += static_cast<char>(data[i]);
    }
  }
  if (mode <= 2) fuzz_sum_options(args, mode);
  if (mode == 3) fuzz_fsverity_options(args);
  if (mode == 4) fuzz_kdf_arguments(args);
  return 0;
}
