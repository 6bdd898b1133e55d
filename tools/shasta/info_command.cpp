// info_command.cpp: `shasta info`: the CPU features shasta found and the kernel each algorithm runs on.
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "shasta/kernels.hpp"

namespace shasta::cli {

namespace {
void print_family(const char* label, Family family) {
  std::printf("%-40s %.*s   (available:", label, static_cast<int>(active_kernel(family).size()),
              active_kernel(family).data());
  for (const KernelInfo& k : kernels(family)) {
    std::printf(" %.*s%s", static_cast<int>(k.name.size()), k.name.data(), k.supported ? "" : "[no cpu]");
  }
  std::printf(")\n");
}
}  // namespace

int info_command(int argc, char** /*argv*/) {
  if (argc > 1) {
    std::fprintf(stderr, "shasta info: takes no arguments\n");
    return 2;
  }
  std::printf("cpu features: %s\n", cpu_features().c_str());
  print_family("sha224, sha256:", Family::sha224_256);
  print_family("sha384, sha512, sha512/224, sha512/256:", Family::sha384_512);
  return 0;
}

}  // namespace shasta::cli
