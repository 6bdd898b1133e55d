// dispatch.hpp: the one place that decides which row of a family's table runs, and why: the best
// for this CPU, the environment's choice (SHASTA_KERNEL_<FAMILY>, else SHASTA_KERNEL) or
// force_kernel's. A pure function of the table, the CPU's features and the request, so that a test
// can hand it a fake CPU.
#pragma once

#include <string_view>

#include "kernel_table.hpp"
#include "shasta/error.hpp"

namespace shasta::detail {

enum class Reason {
  best,              // the best this CPU has
  environment,       // named by the environment
  forced,            // named by force_kernel()
  env_unknown,       // the environment named a kernel this family does not have: the best is used
  env_unsupported,   // the environment named a kernel this CPU lacks: the best is used
  env_other_family,  // SHASTA_KERNEL named a kernel only the other family has: the best, quietly
};

struct Request {
  enum class Kind { best, environment, forced } kind = Kind::best;
  std::string_view name;      // environment, forced: the kernel asked for (empty: none)
  std::string_view variable;  // environment: the variable that named it
  bool generic_variable = false;     // environment: it is SHASTA_KERNEL, meant for both families
  bool other_family_knows = false;   // environment: the other family has a kernel of that name
};

template <class Word>
struct Decision {
  const KernelRow<Word>* row = nullptr;  // nullptr: a forced kernel refused (see error)
  const LaneRow<Word>* lanes = nullptr;
  Reason reason = Reason::best;
  Error error = Error::ok;  // forced: unknown_kernel or kernel_unsupported, nothing chosen
  std::string_view lanes_why;  // the lane ranking that picked `lanes` (its measurement); "": the row's own
};

template <class Word>
Decision<Word> decide(const FamilyTable<Word>& table, const CpuFeatures& cpu, const Request& request) noexcept;

extern template Decision<std::uint32_t> decide(const FamilyTable<std::uint32_t>&, const CpuFeatures&,
                                               const Request&) noexcept;
extern template Decision<std::uint64_t> decide(const FamilyTable<std::uint64_t>&, const CpuFeatures&,
                                               const Request&) noexcept;

}  // namespace shasta::detail
