// info_command.cpp: `shasta info`: the CPU features shasta found, the kernel each family runs on and
// why, and every kernel of this build with what it needs.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "shasta/kernels.hpp"

namespace shasta::cli {

namespace {

struct FamilyInfo {
  Family family;
  const char* algorithms;       // what the family's kernels run
  const char* family_variable;  // the environment variable that names its kernel alone
};

constexpr FamilyInfo kFamilies[] = {
    {Family::sha224_256, "sha224, sha256", "SHASTA_KERNEL_SHA256"},
    {Family::sha384_512, "sha384, sha512, sha512/224, sha512/256", "SHASTA_KERNEL_SHA512"},
};

constexpr const char* kGenericVariable = "SHASTA_KERNEL";

void usage(std::FILE* to) {
  std::fputs(
      "Usage: shasta info\n"
      "Prints the CPU features shasta detected, the kernel each algorithm family runs on and why,\n"
      "and every kernel of this build with the CPU features it needs.\n"
      "The environment picks a kernel: SHASTA_KERNEL=portable|shani|avx2|armv8 for both families,\n"
      "SHASTA_KERNEL_SHA256=... or SHASTA_KERNEL_SHA512=... for one (wins over SHASTA_KERNEL).\n",
      to);
}

// needs names the CPU features (as cpu_features() spells them) that src/dispatch/kernel_table.cpp
// checks before it lets a kernel run. The armv8 kernels of the two families need different ones.
std::string_view needs(Family family, std::string_view kernel) {
  if (kernel == "portable") return "nothing";
  if (kernel == "shani") return "sha, ssse3, sse4.1";
  if (kernel == "avx2") return "avx2 (saved by the OS), bmi2";
  if (kernel == "armv8") return family == Family::sha224_256 ? "sha2" : "sha512";
  return "?";
}

// EnvironmentChoice is the kernel the environment names for a family, read as dispatch.cpp reads
// it: the family's own variable if set and not empty, else SHASTA_KERNEL.
struct EnvironmentChoice {
  std::string_view variable;
  std::string_view kernel;  // empty: the environment names none
};

EnvironmentChoice environment_choice(const FamilyInfo& info) {
  for (const char* variable : {info.family_variable, kGenericVariable}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') return {variable, value};
  }
  return {};
}

bool family_has(Family family, std::string_view kernel) {
  for (const KernelInfo& k : kernels(family)) {
    if (k.name == kernel) return true;
  }
  return false;
}

bool cpu_has(Family family, std::string_view kernel) {
  for (const KernelInfo& k : kernels(family)) {
    if (k.name == kernel) return k.supported;
  }
  return false;
}

Family other(Family family) {
  return family == Family::sha224_256 ? Family::sha384_512 : Family::sha224_256;
}

std::string setting(const EnvironmentChoice& choice) {
  return std::string(choice.variable) + "=" + std::string(choice.kernel);
}

// why_active explains the active kernel with the same rules dispatch.cpp applied to choose it.
std::string why_active(const FamilyInfo& info, std::string_view active) {
  const EnvironmentChoice choice = environment_choice(info);
  const std::string_view best_used = "the best this CPU has";
  if (choice.kernel.empty()) return std::string(best_used);
  if (choice.kernel == active) return "forced by " + setting(choice);
  if (!family_has(info.family, choice.kernel)) {
    // SHASTA_KERNEL=shani is meant for the family that has it; the other one keeps its best quietly.
    if (choice.variable == kGenericVariable && family_has(other(info.family), choice.kernel)) {
      return std::string(best_used) + " (" + setting(choice) + " has none for this family)";
    }
    return setting(choice) + " refused: no such kernel; the best is used";
  }
  if (!cpu_has(info.family, choice.kernel)) return setting(choice) + " refused: this CPU lacks it; the best is used";
  return std::string(best_used);
}

void print_family(const FamilyInfo& info) {
  const std::string_view active = active_kernel(info.family);  // resolves the environment's choice
  std::printf("\n%s\n  run on %.*s: %s\n", info.algorithms, static_cast<int>(active.size()), active.data(),
              why_active(info, active).c_str());
  for (const KernelInfo& k : kernels(info.family)) {
    const std::string_view requirement = needs(info.family, k.name);
    std::printf("  %-9.*s needs %-30.*s -- %s%s\n", static_cast<int>(k.name.size()), k.name.data(),
                static_cast<int>(requirement.size()), requirement.data(), k.supported ? "yes" : "no",
                k.active ? ", active" : "");
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
  std::printf("cpu features: %s\n", cpu_features().c_str());
  for (const FamilyInfo& info : kFamilies) print_family(info);
  return 0;
}

}  // namespace shasta::cli
