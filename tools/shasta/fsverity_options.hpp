// fsverity_options.hpp: the options of `shasta fsverity digest`, parsed and checked as
// fsverity-utils' `fsverity digest` does, with its messages ("ERROR: ..." on stderr) and exit
// statuses: 2 for a usage error; parameters libfsverity refuses are reported as it reports them,
// once the first file has been opened (exit status 1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shasta/fsverity.hpp"

namespace shasta::cli {

struct FsverityDigestOptions {
  FsverityHash hash = FsverityHash::sha256;
  std::size_t block_size = 4096;
  std::vector<std::uint8_t> salt;
  bool compact = false;          // the digest's hex alone
  bool for_builtin_sig = false;  // struct fsverity_formatted_digest, in hex
  bool help = false;             // --help: print the usage, nothing else
  bool version = false;          // --version: print the version, nothing else
  // libfsverity's refusal of the parameters ("unknown hash algorithm: 3\nERROR: failed to compute
  // digest"), reported for the first file that opens, as libfsverity checks them there.
  std::optional<std::string> parameter_error;
  int first_file = 0;            // argv index of the first FILE

  // The library's parameters; they point into `salt`.
  FsverityParams params() const { return {hash, block_size, ByteView(salt.data(), salt.size())}; }
};

// The usage text, for --help (stdout) and after a usage error (stderr).
std::string_view fsverity_usage();

// "ERROR: message\n" on stderr, as fsverity prints it.
void print_fsverity_error(std::string_view message);

// 'text', as fsverity quotes names and values in its messages.
std::string fsverity_quoted(const char* text);

// Parses `digest`'s argv (argv[0] is "digest") and checks the parameters. Returns the exit status
// when the run ends here, nullopt to go on (also after --help or --version, which set theirs).
std::optional<int> parse_fsverity_digest_options(int argc, char** argv, FsverityDigestOptions& options);

}  // namespace shasta::cli
