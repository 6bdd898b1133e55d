// pbkdf2_loop.hpp: the PBKDF2 engine's way to the active kernel's own iteration loop
// (src/dispatch/active.cpp).
#pragma once

#include <cstdint>

namespace shasta::detail {

// pbkdf2_iterate_256 runs `count` more SHA-256 iterations on a loop of the active kernel's own, all
// in registers (SHA-NI), from U (state words) under the key's states, XORing each U into `sum`;
// false, with nothing done, when the active kernel has none.
bool pbkdf2_iterate_256(const std::uint32_t inner[8], const std::uint32_t outer[8], std::uint32_t u[8],
                        std::uint32_t sum[8], std::uint64_t count) noexcept;

}  // namespace shasta::detail
