// fsverity_command.cpp: `shasta fsverity digest [--hash-alg=ALG] [--block-size=N] [--salt=HEX]
// [--compact] [--for-builtin-sig] FILE...`: the fs-verity digest of each file, printed as
// fsverity-utils' `fsverity digest` prints it ("sha256:HEX NAME"), with its options, messages and
// exit statuses (2 for a usage error, 1 for a failed file, after which it stops, as fsverity does).
// The differences: --out-merkle-tree / --out-descriptor are refused, --version names shasta, and a
// failed write to standard output is an error (exit status 1; fsverity-utils says nothing).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "aligned_buffer.hpp"
#include "commands.hpp"
#include "fsverity_file.hpp"
#include "fsverity_options.hpp"
#include "output.hpp"
#include "shasta/hex.hpp"
#include "shasta/version.h"

namespace shasta::cli {
namespace {

// --version: shasta's own, and which fsverity-utils' output the digest command reproduces.
constexpr std::string_view kVersionLine = "shasta fsverity " SHASTA_VERSION_STRING " (fsverity-utils v1.5's digest)\n";

// One output line: "sha256:HEX NAME", or with --compact the hex alone; --for-builtin-sig spells
// struct fsverity_formatted_digest ("FSVerity", le16 algorithm, le16 size, the digest) in hex.
std::string digest_line(const FsverityDigestOptions& options, std::span<const std::uint8_t> digest,
                        std::string_view name) {
  std::string line;
  if (options.for_builtin_sig) {
    const std::uint8_t header[12] = {'F', 'S', 'V', 'e', 'r', 'i', 't', 'y', static_cast<std::uint8_t>(options.hash),
                                     0, static_cast<std::uint8_t>(digest.size()), 0};
    line += to_hex(header);
  } else if (!options.compact) {
    line += options.hash == FsverityHash::sha256 ? "sha256:" : "sha512:";
  }
  line += to_hex(digest);
  if (!options.compact) {
    line += ' ';
    line += name;
  }
  line += '\n';
  return line;
}

// fsverity's message for a failed write to stdout; the exit status.
int write_status(const Output& output, int status) {
  if (const int err = output.stdout_error(); err != 0) {
    print_fsverity_error(std::string("writing to standard output: ") + std::strerror(err));
    return 1;
  }
  return status;
}

int digest_command(int argc, char** argv) {
  Output output("shasta fsverity");
  FsverityDigestOptions options;
  if (std::optional<int> status = parse_fsverity_digest_options(argc, argv, options)) return *status;
  if (options.help || options.version) {
    output.out(options.help ? fsverity_usage() : kVersionLine);
    return write_status(output, 0);
  }

  FsverityBuilder builder(options.params());
  const AlignedBuffer buffer = allocate_aligned(kFsverityReadSize);
  if (buffer == nullptr) {
    print_fsverity_error(std::strerror(ENOMEM));
    return 1;
  }
  int status = 0;
  std::uint8_t digest[kFsverityMaxDigestSize];
  const std::span<std::uint8_t> digest_bytes(digest, builder.digest_size());
  for (int i = options.first_file; i < argc; ++i) {
    const std::string failure =
        fsverity_digest_file(argv[i], builder, buffer.get(), digest_bytes, options.parameter_error);
    if (!failure.empty()) {  // fsverity-utils stops at the first file it cannot digest
      print_fsverity_error(failure);
      status = 1;
      break;
    }
    output.out(digest_line(options, digest_bytes, argv[i]));
  }
  return write_status(output, status);
}

}  // namespace

int fsverity_command(int argc, char** argv) {
  const std::string_view command = argc >= 2 ? argv[1] : "";
  if (command == "digest") return digest_command(argc - 1, argv + 1);
  if (command == "--help" || command == "-h" || command == "--version") {
    Output output("shasta fsverity");
    output.out(command == "--version" ? kVersionLine : fsverity_usage());
    return write_status(output, 0);
  }
  if (argc >= 2) std::fprintf(stderr, "shasta fsverity: unknown command '%s'\n", argv[1]);
  const std::string_view usage = fsverity_usage();
  std::fwrite(usage.data(), 1, usage.size(), stderr);
  return 2;
}

}  // namespace shasta::cli
