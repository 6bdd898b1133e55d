// sum_tool.hpp: sha*sum itself: print a digest line per file, or (-c) check the lines of checksum
// files. The same code serves GNU's four tools, `shasta sum` for all six algorithms, and
// `shasta hmac` (whose "digest" is a keyed tag).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "digester.hpp"
#include "input_kind.hpp"
#include "output.hpp"
#include "sum_options.hpp"

namespace shasta::cli {

struct SumSetup {
  const Digester* prototype;  // a fresh() copy digests each file
  std::string_view tag;       // "SHA256", "HMAC-SHA256": --tag lines and check lines
  // A stream already read to its end (hmac's key from "-" or a pipe): check lines naming it fail
  // as unreadable instead of digesting what is left of it.
  std::optional<InputKind> used_stream{};
  std::vector<std::string> other_tags{};  // other tools' tags a check line may give (not in GNU mode)
};

// Other tools' tags for the algorithm, each after `prefix` ("HMAC-"): OpenSSL 3's, FreeBSD's.
std::vector<std::string> other_tags(const Algorithm& algorithm, std::string_view prefix = {});

// Runs with parsed options; returns the exit status (0, or 1 for any failure, as GNU).
int run_sum(const SumOptions& options, const SumSetup& setup, Output& output);

// The whole tool: parse argv, then run. `algorithm` fixes it (GNU names); nullptr is `shasta sum`.
int sum_main(int argc, char** argv, std::string program, const Algorithm* algorithm);

}  // namespace shasta::cli
