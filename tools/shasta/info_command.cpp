// info_command.cpp: `shasta info`: the CPU features shasta found, the kernel each family runs on and
// why, and every kernel of this build with what it needs.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "shasta/kernels.hpp"
#include "shasta/version.h"

namespace shasta::cli {

namespace {

struct FamilyInfo {
  Family family;
  const char* algorithms;  // what the family's kernels run
};

constexpr FamilyInfo kFamilies[] = {
    {Family::sha224_256, "sha224, sha256"},
    {Family::sha384_512, "sha384, sha512, sha512/224, sha512/256"},
};

void usage(std::FILE* to) {
  std::fputs(
      "Usage: shasta info\n"
      "Prints the CPU features shasta detected, the kernel each algorithm family runs on and why,\n"
      "and every kernel of this build with the CPU features it needs.\n"
      "The environment picks a kernel: SHASTA_KERNEL=NAME (a name listed below) for both families,\n"
      "SHASTA_KERNEL_SHA256=... or SHASTA_KERNEL_SHA512=... for one (wins over SHASTA_KERNEL).\n",
      to);
}

// Everything printed is the library's: its decision with the reason, and its table's rows.
void print_family(const FamilyInfo& info) {
  const KernelChoice choice = kernel_choice(info.family);  // resolves the environment's choice
  std::printf("\n%s\n  run on %.*s: %s\n", info.algorithms, static_cast<int>(choice.kernel.size()),
              choice.kernel.data(), choice.reason.c_str());
  if (choice.lanes != 0) {
    std::printf("  many messages: %zu lanes of %.*s", choice.lanes, static_cast<int>(choice.lane_kernel.size()),
                choice.lane_kernel.data());
    if (choice.wide_lanes != 0) std::printf(", %zu for messages of one length", choice.wide_lanes);
    if (choice.lane_reason.empty()) {
      std::printf("\n");
    } else {
      std::printf(" (%.*s)\n", static_cast<int>(choice.lane_reason.size()), choice.lane_reason.data());
    }
  } else {
    std::printf("  many messages: one at a time (no lane kernel)\n");
  }
  for (const KernelInfo& k : kernels(info.family)) {
    const std::string lanes = k.lanes != 0 ? std::to_string(k.lanes) + " lanes" : "no lanes";
    std::printf("  %-9.*s needs %-40s %-9s -- %s%s\n", static_cast<int>(k.name.size()), k.name.data(), k.needs.c_str(),
                lanes.c_str(), k.supported ? "yes" : "no", k.active ? ", active" : "");
  }
}

}  // namespace

int info_command(int argc, char** argv) {
  if (argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    usage(stdout);
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "shasta info: unexpected argument '%s'\n", argv[1]);
    usage(stderr);
    return 1;
  }
  // The version first: `shasta info` is what a bug report pastes.
  std::printf("shasta %s\ncpu features: %s\n", SHASTA_VERSION_STRING, cpu_features().c_str());
  for (const FamilyInfo& info : kFamilies) print_family(info);
  return 0;
}

}  // namespace shasta::cli
