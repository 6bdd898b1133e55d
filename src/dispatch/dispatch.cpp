// dispatch.cpp: the active kernel of each family, resolved once on first use (or forced), held in
// an atomic pointer so that every later call is one load and one indirect call.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernel_table.hpp"
#include "shasta/kernels.hpp"

namespace shasta::detail {

void resolve_sha256_then_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;
void resolve_sha512_then_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept;

std::atomic<Compress256> g_sha256_kernel{resolve_sha256_then_compress};
std::atomic<Compress512> g_sha512_kernel{resolve_sha512_then_compress};

namespace {

template <class Fn>
struct Slot {
  std::atomic<Fn>& active;
  std::span<const KernelEntry<Fn>> table;
  Fn resolver;
  const char* family_variable;
};

Slot<Compress256> sha256_slot() noexcept {
  return {g_sha256_kernel, sha256_kernel_table(), resolve_sha256_then_compress, "SHASTA_KERNEL_SHA256"};
}
Slot<Compress512> sha512_slot() noexcept {
  return {g_sha512_kernel, sha512_kernel_table(), resolve_sha512_then_compress, "SHASTA_KERNEL_SHA512"};
}

template <class Fn>
const KernelEntry<Fn>* find(const Slot<Fn>& slot, std::string_view name) noexcept {
  for (const auto& entry : slot.table) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

template <class Fn>
Fn best(const Slot<Fn>& slot) noexcept {
  for (const auto& entry : slot.table) {
    if (entry.supported(cpu_features_detected())) return entry.fn;
  }
  return slot.table.back().fn;  // portable
}

bool known_to_any_family(std::string_view name) noexcept {
  return find(sha256_slot(), name) != nullptr || find(sha512_slot(), name) != nullptr;
}

// chosen_by_environment applies SHASTA_KERNEL_<FAMILY>, else SHASTA_KERNEL. A refused name is
// reported on stderr, since there is no caller to return an error to, and the best kernel is kept.
template <class Fn>
Fn chosen_by_environment(const Slot<Fn>& slot) noexcept {
  const char* variable = slot.family_variable;
  const char* name = std::getenv(variable);
  if (name == nullptr || *name == '\0') {
    variable = "SHASTA_KERNEL";
    name = std::getenv(variable);
  }
  const Fn fallback = best(slot);
  if (name == nullptr || *name == '\0') return fallback;
  const KernelEntry<Fn>* entry = find(slot, name);
  if (entry == nullptr) {
    // SHASTA_KERNEL=shani names no SHA-512 kernel: that family quietly keeps its best.
    if (variable == slot.family_variable || !known_to_any_family(name)) {
      std::fprintf(stderr, "shasta: %s=%s: no such kernel; using the best this CPU has\n", variable, name);
    }
    return fallback;
  }
  if (!entry->supported(cpu_features_detected())) {
    std::fprintf(stderr, "shasta: %s=%s: this CPU lacks the instructions it needs; using the best it has\n", variable,
                 name);
    return fallback;
  }
  return entry->fn;
}

// resolve installs the environment's choice unless a kernel was forced or resolved meanwhile.
template <class Fn>
Fn resolve(const Slot<Fn>& slot) noexcept {
  Fn expected = slot.resolver;
  slot.active.compare_exchange_strong(expected, chosen_by_environment(slot), std::memory_order_acq_rel);
  return slot.active.load(std::memory_order_acquire);
}

template <class Fn>
Fn resolved(const Slot<Fn>& slot) noexcept {
  const Fn fn = slot.active.load(std::memory_order_acquire);
  return fn == slot.resolver ? resolve(slot) : fn;
}

template <class Fn>
std::string_view active_name(const Slot<Fn>& slot) noexcept {
  const Fn fn = resolved(slot);
  for (const auto& entry : slot.table) {
    if (entry.fn == fn) return entry.name;
  }
  return "unknown";
}

template <class Fn>
std::vector<KernelInfo> list(const Slot<Fn>& slot) {
  const std::string_view active = active_name(slot);
  std::vector<KernelInfo> out;
  for (const auto& entry : slot.table) {
    out.push_back({entry.name, entry.supported(cpu_features_detected()), entry.name == active});
  }
  return out;
}

template <class Fn>
Error force(const Slot<Fn>& slot, std::string_view name) noexcept {
  const KernelEntry<Fn>* entry = find(slot, name);
  if (entry == nullptr) return Error::unknown_kernel;
  if (!entry->supported(cpu_features_detected())) return Error::kernel_unsupported;
  slot.active.store(entry->fn, std::memory_order_release);
  return Error::ok;
}

}  // namespace

void resolve_sha256_then_compress(std::uint32_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  resolve(sha256_slot())(state, blocks, n);
}

void resolve_sha512_then_compress(std::uint64_t state[8], const std::uint8_t* blocks, std::size_t n) noexcept {
  resolve(sha512_slot())(state, blocks, n);
}

Compress256 resolved_kernel(const std::uint32_t*) noexcept {
  return resolved(sha256_slot());
}
Compress512 resolved_kernel(const std::uint64_t*) noexcept {
  return resolved(sha512_slot());
}

}  // namespace shasta::detail

namespace shasta {

std::vector<KernelInfo> kernels(Family family) {
  return family == Family::sha224_256 ? detail::list(detail::sha256_slot()) : detail::list(detail::sha512_slot());
}

std::string_view active_kernel(Family family) noexcept {
  return family == Family::sha224_256 ? detail::active_name(detail::sha256_slot())
                                      : detail::active_name(detail::sha512_slot());
}

Error force_kernel(Family family, std::string_view name) noexcept {
  return family == Family::sha224_256 ? detail::force(detail::sha256_slot(), name)
                                      : detail::force(detail::sha512_slot(), name);
}

void use_best_kernel(Family family) noexcept {
  if (family == Family::sha224_256) {
    detail::g_sha256_kernel.store(detail::best(detail::sha256_slot()), std::memory_order_release);
  } else {
    detail::g_sha512_kernel.store(detail::best(detail::sha512_slot()), std::memory_order_release);
  }
}

std::string cpu_features() {
  const detail::CpuFeatures& f = detail::cpu_features_detected();
  std::string out;
  const auto add = [&out](bool present, const char* name) {
    if (!present) return;
    if (!out.empty()) out += ' ';
    out += name;
  };
  add(f.ssse3, "ssse3");
  add(f.sse41, "sse4.1");
  add(f.avx2, "avx2");
  add(f.bmi2, "bmi2");
  add(f.sha, "sha");
  add(f.arm_sha2, "sha2");
  add(f.arm_sha512, "sha512");
  return out.empty() ? "none" : out;
}

}  // namespace shasta
