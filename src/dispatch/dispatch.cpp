// dispatch.cpp: each family's active selection, resolved once on first use (or forced), held in one
// atomic pointer so that every later call is a load and an indirect call; and the public face of
// the kernel table (kernels.hpp). What to run is decided in decide.cpp.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "dispatch.hpp"
#include "shasta/kernels.hpp"

namespace shasta::detail {

void resolve_sha256_then_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void resolve_sha512_then_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

namespace {

// The resolvers run no rounds of their own: they leave no frame to burn.
constexpr Selection<std::uint32_t> kResolve256 = {resolve_sha256_then_compress, nullptr, nullptr, nullptr, nullptr, 0};
constexpr Selection<std::uint64_t> kResolve512 = {resolve_sha512_then_compress, nullptr, nullptr, nullptr, nullptr, 0};

constexpr const char* kGenericVariable = "SHASTA_KERNEL";

// Why the active selection was chosen, for `shasta info` (kernel_choice). Its mutex is held while a
// selection is installed and its reason written, and while kernel_choice reads both, so that the
// reason read is that of the selection read (a first hash resolving on one thread while another
// forces a kernel cannot leave one kernel running under the other's reason).
struct ChoiceRecord {
  std::mutex mutex;
  Reason reason = Reason::best;
  const char* variable = nullptr;  // environment reasons: the variable read
  char requested[32] = {};         // environment reasons: the name it held (cut at 31 bytes)
};

template <class Word>
struct Slot {
  std::atomic<const Selection<Word>*>& active;
  std::atomic<std::size_t>& burn;  // deepest_stack_burn's
  const FamilyTable<Word>& table;
  const Selection<Word>& resolver;
  ChoiceRecord& record;
};

ChoiceRecord g_record256, g_record512;

}  // namespace

std::atomic<const Selection<std::uint32_t>*> g_sha256_selection{&kResolve256};
std::atomic<const Selection<std::uint64_t>*> g_sha512_selection{&kResolve512};
std::atomic<std::size_t> g_sha256_deepest_burn{0};
std::atomic<std::size_t> g_sha512_deepest_burn{0};

namespace {

Slot<std::uint32_t> slot_of(const std::uint32_t*) noexcept {
  return {g_sha256_selection, g_sha256_deepest_burn, sha256_table(), kResolve256, g_record256};
}
Slot<std::uint64_t> slot_of(const std::uint64_t*) noexcept {
  return {g_sha512_selection, g_sha512_deepest_burn, sha512_table(), kResolve512, g_record512};
}

template <class Word>
bool has_row(const FamilyTable<Word>& table, std::string_view name) noexcept {
  for (const auto& row : table.rows) {
    if (row.name == name) return true;
  }
  return false;
}

template <class Word>
bool other_family_knows(std::string_view name) noexcept {
  if constexpr (sizeof(Word) == 4) return has_row(sha512_table(), name);
  return has_row(sha256_table(), name);
}

// The environment's request: the family's own variable if set and not empty, else SHASTA_KERNEL.
template <class Word>
Request environment_request(const FamilyTable<Word>& table) noexcept {
  for (const char* variable : {table.family_variable.data(), kGenericVariable}) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') continue;
    return {Request::Kind::environment, value, variable, variable == kGenericVariable,
            other_family_knows<Word>(value)};
  }
  return {};
}

// The best decision for this CPU, made once: the best row with the lane kernel its vendor's
// ranking picks, which may be another row's (SHA-NI rounds beside AVX-512 lanes), and why.
template <class Word>
const Decision<Word>& best_decision(const FamilyTable<Word>& table) noexcept {
  static const Decision<Word> best = decide(table, cpu_features_detected(), Request{});
  return best;
}

// The best decision as an immutable selection; made once, never changed.
template <class Word>
const Selection<Word>& best_selection(const FamilyTable<Word>& table) noexcept {
  static const Selection<Word> best = [&table] {
    const Decision<Word>& d = best_decision(table);
    return Selection<Word>{d.row->compress, d.row->compress_to_digest, d.row->hmac_finish, d.row, d.lanes,
                           d.row->stack_burn};
  }();
  return best;
}

// The immutable selection a decision stands for: a row with its own lanes, or the best one.
template <class Word>
const Selection<Word>* selection_for(const FamilyTable<Word>& table, const Decision<Word>& d) noexcept {
  const Selection<Word>& own = table.own[static_cast<std::size_t>(d.row - table.rows.data())];
  return own.lanes == d.lanes ? &own : &best_selection(table);
}

// Called with slot.record.mutex held.
template <class Word>
void record(const Slot<Word>& slot, Reason reason, const Request& request) noexcept {
  slot.record.reason = reason;
  slot.record.variable = request.kind == Request::Kind::environment ? request.variable.data() : nullptr;
  const std::size_t n = std::min(request.name.size(), sizeof slot.record.requested - 1);
  if (n != 0) std::memcpy(slot.record.requested, request.name.data(), n);  // data() may be null when empty
  slot.record.requested[n] = '\0';
}

// Raises the family's deepest stack burn to the selection's before the selection is installed (a
// thread that loads the selection then sees at least its burn: release before, acquire after).
template <class Word>
void raise_burn(const Slot<Word>& slot, const Selection<Word>& selection) noexcept {
  std::size_t burn = slot.burn.load(std::memory_order_relaxed);
  while (burn < selection.stack_burn &&
         !slot.burn.compare_exchange_weak(burn, selection.stack_burn, std::memory_order_release)) {
  }
}

// resolve installs the environment's choice unless a kernel was forced or resolved meanwhile. A
// refused name is reported on stderr, since there is no caller to return an error to.
template <class Word>
const Selection<Word>& resolve(const Slot<Word>& slot) noexcept {
  const Request request = environment_request(slot.table);
  const Decision<Word> d = decide(slot.table, cpu_features_detected(), request);
  const Selection<Word>* chosen = selection_for(slot.table, d);
  const Selection<Word>* expected = &slot.resolver;
  bool installed;
  {
    const std::lock_guard lock(slot.record.mutex);
    raise_burn(slot, *chosen);
    installed = slot.active.compare_exchange_strong(expected, chosen, std::memory_order_acq_rel);
    if (installed) record(slot, d.reason, request);
  }
  if (installed) {
    const std::string_view name = request.name;
    if (d.reason == Reason::env_unknown) {
      std::fprintf(stderr, "shasta: %s=%.*s: no such kernel; using the best this CPU has\n", request.variable.data(),
                   static_cast<int>(name.size()), name.data());
    } else if (d.reason == Reason::env_unsupported) {
      std::fprintf(stderr, "shasta: %s=%.*s: this CPU lacks the instructions it needs; using the best it has\n",
                   request.variable.data(), static_cast<int>(name.size()), name.data());
    }
  }
  return *slot.active.load(std::memory_order_acquire);
}

template <class Word>
const Selection<Word>& resolved(const Slot<Word>& slot) noexcept {
  const Selection<Word>* s = slot.active.load(std::memory_order_acquire);
  return s == &slot.resolver ? resolve(slot) : *s;
}

template <class Word>
Error force(const Slot<Word>& slot, std::string_view name) noexcept {
  const Request request{Request::Kind::forced, name, {}, false, false};
  const Decision<Word> d = decide(slot.table, cpu_features_detected(), request);
  if (d.error != Error::ok) return d.error;
  const Selection<Word>* chosen = selection_for(slot.table, d);
  const std::lock_guard lock(slot.record.mutex);
  raise_burn(slot, *chosen);
  slot.active.store(chosen, std::memory_order_release);
  record(slot, d.reason, request);
  return Error::ok;
}

template <class Word>
void use_best(const Slot<Word>& slot) noexcept {
  const std::lock_guard lock(slot.record.mutex);
  raise_burn(slot, best_selection(slot.table));
  slot.active.store(&best_selection(slot.table), std::memory_order_release);
  record(slot, Reason::best, Request{});
}

std::string needs_text(FeatureSet needs) {
  if (needs.empty()) return "nothing";
  std::string out;
  for (unsigned f = 0; f < static_cast<unsigned>(Feature::count); ++f) {
    if (!needs.has(static_cast<Feature>(f))) continue;
    if (!out.empty()) out += ", ";
    out += feature_name(static_cast<Feature>(f));
  }
  return out;
}

template <class Word>
std::vector<KernelInfo> list(const Slot<Word>& slot) {
  const Selection<Word>& active = resolved(slot);
  const CpuFeatures& cpu = cpu_features_detected();
  std::vector<KernelInfo> out;
  for (const auto& row : slot.table.rows) {
    out.push_back({row.name, cpu.features.contains(row.needs), &row == active.row, needs_text(row.needs),
                   row.lanes != nullptr ? row.lanes->lanes : 0});
  }
  return out;
}

std::string reason_text(Reason reason, const char* variable, const char* requested) {
  const std::string setting = std::string(variable != nullptr ? variable : "") + "=" + requested;
  switch (reason) {
    case Reason::best: return "the best this CPU has";
    case Reason::environment: return "forced by " + setting;
    case Reason::forced: return "forced by force_kernel()";
    case Reason::env_unknown: return setting + " refused: no such kernel; the best is used";
    case Reason::env_unsupported: return setting + " refused: this CPU lacks it; the best is used";
    case Reason::env_other_family: return "the best this CPU has (" + setting + " has none for this family)";
  }
  return "?";
}

template <class Word>
KernelChoice choice(const Slot<Word>& slot) {
  (void)resolved(slot);
  const std::lock_guard lock(slot.record.mutex);  // the selection and its reason, read together
  const Selection<Word>& active = *slot.active.load(std::memory_order_acquire);
  KernelChoice out{active.row->name, {}, 0, {}, {}};
  if (active.lanes != nullptr) {
    out.lane_kernel = active.lanes->kernel;
    out.lanes = active.lanes->lanes;
    out.wide_lanes = active.lanes->wide_hash != nullptr ? active.lanes->wide_lanes : 0;
  }
  if (&active == &best_selection(slot.table)) out.lane_reason = best_decision(slot.table).lanes_why;
  out.reason = reason_text(slot.record.reason, slot.record.variable, slot.record.requested);
  out.forced = slot.record.reason == Reason::environment || slot.record.reason == Reason::forced;
  return out;
}

template <class F>
decltype(auto) on_family(Family family, F&& f) {
  if (family == Family::sha224_256) return f(slot_of(static_cast<const std::uint32_t*>(nullptr)));
  return f(slot_of(static_cast<const std::uint64_t*>(nullptr)));
}

}  // namespace

void resolve_sha256_then_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  resolve(slot_of(state)).compress(state, blocks, n);
}

void resolve_sha512_then_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  resolve(slot_of(state)).compress(state, blocks, n);
}

const Selection<std::uint32_t>& resolved_selection(const std::uint32_t* tag) noexcept {
  return resolved(slot_of(tag));
}
const Selection<std::uint64_t>& resolved_selection(const std::uint64_t* tag) noexcept {
  return resolved(slot_of(tag));
}

}  // namespace shasta::detail

namespace shasta {

std::vector<KernelInfo> kernels(Family family) {
  return detail::on_family(family, [](const auto& slot) { return detail::list(slot); });
}

KernelChoice kernel_choice(Family family) {
  return detail::on_family(family, [](const auto& slot) { return detail::choice(slot); });
}

std::string_view active_kernel(Family family) noexcept {
  return detail::on_family(family, [](const auto& slot) { return detail::resolved(slot).row->name; });
}

Error force_kernel(Family family, std::string_view name) noexcept {
  return detail::on_family(family, [name](const auto& slot) { return detail::force(slot, name); });
}

void use_best_kernel(Family family) noexcept {
  detail::on_family(family, [](const auto& slot) { detail::use_best(slot); });
}

std::string cpu_features() {
  const detail::FeatureSet features = detail::cpu_features_detected().features;
  std::string out;
  for (unsigned f = 0; f < static_cast<unsigned>(detail::Feature::count); ++f) {
    if (!features.has(static_cast<detail::Feature>(f))) continue;
    if (!out.empty()) out += ' ';
    out += detail::feature_name(static_cast<detail::Feature>(f));
  }
  return out.empty() ? "none" : out;
}

}  // namespace shasta
