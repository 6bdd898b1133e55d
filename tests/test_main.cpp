// test_main.cpp: gtest's main, run once per kernel (SHASTA_KERNEL=<name>, set by ctest). A kernel
// this host lacks exits 77, which ctest reports as skipped, never as passed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "shasta/kernels.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const char* name = std::getenv("SHASTA_KERNEL");
  if (name != nullptr && *name != '\0') {
    bool known = false, supported = false;
    for (shasta::Family family : {shasta::Family::sha224_256, shasta::Family::sha384_512}) {
      for (const shasta::KernelInfo& k : shasta::kernels(family)) {
        if (k.name != name) continue;
        known = true;
        supported = supported || k.supported;
      }
    }
    if (!known) {
      std::fprintf(stderr, "SHASTA_KERNEL=%s: no such kernel in this build\n", name);
      return 1;
    }
    if (!supported) {
      std::printf("SKIPPED: this CPU lacks the %s kernel's instructions\n", name);
      return 77;
    }
  }
  return RUN_ALL_TESTS();
}
