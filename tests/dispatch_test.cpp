// dispatch_test.cpp: the kernel chosen is the one asked for, or the best the CPU has; a kernel
// the CPU lacks is refused and never reached.
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "shasta/detail/lanes.hpp"
#include "shasta/kernels.hpp"
#include "support.hpp"

namespace shasta::test {
namespace {

// The CPU's flags as Linux names them: /proc/cpuinfo's, or under an emulator (whose CPU is not the
// host's) the runner's SHASTA_CPU_FLAGS (scripts/test-x86-cpus).
[[maybe_unused]] bool cpuinfo_has(const std::string& flag) {  // unused where no kernel needs a flag
  const auto has_word = [&flag](const std::string& list) {
    std::istringstream words(list);
    std::string w;
    while (words >> w) {
      if (w == flag) return true;
    }
    return false;
  };
  if (const char* emulated = std::getenv("SHASTA_CPU_FLAGS")) return has_word(emulated);
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0) return has_word(line.substr(line.find(':') + 1));
  }
  return false;
}

bool family_has(Family family, std::string_view name) {
  for (const KernelInfo& k : kernels(family)) {
    if (k.name == name) return true;
  }
  return false;
}

// On aarch64 one name can be supported in one family and not the other (armv8 without SHA512).
bool family_supports(Family family, std::string_view name) {
  for (const KernelInfo& k : kernels(family)) {
    if (k.name == name) return k.supported;
  }
  return false;
}

std::string_view best_supported(Family family) {
  for (const KernelInfo& k : kernels(family)) {
    if (k.supported) return k.name;
  }
  return {};
}

std::string requested(const char* family_variable) {
  for (const char* variable : {family_variable, "SHASTA_KERNEL"}) {
    const char* v = std::getenv(variable);
    if (v != nullptr && *v != '\0') return v;
  }
  return {};
}

// The setting that applies to a family, "VARIABLE=value", or empty when neither is set. The
// library records at most 31 bytes of the value (a fixed buffer, no allocation while deciding), so
// a longer one is cut there: the env_unknown_long run checks the cut.
constexpr std::size_t kRecordedNameBytes = 31;
std::string requested_setting(const char* family_variable) {
  for (const char* variable : {family_variable, "SHASTA_KERNEL"}) {
    const char* v = std::getenv(variable);
    if (v != nullptr && *v != '\0') return std::string(variable) + "=" + std::string(v).substr(0, kRecordedNameBytes);
  }
  return {};
}

// The first test to run, before any force: the environment's choice took effect.
TEST(Dispatch, EnvironmentChoiceIsActive) {
  const struct {
    Family family;
    const char* variable;
  } families[] = {{Family::sha224_256, "SHASTA_KERNEL_SHA256"}, {Family::sha384_512, "SHASTA_KERNEL_SHA512"}};
  for (const auto& f : families) {
    const std::string name = requested(f.variable);
    // The reason names the setting it followed or refused (shasta info prints it).
    const std::string setting = requested_setting(f.variable), reason = kernel_choice(f.family).reason;
    if (setting.empty()) {
      EXPECT_EQ(reason, "the best this CPU has");
    } else {
      EXPECT_NE(reason.find(setting), std::string::npos) << reason << " does not name " << setting;
    }
    const bool known = family_has(Family::sha224_256, name) || family_has(Family::sha384_512, name);
    if (!name.empty() && !known) {
      // the value as recorded, cut at kRecordedNameBytes and no further, then the refusal
      EXPECT_NE(reason.find(setting + " refused: no such kernel"), std::string::npos) << reason;
    } else if (!name.empty() && family_has(f.family, name) && !family_supports(f.family, name)) {
      EXPECT_NE(reason.find("refused: this CPU lacks it"), std::string::npos) << reason;
    } else if (!name.empty() && family_has(f.family, name)) {
      EXPECT_EQ(reason.find("refused"), std::string::npos) << reason;
    }
    if (name.empty() || !family_supports(f.family, name)) {
      EXPECT_EQ(active_kernel(f.family), best_supported(f.family));
      continue;
    }
    EXPECT_EQ(active_kernel(f.family), name);
  }
}

// Before any force: a SHASTA_KERNEL that names a kernel only the other family has (shani names no
// SHA-512 kernel) leaves this family on its best quietly, not as an unknown name.
TEST(Dispatch, KernelOfOnlyTheOtherFamilyIsNotUnknown) {
  const std::string name = requested("SHASTA_KERNEL");
  const char* family_variables[] = {"SHASTA_KERNEL_SHA256", "SHASTA_KERNEL_SHA512"};
  bool checked = false;
  for (int i = 0; i < 2; ++i) {
    const Family family = i == 0 ? Family::sha224_256 : Family::sha384_512;
    const Family other = i == 0 ? Family::sha384_512 : Family::sha224_256;
    const char* own = std::getenv(family_variables[i]);
    if (name.empty() || (own != nullptr && *own != '\0') || family_has(family, name) || !family_has(other, name)) {
      continue;
    }
    const std::string reason = kernel_choice(family).reason;
    EXPECT_NE(reason.find("has none for this family"), std::string::npos) << reason;
    EXPECT_EQ(reason.find("no such kernel"), std::string::npos) << reason;
    checked = true;
  }
  if (!checked) GTEST_SKIP() << "SHASTA_KERNEL names no kernel of just one family";
}

// Each row needs the CPU features its instructions take, from a list kept here apart from the
// table: a feature dropped from a row's set (which the fake-CPU tests, reading the table, would
// follow) is caught.
TEST(Dispatch, EachRowNeedsTheFeaturesOfItsInstructions) {
  struct Expected {
    Family family;
    std::string_view name, needs;
  };
  const Expected expected[] = {
      {Family::sha224_256, "shani", "ssse3, sse4.1, sha"},
      {Family::sha224_256, "avx512", "avx2, bmi2, avx512f, avx512bw, avx512vl"},
      {Family::sha224_256, "avx2", "avx2, bmi2"},
      {Family::sha224_256, "armv8", "sha2"},
      {Family::sha224_256, "portable", "nothing"},
      {Family::sha384_512, "avx512", "avx2, bmi2, avx512f, avx512bw, avx512vl"},
      {Family::sha384_512, "avx2", "avx2, bmi2"},
      {Family::sha384_512, "armv8", "sha512, sha3"},
      {Family::sha384_512, "portable", "nothing"},
  };
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    for (const KernelInfo& k : kernels(family)) {
      const Expected* want = nullptr;
      for (const Expected& e : expected) {
        if (e.family == family && e.name == k.name) want = &e;
      }
      if (want == nullptr) {
        ADD_FAILURE() << "row " << k.name << " has no expectation here: add what its instructions need";
        continue;
      }
      EXPECT_EQ(k.needs, want->needs) << k.name;
    }
  }
}

TEST(Dispatch, BestKernelMatchesTheCpu) {
  const KernelsRestored restored;
  use_best_kernel(Family::sha224_256);
  use_best_kernel(Family::sha384_512);
#if defined(__x86_64__)
  // Under valgrind, which hides SHA-NI and AVX-512 from CPUID, the run sets SHASTA_EXPECT_NO_SHANI=1.
  const bool avx2 = cpuinfo_has("avx2") && cpuinfo_has("bmi2");
  const bool avx512 = avx2 && cpuinfo_has("avx512f") && cpuinfo_has("avx512bw") && cpuinfo_has("avx512vl");
  const bool expect_no_shani = env_number("SHASTA_EXPECT_NO_SHANI", 0) != 0;
  if (expect_no_shani) {
    EXPECT_EQ(cpu_features().find("sha"), std::string::npos);
    EXPECT_EQ(active_kernel(Family::sha224_256), avx2 ? "avx2" : "portable");
  } else if (cpuinfo_has("sha_ni") && family_has(Family::sha224_256, "shani")) {
    EXPECT_EQ(active_kernel(Family::sha224_256), "shani");
  } else if (avx512 && family_has(Family::sha224_256, "avx512")) {
    EXPECT_EQ(active_kernel(Family::sha224_256), "avx512");
  } else if (avx2 && family_has(Family::sha224_256, "avx2")) {
    EXPECT_EQ(active_kernel(Family::sha224_256), "avx2");
  }
  if (avx512 && !expect_no_shani && family_has(Family::sha384_512, "avx512")) {
    EXPECT_EQ(active_kernel(Family::sha384_512), "avx512");
  } else if (avx2 && family_has(Family::sha384_512, "avx2")) {
    EXPECT_EQ(active_kernel(Family::sha384_512), "avx2");
  }
#elif defined(__aarch64__)
  if (cpuinfo_has("sha2") && family_has(Family::sha224_256, "armv8")) {
    EXPECT_EQ(active_kernel(Family::sha224_256), "armv8");
  }
  if (cpuinfo_has("sha512") && cpuinfo_has("sha3") && family_has(Family::sha384_512, "armv8")) {
    EXPECT_EQ(active_kernel(Family::sha384_512), "armv8");
  }
#else  // no kernel but portable on this architecture (s390x, say)
  EXPECT_EQ(active_kernel(Family::sha224_256), "portable");
  EXPECT_EQ(active_kernel(Family::sha384_512), "portable");
#endif
  // Whatever the CPU, the chosen kernel must be one it supports.
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    for (const KernelInfo& k : kernels(family)) {
      if (k.active) {
        EXPECT_TRUE(k.supported) << k.name;
      }
    }
  }
}

// Under qemu-user /proc/cpuinfo is the host's, so the runner that picks the emulated CPU says which
// kernel each family must choose by itself (scripts/test-aarch64: `-cpu max` armv8/armv8,
// `-cpu cortex-a53` armv8/portable).
TEST(Dispatch, BestKernelIsTheRunnersExpectation) {
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  const std::string want256 = env("SHASTA_EXPECT_SHA256_KERNEL"), want512 = env("SHASTA_EXPECT_SHA512_KERNEL");
  if (want256.empty() && want512.empty()) GTEST_SKIP() << "SHASTA_EXPECT_SHA256_KERNEL/_SHA512_KERNEL not set";
  const KernelsRestored restored;
  use_best_kernel(Family::sha224_256);
  use_best_kernel(Family::sha384_512);
  if (!want256.empty()) {
    EXPECT_EQ(active_kernel(Family::sha224_256), want256);
  }
  if (!want512.empty()) {
    EXPECT_EQ(active_kernel(Family::sha384_512), want512);
  }
}

TEST(Dispatch, ForceEachSupportedKernelAndRefuseTheRest) {
  const KernelsRestored restored;
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    const std::string before(active_kernel(family));
    EXPECT_EQ(force_kernel(family, "no-such-kernel"), Error::unknown_kernel);
    EXPECT_EQ(active_kernel(family), before);
    for (const KernelInfo& k : kernels(family)) {
      if (k.supported) {
        ASSERT_EQ(force_kernel(family, k.name), Error::ok) << k.name;
        EXPECT_EQ(active_kernel(family), k.name);
        const auto digest = family == Family::sha224_256 ? to_hex(sha256("abc")) : to_hex(sha512_256("abc"));
        EXPECT_EQ(digest, family == Family::sha224_256
                              ? "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
                              : "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
            << k.name;
      } else {
        const std::string now(active_kernel(family));
        EXPECT_EQ(force_kernel(family, k.name), Error::kernel_unsupported) << k.name;
        EXPECT_EQ(active_kernel(family), now) << "a refused kernel must leave the active one";
      }
    }
    EXPECT_TRUE(family_has(family, "portable"));
    EXPECT_EQ(kernels(family).back().name, "portable");
  }
}

// The lane kernel each family reports is the one that runs (its name and lane count).
TEST(Dispatch, ChoiceNamesTheLaneKernelThatRuns) {
  const auto l256 = detail::active_lanes_256();
  const auto l512 = detail::active_lanes_512();
  const KernelChoice c256 = kernel_choice(Family::sha224_256), c512 = kernel_choice(Family::sha384_512);
  EXPECT_EQ(c256.lanes, l256.fn != nullptr ? l256.lanes : 0);
  EXPECT_EQ(c512.lanes, l512.fn != nullptr ? l512.lanes : 0);
  if (l256.fn != nullptr) {
    EXPECT_EQ(c256.lane_kernel, l256.name);
  }
  if (l512.fn != nullptr) {
    EXPECT_EQ(c512.lane_kernel, l512.name);
  }
}

TEST(Dispatch, CpuFeaturesAreReported) {
  const std::string features = cpu_features();
  EXPECT_FALSE(features.empty());
  // one space between names, none at either end
  EXPECT_NE(features.front(), ' ') << features;
  EXPECT_NE(features.back(), ' ') << features;
  EXPECT_EQ(features.find("  "), std::string::npos) << features;
#if defined(__x86_64__)
  if (env_number("SHASTA_EXPECT_NO_SHANI", 0) == 0) {
    // Each name as a whole word, present exactly when Linux reports the flag (the OS's saving of
    // the vector state aside: every VM here saves what it reports).
    const std::string words = " " + features + " ";
    const std::pair<const char*, const char*> names[] = {
        {"ssse3", "ssse3"}, {"sse4.1", "sse4_1"}, {"sha", "sha_ni"}, {"avx2", "avx2"}, {"bmi2", "bmi2"},
        {"avx512f", "avx512f"}, {"avx512bw", "avx512bw"}, {"avx512vl", "avx512vl"}};
    for (const auto& [ours, linux_flag] : names) {
      EXPECT_EQ(words.find(std::string(" ") + ours + " ") != std::string::npos, cpuinfo_has(linux_flag))
          << ours << " in \"" << features << "\"";
    }
  }
#endif
}

// kernels() marks one row active, the one active_kernel() names; kernel_choice() explains lanes
// taken from another row (the vendor's ranking), and only those, whichever kernel runs.
TEST(Dispatch, ActiveRowAndLaneReasonAgree) {
  const KernelsRestored restored;
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    std::vector<std::string> candidates = {""};  // "": the best
    for (const KernelInfo& k : kernels(family)) {
      if (k.supported) candidates.emplace_back(k.name);
    }
    for (const std::string& name : candidates) {
      if (name.empty()) {
        use_best_kernel(family);
      } else {
        ASSERT_EQ(force_kernel(family, name), Error::ok) << name;
      }
      int active = 0;
      for (const KernelInfo& k : kernels(family)) {
        if (!k.active) continue;
        ++active;
        EXPECT_EQ(k.name, active_kernel(family));
      }
      EXPECT_EQ(active, 1) << name;
      const KernelChoice choice = kernel_choice(family);
      EXPECT_EQ(choice.forced, !name.empty()) << choice.reason;
      // The wide hash call's lanes as the engine sees them.
      const auto wide_of = [](const auto& kernel) { return kernel.wide_hash != nullptr ? kernel.wide_lanes : 0; };
      const std::size_t wide =
          family == Family::sha224_256 ? wide_of(detail::active_lanes_256()) : wide_of(detail::active_lanes_512());
      EXPECT_EQ(choice.wide_lanes, wide) << (name.empty() ? "best" : name);
      // A lane reason exactly where a ranking picked lanes other than the active row's own: another
      // row's (AVX-512 beside SHA-NI), or the row's kernel without its wide call (SHA-512 on Intel
      // and Zen 4). The row's own is what forcing it gives, with no reason.
      ASSERT_EQ(force_kernel(family, std::string(choice.kernel)), Error::ok);
      const KernelChoice own = kernel_choice(family);
      EXPECT_TRUE(own.forced) << own.reason;
      EXPECT_TRUE(own.lane_reason.empty()) << own.kernel;
      const bool ranked =
          choice.lane_kernel != own.lane_kernel || choice.lanes != own.lanes || choice.wide_lanes != own.wide_lanes;
      EXPECT_EQ(!choice.lane_reason.empty(), ranked) << (name.empty() ? "best" : name) << ": lanes of "
                                                      << choice.lane_kernel << " beside " << choice.kernel;
    }
  }
}

// kernel_choice() reads the kernel and its reason together: with another thread switching between
// the best kernel and "portable", every choice read names the kernel with its own reason (it used
// to read the kernel, then the reason of a later switch).
TEST(Dispatch, ChoiceAndReasonAreReadTogether) {
  const KernelsRestored restored;
  const Family family = Family::sha224_256;
  use_best_kernel(family);
  const std::string best(active_kernel(family));
  if (best == "portable") GTEST_SKIP() << "the best kernel is portable: no second kernel to switch to";
  if (std::getenv("SHASTA_EMULATED") != nullptr) {
    GTEST_SKIP() << "under qemu-user (SHASTA_EMULATED), where a second thread never started";
  }
  // Both loops are bounded: the reader reads until the switcher's 20,000 round trips are done (a
  // fixed count of reads did not end within a minute under qemu-aarch64).
  std::atomic<bool> done{false};
  std::thread switcher([&] {
    for (int i = 0; i < 20000; ++i) {
      (void)force_kernel(family, "portable");
      use_best_kernel(family);
    }
    done = true;
  });
  long reads = 0, mismatches = 0, portable = 0;
  while (!done.load()) {
    const KernelChoice choice = kernel_choice(family);
    ++reads;
    portable += choice.kernel == "portable";
    if (choice.forced != (choice.kernel == "portable")) ++mismatches;
  }
  switcher.join();
  EXPECT_EQ(mismatches, 0) << "of " << reads << " reads (" << portable << " of them portable)";
}

// A MAC's wipe reaches as deep as any kernel the family has run on may have left its frames: the
// depth read after a switch to a kernel with a shallower burn (forced on another thread between a
// MAC's compressions and its wipe) is still the deeper kernel's.
TEST(Dispatch, WipeDepthNeverFallsBelowAKernelThatRan) {
  const KernelsRestored restored;
  const auto check = [](Family family, const auto* tag) {  // tag: the family's word type
    for (const KernelInfo& k : kernels(family)) {
      if (!k.supported) continue;
      ASSERT_EQ(force_kernel(family, k.name), Error::ok);
      const std::size_t burn = detail::resolved_selection(tag).stack_burn;
      ASSERT_EQ(force_kernel(family, "portable"), Error::ok);
      EXPECT_GE(detail::deepest_stack_burn(tag).load(), burn) << k.name;
    }
  };
  check(Family::sha224_256, static_cast<const std::uint32_t*>(nullptr));
  check(Family::sha384_512, static_cast<const std::uint64_t*>(nullptr));
}

}  // namespace
}  // namespace shasta::test
