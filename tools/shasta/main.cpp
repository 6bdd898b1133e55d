// main.cpp: the `shasta` program. Run as sha224sum, sha256sum, sha384sum or sha512sum (a link to
// this binary) it is that GNU tool; run as shasta it dispatches to a subcommand.
#include <clocale>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "commands.hpp"
#include "digester.hpp"
#include "output.hpp"
#include "shasta/version.h"
#include "sum_tool.hpp"

namespace {

void usage(std::FILE* to) {
  std::fputs(
      "Usage: shasta COMMAND [ARGS]...\n"
      "\n"
      "  sum [-a ALGO] [OPTION]... [FILE]...  print or check SHA-2 checksums: sha256sum's options\n"
      "                                       and output, for ALGO 224, 256, 384, 512, 512224 or\n"
      "                                       512256 (default 256); see 'shasta sum --help'\n"
      "  hmac [-a ALGO] (--key-file F | --key-env VAR | --key-hex HEX) [OPTION]... [FILE]...\n"
      "                                       HMAC tags in the sum format; -c checks them\n"
      "  hkdf [-a ALGO] ...                   HKDF (RFC 5869) extract and expand, TLS 1.3 Expand-Label\n"
      "  pbkdf2 [-a ALGO] ...                 PBKDF2-HMAC (RFC 8018); the password from a file or stdin\n"
      "  fsverity digest [OPTION]... FILE...  fs-verity file digests, as fsverity-utils' 'fsverity digest'\n"
      "  info                                 CPU features, and the kernel each algorithm runs on and why\n"
      "  bench [--seconds S] [-a ALGO]...     throughput of every kernel this CPU has\n"
      "  --version                            the version of shasta\n"
      "\n"
      "Linked as sha224sum, sha256sum, sha384sum or sha512sum, shasta is that GNU coreutils tool\n"
      "(same options, output, messages and exit status), plus -j/--jobs and --progress.\n",
      to);
}

std::string_view base_name(const char* path) {
  std::string_view name(path);
  if (const std::size_t slash = name.rfind('/'); slash != std::string_view::npos) name.remove_prefix(slash + 1);
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  shasta::cli::occupy_closed_standard_descriptors();
  std::setlocale(LC_ALL, "");  // diagnostics quote names as the locale prints them, as GNU does
  if (argc < 1) return 1;
  if (const shasta::cli::Algorithm* algorithm = shasta::cli::algorithm_for_gnu_tool(base_name(argv[0]))) {
    return shasta::cli::sum_main(argc, argv, argv[0], algorithm);
  }
  if (argc < 2) {
    usage(stderr);
    return 1;
  }
  const std::string_view command = argv[1];
  if (command == "sum") return shasta::cli::sum_main(argc - 1, argv + 1, "shasta sum", nullptr);
  // info and bench print with stdio: a failed write is reported here, after they return.
  if (command == "info") {
    return shasta::cli::close_stdio_stdout("shasta info", shasta::cli::info_command(argc - 1, argv + 1));
  }
  if (command == "bench") {
    return shasta::cli::close_stdio_stdout("shasta bench", shasta::cli::bench_command(argc - 1, argv + 1));
  }
  if (command == "hmac") return shasta::cli::hmac_command(argc - 1, argv + 1);
  if (command == "hkdf") return shasta::cli::hkdf_command(argc - 1, argv + 1);
  if (command == "pbkdf2") return shasta::cli::pbkdf2_command(argc - 1, argv + 1);
  if (command == "fsverity") return shasta::cli::fsverity_command(argc - 1, argv + 1);
  if (command == "-h" || command == "--help" || command == "help") {
    usage(stdout);
    return shasta::cli::close_stdio_stdout("shasta", 0);
  }
  if (command == "--version" || command == "version") {
    std::fputs("shasta " SHASTA_VERSION_STRING "\nSHA-2 (FIPS 180-4) on the fastest kernel this CPU has.\n", stdout);
    return shasta::cli::close_stdio_stdout("shasta", 0);
  }
  std::fprintf(stderr, "shasta: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 1;
}
