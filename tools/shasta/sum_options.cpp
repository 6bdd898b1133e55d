// sum_options.cpp: see sum_options.hpp. Extensions keep every GNU long-option prefix unambiguous:
// none starts with b, c, h, i, q, s, t, v, w or z, the first letters of GNU's own long options, so
// an abbreviation that works with GNU's sha256sum (--b, --c, --q) means the same here.
#include "sum_options.hpp"

#include <getopt.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string_view>
#include <vector>

#include "secret.hpp"
#include "secret_getopt.hpp"
#include "shasta/version.h"

namespace shasta::cli {
namespace {

enum LongOnly : int {
  kIgnoreMissing = 256,
  kQuiet,
  kStatus,
  kStrict,
  kTag,
  kHelp,
  kVersion,
  kProgress,
  kNoProgress,
  kKeyHex,
  kKeyFile,
  kKeyEnv,
  kEmptyKey,
};

// The GNU options and shasta's extensions; `shasta sum` adds -a/--algorithm.
// GNU's options in GNU's order (getopt lists ambiguous matches in table order), then shasta's.
constexpr option kCommonOptions[] = {
    {"check", no_argument, nullptr, 'c'},
    {"ignore-missing", no_argument, nullptr, kIgnoreMissing},
    {"quiet", no_argument, nullptr, kQuiet},
    {"status", no_argument, nullptr, kStatus},
    {"warn", no_argument, nullptr, 'w'},
    {"strict", no_argument, nullptr, kStrict},
    {"tag", no_argument, nullptr, kTag},
    {"zero", no_argument, nullptr, 'z'},
    {"binary", no_argument, nullptr, 'b'},
    {"text", no_argument, nullptr, 't'},
    {"help", no_argument, nullptr, kHelp},
    {"version", no_argument, nullptr, kVersion},
    {"jobs", required_argument, nullptr, 'j'},
    {"progress", no_argument, nullptr, kProgress},
    {"no-progress", no_argument, nullptr, kNoProgress},
};
constexpr std::size_t kGnuOptionCount = 12;
constexpr option kAlgorithmOption = {"algorithm", required_argument, nullptr, 'a'};
constexpr option kKeyOptions[] = {
    {"key-hex", required_argument, nullptr, kKeyHex},
    {"key-file", required_argument, nullptr, kKeyFile},
    {"key-env", required_argument, nullptr, kKeyEnv},
    {"empty-key", no_argument, nullptr, kEmptyKey},
};

std::string help_text(const SumInvocation& invocation, const SumOptions& options) {
  const std::string& prog = invocation.program;
  const bool shasta_mode = invocation.algorithm == nullptr;
  const std::string_view tag = options.algorithm != nullptr ? options.algorithm->tag : "SHA-2";
  std::string text = "Usage: " + prog + " [OPTION]... [FILE]...\n";
  if (invocation.hmac) {
    text += "Print or check HMAC tags (RFC 2104) of FILEs, keyed with one of:\n"
            "      --key-file=FILE   the key is the bytes of FILE ('-': standard input;\n"
            "                          at most 1 MiB)\n"
            "      --key-env=VAR     the key is the value of environment variable VAR\n"
            "      --key-hex=HEX     the key in hex (visible to other users in 'ps': prefer\n"
            "                          --key-file)\n"
            "An empty option value is an error. An empty key (an empty FILE or VAR) is\n"
            "refused unless --empty-key says it is meant (RFC 2104 allows one; anyone can\n"
            "forge its tags). The key options are written in full (no abbreviations), and\n"
            "no message shows an option's value.\n"
            "Lines are in the sum format ('HEX  NAME'; --tag: 'HMAC-SHA256 (NAME) = HEX').\n";
  } else if (shasta_mode) {
    text += "Print or check SHA-2 checksums (SHA-256 unless -a says otherwise).\n";
  } else {
    text += "Print or check " + std::string(tag) + " (" + std::to_string(options.algorithm->digest_size * 8) +
            "-bit) checksums.\n";
  }
  text +=
      "\n"
      "With no FILE, or when FILE is -, read standard input.\n";
  if (shasta_mode) {
    text +=
        "  -a, --algorithm=ALGO  224, 256, 384, 512, 512224 or 512256 (also sha256,\n"
        "                          sha512-256, ...); default 256\n";
  }
  text +=
      "  -b, --binary          read in binary mode\n"
      "  -c, --check           read checksums from the FILEs and check them\n"
      "      --tag             create a BSD-style checksum\n"
      "  -t, --text            read in text mode (default)\n"
      "  -z, --zero            end each output line with NUL, not newline,\n"
      "                          and disable file name escaping\n"
      "\n"
      "The following five options are useful only when verifying checksums:\n"
      "      --ignore-missing  don't fail or report status for missing files\n"
      "      --quiet           don't print OK for each successfully verified file\n"
      "      --status          don't output anything, status code shows success\n"
      "      --strict          exit non-zero for improperly formatted checksum lines\n"
      "  -w, --warn            warn about improperly formatted checksum lines\n"
      "\n"
      "shasta extensions:\n"
      "  -j, --jobs=N          hash N files at a time (default: one per CPU); the\n"
      "                          output is the same as with -j1\n"
      "      --progress        show progress on stderr even when it is not a terminal\n"
      "      --no-progress     never show progress (default: only on a terminal,\n"
      "                          for long work)\n"
      "\n"
      "      --help        display this help and exit\n"
      "      --version     output version information and exit\n"
      "\n"
      "The sums are computed as described in FIPS 180-4.\n"
      "When checking, the input should be a former output of this program.\n"
      "The default mode is to print a line with: checksum, a space,\n"
      "a character indicating input mode ('*' for binary, ' ' for text\n"
      "or where binary is insignificant), and name for each FILE.\n"
      "\n"
      "Note: There is no difference between binary mode and text mode on POSIX systems.\n";
  return text;
}

std::string version_text(const SumInvocation& invocation) {
  // GNU's "PROGRAM (PACKAGE) VERSION" first line; the program is the name it was run as.
  std::string_view prog = invocation.program;
  if (const std::size_t slash = prog.rfind('/'); slash != std::string_view::npos) prog.remove_prefix(slash + 1);
  return std::string(prog) + " (shasta) " SHASTA_VERSION_STRING "\n" +
         "SHA-2 (FIPS 180-4) on the fastest kernel this CPU has.\n";
}

bool parse_jobs(const char* text, unsigned& jobs) {
  char* end = nullptr;
  errno = 0;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 1024) return false;
  jobs = static_cast<unsigned>(value);
  return true;
}

// True when getopt stops at an element "--=..." as an ambiguous option. Only getopt knows which
// elements are options ("--=x" may be the value of the option before it: `--key-file --=x`), so it
// is asked, on a copy of argv (it permutes the elements) and with its messages off.
bool stops_at_empty_long_name(int argc, char** argv, const char* short_options, const option* long_options) {
  std::vector<char*> elements(argv, argv + argc);
  elements.push_back(nullptr);
  const int saved_opterr = opterr;
  opterr = 0;
  optind = 0;  // a full re-initialisation of getopt
  bool stops = false;
  for (int opt; (opt = getopt_long(argc, elements.data(), short_options, long_options, nullptr)) != -1;) {
    if (opt == '?') {
      stops = optopt == 0 && std::string_view(elements[static_cast<std::size_t>(optind - 1)]).starts_with("--=");
      break;  // the real run ends at its first bad option too
    }
  }
  opterr = saved_opterr;
  return stops;
}

}  // namespace

std::optional<int> parse_sum_options(int argc, char** argv, const SumInvocation& invocation, Output& output,
                                     SumOptions& options) {
  const bool shasta_mode = invocation.algorithm == nullptr;
  options.algorithm = shasta_mode ? find_algorithm("256") : invocation.algorithm;
  std::string program = invocation.program;
  argv[0] = program.data();  // getopt names the program from argv[0]
  std::vector<option> long_options(std::begin(kCommonOptions), std::end(kCommonOptions));
  if (shasta_mode) long_options.push_back(kAlgorithmOption);
  if (invocation.hmac) long_options.insert(long_options.end(), std::begin(kKeyOptions), std::end(kKeyOptions));
  const char* short_options = shasta_mode ? "a:bctwzj:" : "bctwzj:";
  // "--=x" is an empty prefix of every long option, and getopt's "ambiguous" message lists them
  // all: with the extensions left out it lists exactly GNU's (the run ends there either way).
  // `shasta hmac` has no GNU counterpart, and its key options must stay known.
  long_options.push_back(option{nullptr, 0, nullptr, 0});
  if (!invocation.hmac && stops_at_empty_long_name(argc, argv, short_options, long_options.data())) {
    long_options.resize(kGnuOptionCount);
    long_options.push_back(option{nullptr, 0, nullptr, 0});
  }
  optind = 0;  // a full re-initialisation of getopt
  // `shasta hmac`'s values may be keys: its messages never show them (secret_getopt.hpp).
  const auto next_option = [&] {
    return invocation.hmac ? getopt_keeping_values_secret(argc, argv, short_options, long_options.data(), output)
                           : getopt_long(argc, argv, short_options, long_options.data(), nullptr);
  };
  for (int opt; (opt = next_option()) != -1;) {
    switch (opt) {
      case 'b': options.binary = 1; break;
      case 'c': options.check = true; break;
      case 't': options.binary = 0; break;
      case 'z': options.terminator = '\0'; break;
      case kTag:
        options.tag = true;
        options.binary = 1;
        break;
      // --status, --warn and --quiet: the last one given wins.
      case kStatus:
        options.status = true;
        options.warn = options.quiet = false;
        break;
      case 'w':
        options.warn = true;
        options.status = options.quiet = false;
        break;
      case kQuiet:
        options.quiet = true;
        options.status = options.warn = false;
        break;
      case kIgnoreMissing: options.ignore_missing = true; break;
      case kStrict: options.strict = true; break;
      case kProgress: options.progress = ProgressMode::always; break;
      case kNoProgress: options.progress = ProgressMode::never; break;
      case 'j':
        if (!parse_jobs(optarg, options.jobs)) {
          // hmac's messages show no value (a key given where it belongs would be shown): the option.
          if (invocation.hmac) return output.usage_error("-j: not a number of jobs from 1 to 1024");
          return output.usage_error("invalid number of jobs: '" + std::string(optarg) + "' (1 to 1024)");
        }
        break;
      case 'a':
        options.algorithm = find_algorithm(optarg);
        if (options.algorithm == nullptr) {
          if (invocation.hmac) return output.usage_error(kNotAnAlgorithm);
          return output.usage_error("unknown algorithm '" + std::string(optarg) +
                                    "' (224, 256, 384, 512, 512224, 512256)");
        }
        break;
      case kKeyHex:
      case kKeyFile:
      case kKeyEnv: {
        // An empty value is refused here: "--key-file $UNSET" must not fall through to another source or
        // to an empty key, which would sign with a key anyone knows.
        const char* name = opt == kKeyHex ? "--key-hex" : opt == kKeyFile ? "--key-file" : "--key-env";
        if (*optarg == '\0') return output.usage_error(std::string(name) + ": the value is empty");
        options.key_source = opt == kKeyHex    ? SumOptions::KeySource::hex
                             : opt == kKeyFile ? SumOptions::KeySource::file
                                               : SumOptions::KeySource::env;
        options.key_value = optarg;
        if (opt == kKeyHex) conceal_argument(optarg);
        ++options.key_sources;
        break;
      }
      case kEmptyKey: options.empty_key_ok = true; break;
      case kHelp:
        output.out(help_text(invocation, options));
        return output.report_write_error() ? 1 : 0;
      case kVersion:
        output.out(version_text(invocation));
        return output.report_write_error() ? 1 : 0;
      default:  // getopt (or getopt_keeping_values_secret) has printed why
        return invocation.hmac ? 1 : output.usage_error_try_only();
    }
  }

  // GNU's checks, in GNU's order.
  if (options.tag && options.binary == 0) return output.usage_error("--tag does not support --text mode");
  if (options.terminator != '\n' && options.check) {
    return output.usage_error("the --zero option is not supported when verifying checksums");
  }
  if (options.tag && options.check) return output.usage_error("the --tag option is meaningless when verifying checksums");
  if (options.binary >= 0 && options.check) {
    return output.usage_error("the --binary and --text options are meaningless when verifying checksums");
  }
  const char* check_only = nullptr;
  if (options.ignore_missing && !options.check)
    check_only = "--ignore-missing";
  else if (options.status && !options.check)
    check_only = "--status";
  else if (options.warn && !options.check)
    check_only = "--warn";
  else if (options.quiet && !options.check)
    check_only = "--quiet";
  else if (options.strict && !options.check)
    check_only = "--strict";
  if (check_only != nullptr) {
    return output.usage_error(std::string("the ") + check_only + " option is meaningful only when verifying checksums");
  }

  for (int i = optind; i < argc; ++i) options.operands.emplace_back(argv[i]);
  if (options.operands.empty()) options.operands.emplace_back("-");
  return std::nullopt;
}

}  // namespace shasta::cli
