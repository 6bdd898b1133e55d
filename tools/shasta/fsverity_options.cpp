// fsverity_options.cpp: see fsverity_options.hpp.
#include "fsverity_options.hpp"

#include <getopt.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "shasta/hex.hpp"

namespace shasta::cli {
namespace {

constexpr std::string_view kUsage =
    "Usage:\n"
    "    shasta fsverity digest FILE...\n"
    "               [--hash-alg=HASH_ALG] [--block-size=BLOCK_SIZE] [--salt=SALT]\n"
    "               [--compact] [--for-builtin-sig]\n"
    "\n"
    "Prints the fs-verity digest of each FILE as 'fsverity digest' (fsverity-utils) does.\n"
    "HASH_ALG is sha256 (default) or sha512 (or 1, 2); BLOCK_SIZE a power of two (default 4096);\n"
    "SALT at most 32 bytes in hex.\n";

enum : int { kHashAlg = 256, kBlockSize, kSalt, kOutMerkleTree, kOutDescriptor, kCompact, kForBuiltinSig };

// No "help" or "version": fsverity's digest table has neither (they are found before getopt runs,
// below), and one more name would change which abbreviations are ambiguous ("--h" is --hash-alg).

constexpr option kOptions[] = {
    {"hash-alg", required_argument, nullptr, kHashAlg},
    {"block-size", required_argument, nullptr, kBlockSize},
    {"salt", required_argument, nullptr, kSalt},
    {"out-merkle-tree", required_argument, nullptr, kOutMerkleTree},
    {"out-descriptor", required_argument, nullptr, kOutDescriptor},
    {"compact", no_argument, nullptr, kCompact},
    {"for-builtin-sig", no_argument, nullptr, kForBuiltinSig},
    {nullptr, 0, nullptr, 0},
};

int usage_error() {
  std::fwrite(kUsage.data(), 1, kUsage.size(), stderr);
  return 2;
}

// fsverity's own number for the algorithm (1 sha256, 2 sha512), or its name; 0 when neither.
unsigned long parse_hash_number(const char* text) {
  char* end = nullptr;
  const unsigned long n = std::strtoul(text, &end, 10);
  if (n > 0 && n < INT32_MAX && *end == '\0') return n;
  if (std::strcmp(text, "sha256") == 0) return 1;
  if (std::strcmp(text, "sha512") == 0) return 2;
  return 0;
}

// libfsverity's checks, in its order, with its messages (lines joined by "\nERROR: "); nullopt
// when the parameters pass.
std::optional<std::string> check_parameters(unsigned long hash_number, const FsverityDigestOptions& options) {
  const auto refuse = [](const std::string& why) { return why + "\nERROR: failed to compute digest"; };
  if (options.salt.size() > kFsverityMaxSaltSize) {
    return refuse("unsupported salt size (" + std::to_string(options.salt.size()) + ")");
  }
  if (hash_number != 1 && hash_number != 2) return refuse("unknown hash algorithm: " + std::to_string(hash_number));
  if (options.block_size < 2 * fsverity_digest_size(options.hash)) {
    return refuse("block size (" + std::to_string(options.block_size) + ") too small for hash algorithm " +
                  (options.hash == FsverityHash::sha256 ? "sha256" : "sha512"));
  }
  if (const Error e = fsverity_check(options.params()); e != Error::ok) {  // not reached: the checks above are its
    return std::string("invalid parameters: ") + std::string(error_message(e));
  }
  return std::nullopt;
}

}  // namespace

std::string_view fsverity_usage() { return kUsage; }

std::string fsverity_quoted(const char* text) {
  std::string out(1, '\'');  // appended: GCC 12's -Wrestrict misfires on "'" + std::string(text) + "'"
  out += text;
  out += '\'';
  return out;
}

void print_fsverity_error(std::string_view message) {
  std::fprintf(stderr, "ERROR: %.*s\n", static_cast<int>(message.size()), message.data());
}

std::optional<int> parse_fsverity_digest_options(int argc, char** argv, FsverityDigestOptions& options) {
  unsigned long hash_number = 0;
  unsigned long block_size = 0;
  bool salt_given = false;
  // fsverity-utils finds --help and --version among all the arguments before "--" first
  // (handle_common_options): they win over any bad option or value, and over the files.
  for (int i = 1; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    options.help = std::strcmp(argv[i], "--help") == 0;
    options.version = std::strcmp(argv[i], "--version") == 0;
    if (options.help || options.version) return std::nullopt;
  }
  optind = 0;
  for (int opt; (opt = getopt_long(argc, argv, "", kOptions, nullptr)) != -1;) {
    switch (opt) {
      case kHashAlg:
        if (hash_number != 0) {
          print_fsverity_error("--hash-alg can only be specified once");
          return usage_error();
        }
        hash_number = parse_hash_number(optarg);
        if (hash_number == 0) {
          print_fsverity_error("unknown hash algorithm: " + fsverity_quoted(optarg));
          std::fputs("Available hash algorithms: sha256 sha512\n", stderr);
          return usage_error();
        }
        break;
      case kBlockSize: {
        if (block_size != 0) {
          print_fsverity_error("--block-size can only be specified once");
          return usage_error();
        }
        char* end = nullptr;
        const unsigned long n = std::strtoul(optarg, &end, 10);
        if (n == 0 || n >= INT_MAX || (n & (n - 1)) != 0 || *end != '\0') {
          print_fsverity_error("Invalid block size: " + std::string(optarg) + ".  Must be power of 2");
          return usage_error();
        }
        block_size = n;
        break;
      }
      case kSalt: {
        if (salt_given) {
          print_fsverity_error("--salt can only be specified once");
          return usage_error();
        }
        salt_given = true;
        // fsverity's hex2bin: strlen / 2 bytes, so an odd length (or a non-hex digit) is refused.
        std::optional<std::vector<std::uint8_t>> salt = from_hex(optarg);
        if (!salt) {
          print_fsverity_error("salt is not a valid hex string");
          return usage_error();
        }
        options.salt = std::move(*salt);
        break;
      }
      case kOutMerkleTree:
      case kOutDescriptor:
        print_fsverity_error("shasta fsverity digest does not write --out-merkle-tree or --out-descriptor");
        return usage_error();
      case kCompact: options.compact = true; break;
      case kForBuiltinSig: options.for_builtin_sig = true; break;
      default: return usage_error();
    }
  }
  if (optind >= argc) return usage_error();
  options.first_file = optind;

  if (hash_number == 0) hash_number = 1;
  if (block_size != 0) options.block_size = block_size;
  options.hash = hash_number == 2 ? FsverityHash::sha512 : FsverityHash::sha256;
  options.parameter_error = check_parameters(hash_number, options);
  return std::nullopt;
}

}  // namespace shasta::cli
