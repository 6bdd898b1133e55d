// kernel_request.hpp: what the SHASTA_KERNEL a test program was given means on this host, for the
// mains that ctest runs once per kernel (test_main.cpp, secret_independence.cpp): no name, a kernel
// this CPU runs, one it lacks (the run is skipped: exit 77, never passed on another kernel), or a
// name this build does not have (the run fails).
#pragma once

#include "shasta/kernels.hpp"

namespace shasta::test {

enum class KernelRequest { none, runnable, lacking, unknown };

inline KernelRequest kernel_request(const char* name) noexcept {
  if (name == nullptr || *name == '\0') return KernelRequest::none;
  bool known = false, supported = false;
  for (Family family : {Family::sha224_256, Family::sha384_512}) {
    for (const KernelInfo& k : kernels(family)) {
      if (k.name != name) continue;
      known = true;
      supported = supported || k.supported;
    }
  }
  if (!known) return KernelRequest::unknown;
  return supported ? KernelRequest::runnable : KernelRequest::lacking;
}

}  // namespace shasta::test
