// main.cpp: the `shasta` program: dispatches to a subcommand.
#include <cstdio>
#include <string_view>
#include <vector>

#include "commands.hpp"

namespace {

void usage(std::FILE* to) {
  std::fputs(
      "usage: shasta sum [-a ALGO] [FILE]...   print 'HEX  NAME' per file, as sha256sum does\n"
      "                                        (ALGO: 224, 256, 384, 512, 512224, 512256; default 256)\n"
      "       shasta info                      CPU features found and the kernel each algorithm runs on\n",
      to);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    usage(stderr);
    return 2;
  }
  const std::string_view command = args.front();
  const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
  if (command == "sum") return shasta::cli::sum_command(rest);
  if (command == "info") return shasta::cli::info_command(rest);
  if (command == "-h" || command == "--help" || command == "help") {
    usage(stdout);
    return 0;
  }
  std::fprintf(stderr, "shasta: unknown command '%.*s'\n", static_cast<int>(command.size()), command.data());
  usage(stderr);
  return 2;
}
