// sum_options.hpp: the options of the sha*sum tools, parsed as GNU's are (getopt_long: bundling,
// unambiguous long-option prefixes, options after operands, "--"), and checked in GNU's order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "digester.hpp"
#include "output.hpp"

namespace shasta::cli {

enum class ProgressMode { automatic, always, never };

struct SumOptions {
  const Algorithm* algorithm = nullptr;
  bool check = false;
  int binary = -1;  // -1: neither -b nor -t given
  bool tag = false;
  char terminator = '\n';
  bool ignore_missing = false;
  bool quiet = false;
  bool status = false;
  bool strict = false;
  bool warn = false;
  unsigned jobs = 0;  // 0: one per CPU
  ProgressMode progress = ProgressMode::automatic;
  std::vector<std::string> operands;  // "-" when none were given
  // `shasta hmac` only: where the key comes from (given exactly once), and whether an empty key is meant.
  enum class KeySource { none, hex, file, env } key_source = KeySource::none;
  std::string key_value;  // the HEX, FILE or VAR of that option; never empty (refused when parsed)
  int key_sources = 0;
  bool empty_key_ok = false;
};

// How the tool was invoked: as a GNU tool (sha256sum), or as `shasta sum`, which also takes
// -a/--algorithm and knows all six algorithms.
struct SumInvocation {
  std::string program;                  // in diagnostics: argv[0], or "shasta sum"
  const Algorithm* algorithm = nullptr;  // fixed by a GNU tool name; nullptr for `shasta sum`
  bool hmac = false;                     // `shasta hmac`: the key options too
};

// Parses argv (argv[0] is replaced by invocation.program for getopt's messages). Returns the exit
// status when the run ends here (--help, --version, a usage error), nullopt to go on.
std::optional<int> parse_sum_options(int argc, char** argv, const SumInvocation& invocation, Output& output,
                                     SumOptions& options);

}  // namespace shasta::cli
