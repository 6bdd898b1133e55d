// test_main.cpp: gtest's main, run once per kernel (SHASTA_KERNEL=<name>, set by ctest; or one
// family's, SHASTA_KERNEL_SHA256/SHA512). A kernel this host lacks exits 77, which ctest reports as
// skipped, never as passed on the kernel the library falls back to. So does a run whose every
// selected test was skipped (GTEST_SKIP exits 0): tests that may skip run as ctest entries of their
// own (tests/CMakeLists.txt, CONDITIONAL), so that their skip is the entry's. Under ctest
// (SHASTA_STRICT_SKIPS=1, which every entry sets) a run in which some tests passed and others
// skipped fails: the skipped ones belong in CONDITIONAL, or ctest would count them as passed. (Run
// by hand or by scripts/mutants, which runs whole binaries, such a run only prints a note.) A run
// that selected no test at all fails: a filter naming a test that is gone must not pass.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "kernel_request.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (const char* variable : {"SHASTA_KERNEL", "SHASTA_KERNEL_SHA256", "SHASTA_KERNEL_SHA512"}) {
    const char* name = std::getenv(variable);
    switch (shasta::test::kernel_request(name)) {
      case shasta::test::KernelRequest::unknown: {
        // SHASTA_TEST_UNKNOWN_KERNEL=1: the name is meant to be unknown (the refusal is under test).
        const char* meant = std::getenv("SHASTA_TEST_UNKNOWN_KERNEL");
        if (meant != nullptr && std::string_view(meant) == "1") break;
        std::fprintf(stderr, "%s=%s: no such kernel in this build\n", variable, name);
        return 1;
      }
      case shasta::test::KernelRequest::lacking:
        std::printf("SKIPPED: %s=%s: this CPU lacks the kernel's instructions\n", variable, name);
        return 77;
      case shasta::test::KernelRequest::none:
      case shasta::test::KernelRequest::runnable:
        break;
    }
  }
  const int status = RUN_ALL_TESTS();
  if (status != 0) return status;
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (unit.test_to_run_count() == 0) {
    std::fprintf(stderr, "no test selected (--gtest_filter matches nothing?)\n");
    return 1;
  }
  if (unit.skipped_test_count() == unit.test_to_run_count()) {
    std::printf("SKIPPED: every selected test was skipped\n");
    return 77;
  }
  if (unit.skipped_test_count() != 0) {
    const char* strict = std::getenv("SHASTA_STRICT_SKIPS");
    const bool fail = strict != nullptr && std::string_view(strict) == "1";
    std::fprintf(fail ? stderr : stdout,
                 "%s: %d of %d tests skipped in a run that passed, which ctest would count as passed: list them as "
                 "CONDITIONAL (tests/CMakeLists.txt)\n",
                 fail ? "error" : "note", unit.skipped_test_count(), unit.test_to_run_count());
    if (fail) return 1;
  }
  return 0;
}
