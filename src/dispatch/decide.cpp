// decide.cpp: see dispatch.hpp. The rules: a kernel runs only if the CPU has every feature its row
// needs; the best is the first such row; a named kernel the CPU lacks is refused, never reached.
#include "dispatch.hpp"

namespace shasta::detail {
namespace {

template <class Word>
const KernelRow<Word>* find_row(const FamilyTable<Word>& table, std::string_view name) noexcept {
  for (const auto& row : table.rows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

template <class Word>
const KernelRow<Word>& best_row(const FamilyTable<Word>& table, const CpuFeatures& cpu) noexcept {
  for (const auto& row : table.rows) {
    if (cpu.features.contains(row.needs)) return row;
  }
  return table.rows.back();  // portable, which needs nothing
}

// A row's own lane kernel, where the CPU has what it needs (a lane row needs no more than its row).
template <class Word>
const LaneRow<Word>* own_lanes(const KernelRow<Word>& row, const CpuFeatures& cpu) noexcept {
  return row.lanes != nullptr && cpu.features.contains(row.lanes->needs) ? row.lanes : nullptr;
}

// The best choice's lane kernel: the first ranking for this vendor and CPU family (with its `why`
// where it picked lanes other than the best row's own: another row's, or the same kernel without
// its wide call), else the best row's own.
template <class Word>
struct BestLanes {
  const LaneRow<Word>* lanes;
  std::string_view why;
};

template <class Word>
BestLanes<Word> best_lanes(const FamilyTable<Word>& table, const CpuFeatures& cpu, const KernelRow<Word>& best) noexcept {
  for (const auto& ranking : table.lane_rankings) {
    if (ranking.vendor != cpu.vendor || cpu.family < ranking.min_cpu_family) continue;
    for (const LaneRow<Word>* lanes : ranking.order) {
      if (cpu.features.contains(lanes->needs)) return {lanes, lanes == own_lanes(best, cpu) ? "" : ranking.why};
    }
  }
  return {own_lanes(best, cpu), {}};
}

}  // namespace

template <class Word>
Decision<Word> decide(const FamilyTable<Word>& table, const CpuFeatures& cpu, const Request& request) noexcept {
  const KernelRow<Word>& best = best_row(table, cpu);
  const BestLanes<Word> lanes = best_lanes(table, cpu, best);
  const auto best_with = [&](Reason reason) { return Decision<Word>{&best, lanes.lanes, reason, Error::ok, lanes.why}; };
  if (request.kind == Request::Kind::best || request.name.empty()) return best_with(Reason::best);
  const KernelRow<Word>* row = find_row(table, request.name);
  const bool supported = row != nullptr && cpu.features.contains(row->needs);
  if (request.kind == Request::Kind::forced) {
    if (row == nullptr) return {nullptr, nullptr, Reason::forced, Error::unknown_kernel, {}};
    if (!supported) return {nullptr, nullptr, Reason::forced, Error::kernel_unsupported, {}};
    return {row, own_lanes(*row, cpu), Reason::forced, Error::ok, {}};
  }
  if (row == nullptr) {
    // SHASTA_KERNEL=shani names no SHA-512 kernel: that family keeps its best, quietly.
    return best_with(request.generic_variable && request.other_family_knows ? Reason::env_other_family
                                                                             : Reason::env_unknown);
  }
  if (!supported) return best_with(Reason::env_unsupported);
  return {row, own_lanes(*row, cpu), Reason::environment, Error::ok, {}};
}

template Decision<std::uint32_t> decide(const FamilyTable<std::uint32_t>&, const CpuFeatures&,
                                        const Request&) noexcept;
template Decision<std::uint64_t> decide(const FamilyTable<std::uint64_t>&, const CpuFeatures&,
                                        const Request&) noexcept;

}  // namespace shasta::detail
